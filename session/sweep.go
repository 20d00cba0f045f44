package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// ScratchName is the file a sweep, or a run, lays out and removes when no
// target is named.
const ScratchName = "qdsweep.scratch"

// Sweep is a sweep session: everything the command line decided. Run
// measures it.
type Sweep struct {
	Plan       sweep.Plan
	Workload   ioengine.Workload
	EngineName string
	Engine     Engine
	JobsDir    string // write one fio job file per step here ("": none)
	Ramp       time.Duration
	Runtime    time.Duration
	Steady     sweep.SteadyConfig
	LogEvery   time.Duration // series interval (< 0: off)
	Stop       sweep.EarlyStop
	OutDir     string
	Control    bool             // re-measure the best step at the end
	OutOpts    guard.OutOptions // how OutDir may be written
	JobsOut    guard.OutOptions // how JobsDir may be written
	Scratch    bool             // the target is the scratch file: lay out, then remove
	Prev       *sweep.Result    // the sweep resumed (nil: a new one)
	Analyze    littleslaw.Options
	Refine     sweep.Refine // the refine pass after the grid (inactive: none)
	Report     report.Options
	JSON       bool // the results as JSON on Stdout, the table on Stderr
	Quiet      bool
	Version    string // qdsweep's, recorded in the results
	// notes are said of the job file as read, as run says them
	// (jobFileNotes), before the sweep measures.
	notes []string

	Stdout, Stderr io.Writer
	OnHardExit     HardExit
}

// Run measures the sweep: checks every step's workload, the write guard and
// the limits before anything is written, opens the results directory
// (locked for the run), lays out the target, runs the grid, refinement and
// control step, saving the results after each step, and writes the
// table, charts and summary. An interrupted sweep is saved as such.
func (o *Sweep) Run(ctx context.Context) (err error) {
	o.OnHardExit = o.OnHardExit.orNone()
	rws, deepest, err := o.checkPlan()
	if err != nil {
		return err
	}
	// The results directory, through the one writer, and one owner for it:
	// held locked for the run. A start that fails before the first results
	// are written leaves nothing behind.
	out, err := OpenOut(o.OutDir, o.OutOpts)
	if err != nil {
		return err
	}
	started := false
	defer func() {
		if err != nil && !started {
			out.Abandon()
		}
	}()
	lock, err := guard.LockDir(o.OutDir)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	defer o.OnHardExit(lock.Unlock)()
	if err := o.emitCheckedJobs(deepest, rws); err != nil {
		return err
	}
	eng, fallback, err := o.Engine.Open()
	if err != nil {
		return err
	}
	if err := CheckRemoteWrites(ctx, eng, deepest, rws); err != nil {
		return err
	}
	prog := NewProgress(o.Stderr, o.Quiet)
	defer prog.Clear()
	for _, n := range append(slices.Clone(o.notes), fallback) {
		if n != "" {
			prog.Note("qdsweep: %s", n)
		}
	}

	// The result: a new one, or the one being resumed.
	r, err := o.result(eng.Name(), fallback)
	if err != nil {
		return err
	}
	m := &r.Meta

	cleanup, err := o.layOutTarget(ctx, prog)
	defer cleanup()
	if err != nil {
		return err
	}
	probe := o.deviceProbe(m, prog)
	saver := &resultSaver{out: out}
	defer o.OnHardExit(saver.markInterrupted)()
	if err := saver.save(r); err != nil {
		return err
	}
	started = true
	return o.measure(ctx, eng, probe, saver, r, prog)
}

// emitCheckedJobs writes the fio job files --emit-fio-jobs asks for, past
// the write guard for what they name whatever engine runs here.
func (o *Sweep) emitCheckedJobs(deepest ioengine.Workload, rws []ioengine.RW) error {
	if o.JobsDir == "" {
		return nil
	}
	if !o.Engine.Local() && !o.Engine.Remote() && o.Workload.Filename != "" {
		if err := CheckWrites(deepest, rws, o.Workload.Permit); err != nil {
			return err
		}
	}
	return o.emitFioJobs()
}

// deviceProbe is the telemetry probe of a local target (nil where there is
// none: the reason is said), its device and filesystem noted in m.
func (o *Sweep) deviceProbe(m *sweep.Meta, prog *Progress) sweep.Probe {
	if !o.Engine.Local() {
		return nil
	}
	p, info, err := sweep.NewDeviceProbe(o.Workload.Filename)
	if err != nil {
		prog.Note("%s", report.NoTelemetryNote(err))
		return nil
	}
	m.Device, m.DeviceOff = info, p.Off()
	m.FSType, m.FSClass = p.FS().Type, string(p.FS().Class)
	return p
}

// measure runs the sweep's steps on the held target, saving the
// results after each, and finishes it: an interrupted sweep is saved as
// such, a failed one as far as it got.
func (o *Sweep) measure(ctx context.Context, eng ioengine.Engine, probe sweep.Probe, saver *resultSaver, r *sweep.Result, prog *Progress) error {
	cfg := sweep.Config{
		Engine: eng, Workload: o.Workload, Ramp: o.Ramp, Runtime: o.Runtime,
		Steady: o.Steady, Stop: o.Stop, Probe: probe, LogInterval: o.LogEvery,
		OnLive: prog.Live, ErrorText: fioadapt.ErrorLine,
		OnStep: func(r *sweep.Result, s sweep.Step) error {
			prog.Step(r, s)
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
	if err := o.holdIdentity(held, r); err != nil {
		return err
	}
	runErr := sweep.RunAll(ctx, cfg, r, o.Refine, o.Control)
	prog.Clear()
	switch {
	case runErr != nil && ctx.Err() != nil:
		r.Interrupted = true
		if err := saver.save(r); err != nil {
			prog.Note("qdsweep: %v", err)
		}
		prog.Note("%s", report.PartialNote(o.OutDir))
		return fmt.Errorf("sweep: %w", ErrInterrupted)
	case runErr != nil && !errors.Is(runErr, sweep.ErrAllFailed):
		_ = saver.save(r)
		return runErr
	}
	return o.finish(saver, r, runErr)
}

// checkPlan checks, before anything is written, that the engine runs
// each curve at its deepest iodepth and numjobs (lists are ascending), the
// write guard for every pattern of the sweep, and the process limits. It
// returns the patterns and the workload of the most jobs, whose region is
// (numjobs-1) × offset_increment + size.
func (o *Sweep) checkPlan() ([]ioengine.RW, ioengine.Workload, error) {
	var rws []ioengine.RW
	for _, rw := range o.Plan.RW {
		rws = append(rws, ioengine.RW(rw))
		for _, bs := range o.Plan.BS {
			w := o.Workload
			w.RW, w.BS = ioengine.RW(rw), bs
			w.IODepth, w.NumJobs = o.Plan.IODepth[len(o.Plan.IODepth)-1], o.Plan.NumJobs[len(o.Plan.NumJobs)-1]
			if o.Plan.OpenLoop() { // each step is offered its load; any rate stands for them here
				w.RateIOPS = sweep.RatesPerJob(float64(w.NumJobs), w.RW, w.RWMixRead, w.NumJobs)
			}
			if err := o.Engine.Validate(w); err != nil {
				return nil, ioengine.Workload{}, err
			}
		}
	}
	deepest := o.Workload
	deepest.NumJobs = o.Plan.NumJobs[len(o.Plan.NumJobs)-1]
	if o.Engine.Local() {
		if err := CheckWrites(deepest, rws, o.Workload.Permit); err != nil {
			return nil, deepest, err
		}
	}
	if o.Engine.Sim == nil {
		if err := CheckSweepLimits(o.Plan); err != nil {
			return nil, deepest, err
		}
	}
	return rws, deepest, nil
}

// result is the result the sweep fills: a new one, or the one being
// resumed, with this run's meta (refused when it would measure something
// else than the sweep it continues).
func (o *Sweep) result(engine, fallback string) (*sweep.Result, error) {
	r := o.Prev
	var prevMeta *sweep.Meta
	if r == nil {
		r = sweep.NewResult(sweep.Meta{Version: o.Version, Start: time.Now()}, o.Plan)
	} else {
		pm := r.Meta
		prevMeta = &pm
	}
	m := &r.Meta
	sweep.MetaFor(m, o.Plan, o.Workload, engine, fallback, o.Engine.Sim, o.Ramp, o.Runtime)
	m.Workload.Shape = fioadapt.StepShape(o.Workload)
	m.Workload.IOUring = fioadapt.UringText(o.Workload.Uring)
	if prevMeta != nil {
		if err := sweep.CheckResume(*prevMeta, *m); err != nil {
			*m = *prevMeta
			return r, UsageErr(err)
		}
		if err := o.checkResumedTarget(prevMeta.TargetID); err != nil {
			*m = *prevMeta
			return r, err
		}
	}
	return r, nil
}

// checkResumedTarget refuses, before anything is written, a resume whose
// target path leads to another file than the one recorded (was), or to
// none. A scratch file is laid out anew each time: nothing to compare.
func (o *Sweep) checkResumedTarget(was *sweep.TargetID) error {
	if was == nil || o.Scratch || !o.Engine.Local() {
		return nil
	}
	now, err := targetIdentity(o.Workload.Filename)
	if err != nil {
		return Usagef("--resume: the sweep's target %s cannot be read now (%v); resume only onto the file it measured, or start a new sweep", o.Workload.Filename, err)
	}
	return sameTarget(o.Workload.Filename, was, now)
}

// holdIdentity records the held target's identity in r (a new sweep), or
// proves it the one a resumed sweep recorded.
func (o *Sweep) holdIdentity(held *guard.Held, r *sweep.Result) error {
	if held == nil || o.Scratch {
		return nil
	}
	id, err := heldIdentity(held)
	if err != nil {
		return fmt.Errorf("identity of %s: %w", o.Workload.Filename, err)
	}
	if o.Prev != nil && !o.Scratch {
		if err := sameTarget(o.Workload.Filename, o.Prev.Meta.TargetID, id); err != nil {
			return err
		}
	}
	r.Meta.TargetID = id
	return nil
}

// layOutTarget lays out the scratch file, or a named target that does
// not exist yet (ioengine.LayOut), and adds it to the files the sweep may
// write (by inode). The scratch file goes on every way out (only the file
// this process created: by inode); a named new target is kept, as fio does,
// unless the layout is cut short: then it goes too. cleanup, which the
// caller defers even on an error, does the going and says what was kept.
func (o *Sweep) layOutTarget(ctx context.Context, prog *Progress) (func(), error) {
	path := o.Workload.Filename
	if !o.Scratch && !(o.Engine.Local() && !targetExists(path)) {
		return func() {}, nil
	}
	if o.Scratch && targetExists(path) {
		return func() {}, fmt.Errorf("scratch file %s already exists (another run or sweep is using it here, or one was killed); wait for it, remove the file, or pass --%s", path, fio.OptFilename)
	}
	size := LayoutSize(o.Workload, o.Plan)
	prog.Note("%s", report.LayoutNote([]string{path}, size))
	l, err := ioengine.LayOut(ctx, []string{path}, size, o.Scratch, o.OnHardExit)
	cleanup := func() {
		l.Close()
		if !o.Scratch && targetExists(path) {
			prog.Note("%s", report.KeptNote([]string{path}))
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return cleanup, fmt.Errorf("%w: %v", ErrInterrupted, err)
		}
		return cleanup, err
	}
	o.Workload.Permit.Ours = append(o.Workload.Permit.Ours, l.IDs()...) // laid out here: ours to write, by inode
	return cleanup, nil
}

// finish analyses, writes the results directory and prints.
func (o *Sweep) finish(saver *resultSaver, r *sweep.Result, runErr error) error {
	if err := r.Analyze(o.Analyze); err != nil {
		return fmt.Errorf("analyse: %w", err)
	}
	report.Annotate(r)
	p := publication{out: saver.out, saver: saver, result: r, opts: o.Report, partial: true, noTable: runErr != nil,
		results: filepath.Join(o.OutDir, sweep.ResultsJSON), json: o.JSON, quiet: o.Quiet, filesErr: "write charts",
		stdout: o.Stdout, stderr: o.Stderr}
	if err := p.publish(); err != nil {
		return err
	}
	return runErr
}
