package main

import (
	"flag"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/session"
	"github.com/urfave/cli/v2"
)

// runOwnFlags are run's flags that fio does not have, or that qdsweep
// answers itself (output, engines, write permissions, job file).
func runOwnFlags() []cli.Flag {
	fs := []cli.Flag{
		&cli.StringFlag{Name: "output-format", Value: formatNormal, Usage: "fio's formats, as fio writes them: normal, json (one document, a jobs array; also spelled fio-json), json+ (json with the completion-latency bins) or terse (v3); qdsweep: qdsweep's own text (in-flight I/Os, CPU per I/O), qdsweep-json: its own document; a comma list of fio's (json,normal) prints each, as fio"},
		&cli.StringFlag{Name: "output", Aliases: []string{"out", "o"}, Usage: "write the results to this file instead of standard output (as fio's --output)"},
		&cli.StringFlag{Name: "io_timeout", Value: "30s", Usage: "an I/O outstanding this long ends the run with an error"},
		jobFileFlag("run"),
		&cli.StringSliceFlag{Name: "section", Usage: "run only this job section of the job file (repeat for several), as fio's --section"},
		&cli.BoolFlag{Name: "parse-only", Usage: "read and check the job (file) and exit, running nothing (as fio's --parse-only)"},
		&cli.BoolFlag{Name: "showcmd", Usage: "print each job file as a fio command line and exit, running nothing (as fio's --showcmd)"},
		&cli.BoolFlag{Name: "minimal", Usage: "fio's terse output (as fio's --minimal: --output-format=terse)"},
		&cli.StringFlag{Name: "terse-version", Value: "3", Usage: "fio's terse version: 3 (the one qdsweep writes)"},
	}
	fs = append(fs, logIntervalFlag())
	fs = append(fs, writeGuardFlags()...)
	fs = append(fs, simFlags()...)
	return append(fs, fioFlags()...)
}

// runFioFlags are the fio options run takes (fio.RunOptions and
// fio.UringOptions), shown in its help with fio's defaults. They are read
// by package fio, not by the flag parser.
func runFioFlags() []cli.Flag {
	var fs []cli.Flag
	for _, d := range fio.RunOptions {
		if d.Switch {
			fs = append(fs, &cli.BoolFlag{Name: d.Name, Usage: d.Usage()})
			continue
		}
		fs = append(fs, &cli.StringFlag{Name: d.Name, Value: d.Default, Usage: d.Usage()})
	}
	for _, u := range fio.UringOptions {
		fs = append(fs, &cli.StringFlag{Name: u.Name, Usage: u.Help}) // fio reads the value
	}
	return fs
}

// uringFlagList lists fio's io_uring options qdsweep runs as flags, from
// the table: "--a, --b and --c".
func uringFlagList() string {
	var fs []string
	for _, u := range fio.UringOptions {
		if !u.CPU {
			fs = append(fs, "--"+u.Name)
		}
	}
	return strings.Join(fs[:len(fs)-1], ", ") + " and " + fs[len(fs)-1]
}

// runDescription is run's help text. fio's defaults it names are the
// rows' (fio.Row(…).Default), every option is named by its key.
func runDescription() string {
	f := fio.Flag
	def := func(k fio.OptionKey) string { return flagIs(k, fio.Row(k).Default) }
	return "A fio command line with `fio` replaced by `qdsweep run` runs what fio would run, fio's defaults\n" +
		"included: " + def(fio.OptIOEngine) + ", " + def(fio.OptIODepth) + ", " + def(fio.OptRW) + ", " + def(fio.OptBS) + ", " + def(fio.OptDirect) +
		", no ramp, and a run that ends\n" +
		"when " + f(fio.OptSize) + " (× " + f(fio.OptLoops) + ") is done unless " + f(fio.OptTimeBased) + " is given. qdsweep's own opinions (io_uring, deep\n" +
		"queues, a ramp, a curve) belong to `qdsweep sweep`.\n" +
		"fio options that only change fio's reporting or naming (--eta, --status-interval,\n" +
		f(fio.OptThread) + " …) and submission batching (" + f(fio.OptIODepthBatchSubmit) + ",\n" +
		f(fio.OptIODepthBatchCompleteMax) + ") are accepted and said to be ignored;\n" +
		f(fio.OptGroupReporting) + " reports a group's jobs as one, as fio; " + f(fio.OptPercentileList) + ",\n" +
		f(fio.OptClatPercentiles) + ", " + f(fio.OptLatPercentiles) + " and " + f(fio.OptUnifiedRWReporting) + " shape fio's outputs as fio's.\n" +
		f(fio.OptRateIOPS) + " and " + f(fio.OptRate) + " cap each job per direction, as fio (the wait is not latency);\n" +
		flagIs(fio.OptFilename, "a:b") + " spreads every job's I/Os over the files in turn, " + f(fio.OptSize) + " split between them.\n" +
		flagIs(fio.OptFSync, "N") + "/" + flagIs(fio.OptFDataSync, "N") + " (psync) sync after every N writes, timed on their own; " +
		flagIs(fio.OptSync, "dsync") + " opens\n" +
		"with O_DSYNC; buffered runs drop the files' cached pages first (fio's " + flagIs(fio.OptInvalidate, "1") + ").\n" +
		uringFlagList() + " are fio's io_uring options\n" +
		"(with " + flagIs(fio.OptIOEngine, "io_uring") + ", as in fio).\n" +
		"Options that change the workload and that qdsweep does not run natively (" + f(fio.OptSyncFileRange) + ",\n" +
		f(fio.OptZoneMode) + " …) run through the installed fio, under the same write guard and reports; those that\n" +
		"name, create or remove other files, run a command or change the system (" + f(fio.OptExecPrerun) + ",\n" +
		f(fio.OptUnlink) + " …) are refused, all named in one line.\n" +
		"Without " + f(fio.OptFilename) + " or " + f(fio.OptName) + ", qdsweep lays out ./" + session.ScratchName + " (" + f(fio.OptSize) + ", default 1 GiB)\n" +
		"with real writes, measures it and removes it.\n" +
		"Writes over existing data need --allow-write (a file) or --allow-write-device (a blank block device;\n" +
		"add --destroy-data=/dev/X to overwrite partitions or a filesystem signature); mounted devices are refused.\n" +
		"--sim=latency=1ms,iops=20000 (" + flagIs(fio.OptIOEngine, engineSim) + ") measures a simulated device (no I/O); " +
		flagIs(fio.OptIOEngine, engineFio) + " runs\n" +
		"the installed fio on the whole job file, as `fio job.fio` (the ioengine of --fio-arg=" + flagIs(fio.OptIOEngine, "X") + ",\n" +
		"else each job's own, else fio's " + fio.Row(fio.OptIOEngine).Default + "), and with --fio-clients runs it on fio servers: " +
		f(fio.OptFilename) + " then\n" +
		"names their target and nothing is laid out or checked here. --jobfile (or a job file named on its\n" +
		"own, as `fio job.fio`) takes the workload from a fio job file (" + jobFileOrder["run"] + ")."
}

func runCommand() *cli.Command {
	return &cli.Command{
		Name:            "run",
		Usage:           "run one workload as one fio invocation would, and report IOPS, latency and in-flight I/Os",
		UsageText:       "qdsweep run [fio options] [--output-format=normal|json|json+|terse|qdsweep|qdsweep-json] [--allow-write] ...",
		Description:     runDescription(),
		Flags:           append(runFioFlags(), runOwnFlags()...),
		SkipFlagParsing: true,
		HideHelpCommand: true,
		Action:          runEntry,
	}
}

// runEntry splits run's arguments into fio's options (read by package fio,
// as fio reads them) and qdsweep's own flags (read by the flag parser),
// then runs runAction with both.
func runEntry(c *cli.Context) error {
	raw := c.Args().Slice()
	if asksHelp(raw) {
		return cli.ShowCommandHelp(c.Lineage()[1], "run")
	}
	own, fioArgs, err := splitRunArgs(raw)
	if err != nil {
		return err
	}
	inner := &cli.Command{
		Name:  "run",
		Flags: append(runOwnFlags(), &cli.StringFlag{Name: fio.OptIOEngine, Hidden: true}),
		Action: func(c *cli.Context) error {
			return runAction(c, fioArgs)
		},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usagef("run: %s%s; see qdsweep run --help", flagErrText(err), suggestFlag(c, err))
		},
		HideHelp: true,
	}
	parent := c.Lineage()[1]
	set := flag.NewFlagSet("run", flag.ContinueOnError)
	if err := set.Parse(append([]string{"--", "run"}, own...)); err != nil {
		return err
	}
	p := cli.NewContext(c.App, set, parent)
	p.Command = parent.Command
	nc := cli.NewContext(c.App, nil, p)
	nc.Command = inner
	return inner.Run(nc, append([]string{"run"}, own...)...)
}

// runQdsweepEngines are the --ioengine values that name qdsweep's own
// engines rather than fio's.
var runQdsweepEngines = map[string]bool{engineSim: true, engineFio: true}

// runAction maps run's flags onto a run session and executes it.
// Everything is checked, for every job, before any file is created.
func runAction(c *cli.Context, fioArgs []string) error {
	if c.NArg() > 0 {
		return usagef("run: unexpected argument %q; flags take the form %s (e.g. %s)", c.Args().First(), fio.ArgForm, fio.FlagSet(fio.OptFilename, c.Args().First()))
	}
	req := session.RunRequest{Set: fieldsGiven(c), FioArgs: fioArgs, JobFile: c.String("jobfile"), Sections: c.StringSlice("section"),
		ParseOnly: c.Bool("parse-only"), ShowCmd: c.Bool("showcmd"), Engines: engineFromFlags(c), Permit: writeGuardFromFlags(c), Output: c.String("output"),
		Overwrite: c.Bool(overwriteFlag), Version: version,
		Out: session.Out{Stdout: c.App.Writer, Stderr: c.App.ErrWriter, OnHardExit: onHardExit, OnCommit: stopOnItsOwn}}
	var err error
	if req.IOTimeout, err = durationFlag(c, "io_timeout", 30*time.Second); err != nil {
		return err
	}
	if req.Format, err = runFormat(c); err != nil {
		return err
	}
	if req.LogEvery, err = logIntervalFromFlags(c); err != nil {
		return err
	}
	return session.RunJobs(c.Context, req)
}

// runFormat reads run's --output-format: fio's names mean fio's formats
// (json is fio's JSON, as a pasted fio command means it); qdsweep's own
// document is qdsweep-json.
func runFormat(c *cli.Context) (string, error) {
	format := c.String("output-format")
	if c.Bool("minimal") && !c.IsSet("output-format") {
		format = formatTerse // fio's --minimal
	}
	if v := c.String("terse-version"); v != "3" {
		return "", usagef("--terse-version=%s: qdsweep writes fio's terse version 3 only; drop --terse-version or give 3", v)
	}
	if strings.Contains(format, ",") {
		return fioFormatList(format)
	}
	switch format {
	case formatJSON, formatFioJSON:
		return formatFioJSON, nil
	case formatQdsweepJSON:
		return formatJSON, nil
	case report.RunText:
		return report.RunText, nil
	case formatNormal, formatTerse, formatJSONPlus:
		return format, nil
	}
	return "", usagef("--output-format: unknown format %q; use normal, json, json+, terse (fio's), qdsweep or qdsweep-json", format)
}

// fioFormatList reads a list of fio's formats (json,normal), each
// spelled as fio spells it, comma-separated without spaces as fio takes
// them; qdsweep's own formats stand alone. fio's json is fio-json.
func fioFormatList(list string) (string, error) {
	var out []string
	for _, f := range strings.Split(list, ",") {
		switch f {
		case formatJSON:
			out = append(out, formatFioJSON)
		case formatNormal, formatTerse, formatJSONPlus:
			out = append(out, f)
		default:
			return "", usagef("--output-format=%s: %q is not one of fio's formats; a list names normal, json, json+ and terse, comma-separated without spaces", list, f)
		}
	}
	return strings.Join(out, ","), nil
}

// formatQdsweepJSON is run's name for qdsweep's own document (its json is fio's).
const formatQdsweepJSON = "qdsweep-json"
