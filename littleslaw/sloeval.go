package littleslaw

import "fmt"

// evalSLO finds the deepest measured QD meeting s, scanning from the
// shallowest and stopping at the first violation (a deeper point that passes
// by noise after a failure is not trusted).
func evalSLO(pts []Point, s SLO) SLOResult {
	r := SLOResult{Stat: s.Stat, LimitNs: s.LimitNs}
	known := false
	for _, p := range pts {
		v := statNs(p, s.Stat)
		if v <= 0 {
			continue
		}
		known = true
		if v > s.LimitNs {
			if !r.Met {
				r.Note = fmt.Sprintf("not met: even QD %g has %s %s > %s", p.QD, s.Stat, fmtNs(v), fmtNs(s.LimitNs))
			} else {
				r.Note = fmt.Sprintf("QD %g breaks it (%s %s)", p.QD, s.Stat, fmtNs(v))
			}
			return r
		}
		r.Met, r.QD, r.IOPS, r.LatNs = true, p.QD, p.IOPS, v
	}
	switch {
	case !known:
		r.Note = fmt.Sprintf("%s latency was not measured", s.Stat)
	case r.Met:
		r.Note = "met at every measured QD; the limit may lie deeper"
	}
	return r
}
