package littleslaw

// evalSLO finds the deepest measured QD meeting s. A real curve is noisy:
// a middle step may break the objective while a deeper one meets it. The
// answer is the deepest step that meets it, and Noisy names the
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
		r.Reason = SLONotMeasured
	case !r.Met:
		p := broke[0]
		r.Reason, r.Breaks = SLONotMet, &SLOStep{QD: p.QD, LatNs: statNs(p, s.Stat)}
	default:
		var deeper []SLOStep
		for _, p := range broke {
			st := SLOStep{QD: p.QD, LatNs: statNs(p, s.Stat)}
			if p.QD > r.QD {
				deeper = append(deeper, st)
			} else {
				r.Noisy = append(r.Noisy, st)
			}
		}
		switch {
		case len(deeper) > 0:
			r.Reason, r.Breaks = SLOBrokenDeeper, &deeper[0]
		case len(r.Noisy) == 0:
			r.Reason = SLOMetEverywhere
		default:
			r.Reason = SLOMetAtDeepest
		}
	}
	return r
}
