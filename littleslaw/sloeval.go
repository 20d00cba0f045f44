package littleslaw

import (
	"slices"
	"sort"
)

// evalSLO finds the deepest measured QD meeting s. A real curve is noisy:
// a middle step may break the objective while a deeper one meets it. The
// answer is the deepest step that meets it, and Noisy names the
// shallower steps that broke it, so a reader can rerun them. An open-loop
// step that fell behind its offered load (KeptUp false) breaks it whatever
// its latency: the arrivals it could not issue waited, uncounted. The
// answer's OfferedIOPS is then the highest load meeting the objective.
func evalSLO(pts []Point, s SLO) SLOResult {
	r := SLOResult{Stat: s.Stat, LimitNs: s.LimitNs}
	known := false
	pts = byLoad(pts)
	var broke []Point // steps over the limit, in QD (or load) order
	var at Point      // the answer's point
	for _, p := range pts {
		v := statNs(p, s.Stat)
		if v <= 0 {
			continue
		}
		known = true
		if v > s.LimitNs || !KeptUp(p) {
			broke = append(broke, p)
			continue
		}
		r.Met, r.QD, r.IOPS, r.LatNs, r.OfferedIOPS = true, p.QD, p.IOPS, v, p.OfferedIOPS
		at = p
	}
	switch {
	case !known:
		r.Reason = SLONotMeasured
	case !r.Met:
		p := broke[0]
		st := sloStep(p, s.Stat)
		r.Reason, r.Breaks = SLONotMet, &st
	default:
		var deeper []SLOStep
		for _, p := range broke {
			st := sloStep(p, s.Stat)
			if loadKey(p) > loadKey(at) {
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

// sloStep is p's value of stat, with its loads when it is open-loop.
func sloStep(p Point, stat string) SLOStep {
	st := SLOStep{QD: p.QD, LatNs: statNs(p, stat)}
	if p.OfferedIOPS > 0 {
		st.OfferedIOPS, st.IOPS, st.Behind, st.Response = p.OfferedIOPS, p.IOPS, !KeptUp(p), p.Response != nil
	}
	return st
}

// loadKey orders the points of a curve: an open-loop point by the load
// offered to it, a closed-loop one by its QD.
func loadKey(p Point) float64 {
	if p.OfferedIOPS > 0 {
		return p.OfferedIOPS
	}
	return p.QD
}

// byLoad is pts in loadKey order: an open-loop curve's points (sorted by
// the I/Os they kept in flight) by the load offered, which a stalled low
// load may keep more of than a higher one.
func byLoad(pts []Point) []Point {
	out := slices.Clone(pts)
	sort.SliceStable(out, func(i, j int) bool { return loadKey(out[i]) < loadKey(out[j]) })
	return out
}
