package littleslaw

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// ErrTooFewPoints is returned (wrapped) by Analyze when fewer than two
// usable points were given. The Analysis returned beside it is still filled
// as far as the points allow, with Warnings saying what cannot be told.
var ErrTooFewPoints = errors.New("too few points")

// ErrBadOptions is wrapped by Analyze for options it cannot use.
var ErrBadOptions = errors.New("bad analysis options")

// ceilingSlack is how far below the highest measured IOPS a fitted ceiling
// may lie before Analyze warns that the fit contradicts the data (1%).
const ceilingSlack = 0.01

// MinPointsForFit is the number of points below which fits are flagged as rough.
const MinPointsForFit = 6

// Analyze reads one curve (points of one rw × bs at increasing queue
// depths) and returns its base latency, ceiling, fits, knees, Little's-Law
// checks and, as o asks, the target, SLO and application settings.
//
// Points need QD, IOPS and LatMeanNs > 0; others are dropped with a
// warning. Several points at one QD (different iodepth × numjobs splits)
// are reduced to the one with the highest IOPS. Analysis.Points holds the
// points used, sorted by QD.
func Analyze(points []Point, o Options) (Analysis, error) {
	var a Analysis
	if err := validate(o); err != nil {
		return a, err
	}
	o = o.withDefaults()
	pts, warn := prepare(points)
	a.Points, a.Notices = pts, warn
	a.Saturation = Knee{Kind: KneeSaturation}
	a.Efficient = Knee{Kind: KneeEfficient}
	a.ModelKnee = Knee{Kind: KneeModel}
	a.Kneedle = Knee{Kind: KneeKneedle}
	a.Checks = []StepCheck{}
	if len(pts) == 0 {
		a.Notices = append(a.Notices, Notice{Kind: NoticeNoPoints})
		return a, fmt.Errorf("analyze: %w: none usable", ErrTooFewPoints)
	}
	a.BaseLatencyNs = pts[0].LatMeanNs
	for _, p := range pts {
		if p.IOPS > a.MaxIOPS {
			a.MaxIOPS, a.MaxIOPSQD = p.IOPS, p.QD
		}
		c := CheckPoint(p)
		a.Checks = append(a.Checks, c)
	}
	for _, c := range a.Checks {
		if c.Flagged {
			a.Notices = append(a.Notices, Notice{Kind: NoticeCheck, QD: c.QD})
		}
	}

	a.Load = loadCurve(pts)
	a.Saturation = saturationKnee(pts, a.MaxIOPS)
	a.Efficient = efficientKnee(pts)
	a.Kneedle = kneedleKnee(pts)

	switch {
	case len(pts) < 2:
		a.Notices = append(a.Notices, Notice{Kind: NoticeOnePoint})
	case len(pts) < 3:
		a.Notices = append(a.Notices, Notice{Kind: NoticeTwoPoints})
	case len(pts) < MinPointsForFit:
		a.Notices = append(a.Notices, Notice{Kind: NoticeFewPoints, Count: len(pts), Min: MinPointsForFit})
	}
	if b, ok := fitBound(pts); ok {
		a.Fits = append(a.Fits, b)
	}
	if u, ok := fitUSL(pts); ok {
		a.Fits = append(a.Fits, u)
	}
	if len(a.Fits) > 0 {
		best := a.Fits[0]
		for _, f := range a.Fits[1:] {
			if selectionScore(f, len(pts)) < selectionScore(best, len(pts)) {
				best = f
			}
		}
		if best.RelRMS <= MaxModelError {
			a.Model = &best
		} else {
			// A model that misses the points this far would put words and
			// lines on the charts the measurements do not support.
			a.Notices = append(a.Notices, Notice{Kind: NoticeNoModelFits, Model: best.Name, Error: best.RelRMS})
		}
	}
	a.ModelKnee = modelKnee(a.Model, pts)
	if m := a.Model; m != nil && m.XRoof > 0 && m.XRoof < (1-ceilingSlack)*a.MaxIOPS {
		a.Notices = append(a.Notices, Notice{Kind: NoticeFitBelow, Model: m.Name, XRoof: m.XRoof, IOPS: a.MaxIOPS, QD: a.MaxIOPSQD})
	}

	a.answer(o)
	if !a.Saturation.Found && len(pts) > 1 {
		// Not through AddCaveats: a target the curve reached stands as it is.
		a.Caveats = append(a.Caveats, CaveatUnsaturated)
	}
	if len(pts) < 2 {
		return a, fmt.Errorf("analyze: %w: %d usable, need at least 2 for a fit", ErrTooFewPoints, len(pts))
	}
	return a, nil
}

// validate checks the options Analyze cannot work with.
func validate(o Options) error {
	if o.TargetIOPS < 0 || math.IsNaN(o.TargetIOPS) || math.IsInf(o.TargetIOPS, 0) {
		return fmt.Errorf("%w: target IOPS %g must be positive", ErrBadOptions, o.TargetIOPS)
	}
	if o.SLO != nil {
		if _, err := ParseSLO(o.SLO.Stat + "=1ms"); err != nil {
			return fmt.Errorf("%w: %w", ErrBadOptions, err)
		}
		if !(o.SLO.LimitNs > 0) {
			return fmt.Errorf("%w: SLO limit %g ns must be positive", ErrBadOptions, o.SLO.LimitNs)
		}
	}
	if o.For != "" && !IsSettingsKind(o.For) {
		return fmt.Errorf("%w: unknown For %q (use one of %s)", ErrBadOptions, o.For, strings.Join(SettingsKinds, ", "))
	}
	if o.MaxIODepth < 0 || o.MaxJobs < 0 || o.CPUs < 0 {
		return fmt.Errorf("%w: limits must not be negative", ErrBadOptions)
	}
	return nil
}

// MaxModelError is the largest relative RMS error of a fit that is used
// (Analysis.Model): beyond it no model fits, and neither text nor charts
// quote one.
const MaxModelError = 0.25

// prepare drops unusable points, keeps the best point per QD and sorts by QD.
func prepare(points []Point) ([]Point, []Notice) {
	var warn []Notice
	byQD := map[float64]Point{}
	dropped := 0
	for _, p := range points {
		if !(p.QD > 0) || !(p.IOPS > 0) || !(p.LatMeanNs > 0) ||
			math.IsInf(p.QD, 0) || math.IsInf(p.IOPS, 0) || math.IsInf(p.LatMeanNs, 0) {
			dropped++
			continue
		}
		if q, ok := byQD[p.QD]; !ok || p.IOPS > q.IOPS {
			byQD[p.QD] = p
		}
	}
	if dropped > 0 {
		warn = append(warn, Notice{Kind: NoticeDropped, Count: dropped})
	}
	pts := make([]Point, 0, len(byQD))
	for _, p := range byQD {
		pts = append(pts, p)
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].QD < pts[j].QD })
	return pts, warn
}

// selectionScore ranks fits: AIC with the small-sample correction (AICc),
// 2k(k+1)/(n−k−1), so a model with as many parameters as points cannot win
// by fitting them exactly. Undefined (n ≤ k+1) scores +Inf; ties keep the
// earlier, simpler fit (bound before USL).
func selectionScore(m Model, n int) float64 {
	k := len(m.Params)
	if n-k-1 <= 0 {
		return math.Inf(1)
	}
	return m.AIC + float64(2*k*(k+1))/float64(n-k-1)
}
