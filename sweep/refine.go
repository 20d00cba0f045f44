package sweep

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// DefaultRefineSteps is how many extra steps the refine pass runs per
// boundary at most: three bisections of a doubling narrow the boundary to
// within about 9% of its queue depth.
const DefaultRefineSteps = 3

// Refine says what the refine pass bisects: the boundaries between two
// measured grid steps that a recommendation is read from.
type Refine struct {
	// Knee bisects around the saturation knee: between the deepest step
	// below 95% of the highest IOPS and the first step within it.
	Knee bool
	// TargetIOPS bisects around the depth where the curve first reaches
	// this rate, I/Os per second (0: none).
	TargetIOPS float64
	// SLO bisects between the deepest step meeting the objective and the
	// next deeper one breaking it (nil: none).
	SLO *littleslaw.SLO
	// Steps is the most extra steps per boundary (0: DefaultRefineSteps).
	Steps int
}

// Boundaries of the refine pass, as Step.Refined names them.
const (
	RefineKnee   = "knee"
	RefineTarget = "target"
	RefineSLO    = "slo"
)

// Active reports whether rf asks for any refinement.
func (rf Refine) Active() bool { return rf.Knee || rf.TargetIOPS > 0 || rf.SLO != nil }

// RunRefine runs the refine pass on r after its grid: for every curve and
// every boundary rf names, it measures queue depths between the two
// bracketing measured steps, log-spaced (the geometric mean, rounded),
// re-reading the curve after each step, until the bracket is one I/O wide
// or rf.Steps extra steps were run. The recommended depth is then
// measured, not read off a doubling grid. Refined steps are appended to
// r.Steps with Refined set to the boundary they were run for; cfg.OnStep
// is called after each. A step that fails ends that boundary. When ctx is
// done it stops at once and returns an error wrapping ctx.Err().
func RunRefine(ctx context.Context, cfg Config, r *Result, rf Refine) error {
	if cfg.Engine == nil {
		return fmt.Errorf("sweep: no engine")
	}
	if !rf.Active() {
		return nil
	}
	steps := rf.Steps
	if steps <= 0 {
		steps = DefaultRefineSteps
	}
	held, err := holdTarget(cfg, r.Plan) // the write guard, as in Run
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	defer held.Close()
	if held != nil {
		cfg.Workload.Held = held
	}
	defer func() { r.Meta.End = time.Now() }()
	bs := boundariesOf(rf)
	for _, c := range r.Curves() {
		for _, b := range bs {
			for n := 0; n < steps; n++ {
				if err := ctx.Err(); err != nil {
					r.Interrupted = true
					return fmt.Errorf("refine interrupted: %w", err)
				}
				g, ok := nextRefineStep(r, c.RW, c.BS, b)
				if !ok {
					break
				}
				s, err := runStep(ctx, cfg, g, nil, Live{Index: len(r.Steps) + 1, Total: len(r.Steps) + 1, Step: g},
					func(time.Duration) time.Duration { return 0 })
				if ctx.Err() != nil {
					r.Interrupted = true
					return fmt.Errorf("refine interrupted at %s: %w", g, ctx.Err())
				}
				failed := err != nil
				if failed {
					s = stepOf(g)
					s.Failed = cfg.errorText(err)
				}
				s.Refined = b.name
				r.Steps = append(r.Steps, s)
				r.Meta.End = time.Now()
				if cfg.OnStep != nil {
					if err := cfg.OnStep(r, s); err != nil {
						return fmt.Errorf("sweep: after refine step %s: %w", g, err)
					}
				}
				if failed {
					break
				}
			}
		}
	}
	return nil
}

// boundary is one boundary refinement looks for: its name (Step.Refined)
// and how to find the two measured depths that bracket it on a curve.
type boundary struct {
	name string
	find func(pts []littleslaw.Point) (lo, hi float64, ok bool)
}

// boundariesOf lists the boundaries rf asks for: the knee, the target,
// the SLO, in that order.
func boundariesOf(rf Refine) []boundary {
	var bs []boundary
	if rf.Knee {
		bs = append(bs, boundary{RefineKnee, kneeBracket})
	}
	if rf.TargetIOPS > 0 {
		t := rf.TargetIOPS
		bs = append(bs, boundary{RefineTarget, func(pts []littleslaw.Point) (float64, float64, bool) { return targetBracket(pts, t) }})
	}
	if rf.SLO != nil {
		s := *rf.SLO
		bs = append(bs, boundary{RefineSLO, func(pts []littleslaw.Point) (float64, float64, bool) { return sloBracket(pts, s) }})
	}
	return bs
}

// nextRefineStep is the step that halves the bracket around b on the
// curve rw × bs: its depth split into iodepth × numjobs within the plan's
// largest, spread over the fleet's hosts. false when there is none: no
// bracket, nothing between its ends, or the split rounds onto a depth
// already measured.
func nextRefineStep(r *Result, rw string, bs int64, b boundary) (GridStep, bool) {
	cur := curveOf(r, rw, bs)
	lo, hi, ok := b.find(cur.Points())
	if !ok {
		return GridStep{}, false
	}
	qd, ok := bisectQD(lo, hi)
	if !ok {
		return GridStep{}, false
	}
	maxDepth, maxJobs := slices.Max(r.Plan.IODepth), slices.Max(r.Plan.NumJobs)
	hosts := max(r.Plan.Hosts, 1) // a fleet's QD is spread over its hosts
	sa := littleslaw.SplitFor((qd+hosts-1)/hosts, maxDepth, maxJobs)
	g := GridStep{RW: ioengine.RW(rw), BS: bs, IODepth: sa.Best.IODepth, NumJobs: sa.Best.NumJobs, Hosts: r.Plan.Hosts}
	if q := float64(g.QD()); q <= lo || q >= hi || hasQD(cur.Steps, g.QD()) {
		return GridStep{}, false // the split rounded onto a measured depth
	}
	return g, true
}

// curveOf returns r's curve rw × bs as it stands.
func curveOf(r *Result, rw string, bs int64) Curve {
	c := Curve{RW: rw, BS: bs}
	for _, s := range r.Steps {
		if s.RW == rw && s.BS == bs {
			c.Steps = append(c.Steps, s)
		}
	}
	return c
}

// hasQD reports whether steps hold a measured or failed step at total depth qd.
func hasQD(steps []Step, qd int) bool {
	for _, s := range steps {
		if s.QD == qd && s.Skipped == "" {
			return true
		}
	}
	return false
}

// bisectQD is the whole depth between lo and hi (exclusive) nearest their
// geometric mean; ok is false when none lies between.
func bisectQD(lo, hi float64) (int, bool) {
	l, h := int(math.Round(lo)), int(math.Round(hi))
	if h-l < 2 {
		return 0, false
	}
	m := int(math.Round(math.Sqrt(lo * hi)))
	m = min(max(m, l+1), h-1)
	return m, true
}

// sortedPoints returns pts sorted by QD, one (the best) per QD.
func sortedPoints(pts []littleslaw.Point) []littleslaw.Point {
	best := map[float64]littleslaw.Point{}
	for _, p := range pts {
		if b, ok := best[p.QD]; !ok || p.IOPS > b.IOPS {
			best[p.QD] = p
		}
	}
	out := make([]littleslaw.Point, 0, len(best))
	for _, p := range best {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b littleslaw.Point) int { return int(math.Copysign(1, a.QD-b.QD)) })
	return out
}

// kneeBracket is the saturation knee's bracket: the first measured QD
// within littleslaw.SaturationWithin of the highest IOPS and the measured
// QD just below it. ok is false when the curve did not saturate (the
// knee is not inside the sweep) or is flat from its first step.
func kneeBracket(pts []littleslaw.Point) (lo, hi float64, ok bool) {
	a, _ := littleslaw.Analyze(pts, littleslaw.Options{})
	if !a.Saturation.Found {
		return 0, 0, false
	}
	ps := sortedPoints(a.Points)
	for i := 1; i < len(ps); i++ {
		if ps[i].IOPS >= (1-littleslaw.SaturationWithin)*a.MaxIOPS {
			return ps[i-1].QD, ps[i].QD, true
		}
	}
	return 0, 0, false
}

// targetBracket is the bracket where the curve first reaches t IOPS: the
// first measured QD at or above t and the measured QD before it. ok is
// false when no step reaches t or the first one already does.
func targetBracket(pts []littleslaw.Point, t float64) (lo, hi float64, ok bool) {
	ps := sortedPoints(pts)
	for i := 1; i < len(ps); i++ {
		if ps[i].IOPS >= t {
			if ps[i-1].IOPS >= t {
				return 0, 0, false
			}
			return ps[i-1].QD, ps[i].QD, true
		}
	}
	return 0, 0, false
}

// sloBracket is the bracket of a latency objective: the deepest measured
// QD meeting it and the next deeper QD, which breaks it. ok is false when
// no step meets it, the deepest one does, or the statistic was not
// measured.
func sloBracket(pts []littleslaw.Point, s littleslaw.SLO) (lo, hi float64, ok bool) {
	ps := sortedPoints(pts)
	last := -1
	for i, p := range ps {
		if v := littleslaw.StatNs(p, s.Stat); v > 0 && v <= s.LimitNs {
			last = i
		}
	}
	if last < 0 || last+1 >= len(ps) {
		return 0, 0, false
	}
	return ps[last].QD, ps[last+1].QD, true
}
