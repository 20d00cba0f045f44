package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/urfave/cli/v2"
)

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
