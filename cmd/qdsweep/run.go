package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
	"github.com/urfave/cli/v2"
)

// runScratchFile is the file `run` lays out and removes when neither
// --filename nor --name names one.
const runScratchFile = "qdsweep.scratch"

// runDefaultSize is the size `run` lays out when the target does not exist
// and no --size is given (fio would refuse to start).
const runDefaultSize = 1 << 30

// runForever stands for "no runtime": a size-based run ends when its bytes
// are done, a time_based one without --runtime runs until interrupted, as fio.
const runForever = 100 * 365 * 24 * time.Hour

// runOwnFlags are run's flags that fio does not have, or that qdsweep
// answers itself (output, engines, write permissions, job file).
func runOwnFlags() []cli.Flag {
	fs := []cli.Flag{
		&cli.StringFlag{Name: "output-format", Value: formatNormal, Usage: "normal, json (qdsweep's own document), terse (fio's terse v3 line, field for field), fio-json (a fio-shaped JSON document for fio's readers) or json+ (fio-json with fio's json+ completion-latency bins)"},
		&cli.StringFlag{Name: "output", Aliases: []string{"out", "o"}, Usage: "write the results to this file instead of standard output (as fio's --output)"},
		&cli.StringFlag{Name: "io_timeout", Value: "30s", Usage: "an I/O outstanding this long ends the run with an error"},
		jobFileFlag(),
		&cli.StringSliceFlag{Name: "section", Usage: "run only this job section of the job file (repeat for several), as fio's --section"},
		&cli.BoolFlag{Name: "parse-only", Usage: "read and check the job (file) and exit, running nothing (as fio's --parse-only)"},
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
			fs = append(fs, &cli.BoolFlag{Name: d.Name, Usage: d.Help})
			continue
		}
		fs = append(fs, &cli.StringFlag{Name: d.Name, Value: d.Default, Usage: d.Help})
	}
	for _, u := range fio.UringOptions {
		fs = append(fs, &cli.StringFlag{Name: u.Name, Usage: u.Help}) // fio reads the value
	}
	return fs
}

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run one workload as one fio invocation would, and report IOPS, latency and in-flight I/Os",
		UsageText: "qdsweep run [fio options] [--output-format=normal|json|terse|fio-json|json+] [--allow-write] ...",
		Description: "A fio command line with `fio` replaced by `qdsweep run` runs what fio would run, fio's defaults\n" +
			"included: --ioengine=psync, --iodepth=1, --rw=read, --bs=4k, --direct=0, no ramp, and a run that ends\n" +
			"when --size (× --loops) is done unless --time_based is given. qdsweep's own opinions (io_uring, deep\n" +
			"queues, a ramp, a curve) belong to `qdsweep sweep`.\n" +
			"fio options that only change fio's reporting or naming (--eta, --status-interval,\n" +
			"--lat_percentiles, --thread …) and submission batching\n" +
			"(--iodepth_batch_submit, --iodepth_batch_complete_max) are accepted and said to be ignored;\n" +
			"--group_reporting reports a group's jobs as one, as fio; --percentile_list sets the percentiles\n" +
			"of the terse and fio-json outputs.\n" +
			"--rate_iops and --rate cap each job per direction, as fio (the wait is not latency);\n" +
			"--filename=a:b spreads every job's I/Os over the files in turn, --size split between them.\n" +
			"--fsync=N/--fdatasync=N (psync) sync after every N writes, timed on their own; --sync=dsync opens\n" +
			"with O_DSYNC; buffered runs drop the files' cached pages first (fio's --invalidate=1).\n" +
			"--fixedbufs, --registerfiles, --sqthread_poll, --hipri and --nonvectored are fio's io_uring options\n" +
			"(with --ioengine=io_uring, as in fio).\n" +
			"Options that change the workload and that qdsweep does not run (--bssplit, --thinktime,\n" +
			"--verify=crc32c, --rate_process=poisson, --sync_file_range …) are refused, all named in one line.\n" +
			"Without --filename or --name, qdsweep lays out ./" + runScratchFile + " (--size, default 1 GiB)\n" +
			"with real writes, measures it and removes it.\n" +
			"Writes over existing data need --allow-write (a file) or --allow-write-device (a blank block device;\n" +
			"add --destroy-data=/dev/X to overwrite partitions or a filesystem signature); mounted devices are refused.\n" +
			"--sim=latency=1ms,iops=20000 (--ioengine=sim) measures a simulated device (no I/O); --ioengine=fio runs\n" +
			"the installed fio (its ioengine\n" +
			"from --fio-arg=--ioengine=X, else psync), and with --fio-clients runs it on fio servers: --filename then\n" +
			"names their target and nothing is laid out or checked here. --jobfile (or a job file named on its\n" +
			"own, as `fio job.fio`) takes the workload from a fio job file (options on the command line win).",
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
		Flags: append(runOwnFlags(), &cli.StringFlag{Name: "ioengine", Hidden: true}),
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

func runAction(c *cli.Context, fioArgs []string) (err error) {
	stopsOnItsOwn.Store(true)
	if c.NArg() > 0 {
		return usagef("run: unexpected argument %q; flags take the form --name=value (e.g. --filename=%s)", c.Args().First(), c.Args().First())
	}
	// Everything is checked, for every job, before any file is created.
	specs, err := runSpecsFrom(c, fioArgs)
	if err != nil || c.Bool("parse-only") {
		return err
	}
	ioTimeout, err := durationFlag(c, "io_timeout", 30*time.Second)
	if err != nil {
		return err
	}
	format, err := runFormat(c)
	if err != nil {
		return err
	}
	logEvery, err := logIntervalFromFlags(c)
	if err != nil {
		return err
	}
	jobs := make([]*runJob, len(specs))
	var files []string
	for i, spec := range specs {
		if jobs[i], err = prepareRunJob(c, spec, ioTimeout, len(specs) > 1); err != nil {
			return err
		}
		files = append(files, jobs[i].t.files...)
	}
	errw := c.App.ErrWriter
	out, flush, err := runOutput(c, files)
	if err != nil {
		return err
	}
	defer func() {
		if werr := flush(); werr != nil && err == nil {
			err = werr
		}
	}()
	ctx := c.Context
	cleanup, err := layOutJobs(ctx, errw, jobs)
	defer cleanup()
	if err != nil {
		return err
	}
	sayJobNotes(errw, jobs)
	for _, j := range jobs {
		j.ctl, j.disks = runControl(j.spec, j.es, j.w, j.t, logEvery)
		// The engine runs the write guard again on what it opens: the
		// files laid out here are qdsweep's own.
		j.w.Permit = writeGuardFromFlags(c)
		j.w.Permit.Ours = append(j.w.Permit.Ours, j.ours...)
	}
	if err := runGroups(ctx, jobs); err != nil {
		return err
	}
	if len(jobs) == 1 && jobs[0].st != nil && jobs[0].err != nil && format == formatNormal && !c.IsSet("output") {
		out = errw // a run that failed part-way: its figures beside its error
	}
	return reportRunJobs(out, errw, format, jobs)
}

// reportRunJobs writes the jobs' figures in format (report.WriteRun, or
// WriteRuns for several) and returns the first job's error, an interrupted
// one as such.
func reportRunJobs(out, errw io.Writer, format string, jobs []*runJob) error {
	rjs := make([]report.RunJob, len(jobs))
	var firstErr error
	for i, j := range jobs {
		rjs[i] = j.reported()
		if firstErr == nil {
			firstErr = j.err
		}
	}
	var err error
	if len(jobs) == 1 {
		err = report.WriteRun(out, errw, format, rjs[0])
	} else {
		err = report.WriteRuns(out, errw, format, rjs)
	}
	if err != nil {
		return err
	}
	if errors.Is(firstErr, context.Canceled) {
		return fmt.Errorf("%w: %v", errInterrupted, firstErr)
	}
	return firstErr
}

// reported is the job as run's reports see it.
func (j *runJob) reported() report.RunJob {
	return report.RunJob{Name: j.spec.run.Name, Group: j.spec.group, Prefix: j.prefix, GroupReporting: j.spec.run.GroupReporting,
		Workload: j.w, Stats: j.st, Disks: j.disks.Utils(), Err: j.err, CPUShared: j.cpuShared,
		Runtime: j.spec.runtime, Ramp: j.spec.run.Ramp, TimeBased: j.spec.run.TimeBased, Percentiles: j.spec.run.Percentiles,
		Version: "qdsweep-" + version}
}

// sayJobNotes says on errw what each job's engine fell back from and the
// notes of its options, before the run: a note every job has once, the
// others with the job's name.
func sayJobNotes(errw io.Writer, jobs []*runJob) {
	count := map[string]int{}
	for _, j := range jobs {
		for _, n := range slices.Compact(slices.Sorted(slices.Values(append([]string{j.reason}, j.spec.notes...)))) {
			count[n]++
		}
	}
	said := map[string]bool{}
	for _, j := range jobs {
		for _, n := range append([]string{j.reason}, j.spec.notes...) {
			switch {
			case n == "" || said[n]:
			case count[n] == len(jobs):
				said[n] = true
				fmt.Fprintln(errw, "qdsweep: "+n)
			default:
				fmt.Fprintln(errw, "qdsweep: "+j.prefix+n)
			}
		}
	}
}

// runGroups runs the jobs as fio runs a job file (fioadapt.RunGroups):
// groups one after another, a group's jobs together, each after its
// startdelay. A job's result and error stay with it; the error returned
// ends the command before any report (a workload the engine refuses, a
// failed end_fsync).
func runGroups(ctx context.Context, jobs []*runJob) error {
	fjs := make([]*fioadapt.Job, len(jobs))
	for i, j := range jobs {
		fjs[i] = &fioadapt.Job{Group: j.spec.group, StartDelay: j.spec.run.StartDelay, EndFsync: j.spec.run.EndFsync && j.es.local(),
			Engine: j.eng, Workload: j.w, Control: j.ctl}
	}
	err := fioadapt.RunGroups(ctx, fjs)
	for i, j := range jobs {
		j.st, j.err, j.fsyncFailed, j.cpuShared = fjs[i].Stats, fjs[i].Err, fjs[i].FsyncFailed, fjs[i].CPUShared
	}
	if errors.Is(err, ioengine.ErrBadWorkload) {
		return usageErr(err)
	}
	return err
}

// runFormat reads run's --output-format.
func runFormat(c *cli.Context) (string, error) {
	format := c.String("output-format")
	switch format {
	case formatNormal, formatJSON, formatTerse, formatFioJSON, formatJSONPlus:
		return format, nil
	}
	return "", usagef("--output-format: unknown format %q; use normal, json, terse, fio-json or json+", format)
}

// runOutput is where the run's figures go: standard output, or fio's
// --output through the one writer: never a device, a symlink or a file
// the run reads or measures (files, the job file), written whole by flush
// when the run ends (temporary file and rename).
func runOutput(c *cli.Context, files []string) (io.Writer, func() error, error) {
	if !c.IsSet("output") {
		return c.App.Writer, func() error { return nil }, nil
	}
	path := c.String("output")
	oo := outOptions(c, "output", append(slices.Clone(files), c.String("jobfile"))...)
	if err := guard.CheckOutFile(path, oo); err != nil {
		return nil, nil, outErr(err)
	}
	var buf bytes.Buffer
	flush := func() error {
		if err := guard.WriteFile(path, buf.Bytes(), oo); err != nil {
			return fmt.Errorf("writing results: %w", outErr(err))
		}
		return nil
	}
	return &buf, flush, nil
}
