package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/units"

	"github.com/qdsweep/qdsweep/ioengine"
)

// Config is what a sweep needs besides its Result.
type Config struct {
	Engine ioengine.Engine
	// Workload is the fixed part of every step's workload (Filename, Size,
	// Offset, Direct, RWMixRead, RandSeed, …); RW, BS, IODepth and NumJobs
	// are set per step from the plan.
	Workload ioengine.Workload
	Ramp     time.Duration // excluded warm-up per step
	Runtime  time.Duration // longest measured window per step
	Steady   SteadyConfig  // ends a step early once steady
	// LogInterval is the period of each step's Series (0: the default
	// 250 ms, < 0: no series).
	LogInterval time.Duration
	// Stop skips the deeper steps of a curve; with Plan.Full only its
	// MaxP99 limit applies.
	Stop  EarlyStop
	Probe Probe // per-step telemetry; nil for none
	// OnLive, when set, receives live figures every Steady.Interval of a
	// step's measured window (from the engine's sampling goroutine).
	OnLive func(Live)
	// OnStep, when set, is called after every measured or failed step with
	// the result so far, and once after the skipped deeper steps of a curve
	// (with the last of them); an error ends the sweep.
	OnStep func(r *Result, s Step) error
	// ErrorText, when set, is a failed step's words (Step.Failed): the
	// engine's errors name its settings as the caller's options do. Nil:
	// the error's own.
	ErrorText func(error) string
	// controlOf, set for a control step, is its first measurement: the
	// settling rule judges the step's change against it.
	controlOf *littleslaw.StepEstimate
	// leadAgain, set for a grid step's first measurement, records a
	// start-up lead without holding the step for it: the sweep measures
	// the step again at once (gridRun.again).
	leadAgain bool
}

// errorText is err's words for a failed step (Config.ErrorText).
func (cfg Config) errorText(err error) string {
	if cfg.ErrorText != nil {
		return cfg.ErrorText(err)
	}
	return err.Error()
}

// Live is a progress snapshot of the running step.
type Live struct {
	Index   int           // 1-based index of the step in the grid
	Total   int           // steps in the grid
	Step    GridStep      // what runs
	Elapsed time.Duration // of the step's measured window
	IOPS    float64       // over the last sample interval, I/Os per second
	LatMean time.Duration // mean latency over the window so far
	ETA     time.Duration // estimated time left for the whole sweep
}

// ErrAllFailed is returned when every step run by a sweep failed.
var ErrAllFailed = errors.New("every step failed")

// NewResult starts a result for plan with meta (Schema and Tool filled in).
func NewResult(meta Meta, plan Plan) *Result {
	if meta.Tool == "" {
		meta.Tool = "qdsweep"
	}
	if meta.Source == "" {
		meta.Source = "qdsweep"
	}
	return &Result{Schema: Schema, Meta: meta, Plan: plan, Steps: []Step{}}
}

// Run runs the steps of r.Plan's grid that r does not hold yet (so a result
// read back from an interrupted sweep resumes), appending each to r.Steps.
// When ctx is done it stops at once, drops the unfinished step, sets
// r.Interrupted and returns an error wrapping ctx.Err(). r.Meta.End is set on
// return.
func Run(ctx context.Context, cfg Config, r *Result) error {
	stop, err := checkRun(cfg, r.Plan)
	if err != nil {
		return err
	}
	held, err := holdTarget(cfg, r.Plan) // the write guard, held for the whole sweep
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	defer held.Close()
	if held != nil {
		cfg.Workload.Held = held
	}
	defer func() { r.Meta.End = time.Now() }()
	if r.Meta.SteadyWindowNs == 0 {
		r.Meta.SteadyWindowNs, r.Meta.SteadyLimit = int64(cfg.Steady.Window), cfg.Steady.Limit
		r.Meta.SteadyPrecision = cfg.Steady.Precision
	}
	recordSeriesSettings(cfg, r)
	r.Interrupted = false
	if err := runCapacity(ctx, cfg, r); err != nil {
		return err
	}
	gr := &gridRun{cfg: cfg, r: r, grid: r.Plan.Grid()}
	for i, g := range gr.grid {
		if hasStep(r.Steps, g) {
			continue
		}
		if err := ctx.Err(); err != nil {
			r.Interrupted = true
			return fmt.Errorf("sweep interrupted before step %d/%d: %w", i+1, len(gr.grid), err)
		}
		var s Step
		if reason := stop.Reason(measured(r.Steps, g)); reason != "" {
			s = skippedStep(g, reason)
		} else if s, err = gr.measure(ctx, i, g, true); err != nil {
			return err
		}
		r.Steps = append(r.Steps, s)
		var before, top int
		if s, before, err = gr.again(ctx, i, s); err != nil {
			return err
		}
		if top, err = gr.topAgain(ctx, i, s, stop); err != nil {
			return err
		}
		r.Meta.End = time.Now()
		if err := gr.announce(i, s, before, top); err != nil {
			return err
		}
	}
	if gr.ran > 0 && gr.failed == gr.ran {
		return fmt.Errorf("sweep: %w: %s", ErrAllFailed, gr.firstFail)
	}
	return nil
}

// announce calls Config.OnStep for s, grid step i just run, and for the
// steps measured again with it: before (the step before it, measured
// again after a fall: its new figures first, as s was judged against
// them) and top (its curve's top, measured again as the curve ended:
// after s, whose figure its words quote); −1 for none. Once a curve
// stops, all its deeper steps are skipped: they are reported as one
// batch, with the last.
func (gr *gridRun) announce(i int, s Step, before, top int) error {
	r, on := gr.r, gr.cfg.OnStep
	if on == nil {
		return nil
	}
	var order []Step
	if before >= 0 {
		order = append(order, r.Steps[before])
	}
	if batching := s.Skipped != "" && i+1 < len(gr.grid) && gr.grid[i+1].Curve(s.RW, s.BS); !batching {
		order = append(order, s)
	}
	if top >= 0 {
		order = append(order, r.Steps[top])
	}
	for _, st := range order {
		if err := on(r, st); err != nil {
			return fmt.Errorf("sweep: after step %d/%d: %w", i+1, len(gr.grid), err)
		}
	}
	return nil
}

// checkRun refuses a sweep that cannot start and returns the early-stop
// rule it runs with (only the p99 limit when the plan asks for every step).
func checkRun(cfg Config, p Plan) (EarlyStop, error) {
	if cfg.Engine == nil {
		return EarlyStop{}, errors.New("sweep: no engine")
	}
	if err := p.Validate(); err != nil {
		return EarlyStop{}, fmt.Errorf("sweep: %w", err)
	}
	if cfg.Runtime <= 0 {
		return EarlyStop{}, errors.New("sweep: runtime must be > 0")
	}
	stop := cfg.Stop
	if p.Full {
		stop = EarlyStop{MaxP99: stop.MaxP99}
	}
	return stop, nil
}

// gridRun is a sweep's walk over its grid: what it has run so far.
type gridRun struct {
	cfg       Config
	r         *Result
	grid      []GridStep
	ran       int
	failed    int
	firstFail string        // the first failed step's error
	spent     time.Duration // wall time of the steps run so far
}

// measure runs grid step i; first says it is the step's first
// measurement (Config.leadAgain). A step that fails is returned with its error
// in Failed; the error returned ends the sweep: interrupted, or the target
// no longer what was checked (that step is recorded and reported first).
func (gr *gridRun) measure(ctx context.Context, i int, g GridStep, first bool) (Step, error) {
	cfg, r, n := gr.cfg, gr.r, len(gr.grid)
	cfg.leadAgain = first
	t0 := time.Now()
	s, err := runStep(ctx, cfg, g, prevEstimate(r.Steps, g), Live{Index: i + 1, Total: n, Step: g}, func(elapsed time.Duration) time.Duration {
		return eta(cfg, gr.spent+time.Since(t0), gr.ran+1, n-i-1, elapsed)
	})
	if ctx.Err() != nil {
		r.Interrupted = true
		return Step{}, fmt.Errorf("sweep interrupted at step %d/%d (%s): %w", i+1, n, g, ctx.Err())
	}
	if errors.Is(err, guard.ErrTargetChanged) {
		// Not a failed step: the target is no longer what was checked.
		s = stepOf(g)
		s.Failed = cfg.errorText(err)
		r.Steps = append(r.Steps, s)
		r.Meta.End = time.Now()
		if cfg.OnStep != nil {
			_ = cfg.OnStep(r, s)
		}
		return Step{}, fmt.Errorf("sweep stopped at step %d/%d: %w", i+1, n, err)
	}
	if err != nil {
		s = stepOf(g)
		s.Failed = cfg.errorText(err)
		gr.failed++
		if gr.firstFail == "" {
			gr.firstFail = s.Failed
		}
	}
	gr.ran++
	gr.spent += time.Since(t0)
	return s, nil
}

// again measures s, just measured (the last of the sweep's steps), again
// at once when its window began with a start-up burst that moves its mean
// more than its decisions allow (Settle.LeadMoves: a throttle's or a
// provisioned volume's burst, which a fixed step's longer ramp spends
// before its window opens), and keeps the new measurement, held by its own
// lead if it has one (Settle.FirstIOPS keeps the first); then checks it
// against the step before it (fellAgain). When that step is measured
// again, s too is measured again if it began with a lead its decisions
// were judged against the old measurement with. It returns s as kept and
// the index in r.Steps of the step before it when that was measured
// again (else −1).
func (gr *gridRun) again(ctx context.Context, i int, s Step) (Step, int, error) {
	if !gr.cfg.Steady.Settles() || s.OfferedIOPS > 0 || !s.Analysable() {
		return s, -1, nil
	}
	var err error
	if st := s.Settle; st != nil && st.LeadMoves() {
		if s, err = gr.measureLastAgain(ctx, i, s, littleslaw.AgainLead); err != nil {
			return s, -1, err
		}
	}
	before, err := gr.fellAgain(ctx, i, s)
	if err != nil || before < 0 {
		return s, -1, err
	}
	if st := s.Settle; st != nil && st.Lead > 0 && st.FirstIOPS == 0 {
		s, err = gr.measureLastAgain(ctx, i, s, littleslaw.AgainBefore)
	}
	return s, before, err
}

// measureLastAgain measures s, the sweep's last step (grid step i), again
// for why (littleslaw.AgainLead, AgainBefore) and keeps the new
// measurement (keepFirst) when it is analysable; it returns the step kept.
func (gr *gridRun) measureLastAgain(ctx context.Context, i int, s Step, why string) (Step, error) {
	g := GridStep{RW: ioengine.RW(s.RW), BS: s.BS, IODepth: s.IODepth, NumJobs: s.NumJobs, Hosts: gr.r.Plan.Hosts}
	ns, err := gr.measure(ctx, i, g, false)
	if err != nil {
		return s, err
	}
	if !ns.Analysable() || ns.Settle == nil {
		return s, nil
	}
	keepFirst(&ns, s, why)
	gr.r.Steps[len(gr.r.Steps)-1] = ns
	return ns, nil
}

// keepFirst records in ns, a step measured again for why, what its first
// measurement (first) gave and cost: its IOPS, its ramp and window time
// and the I/Os it completed.
func keepFirst(ns *Step, first Step, why string) {
	st := ns.Settle
	st.FirstIOPS, st.Again = first.IOPS, why
	st.FirstNs, st.FirstIOs = first.RuntimeNs+first.RampNs, first.IssuedIOs()
}

// fellAgain is the settling rule's check of a step against the one before it
// on its curve: when s, just measured, gave fewer IOPS than that step by
// more than the knee's 5% at 95% (fellClear; deeper, yet lower: the shorter step's window
// carried a burst that ran out, as a throttle's or a provisioned volume's
// does, and a fixed step's longer ramp and window would have spent it),
// that step is measured again, once, and its new measurement replaces it
// (Settle.FirstIOPS keeps the first). Off without the settling rule and
// for offered loads. It returns that step's index in r.Steps when it was
// measured again, else −1.
func (gr *gridRun) fellAgain(ctx context.Context, i int, s Step) (int, error) {
	j := -1
	for k, p := range gr.r.Steps {
		if p.RW == s.RW && p.BS == s.BS && p.Analysable() && p.OfferedIOPS == 0 && p.QD < s.QD && (j < 0 || p.QD > gr.r.Steps[j].QD) {
			j = k
		}
	}
	if j < 0 {
		return -1, nil
	}
	p := gr.r.Steps[j]
	fell, at, of := fellClear(s, p)
	if !fell {
		return -1, nil
	}
	return gr.measureAgain(ctx, i, j, littleslaw.AgainFell, s.QD, at, of)
}

// measureAgain measures r.Steps[j], an earlier step of the curve grid
// step i is on, again for why (littleslaw.AgainFell, AgainTop), once:
// not a step without settling figures or one already measured again. The
// new measurement replaces it when analysable, recording what the first
// gave and cost (keepFirst) and the deeper step at qd and its figure iops
// that called for it, of saying which (Settle.FellQD, FellIOPS, FellOf).
// It returns j when the step was measured again, else −1.
func (gr *gridRun) measureAgain(ctx context.Context, i, j int, why string, qd int, iops float64, of string) (int, error) {
	p := gr.r.Steps[j]
	if p.Settle == nil || p.Settle.FirstIOPS > 0 {
		return -1, nil
	}
	g := GridStep{RW: ioengine.RW(p.RW), BS: p.BS, IODepth: p.IODepth, NumJobs: p.NumJobs, Hosts: gr.r.Plan.Hosts}
	ns, err := gr.measure(ctx, i, g, false)
	if err != nil || !ns.Analysable() || ns.Settle == nil {
		return -1, err
	}
	keepFirst(&ns, p, why)
	ns.Settle.FellQD, ns.Settle.FellIOPS, ns.Settle.FellOf = float64(qd), iops, of
	gr.r.Steps[j] = ns
	return j, nil
}

// topAgain is the settling rule's check of a curve's top as the curve
// ends (s, just measured, is its last step: the grid's last, the last of
// its curve, or the early stop skips the rest): when s gave fewer IOPS
// than the curve's top (its most IOPS, as the analysis reads each step,
// curvePoint) by more than the knee's 5% (the margin the analysis judges
// a flat top by), the top is measured again, once, and its new
// measurement replaces it (littleslaw.AgainTop). A short window at the
// top that carried a burst would otherwise make a capped curve read as
// retrograde, and its saturation as a burst's. Off without the settling
// rule and for offered loads. It returns the top's index in r.Steps when
// it was measured again, else −1.
func (gr *gridRun) topAgain(ctx context.Context, i int, s Step, stop EarlyStop) (int, error) {
	if !gr.cfg.Steady.Settles() || s.OfferedIOPS > 0 || !s.Analysable() || !gr.curveEnds(i, s, stop) {
		return -1, nil
	}
	last, ok := curvePoint(s)
	if !ok {
		return -1, nil
	}
	j, most := -1, 0.0
	for k, p := range gr.r.Steps {
		if p.RW != s.RW || p.BS != s.BS || p.OfferedIOPS > 0 || p.QD >= s.QD {
			continue
		}
		if v, ok := curvePoint(p); ok && v > most {
			j, most = k, v
		}
	}
	if j < 0 || last >= (1-littleslaw.SaturationGain)*most {
		return -1, nil
	}
	of := ""
	if last != s.IOPS {
		of = littleslaw.FellSustained
	}
	return gr.measureAgain(ctx, i, j, littleslaw.AgainTop, s.QD, last, of)
}

// curveEnds reports whether s, grid step i just measured, is the last step
// its curve measures: the grid's last, the last of its curve, or the one
// after which the early stop skips the rest.
func (gr *gridRun) curveEnds(i int, s Step, stop EarlyStop) bool {
	if i+1 >= len(gr.grid) {
		return true
	}
	next := gr.grid[i+1]
	return !next.Curve(s.RW, s.BS) || stop.Reason(measured(gr.r.Steps, next)) != ""
}

// curvePoint is the IOPS the analysis reads step s at (Curve.Points: its
// mean, or its sustained level); false when the analysis leaves it out.
func curvePoint(s Step) (float64, bool) {
	pts := Curve{Steps: []Step{s}}.Points()
	if len(pts) == 0 {
		return 0, false
	}
	return pts[0].IOPS, true
}

// fellClear reports whether step s gave fewer IOPS than p, the step
// before it on its curve, by more than the knee's 5% at the settling
// rule's confidence: its gain's interval (Gain + T × GainErr, as its
// settling judged it against p) wholly below −SaturationGain, or, for a
// step that began with a start-up lead, its level's (Settle.Level, with
// the level's own standard error and t). A fall within a noisy disk's
// scatter is not one. at is the figure of s that fell, of which: its mean
// IOPS ("") or its level (littleslaw.FellLevel).
func fellClear(s, p Step) (fell bool, at float64, of string) {
	st := s.Settle
	if st == nil || st.PrevQD != float64(p.QD) || st.T == 0 {
		return false, 0, ""
	}
	if st.Lead > 0 && st.LevelN >= 3 && p.IOPS > 0 {
		// A step that began with a burst: its level after the burst,
		// with the level's own spread (the burst's slices would widen
		// the mean's, hiding the fall of what lasts).
		gain := st.Level/p.IOPS - 1
		err := (1 + gain) * math.Hypot(p.IOPSUncertainty(), st.LevelErr)
		if gain+littleslaw.TQuantile(st.LevelN-1)*err < -littleslaw.SaturationGain {
			return true, st.Level, littleslaw.FellLevel
		}
	}
	return st.Gain+st.T*st.GainErr < -littleslaw.SaturationGain, s.IOPS, ""
}

// runCapacity measures, for a plan of offered loads given as fractions,
// the closed-loop step at its iodepth × numjobs (Result.Capacity) and adds
// the fractions of its IOPS to Plan.Rates, whole I/Os per second.
func runCapacity(ctx context.Context, cfg Config, r *Result) error {
	p := &r.Plan
	if len(p.RateFractions) == 0 || r.Capacity != nil {
		return nil
	}
	g := GridStep{RW: ioengine.RW(p.RW[0]), BS: p.BS[0], IODepth: p.IODepth[0], NumJobs: p.NumJobs[0], Hosts: p.Hosts}
	s, err := runStep(ctx, cfg, g, nil, Live{Index: 1, Total: p.Size() + 1, Step: g}, func(time.Duration) time.Duration { return 0 })
	if err != nil {
		if ctx.Err() != nil {
			r.Interrupted = true
		}
		return fmt.Errorf("sweep: the closed-loop step the offered loads are fractions of, %s: %w", g, err)
	}
	if s.IOPS <= 0 {
		return fmt.Errorf("sweep: the closed-loop step %s did no I/O: no load to offer fractions of", g)
	}
	r.Capacity = &s
	for _, f := range p.RateFractions {
		p.Rates = append(p.Rates, math.Max(1, math.Round(f*s.IOPS)))
	}
	slices.Sort(p.Rates)
	p.Rates = slices.Compact(p.Rates)
	return nil
}

// String names a grid step as "randread 4k 32×1" (with its offered load,
// "randread 4k 32×1 at 2000 IOPS").
func (g GridStep) String() string {
	s := fmt.Sprintf("%s %s %d×%d", g.RW, units.FioSize(g.BS), g.IODepth, g.NumJobs)
	if g.RateIOPS > 0 {
		s += fmt.Sprintf(" at %.0f IOPS", g.RateIOPS)
	}
	return s
}

// eta estimates the time left: the remaining steps at the mean wall time of
// the steps run so far (including the running one, counted as taking its full window).
func eta(cfg Config, spent time.Duration, ran, remaining int, elapsed time.Duration) time.Duration {
	cur := cfg.Ramp + cfg.Runtime - elapsed // upper bound for the running step
	per := cfg.Ramp + cfg.Runtime
	if ran > 1 {
		per = (spent - elapsed) / time.Duration(ran-1)
		per = max(per, cfg.Ramp)
	}
	return max(0, cur) + per*time.Duration(remaining)
}

func hasStep(steps []Step, g GridStep) bool {
	for _, s := range steps {
		if g.Matches(s) {
			return true
		}
	}
	return false
}

// measured returns the measured steps of g's curve, in run order.
func measured(steps []Step, g GridStep) []Step {
	var out []Step
	for _, s := range steps {
		if g.Curve(s.RW, s.BS) && s.Measured() {
			out = append(out, s)
		}
	}
	return out
}

// prevEstimate is the step the settling rule judges g against: the
// deepest measured step of g's curve shallower than g (nil: none).
func prevEstimate(steps []Step, g GridStep) *littleslaw.StepEstimate {
	var p *Step
	for _, s := range measured(steps, g) {
		if s.QD < g.QD() && s.IOPS > 0 && (p == nil || s.QD > p.QD) {
			p = &s
		}
	}
	if p == nil {
		return nil
	}
	e := stepEstimate(*p)
	return &e
}

// stepEstimate is a measured step as the settling rule judges another
// against it: its mean IOPS and latency with the standard errors its
// settling recorded (else its IOPS uncertainty for both).
func stepEstimate(p Step) littleslaw.StepEstimate {
	e := littleslaw.StepEstimate{QD: float64(p.QD), IOPS: p.IOPS, LatNs: p.Lat.MeanNs, IOPSErr: p.IOPSUncertainty()}
	e.LatErr = e.IOPSErr
	if st := p.Settle; st != nil {
		e.IOPSErr, e.LatErr, e.N = st.IOPSErr, st.LatErr, st.N
	}
	return e
}

func stepOf(g GridStep) Step {
	return Step{RW: string(g.RW), BS: g.BS, IODepth: g.IODepth, NumJobs: g.NumJobs, QD: g.QD(), OfferedIOPS: g.RateIOPS, Errors: []ioengine.IOError{}}
}

func skippedStep(g GridStep, reason string) Step {
	s := stepOf(g)
	s.Skipped = reason
	return s
}

// stepDetector is the settling rule's detector for grid step g: judged
// against before (nil: none), or as a control step against its first
// measurement, a first measurement's lead recorded for the sweep to
// measure again (Config.leadAgain), its window cap the runtime.
func stepDetector(cfg Config, g GridStep, before *littleslaw.StepEstimate) *SteadyDetector {
	det := NewSteadyDetector(cfg.Steady)
	det.Against(g.QD(), before)
	if cfg.leadAgain {
		det.LeadAgain()
	}
	if cfg.controlOf != nil {
		det.AgainstControl(g.QD(), *cfg.controlOf, ControlMinBand, ControlMaxBand)
	}
	det.Cap(cfg.Runtime)
	return det
}

// runStep measures one grid step;
// before is the step before it on its curve, which the settling rule judges
// it against (nil: none).
func runStep(ctx context.Context, cfg Config, g GridStep, before *littleslaw.StepEstimate, live Live, etaFn func(time.Duration) time.Duration) (Step, error) {
	w := cfg.Workload
	w.RW, w.BS, w.IODepth, w.NumJobs = g.RW, g.BS, g.IODepth, g.NumJobs
	if g.RateIOPS > 0 {
		w.RateIOPS = RatesPerJob(g.RateIOPS, g.RW, w.RWMixRead, g.NumJobs)
	} else {
		w.Poisson = false // a closed-loop step: no arrivals to draw
	}
	det := stepDetector(cfg, g, before)
	ramp := &rampDetector{qd: g.QD()}
	interval := cfg.Steady.Interval
	if interval <= 0 {
		interval = DefaultSteady.Interval
	}
	var prev ioengine.Sample
	// A written target held for the sweep is looked at again each second
	// of the step: a loop device attached over it, or a holder of it, stops
	// the sweep (ErrTargetChanged) before more is written.
	ctx, stopStep := context.WithCancel(ctx)
	defer stopStep()
	var changed error
	samples := 0
	recheckEvery := max(1, int(time.Second/interval))
	ctl := ioengine.Control{
		Ramp:           cfg.Ramp,
		Runtime:        cfg.Runtime,
		SampleInterval: interval,
		OnSample: func(s ioengine.Sample) bool {
			if samples++; samples%recheckEvery == 0 && changed == nil {
				if err := w.Held.Recheck(); err != nil {
					changed = err
					stopStep()
				}
			}
			reached := det.Add(s)
			if g.RateIOPS > 0 {
				// Offered a load, a step's IOPS is the load: its steadiness
				// says nothing of the device, and its window runs whole.
				reached = false
			}
			if cfg.OnLive != nil {
				cfg.OnLive(liveOf(live, prev, s, etaFn))
			}
			prev = s
			return reached
		},
	}
	if p := cfg.Probe; p != nil {
		ctl.OnWindowStart = p.WindowStart
		ctl.OnWindowEnd = p.WindowEnd
	}
	if cfg.Steady.Settles() && cfg.Steady.RampInterval > 0 && cfg.Ramp > 0 {
		ctl.RampSampleInterval, ctl.OnRampSample = cfg.Steady.RampInterval, ramp.Add
	}
	series := withSeries(cfg, &ctl)
	if err := w.Held.Recheck(); err != nil {
		return Step{}, fmt.Errorf("%s: %w", g, err)
	}
	st, err := cfg.Engine.Run(ctx, w, ctl)
	if changed != nil {
		return Step{}, fmt.Errorf("%s: %w", g, changed)
	}
	if err != nil {
		return Step{}, fmt.Errorf("%s: %w", g, err)
	}
	s := StepFromStats(g, st)
	s.Series = series(st)
	recordSteadiness(&s, det, ramp, cfg.Ramp)
	if p := cfg.Probe; p != nil {
		s.Device, s.HostCPU = p.Collect()
	}
	return s, nil
}

// liveOf is the live view of a step at sample s: the IOPS since the
// sample before (prev), the mean latency so far and the sweep's ETA.
func liveOf(live Live, prev, s ioengine.Sample, etaFn func(time.Duration) time.Duration) Live {
	l := live
	l.Elapsed = s.Elapsed
	if dt := s.Elapsed - prev.Elapsed; dt > 0 {
		l.IOPS = float64(s.IOs-prev.IOs) / dt.Seconds()
	}
	if s.IOs > 0 {
		l.LatMean = time.Duration(s.LatSumNs / s.IOs)
	}
	l.ETA = etaFn(s.Elapsed)
	return l
}

// recordSteadiness puts what the steadiness test and the ramp found into
// s: whether the step held steady and why not, its settling, and how its
// ramp ended (at rampTime, or early when the ramp rule held).
func recordSteadiness(s *Step, det *SteadyDetector, ramp *rampDetector, rampTime time.Duration) {
	s.Steady = det.Attained()
	s.NotSteady, s.SteadyDrift, s.IOPSCV = det.Why(), det.Drift(), det.CV()
	if st, ok := det.Settle(); ok {
		s.Settle = &st
	}
	s.RampNs, s.RampEnd = int64(rampTime), RampEndTime
	if ramp.ended > 0 {
		s.RampNs, s.RampEnd = int64(ramp.ended), RampEndFull
	}
}

// StepFromStats fills a Step of grid point g from an engine's Stats,
// including LittleError = (inflight_mean − iops × lat_mean) / inflight_mean
// (0 when inflight_mean is 0).
func StepFromStats(g GridStep, st *ioengine.Stats) Step {
	s := stepOf(g)
	s.IOPS = st.All.IOPS
	s.BWBytes = st.All.BWBytes
	s.Lat = st.All.Lat
	s.ArrivalLat = st.Arrival
	s.Read, s.Write = st.Read, st.Write
	s.InflightMean = st.InflightMean
	if st.InflightMean > 0 {
		s.LittleError = (st.InflightMean - st.All.IOPS*st.All.Lat.MeanNs/1e9) / st.InflightMean
	}
	s.RuntimeNs = int64(st.Runtime)
	s.CPU = st.CPU
	if st.Errors != nil {
		s.Errors = st.Errors
	}
	s.Hosts = HostSteps(st.Hosts)
	s.Shortfall = st.Shortfall
	if g.RateIOPS > 0 && st.Shortfall != nil && st.Shortfall.Cause == ioengine.ShortfallRate {
		// Offered a load, a step keeps in flight what its arrivals need:
		// that is its measurement (Little's Law), not a queue held short.
		s.Shortfall = nil
	}
	return s
}
