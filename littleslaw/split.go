package littleslaw

// SplitQD splits a total queue depth qd into iodepth × numjobs.
//
// The rule, kept monotone in qd (a deeper queue never gets fewer jobs or a
// smaller total):
//   - best uses the fewest jobs that keep each job's iodepth ≤ maxIODepth:
//     numjobs = ⌈qd / maxIODepth⌉ (at most maxJobs), iodepth = ⌈qd / numjobs⌉,
//     so iodepth × numjobs ≥ qd and exceeds it by less than numjobs. When
//     qd > maxIODepth × maxJobs the jobs are capped at maxJobs and iodepth
//     exceeds maxIODepth; callers should say so.
//   - alts are the power-of-two shapes fio users type, from one job up to
//     maxJobs: numjobs = 1, 2, 4, … with iodepth the next power of two
//     ≥ ⌈qd / numjobs⌉ and ≤ maxIODepth, omitting the one equal to best.
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
	for j := 1; maxJobs <= 0 || j <= maxJobs; j *= 2 {
		d := nextPow2(ceilDiv(qd, j))
		if d > maxIODepth {
			continue
		}
		s := Split{IODepth: d, NumJobs: j}
		if s != best {
			alts = append(alts, s)
		}
		if d == 1 || j >= 1<<20 {
			break
		}
	}
	return best, alts
}

// ceilDiv is ⌈a / b⌉ for positive ints.
func ceilDiv(a, b int) int { return (a + b - 1) / b }

// nextPow2 is the smallest power of two ≥ n (n ≥ 1).
func nextPow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}
