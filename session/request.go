package session

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/qdsweep/qdsweep/units"
)

// Field is one setting of a request. A request's Set holds the settings
// the user gave; one not given yields to a job file's or a resumed
// sweep's, or takes its default.
type Field uint

// The settings a request may hold as given.
const (
	FieldRW Field = iota
	FieldBS
	FieldIODepth
	FieldNumJobs
	FieldFull
	FieldFilename
	FieldSize
	FieldOffset
	FieldOffsetIncrement
	FieldRWMixRead
	FieldDirect
	FieldRandSeed
	FieldContinueOnError
	FieldUring // any of fio's io_uring options
	FieldRamp
	FieldRuntime
	FieldEngine  // --ioengine
	FieldSim     // the simulated device's spec (--sim)
	FieldSimKeys // the simulated device's older per-key settings
	FieldFioArgs
	FieldFioClients
	FieldJobFile
	FieldOutput
	FieldEmitJobs
	FieldRefine
	FieldRateIOPS    // --rate_iops: the offered loads of an open-loop sweep
	FieldRateProcess // --rate_process
)

// Fields is a set of Field.
type Fields uint64

// Add puts fs in the set.
func (s *Fields) Add(fs ...Field) {
	for _, f := range fs {
		*s |= 1 << f
	}
}

// Has reports whether any of fs is in the set.
func (s Fields) Has(fs ...Field) bool {
	for _, f := range fs {
		if s&(1<<f) != 0 {
			return true
		}
	}
	return false
}

// Out is the answer's destination: the writers and the signal handling of
// the command line.
type Out struct {
	Stdout, Stderr io.Writer
	OnHardExit     HardExit
	// OnCommit is called once the request is checked and the session
	// starts its work: from then on it ends that work on its own at the
	// first signal and keeps what it measured (nil: nothing to call).
	OnCommit func()
}

func (o Out) commit() {
	if o.OnCommit != nil {
		o.OnCommit()
	}
}

// SweepRequest is everything a sweep's command line says, each value as
// the user gave it or its default, and Set: which settings were given.
// RunSweep builds the sweep from it (the resumed sweep's and the job
// file's settings fill what was not given) and runs it.
type SweepRequest struct {
	Set     Fields
	Resume  string // results directory of the sweep to continue ("": none)
	Output  string // results directory ("": the default one)
	JobFile string // fio job file of the workload ("": none)

	RW, BS, IODepth, NumJobs string // the plan, as lists
	Full                     bool
	// RateIOPS and RateProcess are the offered loads (a list) and how
	// they arrive (linear, poisson) of a sweep over loads.
	RateIOPS, RateProcess string
	// StepOptions are the given flags of fio's options every step runs
	// (fio.SweepStep rows: bssplit, random_distribution, thinktime …),
	// as fio options, applied after a job file's.
	StepOptions []fio.Option

	// Workload holds the shared settings: filename, size (given, or its
	// default), offsets, rwmixread, direct, seed, continue_on_error,
	// io_timeout, io_uring options, and what may be written over (Permit).
	Workload      ioengine.Workload
	Ramp, Runtime time.Duration // when Set has FieldRamp, FieldRuntime
	Engine        EngineRequest

	Steady    sweep.SteadyConfig
	LogEvery  time.Duration // series interval (< 0: off)
	MaxP99    time.Duration
	Overwrite bool
	EmitJobs  string // directory for one fio job file per step
	Control   bool
	JSON      bool
	Quiet     bool

	Analyze     littleslaw.Options // target and latency objective
	Refine      bool               // when Set has FieldRefine
	RefineSteps int
	ChartFormat string

	Version string
	Out
}

// RunSweep builds the sweep req asks for and runs it.
func RunSweep(ctx context.Context, req SweepRequest) error {
	o, err := NewSweep(req)
	if err != nil {
		return err
	}
	req.commit()
	if err := ctx.Err(); err != nil {
		return ErrInterrupted
	}
	return o.Run(ctx)
}

// NewSweep builds and checks the sweep req asks for; nothing is written.
// Errors are usage errors.
func NewSweep(req SweepRequest) (*Sweep, error) {
	o := &Sweep{Version: req.Version, Stdout: req.Stdout, Stderr: req.Stderr, OnHardExit: req.OnHardExit}
	g := req.Set
	output := ""
	if g.Has(FieldOutput) {
		output = req.Output
	}
	if err := o.Resume(req.Resume, output); err != nil {
		return o, err
	}
	var jf *JobFile
	var inputs []string // never outputs
	var err error
	if g.Has(FieldJobFile) {
		if inputs, err = JobFileInputs("--jobfile", req.JobFile); err != nil {
			return o, err
		}
		if jf, err = ReadSweepJobFile(req.JobFile); err != nil {
			return o, err
		}
	}
	if jf, err = WithStepOptions(jf, req.StepOptions); err != nil {
		return o, err
	}
	o.notes = jf.Notes()
	if o.Plan, err = planOf(req, o.Prev, jf); err != nil {
		return o, err
	}
	defSize := req.Workload.Size
	o.Workload = req.Workload
	if !g.Has(FieldSize) && o.Workload.Filename != "" && targetExists(o.Workload.Filename) {
		o.Workload.Size = 0 // as fio: an existing file or device is covered whole
	}
	jf.ApplyShared(g, &o.Workload)
	o.Workload.Poisson = jf.Poisson(g, req.RateProcess)
	name, given := req.Engine.name(g)
	o.EngineName = jf.IOEngine(name, given)
	defRamp, defRuntime := o.KeepPrevious(g, given)
	if jf.Has(fio.OptRampTime) {
		defRamp = jf.Run.Ramp
	}
	if jf.Has(fio.OptRuntime) && jf.Run.Runtime > 0 {
		defRuntime = jf.Run.Runtime
	}
	o.Ramp, o.Runtime = defRamp, defRuntime
	if g.Has(FieldRamp) {
		o.Ramp = req.Ramp
	}
	if g.Has(FieldRuntime) {
		o.Runtime = req.Runtime
	}
	if o.Runtime <= 0 {
		return o, Usagef("--%s: must be positive; use e.g. --%s=30 (seconds) or 10s", fio.OptRuntime, fio.OptRuntime)
	}
	if o.Engine, err = req.Engine.engine(g, o.EngineName, false, o.Prev); err != nil {
		return o, err
	}
	if o.Engine.Fio != nil {
		o.Engine.Fio.Given = fioGiven(req, jf)
	}
	o.SetTarget(g, jf, defSize)
	if err := jf.CheckTarget(g, o.Plan, &o.Workload, o.Scratch); err != nil {
		return o, err
	}
	o.Steady, o.LogEvery = req.Steady, req.LogEvery
	o.Stop = sweep.DefaultEarlyStop
	o.Stop.MaxP99 = req.MaxP99
	if err := o.outputs(req, inputs); err != nil {
		return o, err
	}
	o.Control, o.JSON, o.Quiet = req.Control, req.JSON, req.Quiet
	return o, o.analysis(req)
}

// outputs decides where the sweep writes: its results directory and the
// job files' directory; neither replaces the target or an input.
func (o *Sweep) outputs(req SweepRequest, inputs []string) error {
	protect := append([]string{o.Workload.Filename}, inputs...)
	oo := guard.OutOptions{Flag: "--output", Overwrite: req.Overwrite, Protect: protect}
	if o.OutDir == "" {
		var err error
		if o.OutDir, err = ResultsDir(req.Output, oo); err != nil {
			return err
		}
	}
	o.OutOpts = oo
	if o.Prev != nil {
		o.OutOpts.Overwrite = true // its own directory, results and all
	}
	if o.JobsDir = req.EmitJobs; req.Set.Has(FieldEmitJobs) {
		o.JobsOut = guard.OutOptions{Flag: "--emit-fio-jobs", Overwrite: req.Overwrite, Protect: protect}
		if err := guard.CheckOut(o.JobsDir, o.JobsOut); err != nil {
			return OutErr(err)
		}
	}
	return nil
}

// analysis sets what the analysis and the report are asked: the target,
// the latency objective, refinement and the chart format.
func (o *Sweep) analysis(req SweepRequest) error {
	o.Analyze = req.Analyze
	o.Report = report.Options{TargetIOPS: o.Analyze.TargetIOPS, SLO: o.Analyze.SLO, ChartFormat: req.ChartFormat}
	refine := o.Analyze.TargetIOPS > 0 || o.Analyze.SLO != nil
	if req.Set.Has(FieldRefine) {
		refine = req.Refine
	}
	if refine {
		o.Refine = sweep.Refine{Knee: true, TargetIOPS: o.Analyze.TargetIOPS, SLO: o.Analyze.SLO, Steps: req.RefineSteps}
	}
	if n := req.RefineSteps; n < 1 || n > 16 {
		return Usagef("--refine-steps: %d; use 1 to 16", n)
	}
	if f := o.Report.ChartFormat; f != "png" && f != "svg" {
		return Usagef("--chart-format: %q; use png or svg", f)
	}
	return nil
}

// planOf builds the plan from the request's lists (or the job file's
// where the request gave none). When resuming, lists not given take the
// resumed plan's values and the result must equal it.
func planOf(req SweepRequest, prev *sweep.Result, jf *JobFile) (sweep.Plan, error) {
	var p sweep.Plan
	if prev != nil {
		p = prev.Plan
	}
	g := req.Set
	fresh := prev == nil
	if fresh || g.Has(FieldRW) {
		rw, err := sweep.ParseRWList(jf.RW(g, req.RW))
		if err != nil {
			return p, Usagef("--%s: %v", fio.OptRW, err)
		}
		p.RW = sweep.NewPlan(rw, nil, nil, nil, false).RW
	}
	if fresh || g.Has(FieldBS) {
		bs, err := sweep.ParseSizeList(jf.BS(g, req.BS))
		if err != nil {
			return p, Usagef("--%s: %v", fio.OptBS, err)
		}
		p.BS = bs
	}
	for _, f := range []struct {
		name  fio.OptionKey
		field Field
		dst   *[]int
		text  string
	}{{fio.OptIODepth, FieldIODepth, &p.IODepth, jf.IODepths(g, req.IODepth)}, {fio.OptNumJobs, FieldNumJobs, &p.NumJobs, jf.NumJobs(g, req.NumJobs)}} {
		if fresh || g.Has(f.field) {
			v, err := sweep.ParseIntSpec(f.text)
			if err != nil {
				return p, Usagef("--%s: %v", f.name, err)
			}
			*f.dst = v
		}
	}
	if fresh || g.Has(FieldFull) {
		p.Full = req.Full
	}
	if fresh || g.Has(FieldRateIOPS, FieldRateProcess) {
		var err error
		if p.Rates, p.RateFractions, err = SweepRates(g, jf, req.RateIOPS, req.RateProcess); err != nil {
			return p, err
		}
		if p.OpenLoop() && !g.Has(FieldIODepth) {
			p.IODepth = []int{OpenLoopIODepth(jf)}
		}
	}
	if err := p.Validate(); err != nil {
		return p, Usagef("%v", err)
	}
	if prev != nil && !p.Equal(prev.Plan) {
		return p, Usagef("--resume: the plan given (%s) differs from the sweep's (%s); drop the plan flags to continue it, or start a new sweep",
			planWords(p), planWords(prev.Plan))
	}
	return p, nil
}

// planWords renders a plan as flags.
func planWords(p sweep.Plan) string {
	ints := func(v []int) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = strconv.Itoa(x)
		}
		return strings.Join(s, ",")
	}
	bs := make([]string, len(p.BS))
	for i, b := range p.BS {
		bs[i] = units.FioSize(b)
	}
	s := fmt.Sprintf("--%s %s --%s %s --%s %s --%s %s", fio.OptRW, strings.Join(p.RW, ","), fio.OptBS, strings.Join(bs, ","),
		fio.OptIODepth, ints(p.IODepth), fio.OptNumJobs, ints(p.NumJobs))
	if p.Full {
		s += " --full"
	}
	return s
}

// fioGiven are a sweep's options as the user gave them, which the fio
// engine hands fio where they mean what a step runs
// (fioadapt.AsGiven): the job file's, then each value of --rw's and
// --bs's lists (bs=4k for a step at 4 KiB).
func fioGiven(req SweepRequest, jf *JobFile) []fio.Option {
	var out []fio.Option
	if jf != nil {
		out = append(out, jf.Run.Given...)
	}
	for _, f := range []struct {
		key   fio.OptionKey
		field Field
		text  string
	}{{fio.OptRW, FieldRW, req.RW}, {fio.OptBS, FieldBS, req.BS}} {
		if req.Set.Has(f.field) {
			for _, v := range strings.Split(f.text, ",") {
				out = append(out, fio.Option{Key: string(f.key), Value: strings.TrimSpace(v)})
			}
		}
	}
	return out
}
