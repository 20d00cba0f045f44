package littleslaw

import (
	"fmt"
	"math"
)

// Thresholds of the saturation rule.
const (
	// SaturationWithin is how close to the highest IOPS a saturated QD must be (5%).
	SaturationWithin = 0.05
	// SaturationGain is the most the next deeper step may add to count as flat (5%).
	SaturationGain = 0.05
	// SaturationLatGrowth is how much mean latency must grow per doubling of
	// QD over the next deeper step (1.8×); for other QD ratios r it is
	// 0.9 × r, the same fraction of what Little's Law predicts at saturation.
	SaturationLatGrowth = 1.8
)

// Rules in words, as Knee.Rule reports them.
const (
	RuleSaturation = "saturation: smallest measured QD within 5% of the highest IOPS, confirmed by the next deeper step adding < 5% IOPS while mean latency grows ≥ 1.8× per doubling"
	RuleEfficient  = "efficient: measured QD with the highest power, IOPS / mean latency (Kleinrock)"
	RuleModelKnee  = "model knee: N* from the fit chosen by AICc (bound: measured Xmax × measured R0; USL: N_max when retrograde, else X_roof × R0)"
	RuleKneedle    = "kneedle: Kneedle (Satopää et al. 2011) on log2(QD) vs IOPS; a diagnostic only"
)

// saturationKnee applies RuleSaturation to pts (sorted by QD, one per QD).
func saturationKnee(pts []Point, xmax float64) Knee {
	k := Knee{Rule: RuleSaturation}
	if len(pts) == 0 {
		k.Note = "no measured points"
		return k
	}
	for i := 0; i+1 < len(pts); i++ {
		p, q := pts[i], pts[i+1]
		if p.IOPS < (1-SaturationWithin)*xmax {
			continue
		}
		need := 0.9 * q.QD / p.QD
		if q.IOPS < (1+SaturationGain)*p.IOPS && q.LatMeanNs >= need*p.LatMeanNs {
			k.Found, k.QD, k.IOPS, k.LatNsMean = true, p.QD, p.IOPS, p.LatMeanNs
			verb, g := "adds", 100*(q.IOPS/p.IOPS-1)
			if g < 0 {
				verb, g = "loses", -g
			}
			k.Note = fmt.Sprintf("QD %g %s %.1f%% IOPS at %.2f× the latency", q.QD, verb, g, q.LatMeanNs/p.LatMeanNs)
			return k
		}
	}
	last := pts[len(pts)-1]
	k.Note = fmt.Sprintf("no saturation within the sweep (deepest QD %g, %s IOPS); sweep deeper, e.g. to QD %g", last.QD, fmtCount(last.IOPS), 4*last.QD)
	if len(pts) == 1 {
		k.Note = "one point cannot show saturation; sweep at least two depths, e.g. QD 1 to 256 in powers of two"
	}
	return k
}

// efficientKnee is the point of highest power X/R.
func efficientKnee(pts []Point) Knee {
	k := Knee{Rule: RuleEfficient}
	best := -1.0
	for _, p := range pts {
		if pw := p.IOPS / p.LatMeanNs; pw > best {
			best = pw
			k.Found, k.QD, k.IOPS, k.LatNsMean = true, p.QD, p.IOPS, p.LatMeanNs
		}
	}
	if k.Found && len(pts) > 1 && k.QD == pts[len(pts)-1].QD {
		k.Note = "power still rising at the deepest QD; sweep deeper"
	}
	return k
}

// modelKnee reports m's knee with the model's figures there.
func modelKnee(m *Model, pts []Point) Knee {
	k := Knee{Rule: RuleModelKnee}
	if m == nil {
		k.Note = "no model fitted"
		return k
	}
	if m.KneeQD <= 0 || math.IsInf(m.KneeQD, 0) || math.IsNaN(m.KneeQD) {
		k.Note = "the fit shows no knee (throughput still linear in QD)"
		return k
	}
	k.Found, k.QD = true, m.KneeQD
	k.IOPS, k.LatNsMean = m.IOPSAt(m.KneeQD), m.LatencyNsAt(m.KneeQD)
	if len(pts) > 0 && m.KneeQD > pts[len(pts)-1].QD {
		k.Note = fmt.Sprintf("beyond the deepest measured QD %g: extrapolated", pts[len(pts)-1].QD)
	}
	return k
}

// kneedleKnee runs Kneedle on x = log2(QD), y = IOPS, both normalised to
// [0, 1], and returns the point of largest y − x (concave increasing curve).
func kneedleKnee(pts []Point) Knee {
	k := Knee{Rule: RuleKneedle}
	if len(pts) < 3 {
		k.Note = "needs at least 3 points"
		return k
	}
	x0, x1 := math.Log2(pts[0].QD), math.Log2(pts[len(pts)-1].QD)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		ymin, ymax = math.Min(ymin, p.IOPS), math.Max(ymax, p.IOPS)
	}
	if x1 <= x0 || ymax <= ymin {
		k.Note = "flat curve: no knee"
		return k
	}
	best := 0.0
	for _, p := range pts {
		d := (p.IOPS-ymin)/(ymax-ymin) - (math.Log2(p.QD)-x0)/(x1-x0)
		if d > best {
			best = d
			k.Found, k.QD, k.IOPS, k.LatNsMean = true, p.QD, p.IOPS, p.LatMeanNs
		}
	}
	if !k.Found {
		k.Note = "no point above the chord: no knee"
	}
	return k
}
