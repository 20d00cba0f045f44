package littleslaw

import (
	"fmt"
	"strings"
)

// evalSLO finds the deepest measured QD meeting s. A real curve is noisy:
// a middle step may break the objective while a deeper one meets it. The
// answer is the deepest step that meets it, and the note names the
// shallower steps that broke it, so a reader can rerun them.
func evalSLO(pts []Point, s SLO) SLOResult {
	r := SLOResult{Stat: s.Stat, LimitNs: s.LimitNs}
	known := false
	var broke []Point // steps over the limit, in QD order
	for _, p := range pts {
		v := statNs(p, s.Stat)
		if v <= 0 {
			continue
		}
		known = true
		if v > s.LimitNs {
			broke = append(broke, p)
			continue
		}
		r.Met, r.QD, r.IOPS, r.LatNs = true, p.QD, p.IOPS, v
	}
	switch {
	case !known:
		r.Note = fmt.Sprintf("%s latency was not measured", s.Stat)
	case !r.Met:
		p := broke[0]
		r.Note = fmt.Sprintf("not met: even QD %g has %s %s > %s", p.QD, s.Stat, fmtLat(statNs(p, s.Stat)), fmtLat(s.LimitNs))
	default:
		var deeper, shallower []string
		for _, p := range broke {
			w := fmt.Sprintf("QD %g (%s %s)", p.QD, s.Stat, fmtLat(statNs(p, s.Stat)))
			if p.QD > r.QD {
				deeper = append(deeper, w)
			} else {
				shallower = append(shallower, w)
			}
		}
		var parts []string
		switch {
		case len(deeper) > 0:
			parts = append(parts, deeper[0]+" breaks it")
		case len(shallower) == 0:
			parts = append(parts, "met at every measured QD; the limit may lie deeper")
		default:
			parts = append(parts, "met at the deepest measured QD; the limit may lie deeper")
		}
		if len(shallower) > 0 {
			parts = append(parts, fmt.Sprintf("shallower %s broke it although QD %g meets it: a noisy step, worth measuring again",
				joinAnd(shallower), r.QD))
		}
		r.Note = strings.Join(parts, "; ")
	}
	return r
}

// joinAnd joins words as "a", "a and b", "a, b and c".
func joinAnd(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}
