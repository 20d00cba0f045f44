package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
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
	runErr := sweep.RunAll(ctx, cfg, r, o.refine, o.control)
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
	sweep.MetaFor(m, o.plan, o.workload, engine, fallback, o.engine.sim, o.ramp, o.runtime)
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
