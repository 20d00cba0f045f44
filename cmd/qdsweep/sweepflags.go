package main

import (
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/session"
	"github.com/urfave/cli/v2"
)

// requestFields maps the flags of sweep and run to the settings of a
// request, for its Set: which the user gave. (--ramp_time and --runtime
// count as given only with a value: see phasesFromFlags.)
func requestFields() map[string]session.Field {
	m := map[string]session.Field{
		fio.OptRW: session.FieldRW, fio.OptBS: session.FieldBS, fio.OptIODepth: session.FieldIODepth,
		fio.OptNumJobs: session.FieldNumJobs, "full": session.FieldFull,
		fio.OptFilename: session.FieldFilename, fio.OptSize: session.FieldSize, fio.OptOffset: session.FieldOffset,
		fio.OptOffsetIncrement: session.FieldOffsetIncrement, fio.OptRWMixRead: session.FieldRWMixRead,
		fio.OptDirect: session.FieldDirect, fio.OptRandSeed: session.FieldRandSeed,
		fio.OptContinueOnError: session.FieldContinueOnError,
		fio.OptIOEngine:        session.FieldEngine, "sim": session.FieldSim,
		"fio-arg": session.FieldFioArgs, "fio-clients": session.FieldFioClients,
		"jobfile": session.FieldJobFile, "output": session.FieldOutput, "emit-fio-jobs": session.FieldEmitJobs,
		"refine": session.FieldRefine, fio.OptRateIOPS: session.FieldRateIOPS, fio.OptRateProcess: session.FieldRateProcess,
	}
	for _, n := range fio.UringOptionNames() {
		m[n] = session.FieldUring
	}
	for _, n := range simFlagNames {
		m[n] = session.FieldSimKeys
	}
	return m
}

// fieldsGiven is the set of the request's settings the command line gave.
func fieldsGiven(c *cli.Context) session.Fields {
	var s session.Fields
	for name, f := range requestFields() {
		if c.IsSet(name) {
			s.Add(f)
		}
	}
	return s
}

// sweepRequest reads every flag into a sweep's request; errors are usage
// errors.
func sweepRequest(c *cli.Context) (session.SweepRequest, error) {
	req := session.SweepRequest{Set: fieldsGiven(c), Resume: c.String("resume"), Output: c.String("output"),
		JobFile: c.String("jobfile"), RW: c.String(fio.OptRW), BS: c.String(fio.OptBS),
		IODepth: c.String(fio.OptIODepth), NumJobs: c.String(fio.OptNumJobs), Full: c.Bool("full"),
		Overwrite: c.Bool(overwriteFlag), EmitJobs: c.String("emit-fio-jobs"), Control: c.Bool("control"),
		Quiet: c.Bool("quiet"), Refine: c.Bool("refine"), RefineSteps: c.Int("refine-steps"),
		ChartFormat: c.String("chart-format"), Version: version,
		RateIOPS: c.String(fio.OptRateIOPS), RateProcess: c.String(fio.OptRateProcess), StepOptions: stepOptions(c),
		Out: session.Out{Stdout: c.App.Writer, Stderr: c.App.ErrWriter, OnHardExit: onHardExit, OnCommit: stopOnItsOwn}}
	var err error
	if req.Workload, err = workloadFromFlags(c); err != nil {
		return req, err
	}
	if err := phasesFromFlags(c, &req.Set, &req.Ramp, &req.Runtime); err != nil {
		return req, err
	}
	req.Engine = engineFromFlags(c)
	req.Workload.Permit = writeGuardFromFlags(c)
	if req.Steady, err = steadyFromFlags(c); err != nil {
		return req, err
	}
	if req.LogEvery, err = logIntervalFromFlags(c); err != nil {
		return req, err
	}
	if req.MaxP99, err = durationFlag(c, fio.OptMaxLatency, 2*time.Second); err != nil {
		return req, err
	}
	req.JSON = outputFormat(c) == formatJSON
	if req.Analyze.TargetIOPS, err = targetIOPS(c); err != nil {
		return req, err
	}
	sloFlag := "latency-slo"
	if c.IsSet("slo") {
		if c.IsSet("latency-slo") {
			return req, usagef("--slo is the old name of --latency-slo; give only --latency-slo")
		}
		sloFlag = "slo"
	}
	req.Analyze.SLO, err = latencySLO(c, sloFlag)
	return req, err
}

// stopOnItsOwn marks that the command ends its own work on the first
// signal and keeps what it measured; until then a signal ends it at once.
func stopOnItsOwn() { stopsOnItsOwn.Store(true) }
