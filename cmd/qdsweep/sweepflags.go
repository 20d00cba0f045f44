package main

import (
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/urfave/cli/v2"
)

// sweepOptions reads and checks every flag into a sweep session; errors
// are usage errors.
func sweepOptions(c *cli.Context) (*session.Sweep, error) {
	o := &session.Sweep{Version: version, Stdout: c.App.Writer, Stderr: c.App.ErrWriter, OnHardExit: onHardExit}
	output := ""
	if c.IsSet("output") {
		output = c.String("output")
	}
	if err := o.Resume(c.String("resume"), output); err != nil {
		return o, err
	}
	var jf *session.JobFile
	var inputs []string // never outputs
	var err error
	if c.IsSet("jobfile") {
		if inputs, err = session.JobFileInputs("--jobfile", c.String("jobfile")); err != nil {
			return o, err
		}
		if jf, err = session.ReadSweepJobFile(c.String("jobfile")); err != nil {
			return o, err
		}
	}
	if o.Plan, err = planFromFlags(c, o.Prev, jf); err != nil {
		return o, err
	}
	if o.Workload, err = workloadFromFlags(c, jf); err != nil {
		return o, err
	}
	name, given := ioengineFlag(c)
	o.EngineName = jf.IOEngine(name, given)
	defRamp, defRuntime := o.KeepPrevious(c, given)
	if jf.Has(fio.OptRampTime) {
		defRamp = jf.Run.Ramp
	}
	if jf.Has(fio.OptRuntime) && jf.Run.Runtime > 0 {
		defRuntime = jf.Run.Runtime
	}
	if o.Ramp, o.Runtime, err = phasesFromFlags(c, defRamp, defRuntime); err != nil {
		return o, err
	}
	if o.Engine, err = engineFromFlags(c, "sweep", o.EngineName, o.Prev); err != nil {
		return o, err
	}
	defSize, err := sizeFlag(c, fio.OptSize)
	if err != nil {
		return o, err
	}
	o.SetTarget(c, jf, defSize)
	o.Workload.Permit = writeGuardFromFlags(c)
	if o.Steady, err = steadyFromFlags(c); err != nil {
		return o, err
	}
	if o.LogEvery, err = logIntervalFromFlags(c); err != nil {
		return o, err
	}
	o.Stop = sweep.DefaultEarlyStop
	if o.Stop.MaxP99, err = durationFlag(c, fio.OptMaxLatency, 2*time.Second); err != nil {
		return o, err
	}
	if err := sweepOutputs(c, o, inputs); err != nil {
		return o, err
	}
	o.Control = c.Bool("control")
	o.JSON = outputFormat(c) == formatJSON
	o.Quiet = c.Bool("quiet")
	return o, sweepAnalysis(c, o)
}

// sweepOutputs reads where the sweep writes: its results directory and
// the --emit-fio-jobs directory; neither replaces the target or an input.
func sweepOutputs(c *cli.Context, o *session.Sweep, inputs []string) error {
	protect := append([]string{o.Workload.Filename}, inputs...)
	if o.OutDir == "" {
		var err error
		if o.OutDir, err = session.ResultsDir(c.String("output"), outOptions(c, "output", protect...)); err != nil {
			return err
		}
	}
	o.OutOpts = outOptions(c, "output", protect...)
	if o.Prev != nil {
		o.OutOpts.Overwrite = true // its own directory, results and all
	}
	if o.JobsDir = c.String("emit-fio-jobs"); c.IsSet("emit-fio-jobs") {
		o.JobsOut = outOptions(c, "emit-fio-jobs", protect...)
		if err := guard.CheckOut(o.JobsDir, o.JobsOut); err != nil {
			return outErr(err)
		}
	}
	return nil
}

// sweepAnalysis reads what the analysis and the report are asked: the target,
// the latency objective, refinement and the chart format.
func sweepAnalysis(c *cli.Context, o *session.Sweep) error {
	var err error
	if o.Analyze.TargetIOPS, err = targetIOPS(c); err != nil {
		return err
	}
	sloFlag := "latency-slo"
	if c.IsSet("slo") {
		if c.IsSet("latency-slo") {
			return usagef("--slo is the old name of --latency-slo; give only --latency-slo")
		}
		sloFlag = "slo"
	}
	if o.Analyze.SLO, err = latencySLO(c, sloFlag); err != nil {
		return err
	}
	o.Report = report.Options{TargetIOPS: o.Analyze.TargetIOPS, SLO: o.Analyze.SLO, ChartFormat: c.String("chart-format")}
	refine := o.Analyze.TargetIOPS > 0 || o.Analyze.SLO != nil
	if c.IsSet("refine") {
		refine = c.Bool("refine")
	}
	if refine {
		o.Refine = sweep.Refine{Knee: true, TargetIOPS: o.Analyze.TargetIOPS, SLO: o.Analyze.SLO, Steps: c.Int("refine-steps")}
	}
	if n := c.Int("refine-steps"); n < 1 || n > 16 {
		return usagef("--refine-steps: %d; use 1 to 16", n)
	}
	if f := o.Report.ChartFormat; f != "png" && f != "svg" {
		return usagef("--chart-format: %q; use png or svg", f)
	}
	return nil
}
