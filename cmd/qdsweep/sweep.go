package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/qdsweep/qdsweep/units"
	"github.com/urfave/cli/v2"
)

// Defaults of `qdsweep sweep`, chosen so the default sweep (9 steps and the
// 1 GiB scratch layout) takes about 30 s on a busy 2-core VM: each step
// ramps 0.5 s, then ends once IOPS is steady over the 2 s --ss_dur window
// or after 3 s at most (measured: 31 s with most steps ending at 3 s on a
// shared disk, against 39 s with a 5 s runtime).
const (
	sweepDefaultRamp    = 500 * time.Millisecond
	sweepDefaultRuntime = 3 * time.Second
	scratchName         = "qdsweep.scratch"
)

func sweepCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "rw", Value: "randread", Usage: "I/O pattern, or a list giving one curve each (read,randread)"},
		&cli.StringFlag{Name: "bs", Value: "4k", Usage: "block size, or a list giving one curve each (4k,16k,64k,1m)"},
		&cli.StringFlag{Name: "iodepth", Value: "1:256", Usage: "I/Os in flight per job: list (1,2,4,8), doubling range (1:256) or range with factor (1:256:x4)"},
		&cli.StringFlag{Name: "numjobs", Value: "1", Usage: "parallel jobs: list, range or one value like --iodepth"},
		&cli.BoolFlag{Name: "full", Usage: "run the whole grid: no early stop, and grids over 10,000 steps allowed"},
		&cli.StringFlag{Name: "ss", Value: "2%", Usage: "steady state: a step ends once IOPS drifts less than this share of its mean per second (fio's ss=iops_slope); 0 turns it off"},
		&cli.StringFlag{Name: "ss_dur", Value: "2s", Usage: "window the steady-state slope is fitted over"},
		&cli.StringFlag{Name: "mean-precision", Value: "2%", Usage: "a step also ends, from 1 s on, once its mean IOPS is known to within this (standard error) and IOPS shows no drift; 0 leaves only --ss"},
		&cli.StringFlag{Name: "ss_interval", Value: "250ms", Usage: "IOPS sampling period for steady state and progress"},
		&cli.StringFlag{Name: "max_latency", Value: "2s", Usage: "stop a curve once a step's p99 latency exceeds this (0: no limit)"},
		&cli.StringFlag{Name: "output", Aliases: []string{"out", "o"}, Usage: "results directory to create (default ./qdsweep-YYYYMMDD-HHMMSS)"},
		overwriteFlag(),
		&cli.BoolFlag{Name: "control", Value: true, Usage: "measure the best step again at the end: a level that did not last (burst credits, a throttle, a neighbour) is found and left out of the sizing"},
		&cli.StringFlag{Name: "resume", Usage: "continue the interrupted sweep in this results directory"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors (and the JSON with --output-format=json)"},
		targetIOPSFlag("target I/Os per second to size for in the recommendation, e.g. 160000 or 160k"),
		latencySLOFlag("latency objective for the recommendation, e.g. p99=5ms (mean, p50, p90, p99, p999)"),
		&cli.StringFlag{Name: "slo", Hidden: true, Usage: "old name of --latency-slo"},
		&cli.StringFlag{Name: "chart-format", Value: "png", Usage: "png or svg"},
		&cli.BoolFlag{Name: "refine", Usage: "after the grid, measure depths between the grid steps around the saturation knee, the --target-iops depth and the --latency-slo boundary", DefaultText: "on with --target-iops or --latency-slo, else off"},
		&cli.IntFlag{Name: "refine-steps", Value: sweep.DefaultRefineSteps, Usage: "most extra steps per refined boundary"},
	}
	flags = append(flags, workloadFlags(sweepDefaultRamp.String(), sweepDefaultRuntime.String()+", or sooner once steady")...)
	flags = append(flags, logIntervalFlag())
	flags = append(flags, &cli.StringFlag{Name: "emit-fio-jobs", Usage: "write one fio job file per planned step into this directory before the sweep runs (any engine)"})
	return &cli.Command{
		Name:      "sweep",
		Usage:     "measure IOPS and latency across queue depths, find saturation, recommend a queue depth",
		UsageText: "qdsweep sweep [--filename PATH] [--iodepth 1:256] [--numjobs 1] [--rw randread] [--bs 4k] [--output DIR]",
		Description: "With no flags it lays out a 1 GiB scratch file ./" + scratchName + ", sweeps 4k random reads over iodepth\n" +
			"1, 2, 4 … 256 with one job, prints the table and recommendation, writes a results directory and\n" +
			"removes the scratch file. A --filename that does not exist is laid out and kept, as fio does.\n" +
			"Each step ramps --ramp_time (default 0.5 s), then measures until IOPS is steady (--ss: drifting\n" +
			"under 2% of its mean per second over the last --ss_dur 2 s, sampled every --ss_interval 250 ms)\n" +
			"or --runtime (default 3 s) ends: the default sweep takes about 30 s. For long fio-like steps use\n" +
			"e.g. --runtime=30 --ss=0. Ctrl-C stops and keeps what was measured; --resume DIR continues.\n" +
			"Write patterns over existing data need --allow-write (a file) or --allow-write-device\n" +
			"[--destroy-data=/dev/X] (a block device), checked for every --rw before anything runs.\n" +
			"--ioengine=fio runs the installed fio for each step (with --fio-clients on fio servers, whose\n" +
			"--filename is not laid out or checked here); --emit-fio-jobs DIR writes each step as a fio job file.",
		Flags:  flags,
		Action: sweepAction,
	}
}

// sweepOpts is everything sweepAction decided from the command line.
type sweepOpts struct {
	plan       sweep.Plan
	workload   ioengine.Workload
	engineName string
	engine     engineSetup
	jobsDir    string // --emit-fio-jobs
	ramp       time.Duration
	runtime    time.Duration
	steady     sweep.SteadyConfig
	logEvery   time.Duration // --log-interval (< 0: off)
	stop       sweep.EarlyStop
	outDir     string
	control    bool             // re-measure the best step at the end (--control)
	outOpts    guard.OutOptions // how outDir may be written
	jobsOut    guard.OutOptions // how jobsDir may be written
	scratch    bool             // the target is our scratch file: lay out, then remove
	prev       *sweep.Result
	analyze    littleslaw.Options
	refine     sweep.Refine // the refine pass after the grid (inactive: none)
	report     report.Options
	json       bool
	quiet      bool
}

func sweepAction(c *cli.Context) (err error) {
	stopsOnItsOwn.Store(true)
	if c.Args().Len() > 0 {
		return usagef("sweep: unexpected argument %q; all settings are flags (see qdsweep sweep --help)", c.Args().First())
	}
	o, err := sweepOptions(c)
	if err != nil {
		return err
	}
	rws, deepest, err := checkSweepPlan(c, &o)
	if err != nil {
		return err
	}
	// The results directory, through the one writer, and one owner for it:
	// held locked for the run. A start that fails before the first results
	// are written leaves nothing behind.
	out, err := openOut(o.outDir, o.outOpts)
	if err != nil {
		return err
	}
	started := false
	defer func() {
		if err != nil && !started {
			out.Abandon()
		}
	}()
	lock, err := guard.LockDir(o.outDir)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	defer onHardExit(lock.Unlock)()
	if err := emitCheckedJobs(o, deepest, rws); err != nil {
		return err
	}
	eng, fallback, err := o.engine.open()
	if err != nil {
		return err
	}
	if err := checkRemoteWrites(c, eng, deepest, rws); err != nil {
		return err
	}
	ctx := c.Context
	prog := newProgress(c.App.ErrWriter, o.quiet)
	defer prog.clear()
	if fallback != "" {
		prog.note("qdsweep: %s", fallback)
	}

	// The result: a new one, or the one being resumed.
	r, err := sweepResult(o, eng.Name(), fallback)
	if err != nil {
		return err
	}
	m := &r.Meta

	cleanup, err := layOutSweepTarget(ctx, &o, prog)
	defer cleanup()
	if err != nil {
		return err
	}
	probe := deviceProbe(o, m, prog)
	saver := &resultSaver{out: out}
	defer onHardExit(saver.markInterrupted)()
	if err := saver.save(r); err != nil {
		return err
	}
	started = true
	return measureSweep(c, o, eng, probe, saver, r, prog)
}

// emitCheckedJobs writes the fio job files --emit-fio-jobs asks for, past
// the write guard for what they name whatever engine runs here.
func emitCheckedJobs(o sweepOpts, deepest ioengine.Workload, rws []ioengine.RW) error {
	if o.jobsDir == "" {
		return nil
	}
	if !o.engine.local() && !o.engine.remote() && o.workload.Filename != "" {
		if err := checkWrites(deepest, rws, o.workload.Permit); err != nil {
			return err
		}
	}
	return emitFioJobs(o)
}

// deviceProbe is the telemetry probe of a local target (nil where there is
// none: the reason is said), its device and filesystem noted in m.
func deviceProbe(o sweepOpts, m *sweep.Meta, prog *progress) sweep.Probe {
	if !o.engine.local() {
		return nil
	}
	p, info, err := sweep.NewDeviceProbe(o.workload.Filename)
	if err != nil {
		prog.note("%s", report.NoTelemetryNote(err))
		return nil
	}
	m.Device, m.DeviceOff = info, p.Off()
	m.FSType, m.FSClass = p.FS().Type, string(p.FS().Class)
	return p
}

// measureSweep runs the sweep's steps on the held target, saving the
// results after each, and finishes it: an interrupted sweep is saved as
// such, a failed one as far as it got.
func measureSweep(c *cli.Context, o sweepOpts, eng ioengine.Engine, probe sweep.Probe, saver *resultSaver, r *sweep.Result, prog *progress) error {
	ctx := c.Context
	cfg := sweep.Config{
		Engine: eng, Workload: o.workload, Ramp: o.ramp, Runtime: o.runtime,
		Steady: o.steady, Stop: o.stop, Probe: probe, LogInterval: o.logEvery,
		OnLive: prog.live,
		OnStep: func(r *sweep.Result, s sweep.Step) error {
			prog.step(r, s)
			return saver.save(r)
		},
	}
	// The write guard holds the target from the first step to the last
	// refined one (a written block device stays claimed with O_EXCL).
	held, err := sweep.HoldTarget(cfg, r.Plan)
	if err != nil {
		return err
	}
	defer held.Close()
	if held != nil {
		cfg.Workload.Held = held
	}
	runErr := runSweepSteps(ctx, cfg, r, o)
	prog.clear()
	switch {
	case runErr != nil && ctx.Err() != nil:
		r.Interrupted = true
		if err := saver.save(r); err != nil {
			prog.note("qdsweep: %v", err)
		}
		prog.note("%s", report.PartialNote(o.outDir))
		return fmt.Errorf("sweep: %w", errInterrupted)
	case runErr != nil && !errors.Is(runErr, sweep.ErrAllFailed):
		_ = saver.save(r)
		return runErr
	}
	return finishSweep(c, o, saver, r, runErr)
}

// checkSweepPlan checks, before anything is written, that the engine runs
// each curve at its deepest iodepth and numjobs (lists are ascending), the
// write guard for every pattern of the sweep, and the process limits. It
// returns the patterns and the workload of the most jobs, whose region is
// (numjobs-1) × offset_increment + size.
func checkSweepPlan(c *cli.Context, o *sweepOpts) ([]ioengine.RW, ioengine.Workload, error) {
	var rws []ioengine.RW
	for _, rw := range o.plan.RW {
		rws = append(rws, ioengine.RW(rw))
		for _, bs := range o.plan.BS {
			w := o.workload
			w.RW, w.BS = ioengine.RW(rw), bs
			w.IODepth, w.NumJobs = o.plan.IODepth[len(o.plan.IODepth)-1], o.plan.NumJobs[len(o.plan.NumJobs)-1]
			if err := o.engine.validate(w); err != nil {
				return nil, ioengine.Workload{}, err
			}
		}
	}
	o.workload.Permit = writeGuardFromFlags(c)
	deepest := o.workload
	deepest.NumJobs = o.plan.NumJobs[len(o.plan.NumJobs)-1]
	if o.engine.local() {
		if err := checkWrites(deepest, rws, o.workload.Permit); err != nil {
			return nil, deepest, err
		}
	}
	if o.engine.sim == nil {
		if err := checkSweepLimits(o.plan); err != nil {
			return nil, deepest, err
		}
	}
	return rws, deepest, nil
}

// sweepResult is the result the sweep fills: a new one, or the one being
// resumed, with this run's meta (refused when it would measure something
// else than the sweep it continues).
func sweepResult(o sweepOpts, engine, fallback string) (*sweep.Result, error) {
	r := o.prev
	var prevMeta *sweep.Meta
	if r == nil {
		r = sweep.NewResult(sweep.Meta{Version: version, Start: time.Now()}, o.plan)
	} else {
		pm := r.Meta
		prevMeta = &pm
	}
	m := &r.Meta
	m.Hostname, m.Kernel, m.CPUs = sweep.HostFacts("/proc")
	m.Engine, m.EngineFallbackReason = engine, fallback
	m.Target = o.workload.Filename
	m.Simulated = o.engine.sim != nil
	m.Workload = sweep.Workload{Size: o.workload.Size, Direct: o.workload.Direct,
		RampNs: int64(o.ramp), RuntimeNs: int64(o.runtime), IOUring: o.workload.Uring.String()}
	for _, rw := range o.plan.RW {
		if rw == string(ioengine.ReadWrite) || rw == string(ioengine.RandRW) {
			m.Workload.RWMixRead = o.workload.RWMixRead
		}
	}
	if o.engine.sim != nil {
		m.Workload.Sim = o.engine.sim.String()
		m.Target = ""
	}
	if prevMeta != nil {
		if err := sweep.CheckResume(*prevMeta, *m); err != nil {
			*m = *prevMeta
			return r, usageErr(err)
		}
	}
	return r, nil
}

// layOutSweepTarget lays out the scratch file, or a named target that does
// not exist yet (ioengine.LayOut), and adds it to the files the sweep may
// write (by inode). The scratch file goes on every way out (only the file
// this process created: by inode); a named new target is kept, as fio does,
// unless the layout is cut short: then it goes too. cleanup, which the
// caller defers even on an error, does the going and says what was kept.
func layOutSweepTarget(ctx context.Context, o *sweepOpts, prog *progress) (func(), error) {
	path := o.workload.Filename
	if !o.scratch && !(o.engine.local() && !sweepTargetExists(path)) {
		return func() {}, nil
	}
	if o.scratch && sweepTargetExists(path) {
		return func() {}, fmt.Errorf("scratch file %s already exists (another sweep running here, or left by a crash); remove it or pass --filename", path)
	}
	size := layoutSize(o.workload, o.plan)
	prog.note("%s", report.LayoutNote([]string{path}, size))
	l, err := ioengine.LayOut(ctx, []string{path}, size, o.scratch, onHardExit)
	cleanup := func() {
		l.Close()
		if !o.scratch && sweepTargetExists(path) {
			prog.note("%s", report.KeptNote([]string{path}))
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return cleanup, fmt.Errorf("%w: %v", errInterrupted, err)
		}
		return cleanup, err
	}
	o.workload.Permit.Ours = append(o.workload.Permit.Ours, l.IDs()...) // laid out here: ours to write, by inode
	return cleanup, nil
}

// runSweepSteps runs the grid, then the refinement around the answers
// and the control step (the best step measured again: did the device hold
// still?), each only when the one before went through.
func runSweepSteps(ctx context.Context, cfg sweep.Config, r *sweep.Result, o sweepOpts) error {
	if err := sweep.Run(ctx, cfg, r); err != nil {
		return err
	}
	if o.refine.Active() {
		if err := sweep.RunRefine(ctx, cfg, r, o.refine); err != nil {
			return err
		}
	}
	if o.control {
		return sweep.RunControl(ctx, cfg, r)
	}
	return nil
}

// finishSweep analyses, writes the results directory and prints.
func finishSweep(c *cli.Context, o sweepOpts, saver *resultSaver, r *sweep.Result, runErr error) error {
	if err := r.Analyze(o.analyze); err != nil {
		return fmt.Errorf("analyse: %w", err)
	}
	report.Annotate(r)
	if err := saver.save(r); err != nil {
		return err
	}
	human := c.App.Writer
	if o.json {
		human = c.App.ErrWriter
	}
	if o.quiet {
		human = io.Discard
	}
	if runErr == nil {
		if err := report.Table(human, r, o.report); err != nil {
			return err
		}
	}
	files, err := report.WriteAll(saver.out, r, o.report)
	if err != nil && !errors.Is(err, report.ErrNoSteps) {
		return fmt.Errorf("write charts: %w", err)
	}
	notes := c.App.ErrWriter
	if o.quiet {
		notes = io.Discard
	}
	report.WriteWritten(human, notes, files, filepath.Join(o.outDir, sweep.ResultsJSON))
	if o.json {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("write JSON: %w", err)
		}
	}
	return runErr
}

// sweepOptions reads and checks every flag; errors are usage errors.
func sweepOptions(c *cli.Context) (sweepOpts, error) {
	var o sweepOpts
	var err error
	if err := o.resumeFrom(c); err != nil {
		return o, err
	}
	jf, err := readJobFileFlag(c)
	if err != nil {
		return o, err
	}
	if o.plan, err = planFromFlags(c, o.prev, jf); err != nil {
		return o, err
	}
	if o.workload, err = workloadFromFlags(c, jf); err != nil {
		return o, err
	}
	o.engineName = jf.ioengine(c)
	defRamp, defRuntime := o.keepPrevious(c)
	if jf.has("ramp_time") {
		defRamp = jf.run.Ramp
	}
	if jf.has("runtime") && jf.run.Runtime > 0 {
		defRuntime = jf.run.Runtime
	}
	if o.ramp, o.runtime, err = phasesFromFlags(c, defRamp, defRuntime); err != nil {
		return o, err
	}
	if err := o.engineAndTarget(c, jf); err != nil {
		return o, err
	}
	if o.steady, err = steadyFromFlags(c); err != nil {
		return o, err
	}
	if o.logEvery, err = logIntervalFromFlags(c); err != nil {
		return o, err
	}
	o.stop = sweep.DefaultEarlyStop
	if o.stop.MaxP99, err = durationFlag(c, "max_latency", 2*time.Second); err != nil {
		return o, err
	}
	if err := o.outputs(c); err != nil {
		return o, err
	}
	o.control = c.Bool("control")
	o.json = outputFormat(c) == formatJSON
	o.quiet = c.Bool("quiet")
	return o, o.analysis(c)
}

// resumeFrom reads --resume: the interrupted sweep to continue, written
// to its own directory.
func (o *sweepOpts) resumeFrom(c *cli.Context) error {
	dir := c.String("resume")
	if dir == "" {
		return nil
	}
	var err error
	if o.prev, err = sweep.Read(dir); err != nil {
		return usagef("--resume: %v; name the results directory of an interrupted sweep", err)
	}
	if c.IsSet("output") && filepath.Clean(c.String("output")) != filepath.Clean(dir) {
		return usagef("--output: a resumed sweep writes to its own directory %s; drop --output", dir)
	}
	o.outDir = dir
	return nil
}

// keepPrevious gives a resumed sweep its settings back where no flag says
// otherwise, and returns the ramp and runtime defaults (the sweep's, or
// the resumed one's).
func (o *sweepOpts) keepPrevious(c *cli.Context) (ramp, runtime time.Duration) {
	p := o.prev
	if p == nil {
		return sweepDefaultRamp, sweepDefaultRuntime
	}
	if _, set := ioengineFlag(c); !set && p.Meta.Engine != "" {
		o.engineName = p.Meta.Engine
		if p.Meta.EngineFallbackReason != "" {
			o.engineName = ioengine.EngineIOUring // fall back again, the same way
		}
	}
	if !c.IsSet("filename") {
		o.workload.Filename = p.Meta.Target
		if filepath.Base(p.Meta.Target) == scratchName {
			o.workload.Filename = ""
		}
	}
	if !c.IsSet("size") { // 0: the whole existing file, as it was
		o.workload.Size = p.Meta.Workload.Size
	}
	if !c.IsSet("direct") {
		o.workload.Direct = p.Meta.Workload.Direct
	}
	if u, err := ioengine.ParseUringOptions(p.Meta.Workload.IOUring); err == nil && !o.workload.Uring.Set() {
		o.workload.Uring = u
	}
	if !c.IsSet("rwmixread") && p.Meta.Workload.RWMixRead > 0 {
		o.workload.RWMixRead = p.Meta.Workload.RWMixRead
	}
	return time.Duration(p.Meta.Workload.RampNs), time.Duration(p.Meta.Workload.RuntimeNs)
}

// engineAndTarget sets up the engine; a fleet's QD counts its hosts and
// its target takes the documented size; a local sweep without
// --filename lays out the scratch file.
func (o *sweepOpts) engineAndTarget(c *cli.Context, jf *jobFile) error {
	var err error
	if o.engine, err = engineFromFlags(c, "sweep", o.engineName, o.prev); err != nil {
		return err
	}
	if o.engine.remote() {
		o.plan.Hosts = len(o.engine.clients) // a fleet: QD = hosts × iodepth × numjobs
		if o.workload.Size == 0 && !c.IsSet("size") && !jf.has("size") {
			// The target lives on the servers: a file here of the same name
			// says nothing about theirs. The documented default applies.
			if o.workload.Size, err = sizeFlag(c, "size"); err != nil {
				return err
			}
		}
	}
	if o.engine.local() && o.workload.Filename == "" {
		o.scratch = true
		o.workload.Filename = scratchName
	}
	return nil
}

// outputs checks where the sweep writes: its results directory and the
// --emit-fio-jobs directory.
func (o *sweepOpts) outputs(c *cli.Context) error {
	if o.outDir == "" {
		var err error
		if o.outDir, err = outputDir(c, o.workload.Filename); err != nil {
			return err
		}
	}
	o.outOpts = outOptions(c, "output", o.workload.Filename)
	if o.prev != nil {
		o.outOpts.Overwrite = true // its own directory, results and all
	}
	if o.jobsDir = c.String("emit-fio-jobs"); c.IsSet("emit-fio-jobs") {
		o.jobsOut = outOptions(c, "emit-fio-jobs", o.workload.Filename)
		if err := guard.CheckOut(o.jobsDir, o.jobsOut); err != nil {
			return outErr(err)
		}
	}
	return nil
}

// analysis reads what the analysis and the report are asked: the target,
// the latency objective, refinement and the chart format.
func (o *sweepOpts) analysis(c *cli.Context) error {
	var err error
	if o.analyze.TargetIOPS, err = targetIOPS(c); err != nil {
		return err
	}
	sloFlag := "latency-slo"
	if c.IsSet("slo") {
		if c.IsSet("latency-slo") {
			return usagef("--slo is the old name of --latency-slo; give only --latency-slo")
		}
		sloFlag = "slo"
	}
	if o.analyze.SLO, err = latencySLO(c, sloFlag); err != nil {
		return err
	}
	o.report = report.Options{TargetIOPS: o.analyze.TargetIOPS, SLO: o.analyze.SLO, ChartFormat: c.String("chart-format")}
	refine := o.analyze.TargetIOPS > 0 || o.analyze.SLO != nil
	if c.IsSet("refine") {
		refine = c.Bool("refine")
	}
	if refine {
		o.refine = sweep.Refine{Knee: true, TargetIOPS: o.analyze.TargetIOPS, SLO: o.analyze.SLO, Steps: c.Int("refine-steps")}
	}
	if n := c.Int("refine-steps"); n < 1 || n > 16 {
		return usagef("--refine-steps: %d; use 1 to 16", n)
	}
	if f := o.report.ChartFormat; f != "png" && f != "svg" {
		return usagef("--chart-format: %q; use png or svg", f)
	}
	return nil
}

// planFromFlags builds the plan from --rw --bs --iodepth --numjobs --full.
// When resuming, unset flags take the resumed plan's values and the result
// must equal it.
func planFromFlags(c *cli.Context, prev *sweep.Result, jf *jobFile) (sweep.Plan, error) {
	var p sweep.Plan
	if prev != nil {
		p = prev.Plan
	}
	fresh := prev == nil
	if fresh || c.IsSet("rw") {
		rw, err := sweep.ParseRWList(jf.rw(c))
		if err != nil {
			return p, usagef("--rw: %v", err)
		}
		p.RW = sweep.NewPlan(rw, nil, nil, nil, false).RW
	}
	if fresh || c.IsSet("bs") {
		bs, err := sweep.ParseSizeList(jf.bs(c))
		if err != nil {
			return p, usagef("--bs: %v", err)
		}
		p.BS = bs
	}
	for _, f := range []struct {
		name string
		dst  *[]int
		text string
	}{{"iodepth", &p.IODepth, c.String("iodepth")}, {"numjobs", &p.NumJobs, jf.numjobs(c)}} {
		if fresh || c.IsSet(f.name) {
			v, err := sweep.ParseIntSpec(f.text)
			if err != nil {
				return p, usagef("--%s: %v", f.name, err)
			}
			*f.dst = v
		}
	}
	if fresh || c.IsSet("full") {
		p.Full = c.Bool("full")
	}
	if err := p.Validate(); err != nil {
		return p, usagef("%v", err)
	}
	if prev != nil && !p.Equal(prev.Plan) {
		return p, usagef("--resume: the plan given (%s) differs from the sweep's (%s); drop the plan flags to continue it, or start a new sweep",
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
	s := fmt.Sprintf("--rw %s --bs %s --iodepth %s --numjobs %s", strings.Join(p.RW, ","), strings.Join(bs, ","), ints(p.IODepth), ints(p.NumJobs))
	if p.Full {
		s += " --full"
	}
	return s
}

// steadyFromFlags reads --ss (percent per second), --ss_dur and --ss_interval.
func steadyFromFlags(c *cli.Context) (sweep.SteadyConfig, error) {
	var s sweep.SteadyConfig
	txt := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.String("ss")), "%"))
	pct, err := strconv.ParseFloat(txt, 64)
	if err != nil || pct < 0 || pct > 100 {
		return s, usagef("--ss: %q is not a percentage per second; use e.g. --ss=2%% or --ss=0 to turn steady state off", c.String("ss"))
	}
	s.Limit = pct / 100
	if s.Window, err = durationFlag(c, "ss_dur", sweep.DefaultSteady.Window); err != nil {
		return s, err
	}
	if s.Interval, err = durationFlag(c, "ss_interval", sweep.DefaultSteady.Interval); err != nil {
		return s, err
	}
	if s.Interval < time.Millisecond {
		return s, usagef("--ss_interval: %v is too short; use e.g. --ss_interval=250ms", s.Interval)
	}
	if s.Window < 2*s.Interval {
		return s, usagef("--ss_dur: %v holds fewer than two --ss_interval samples (%v); use e.g. --ss_dur=2s", s.Window, s.Interval)
	}
	ptxt := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.String("mean-precision")), "%"))
	prec, err := strconv.ParseFloat(ptxt, 64)
	if err != nil || prec < 0 || prec >= 100 {
		return s, usagef("--mean-precision: %q is not a percentage; use e.g. --mean-precision=2%% or 0 to leave only --ss", c.String("mean-precision"))
	}
	s.Precision = prec / 100
	s.MinWindow = max(sweep.DefaultSteady.MinWindow, 3*s.Interval)
	return s, nil
}

// outputDir returns the results directory to write: flag or the default
// ./qdsweep-YYYYMMDD-HHMMSS, checked by the one writer without creating
// anything. A directory holding a sweep's results is refused unless
// --overwrite: a finished sweep is never replaced without a word, and an
// interrupted one is continued with --resume.
func outputDir(c *cli.Context, protect ...string) (string, error) {
	dir := c.String("output")
	if dir == "" {
		dir = "qdsweep-" + time.Now().Format("20060102-150405")
	}
	if !c.Bool("overwrite") && !guard.DirBusy(dir) { // a running sweep's is refused as locked
		if prev, err := sweep.Read(filepath.Join(dir, sweep.ResultsJSON)); err == nil {
			if prev.Interrupted {
				return "", usagef("--output %s holds an interrupted sweep; continue it with qdsweep sweep --resume %s, name a new directory, or add --overwrite to replace it", dir, dir)
			}
			return "", usagef("--output %s holds a finished sweep; name a new directory, or add --overwrite to replace its results", dir)
		}
	}
	if err := guard.CheckOut(dir, outOptions(c, "output", protect...)); err != nil {
		return "", outErr(err)
	}
	return dir, nil
}

func sweepTargetExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// emitFioJobs writes one fio job file per planned step into o.jobsDir. Every
// file is rendered first: a value fio cannot take (a control character in
// --filename, say) is a usage error and nothing is written.
func emitFioJobs(o sweepOpts) error {
	type jobFile struct {
		name string
		data []byte
	}
	var files []jobFile
	for _, g := range o.plan.Grid() {
		w := o.workload
		w.RW, w.BS, w.IODepth, w.NumJobs = g.RW, g.BS, g.IODepth, g.NumJobs
		if w.Filename == "" {
			w.Filename = scratchName // sim has no target: fio lays this one out
		}
		var b bytes.Buffer
		if err := fioadapt.WriteJobFile(&b, w, o.runtime, o.ramp); err != nil {
			return usagef("--emit-fio-jobs: %v", err)
		}
		files = append(files, jobFile{fioadapt.JobFileName(w), b.Bytes()})
	}
	out, err := openOut(o.jobsDir, o.jobsOut)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := out.WriteFile(f.name, f.data); err != nil {
			return fmt.Errorf("--emit-fio-jobs: %w", outErr(err))
		}
	}
	return nil
}

// layoutSize is how much of a new target the sweep lays out: every job's
// region of the deepest numjobs, offset + (numjobs-1) × offset_increment + size.
func layoutSize(w ioengine.Workload, p sweep.Plan) int64 {
	jobs := 1
	for _, n := range p.NumJobs {
		jobs = max(jobs, n)
	}
	return guard.Region(w.Offset, w.Size, w.OffsetIncrement, jobs)
}
