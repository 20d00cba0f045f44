package littleslaw

import "math"

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

// LatGrowthNeed is the latency ratio the saturation rule asks of a step
// ratio times deeper than the one before it: SaturationLatGrowth per
// doubling, the same fraction of ratio (Little's Law's growth at
// saturation) for other ratios.
func LatGrowthNeed(ratio float64) float64 { return SaturationLatGrowth / 2 * ratio }

// saturationKnee applies KneeSaturation to pts (sorted by QD, one per QD).
func saturationKnee(pts []Point, xmax float64) Knee {
	k := Knee{Kind: KneeSaturation}
	if len(pts) == 0 {
		k.Reason = KneeNoPoints
		return k
	}
	for i := 0; i+1 < len(pts); i++ {
		p, q := pts[i], confirmingPoint(pts, i)
		if p.IOPS < (1-SaturationWithin)*xmax {
			continue
		}
		need := LatGrowthNeed(q.QD / p.QD)
		if q.IOPS < (1+SaturationGain)*p.IOPS && q.LatMeanNs >= need*p.LatMeanNs {
			k.Found, k.QD, k.IOPS, k.LatNsMean = true, p.QD, p.IOPS, p.LatMeanNs
			k.Reason, k.NextQD, k.NextGain, k.NextLatRatio = KneeConfirmed, q.QD, q.IOPS/p.IOPS-1, q.LatMeanNs/p.LatMeanNs
			return k
		}
	}
	last := pts[len(pts)-1]
	k.Reason, k.DeepestQD, k.DeepestIOPS, k.SuggestQD = KneeNotSaturated, last.QD, last.IOPS, 4*last.QD
	if len(pts) == 1 {
		k.Reason = KneeOnePoint
	}
	return k
}

// confirmingPoint is the deeper point that confirms (or refutes) a
// saturation at pts[i]: the first one at least saturationConfirm times as
// deep, else the deepest. On a doubling grid it is the next step; between
// refined steps a few I/Os apart, a step that adds little IOPS at about the
// same latency shows nothing, so the rule looks a doubling further.
func confirmingPoint(pts []Point, i int) Point {
	for _, q := range pts[i+1:] {
		if q.QD >= saturationConfirm*pts[i].QD {
			return q
		}
	}
	return pts[len(pts)-1]
}

// saturationConfirm is how much deeper than a candidate saturation QD the
// confirming step should be: about one doubling (1.9, so 1, 2, 4 … grids
// and grids with rounded steps both use their next step).
const saturationConfirm = 1.9

// efficientKnee is the point of highest power X/R.
func efficientKnee(pts []Point) Knee {
	k := Knee{Kind: KneeEfficient}
	best := -1.0
	for _, p := range pts {
		if pw := p.IOPS / p.LatMeanNs; pw > best {
			best = pw
			k.Found, k.QD, k.IOPS, k.LatNsMean = true, p.QD, p.IOPS, p.LatMeanNs
		}
	}
	if k.Found && len(pts) > 1 && k.QD == pts[len(pts)-1].QD {
		k.Reason = KneeStillRising
	}
	return k
}

// modelKnee reports m's knee with the model's figures there.
func modelKnee(m *Model, pts []Point) Knee {
	k := Knee{Kind: KneeModel}
	if m == nil {
		k.Reason = KneeNoModel
		return k
	}
	if m.KneeQD <= 0 || math.IsInf(m.KneeQD, 0) || math.IsNaN(m.KneeQD) {
		k.Reason = KneeLinear
		return k
	}
	k.Found, k.QD = true, m.KneeQD
	k.IOPS, k.LatNsMean = m.IOPSAt(m.KneeQD), m.LatencyNsAt(m.KneeQD)
	if len(pts) > 0 && m.KneeQD > pts[len(pts)-1].QD {
		k.Reason, k.DeepestQD = KneeExtrapolated, pts[len(pts)-1].QD
	}
	return k
}

// kneedleKnee runs Kneedle on x = log2(QD), y = IOPS, both normalised to
// [0, 1], and returns the point of largest y − x (concave increasing curve).
func kneedleKnee(pts []Point) Knee {
	k := Knee{Kind: KneeKneedle}
	if len(pts) < 3 {
		k.Reason = KneeTooFewPoints
		return k
	}
	x0, x1 := math.Log2(pts[0].QD), math.Log2(pts[len(pts)-1].QD)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		ymin, ymax = math.Min(ymin, p.IOPS), math.Max(ymax, p.IOPS)
	}
	if x1 <= x0 || ymax <= ymin {
		k.Reason = KneeFlat
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
		k.Reason = KneeNoneAboveLine
	}
	return k
}
