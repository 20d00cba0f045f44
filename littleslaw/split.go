package littleslaw

// MaxAltSplits is the most alternative splits SplitQD returns.
const MaxAltSplits = 3

// SplitQD splits a total queue depth qd into iodepth × numjobs.
//
// The rule, kept monotone in qd (a deeper queue never gets fewer jobs or a
// smaller total):
//   - best uses the fewest jobs that keep each job's iodepth ≤ maxIODepth:
//     numjobs = ⌈qd / maxIODepth⌉ (at most maxJobs), iodepth = ⌈qd / numjobs⌉,
//     so iodepth × numjobs ≥ qd and exceeds it by less than numjobs. When
//     qd > maxIODepth × maxJobs the jobs are capped at maxJobs and iodepth
//     exceeds maxIODepth; callers should say so.
//   - alts are other splits of exactly the same total iodepth × numjobs as
//     best, with 2, 4, 8, … times best's jobs (at most maxJobs, at most
//     MaxAltSplits of them): the same number of I/Os in flight spread over
//     more jobs, for a submitter that needs more CPUs. A total with no such
//     divisor (a prime QD, say) has no alternatives.
//
// qd < 1 counts as 1; maxIODepth ≤ 0 means DefaultMaxIODepth and
// maxJobs ≤ 0 means no job limit.
func SplitQD(qd, maxIODepth, maxJobs int) (best Split, alts []Split) {
	if qd < 1 {
		qd = 1
	}
	if maxIODepth <= 0 {
		maxIODepth = DefaultMaxIODepth
	}
	nj := ceilDiv(qd, maxIODepth)
	if maxJobs > 0 && nj > maxJobs {
		nj = maxJobs
	}
	best = Split{IODepth: ceilDiv(qd, nj), NumJobs: nj}
	total := best.IODepth * best.NumJobs
	for j := 2 * nj; j <= total && (maxJobs <= 0 || j <= maxJobs) && len(alts) < MaxAltSplits; j *= 2 {
		if total%j == 0 {
			alts = append(alts, Split{IODepth: total / j, NumJobs: j})
		}
	}
	return best, alts
}

// ceilDiv is ⌈a / b⌉ for positive ints.
func ceilDiv(a, b int) int { return (a + b - 1) / b }
