package littleslaw

import "sort"

// MaxAltSplits is the most alternative splits SplitQD returns.
const MaxAltSplits = 3

// maxAltJobs bounds the job counts alternatives are looked for among when
// no job limit is given.
const maxAltJobs = 64

// Why a split has the number of jobs it has (SplitAdvice.JobsBy).
const (
	// JobsByOneJob: the whole depth fits one job's iodepth limit.
	JobsByOneJob = "one-job"
	// JobsByMaxIODepth: the per-job iodepth limit chose the jobs, the
	// fewest that keep every job within it.
	JobsByMaxIODepth = "max-iodepth"
	// JobsByMaxJobs: the depth needs more jobs than the job limit allows;
	// the split keeps each job within the per-job iodepth limit (a split
	// never exceeds it) and OverLimit says the jobs exceed theirs.
	JobsByMaxJobs = "max-jobs"
)

// SplitAdvice is how a total queue depth is spread over jobs, and why.
type SplitAdvice struct {
	QD   int   `json:"qd"`   // the depth asked for, whole I/Os
	Best Split `json:"best"` // the fewest jobs within the limits
	// Alts are other splits with more jobs: those of exactly Best's total
	// when there are any, else (a prime depth, say) the nearest ones, each
	// covering QD with the smallest total iodepth × numjobs ≥ QD its job
	// count allows (rounded up, never down); at most MaxAltSplits, ordered
	// by jobs.
	Alts []Split `json:"alts,omitempty"`
	// JobsBy says which limit chose Best's jobs: JobsByOneJob,
	// JobsByMaxIODepth or JobsByMaxJobs.
	JobsBy string `json:"jobs_by"`
	// OverLimit is set when the two limits cannot both hold: Best keeps
	// its iodepth within MaxIODepth with more jobs than MaxJobs.
	OverLimit  bool `json:"over_limit,omitempty"`
	MaxIODepth int  `json:"max_iodepth"` // per-job limit applied
	MaxJobs    int  `json:"max_jobs"`    // job limit applied (0: none)
}

// Total is iodepth × numjobs of s.
func (s Split) Total() int { return s.IODepth * s.NumJobs * max(s.Hosts, 1) }

// fleetSplit is SplitFor over o.Hosts hosts: each host keeps qd/Hosts
// (rounded up), split by SplitFor; every split carries Hosts.
func fleetSplit(qd int, o Options) SplitAdvice {
	h := max(o.Hosts, 1)
	sa := SplitFor((qd+h-1)/h, o.MaxIODepth, o.MaxJobs)
	if h > 1 {
		sa.Best.Hosts = h
		for i := range sa.Alts {
			sa.Alts[i].Hosts = h
		}
	}
	return sa
}

// SplitFor splits a total queue depth qd into iodepth × numjobs within the
// per-job limit maxIODepth (≤ 0: DefaultMaxIODepth) and the job limit
// maxJobs (≤ 0: none). It is the one split rule advise, explain, the
// sweep's refine pass and the reports use.
//
// Best uses the fewest jobs that keep each job's iodepth ≤ maxIODepth:
// numjobs = ⌈qd / maxIODepth⌉ (at most maxJobs), iodepth = ⌈qd / numjobs⌉,
// so iodepth × numjobs ≥ qd and exceeds it by less than numjobs. The rule
// is monotone in qd (a deeper queue never gets fewer jobs or a smaller
// total). qd < 1 counts as 1.
func SplitFor(qd, maxIODepth, maxJobs int) SplitAdvice {
	if qd < 1 {
		qd = 1
	}
	if maxIODepth <= 0 {
		maxIODepth = DefaultMaxIODepth
	}
	if maxJobs < 0 {
		maxJobs = 0
	}
	sa := SplitAdvice{QD: qd, MaxIODepth: maxIODepth, MaxJobs: maxJobs, JobsBy: JobsByOneJob}
	nj := ceilDiv(qd, maxIODepth)
	if nj > 1 {
		sa.JobsBy = JobsByMaxIODepth
	}
	if maxJobs > 0 && nj > maxJobs {
		// Both limits cannot hold: the split keeps the per-job iodepth
		// limit (a device queue's size) and says the jobs exceed theirs.
		sa.JobsBy, sa.OverLimit = JobsByMaxJobs, true
	}
	sa.Best = Split{IODepth: ceilDiv(qd, nj), NumJobs: nj}
	sa.Alts = altSplits(qd, sa.Best, maxIODepth, maxJobs)
	return sa
}

// altSplits lists splits of qd over more jobs than best, each rounding the
// total up to the job count's nearest multiple: only exact ones when any
// exist, else by smallest overshoot, then fewer jobs; at most
// MaxAltSplits, ordered by jobs.
func altSplits(qd int, best Split, maxIODepth, maxJobs int) []Split {
	hi := maxJobs
	if hi <= 0 {
		hi = maxAltJobs
	}
	hi = min(hi, qd)
	type cand struct {
		s    Split
		over int
	}
	var cs []cand
	for j := best.NumJobs + 1; j <= hi; j++ {
		d := ceilDiv(qd, j)
		if d > maxIODepth && best.IODepth <= maxIODepth {
			continue
		}
		if d >= best.IODepth {
			continue // not a spread of the load
		}
		if d == 1 && qd > 2 {
			continue // one I/O per job is a thread pool, not a split of a queue
		}
		cs = append(cs, cand{Split{IODepth: d, NumJobs: j}, d*j - qd})
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].over != cs[b].over {
			return cs[a].over < cs[b].over
		}
		return cs[a].s.NumJobs < cs[b].s.NumJobs
	})
	if len(cs) > 0 && cs[0].over == 0 {
		// Exact splits exist: offer only those (the same total).
		n := 0
		for n < len(cs) && cs[n].over == 0 {
			n++
		}
		cs = cs[:n]
	}
	var out []Split
	seen := map[int]bool{}
	for _, c := range cs {
		if len(out) == MaxAltSplits {
			break
		}
		if seen[c.s.IODepth] {
			continue // the same iodepth with more jobs adds nothing
		}
		seen[c.s.IODepth] = true
		out = append(out, c.s)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].NumJobs < out[b].NumJobs })
	return out
}

// SplitQD is SplitFor's best split and alternatives (see SplitFor).
func SplitQD(qd, maxIODepth, maxJobs int) (best Split, alts []Split) {
	sa := SplitFor(qd, maxIODepth, maxJobs)
	return sa.Best, sa.Alts
}

// ceilDiv is ⌈a / b⌉ for positive ints.
func ceilDiv(a, b int) int { return (a + b - 1) / b }
