package sweep

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/ioengine"
)

// ControlStep is an early step of a sweep measured again at its end. A
// device whose level changed during the sweep (burst credits spent, a
// throttle that began, a neighbour that arrived, a warm-up) answers the
// control step differently: the curve did not hold still, and what the
// sweep saw above the control's level did not last.
type ControlStep struct {
	Step             // the re-measurement
	WasIOPS  float64 `json:"was_iops"`   // the step's IOPS when the sweep measured it
	WasLatNs float64 `json:"was_lat_ns"` // and its mean latency, ns
	// Band is the relative difference that counts as noise (ControlBand).
	Band float64 `json:"band"`
	// Change is ControlFell or ControlRose when the two disagree beyond
	// Band, "" when the level held.
	Change string `json:"change,omitempty"`
	// WasLevel and Level are the two measurements' levels, the IOPS of
	// their intervals after a start-up lead (littleslaw.Lead: a
	// throttle's start-up burst), set when either began above its level:
	// the verdict compares them, not the means the burst lifted.
	WasLevel float64 `json:"was_level,omitempty"`
	Level    float64 `json:"level,omitempty"`
}

// levelOf is a step's level: the IOPS of its intervals after a start-up
// lead its settling found (littleslaw.Lead), else its IOPS.
func levelOf(s Step) float64 {
	if st := s.Settle; st != nil && st.Level > 0 && st.Lead > 0 {
		return st.Level
	}
	return s.IOPS
}

// Levels are the control step's two measurements as its verdict compares
// them: their levels after a start-up lead when either had one
// (WasLevel, Level), else their IOPS.
func (c *ControlStep) Levels() (was, now float64) {
	if c.WasLevel > 0 && c.Level > 0 {
		return c.WasLevel, c.Level
	}
	return c.WasIOPS, c.IOPS
}

// Changes of a control step (ControlStep.Change).
const (
	ControlFell = "fell"
	ControlRose = "rose"
)

// Control step limits: its runtime is at most ControlRuntime, and it
// disagrees with the first measurement beyond noise when the difference
// exceeds three standard errors of a difference, and at least
// ControlMinBand.
const (
	ControlRuntime = 2 * time.Second
	ControlMinBand = 0.05
	ControlMaxBand = 0.25
)

// ControlBand is the relative difference between a step and its control
// that counts as noise: 3·√(σa² + σb²) of their means' standard errors,
// within [ControlMinBand, ControlMaxBand].
func ControlBand(a, b Step) float64 {
	sa, sb := a.IOPSUncertainty(), b.IOPSUncertainty()
	return min(ControlMaxBand, max(ControlMinBand, 3*math.Sqrt(sa*sa+sb*sb)))
}

// controlCandidate is the step of r's first curve that measured the most
// IOPS: the level every conclusion rests on. ok is false with fewer than
// three measured steps.
func controlCandidate(r *Result) (Step, bool) {
	cs := r.Curves()
	if len(cs) == 0 {
		return Step{}, false
	}
	var best Step
	n := 0
	for _, s := range cs[0].Steps {
		if !s.Analysable() {
			continue
		}
		n++
		if s.IOPS > best.IOPS {
			best = s
		}
	}
	return best, n >= 3
}

// RunControl measures again, after the sweep (and its refinement), the
// step of the first curve that gave the most IOPS, for at most
// ControlRuntime (sooner once its verdict against the first measurement
// settles at 95 %, littleslaw.SettleControl, or cannot settle by then),
// and records it in r.Control with the verdict. It does
// nothing for a sweep with fewer than three measured steps.
func RunControl(ctx context.Context, cfg Config, r *Result) error {
	was, ok := controlCandidate(r)
	if !ok {
		return nil
	}
	c := cfg
	c.Runtime = min(cfg.Runtime, ControlRuntime)
	was0 := stepEstimate(was)
	was0.IOPS = levelOf(was)
	c.controlOf = &was0
	g := GridStep{RW: ioengine.RW(was.RW), BS: was.BS, IODepth: was.IODepth, NumJobs: was.NumJobs, RateIOPS: was.OfferedIOPS}
	s, err := runStep(ctx, c, g, nil, Live{Index: len(r.Steps) + 1, Total: len(r.Steps) + 1, Step: g}, func(time.Duration) time.Duration { return 0 })
	if err != nil {
		return fmt.Errorf("control step %s: %w", g, err)
	}
	ctl := &ControlStep{Step: s, WasIOPS: was.IOPS, WasLatNs: was.Lat.MeanNs, Band: ControlBand(was, s)}
	if wl, l := levelOf(was), levelOf(s); wl != was.IOPS || l != s.IOPS {
		ctl.WasLevel, ctl.Level = wl, l
	}
	wl, l := ctl.Levels()
	switch d := l/wl - 1; {
	case wl <= 0 || l <= 0:
	case d < -ctl.Band:
		ctl.Change = ControlFell
	case d > ctl.Band:
		ctl.Change = ControlRose
	}
	r.Control = ctl
	r.Meta.End = time.Now()
	return nil
}

// markAboveControl leaves out of the analysis the steps of the control's
// curve that ran above what the control step still delivered at the end,
// when it fell: a level that did not last.
func (r *Result) markAboveControl() {
	c := r.Control
	if c == nil || c.Change != ControlFell {
		return
	}
	_, level := c.Levels()
	for i := range r.Steps {
		s := &r.Steps[i]
		if !s.ranAbove(c.RW, c.BS, level) {
			continue
		}
		if s.Time == nil {
			s.Time = &diagnosis.StepTime{}
		}
		s.Time.AboveControl = true
	}
}

// controlFinding is the diagnosis of a control step that disagreed with
// its first measurement (nil when it held): what changed, by how much, and
// the steps left out.
func (r *Result) controlFinding() *diagnosis.Finding {
	c := r.Control
	if c == nil || c.Change == "" {
		return nil
	}
	reason := diagnosis.ReasonControlFell
	if c.Change == ControlRose {
		reason = diagnosis.ReasonControlRose
	}
	qd := float64(c.QD)
	if c.OfferedIOPS > 0 {
		qd = c.InflightMean // an offered load's step stands at the I/Os it kept in flight
	}
	was, level := c.Levels()
	fig := diagnosis.Fact{Kind: diagnosis.FactControl, QD: qd, OfferedIOPS: c.OfferedIOPS, IOPS: was, LatNs: c.WasLatNs,
		ToIOPS: level, ToLatNs: c.Lat.MeanNs, Ratio: level/was - 1, Share: c.Band}
	f := &diagnosis.Finding{Rule: diagnosis.RuleNotStationary, Reason: reason, RW: c.RW, BS: c.BS, Figures: fig,
		Facts: []diagnosis.Fact{fig}, Evidence: []string{}}
	for _, s := range r.Steps {
		if s.Time != nil && s.Time.AboveControl && s.ranAbove(c.RW, c.BS, level) {
			f.Facts = append(f.Facts, diagnosis.Fact{Kind: diagnosis.FactAboveControl, QD: float64(s.QD), IOPS: s.IOPS, ToIOPS: level})
		}
	}
	return f
}

// ranAbove reports whether step s is of the curve (rw, bs) and ran above
// level (IOPS) by more than the plateau band: a step the level that lasted
// leaves out. The one test both marks a step and names it in the finding
// that quotes the level, so a finding never quotes a level a step it lists
// did not run above.
func (s Step) ranAbove(rw string, bs int64, level float64) bool {
	return s.RW == rw && s.BS == bs && s.Analysable() && s.IOPS > level*(1+diagnosis.PlateauBand)
}

// controlChanged reports whether the control step found curve (rw, bs)
// changed; its finding then speaks for the curve, and a ramp's fall on it
// neither marks steps nor finds anything of its own.
func (r *Result) controlChanged(rw string, bs int64) bool {
	c := r.Control
	return c != nil && c.Change != "" && c.RW == rw && c.BS == bs
}

// rampFallBand is how far above its window's IOPS a step's ramp must have
// run for the level to count as having fallen during the ramp.
const rampFallBand = 0.5

// RampFall is a level that fell during a step's ramp, before its window:
// the ramp ran at PeakIOPS, the window at IOPS (what lasted), and earlier
// steps of the curve ran above that.
type RampFall struct {
	RW       string  `json:"rw"`
	BS       int64   `json:"bs"`
	QD       int     `json:"qd"`
	PeakIOPS float64 `json:"peak_iops"` // the ramp's highest slice
	IOPS     float64 `json:"iops"`      // the step's window
	LatNs    float64 `json:"lat_ns"`    // the step's mean latency
	// FellSec is when the ramp's last slice above the window's level
	// ended, seconds before the window began (negative).
	FellSec float64 `json:"fell_sec"`
}

// RampFalls finds, per curve, the first step whose ramp ran at least
// rampFallBand above its window and ended near the window's level, after a
// step of the curve that ran above that level: burst credits spent (a
// throttle that began, a neighbour that arrived) before the step was
// measured, which no window shows. An open-loop sweep has none: a load the
// device fell behind of achieves less than a lower load did, and its ramp
// runs above its window while the queue fills; no level across loads.
func (r *Result) RampFalls() []RampFall {
	if r.Plan.OpenLoop() {
		return nil
	}
	var out []RampFall
	for _, c := range r.Curves() {
		highest := 0.0
		for _, s := range c.Steps {
			if !s.Analysable() || s.Series == nil {
				continue
			}
			if f, ok := rampFallOf(s); ok && highest > s.IOPS*(1+diagnosis.PlateauBand) {
				out = append(out, f)
				break
			}
			highest = max(highest, s.IOPS)
		}
	}
	return out
}

// rampFallOf reports whether step s's ramp fell to its window's level.
func rampFallOf(s Step) (RampFall, bool) {
	f := RampFall{RW: s.RW, BS: s.BS, QD: s.QD, IOPS: s.IOPS, LatNs: s.Lat.MeanNs}
	ramp := s.Series.Ramp
	if len(ramp) < 2 || s.IOPS <= 0 {
		return f, false
	}
	last := ramp[len(ramp)-1].IOPS()
	for _, iv := range ramp {
		if iv.IOPS() >= f.PeakIOPS {
			f.PeakIOPS = iv.IOPS()
		}
		if iv.IOPS() > s.IOPS*(1+rampFallBand) {
			f.FellSec = float64(iv.StartNs+iv.DurNs) / 1e9
		}
	}
	return f, f.PeakIOPS >= s.IOPS*(1+rampFallBand) && last <= s.IOPS*(1+diagnosis.PlateauBand)
}

// markAboveRamp marks, on a curve whose level fell during a step's ramp,
// the steps that ran above what lasted (left out of the analysis, as above
// a control step that fell).
func (r *Result) markAboveRamp() {
	for _, f := range r.RampFalls() {
		for i := range r.Steps {
			s := &r.Steps[i]
			if r.controlChanged(f.RW, f.BS) || !s.ranAbove(f.RW, f.BS, f.IOPS) {
				continue
			}
			if s.Time == nil {
				s.Time = &diagnosis.StepTime{}
			}
			s.Time.AboveControl = true
		}
	}
}

// rampFindings are the diagnoses of levels that fell during a ramp, for
// curves the control step did not already find changed.
func (r *Result) rampFindings() []diagnosis.Finding {
	var out []diagnosis.Finding
	for _, f := range r.RampFalls() {
		if r.controlChanged(f.RW, f.BS) {
			continue
		}
		fig := diagnosis.Fact{Kind: diagnosis.FactRampFell, QD: float64(f.QD), IOPS: f.PeakIOPS, ToIOPS: f.IOPS,
			ToLatNs: f.LatNs, Ratio: f.IOPS/f.PeakIOPS - 1, Seconds: f.FellSec}
		fd := diagnosis.Finding{Rule: diagnosis.RuleNotStationary, Reason: diagnosis.ReasonRampFell, RW: f.RW, BS: f.BS,
			Figures: fig, Facts: []diagnosis.Fact{fig}, Evidence: []string{}}
		for _, s := range r.Steps {
			if s.Time != nil && s.Time.AboveControl && s.ranAbove(f.RW, f.BS, f.IOPS) {
				fd.Facts = append(fd.Facts, diagnosis.Fact{Kind: diagnosis.FactAboveControl, QD: float64(s.QD), IOPS: s.IOPS, ToIOPS: f.IOPS})
			}
		}
		out = append(out, fd)
	}
	return out
}

// RunAll runs the grid (Run), then the refinement around the answers (when
// rf is active) and the control step (when control is set: the best step
// measured again, did the device hold still?), each only when the one
// before went through.
func RunAll(ctx context.Context, cfg Config, r *Result, rf Refine, control bool) error {
	if err := Run(ctx, cfg, r); err != nil {
		return err
	}
	if rf.Active() && !r.Plan.OpenLoop() { // refinement picks depths between steps; loads have none
		if err := RunRefine(ctx, cfg, r, rf); err != nil {
			return err
		}
	}
	if control {
		return RunControl(ctx, cfg, r)
	}
	return nil
}
