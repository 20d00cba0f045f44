package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/units"
	"github.com/urfave/cli/v2"
)

// Output formats accepted by --output-format.
const (
	formatNormal   = report.RunNormal
	formatJSON     = report.RunJSON
	formatTerse    = report.RunTerse
	formatFioJSON  = report.RunFioJSON  // run only: a fio-shaped JSON document
	formatJSONPlus = report.RunJSONPlus // run only: fio-json with fio's json+ latency bins
)

// workloadFlags are the flags `run` and `sweep` share, named as fio names
// them. rw, bs, iodepth and numjobs are defined by each command (sweep takes
// lists). Sizes and durations are strings so fio's forms (1G, 30) parse.
// The write guard's, sim's and fio's flags follow. rampDef and runtimeDef
// are the command's defaults, shown in its help.
func workloadFlags(rampDef, runtimeDef string) []cli.Flag {
	fs := []cli.Flag{
		&cli.StringFlag{Name: fio.OptFilename, Usage: fio.Row(fio.OptFilename).SweepUsage()},
		&cli.StringFlag{Name: fio.OptSize, Value: "1g", Usage: fio.Row(fio.OptSize).SweepUsage()},
		&cli.StringFlag{Name: fio.OptOffset, Value: "0", Usage: fio.Row(fio.OptOffset).SweepUsage()},
		&cli.StringFlag{Name: fio.OptOffsetIncrement, Value: "0", Usage: fio.Row(fio.OptOffsetIncrement).SweepUsage()},
		&cli.IntFlag{Name: fio.OptRWMixRead, Value: fio.Row(fio.OptRWMixRead).DefaultInt(), Usage: fio.Row(fio.OptRWMixRead).SweepUsage()},
		&cli.IntFlag{Name: fio.OptDirect, Value: 1, Usage: fio.Row(fio.OptDirect).SweepUsage()},
		&cli.StringFlag{Name: fio.OptRuntime, DefaultText: runtimeDef, Usage: fio.Row(fio.OptRuntime).SweepUsage()},
		&cli.StringFlag{Name: fio.OptRampTime, DefaultText: rampDef, Usage: fio.Row(fio.OptRampTime).SweepUsage()},
		&cli.StringFlag{Name: fio.OptIOEngine, Value: ioengine.EngineIOUring, Usage: fio.Row(fio.OptIOEngine).SweepUsage()},
		&cli.Uint64Flag{Name: fio.OptRandSeed, Value: 0, Usage: fio.Row(fio.OptRandSeed).SweepUsage()},
		&cli.BoolFlag{Name: fio.OptContinueOnError, Usage: fio.Row(fio.OptContinueOnError).SweepUsage()},
		&cli.StringFlag{Name: "io_timeout", Value: "30s", Usage: "an I/O outstanding this long ends the run with an error"},
		&cli.StringFlag{Name: "output-format", Value: formatNormal, Usage: "normal, json or terse"},
		jobFileFlag("sweep"),
		// Accepted for fio compatibility; they change nothing here.
		&cli.StringFlag{Name: fio.OptName, Usage: fio.Row(fio.OptName).SweepUsage()},
		&cli.BoolFlag{Name: fio.OptTimeBased, Usage: fio.Row(fio.OptTimeBased).SweepUsage()},
		&cli.BoolFlag{Name: fio.OptGroupReporting, Usage: fio.Row(fio.OptGroupReporting).SweepUsage()},
	}
	fs = append(fs, uringFlags()...)
	fs = append(fs, writeGuardFlags()...)
	fs = append(fs, simFlags()...)
	return append(fs, fioFlags()...)
}

// workloadFromFlags fills the fields of a Workload that the shared flags
// carry (size: the flag's, or its default). The caller fills RW, BS,
// IODepth and NumJobs. Errors are usage errors (exit 2) naming the flag
// and an example of a good value.
func workloadFromFlags(c *cli.Context) (ioengine.Workload, error) {
	var w ioengine.Workload
	var err error
	w.Filename = c.String(fio.OptFilename)
	if w.Size, err = sizeFlag(c, fio.OptSize); err != nil {
		return w, err
	}
	if w.Offset, err = sizeFlag(c, fio.OptOffset); err != nil {
		return w, err
	}
	if w.OffsetIncrement, err = sizeFlag(c, fio.OptOffsetIncrement); err != nil {
		return w, err
	}
	for _, name := range []string{fio.OptRWMixRead, fio.OptDirect} {
		if err := fio.CheckRange(name, strconv.Itoa(c.Int(name))); err != nil {
			return w, usagef("--%s=%d: %v", name, c.Int(name), err)
		}
	}
	w.RWMixRead = c.Int(fio.OptRWMixRead)
	w.Direct = c.Int(fio.OptDirect) == 1
	w.RandSeed = c.Uint64(fio.OptRandSeed)
	w.ContinueOnError = c.Bool(fio.OptContinueOnError)
	if w.IOTimeout, err = durationFlag(c, "io_timeout", 30*time.Second); err != nil {
		return w, err
	}
	if f := c.String("output-format"); f != formatNormal && f != formatJSON && f != formatTerse {
		return w, usagef("--output-format: unknown format %q; use normal, json or terse", f)
	}
	w.Uring, err = uringFromFlags(c)
	return w, err
}

// sizeFlag parses a size flag as fio reads the option of its name (its
// value's last piece, fio's suffixes under kb_base=1024: 1MiB is
// 1,000,000 bytes, as in run); the error is a usage error.
func sizeFlag(c *cli.Context, name string) (int64, error) {
	v, err := fio.ParseSize(fio.LastPiece(c.String(name)), fio.KBBase)
	if err != nil {
		return 0, usagef("--%s: %v; use e.g. --%s=4k, 1m or 1g", name, err, name)
	}
	return v, nil
}

// durationFlag parses a duration flag (Go duration or fio's plain seconds),
// returning def when the flag is unset or empty.
func durationFlag(c *cli.Context, name string, def time.Duration) (time.Duration, error) {
	s := c.String(name)
	if s == "" {
		return def, nil
	}
	d, err := units.ParseDuration(s)
	if err != nil {
		return 0, usagef("--%s: %v; use e.g. --%s=30 (seconds), 30s or 500ms", name, err, name)
	}
	return d, nil
}

// outputFormat returns the chosen --output-format (already validated by workloadFromFlags).
func outputFormat(c *cli.Context) string { return c.String("output-format") }

// phasesFromFlags reads --ramp_time and --runtime into ramp and runtime,
// each given (in set) when it has a value.
func phasesFromFlags(c *cli.Context, set *session.Fields, ramp, runtime *time.Duration) error {
	for _, p := range []struct {
		name  string
		field session.Field
		dst   *time.Duration
	}{{fio.OptRampTime, session.FieldRamp, ramp}, {fio.OptRuntime, session.FieldRuntime, runtime}} {
		if c.String(p.name) == "" {
			continue
		}
		d, err := durationFlag(c, p.name, 0)
		if err != nil {
			return err
		}
		*p.dst = d
		set.Add(p.field)
	}
	return nil
}

// fioDefaulted are the options --jobfile's help says a job file that does
// not set them reads at fio's default.
var fioDefaulted = []string{fio.OptRW, fio.OptBS, fio.OptIODepth, fio.OptNumJobs, fio.OptDirect}

// fioDefaults are fioDefaulted's defaults, from their rows.
func fioDefaults() []string {
	var ds []string
	for _, k := range fioDefaulted {
		ds = append(ds, fio.Row(k).Default)
	}
	return ds
}

// andList joins w as a list: "a, b and c".
func andList(w []string) string {
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

// jobFileOrder says, for run and for sweep, which wins where a flag and
// the job file set the same option: run reads them as fio 3.33 does,
// sweep's flags choose. Run's description and --jobfile's help say it.
var jobFileOrder = map[string]string{
	"run": "as in fio, options on the command line are defaults for the file's jobs: a job's own value, or its " +
		"[global] section's, wins",
	"sweep": "flags given explicitly win",
}

// jobFileFlag is --jobfile for command cmd (run or sweep).
func jobFileFlag(cmd string) cli.Flag {
	what := "[global] and its job sections, run as fio runs them"
	if cmd != "run" {
		what = "[global] and one job section"
	}
	return &cli.StringFlag{Name: "jobfile", Usage: "take the workload from a fio job file (" + what + "); " + jobFileOrder[cmd] +
		"; " + andList(fioDefaulted) + " that neither sets are fio's defaults, " + andList(fioDefaults()) +
		map[string]string{"run": "", "sweep": " (sweep keeps its " + fio.Flag(fio.OptIODepth) + " list)"}[cmd]}
}
