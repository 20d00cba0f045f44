package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
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

// runFioFlags are the fio options run takes, shown in its help with fio's
// defaults. They are read by package fio, not by the flag parser.
func runFioFlags() []cli.Flag {
	fs := []cli.Flag{
		&cli.StringFlag{Name: "name", Usage: "job name; without --filename the job's file is <directory>/<name>.<job>.0, as fio names it (laid out if missing and kept)"},
		&cli.StringFlag{Name: "filename", Usage: "file or block device (default: ./qdsweep.scratch, laid out and removed); fio's a:b list spreads each job's I/Os over the files in turn (\\: escapes a colon in a name)"},
		&cli.StringFlag{Name: "directory", Usage: "directory of the job's file"},
		&cli.StringFlag{Name: "rw", Value: "read", Usage: "read, write, randread, randwrite, rw or randrw (also spelled --readwrite)"},
		&cli.StringFlag{Name: "bs", Value: "4k", Usage: "bytes per I/O (fio suffixes: 4k, 128k, 1m; also spelled --blocksize)"},
		&cli.StringFlag{Name: "iodepth", Value: "1", Usage: "I/Os in flight per job (psync does one at a time whatever the iodepth, as in fio)"},
		&cli.StringFlag{Name: "numjobs", Value: "1", Usage: "parallel jobs"},
		&cli.StringFlag{Name: "ioengine", Value: "psync", Usage: "psync (also sync, pvsync), libaio or io_uring (falls back to libaio when unavailable); " +
			"sim: a simulated device; fio: the installed fio"},
		&cli.StringFlag{Name: "direct", Value: "0", Usage: "1: O_DIRECT (bypass the page cache), 0: buffered"},
		&cli.StringFlag{Name: "size", Usage: "bytes each job covers (default: the whole existing file or device, else 1g is laid out)"},
		&cli.StringFlag{Name: "filesize", Usage: "the job's file size, when --size is not given"},
		&cli.StringFlag{Name: "io_size", Usage: "bytes each job transfers before it ends (default --size)"},
		&cli.StringFlag{Name: "offset", Value: "0", Usage: "start of the region, bytes"},
		&cli.StringFlag{Name: "offset_increment", Value: "0", Usage: "job i starts at offset + i*offset_increment, bytes"},
		&cli.StringFlag{Name: "rwmixread", Value: "50", Usage: "percent of reads for rw/randrw"},
		&cli.StringFlag{Name: "runtime", Usage: "longest run (fio's seconds, or 1m, 500ms); without --time_based the run ends sooner when its bytes are done"},
		&cli.BoolFlag{Name: "time_based", Usage: "run for --runtime whatever --size (without it a job ends after io_size × loops bytes)"},
		&cli.StringFlag{Name: "ramp_time", Value: "0", Usage: "warm-up before measuring"},
		&cli.StringFlag{Name: "loops", Value: "1", Usage: "passes over the region of a size-based run"},
		&cli.StringFlag{Name: "number_ios", Usage: "caps each loop of a size-based job at this many I/Os (a --time_based job ignores it, as fio does)"},
		&cli.StringFlag{Name: "startdelay", Value: "0", Usage: "wait this long before starting"},
		&cli.StringFlag{Name: "end_fsync", Value: "0", Usage: "1: fsync the file when the job ends"},
		&cli.StringFlag{Name: "randseed", Usage: "seed of the random offsets"},
		&cli.StringFlag{Name: "randrepeat", Value: "1", Usage: "0: different random offsets every run"},
		&cli.BoolFlag{Name: "norandommap", Usage: "accepted: qdsweep always draws random offsets with repeats, as fio with norandommap"},
		&cli.BoolFlag{Name: "readonly", Usage: "refuse a workload that writes"},
		&cli.StringFlag{Name: "continue_on_error", Value: "none", Usage: "io or all: count I/O errors instead of ending the run"},
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
			"--lat_percentiles, --group_reporting, --thread …) and submission batching\n" +
			"(--iodepth_batch_submit, --iodepth_batch_complete_max) are accepted and said to be ignored;\n" +
			"--percentile_list sets the percentiles of the terse and fio-json outputs.\n" +
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
			"--ioengine=sim measures a simulated device (no I/O); --ioengine=fio runs the installed fio (its ioengine\n" +
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

// splitRunArgs separates qdsweep's own flags from fio's options, keeping
// each flag's value with it ("--name x" and "--name=x"). Everything that
// is not one of run's own flags goes to fio's reader, unknown names
// included (it names them).
func splitRunArgs(raw []string) (own, fioArgs []string, err error) {
	ownValue := map[string]bool{}
	for _, f := range runOwnFlags() {
		v := true
		if tv, ok := f.(cli.DocGenerationFlag); ok {
			v = tv.TakesValue()
		}
		for _, n := range f.Names() {
			ownValue[n] = v
		}
	}
	for i := 0; i < len(raw); i++ {
		a := raw[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			fioArgs = append(fioArgs, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takes, isOwn := ownValue[name]
		if name == "ioengine" {
			v := val
			if !hasVal && i+1 < len(raw) {
				v = raw[i+1]
			}
			isOwn, takes = runQdsweepEngines[v], true
		}
		if !isOwn {
			fioArgs = append(fioArgs, a)
			if !hasVal && fio.OptionTakesValue(name) && i+1 < len(raw) && !strings.HasPrefix(raw[i+1], "--") {
				i++
				fioArgs = append(fioArgs, raw[i])
			}
			continue
		}
		own = append(own, "--"+strings.TrimLeft(a, "-"))
		if !hasVal && takes {
			if i+1 >= len(raw) {
				return nil, nil, usagef("run: --%s needs a value; see qdsweep run --help", name)
			}
			i++
			own = append(own, raw[i])
		}
	}
	return own, fioArgs, nil
}

// runSpec is what run's command line asks for, fio's options converted.
type runSpec struct {
	run     fioadapt.JobRun
	group   int           // the job's group: groups run one after another, a group's jobs together
	files   []string      // the job's files (one per clone when --name names them)
	engine  string        // io_uring, libaio, psync, sim or fio
	runtime time.Duration // the measured window's cap (runForever: none)
	notes   []string      // said on stderr before the run
}

// runSpecsFrom reads fio's options from the command line (and --jobfile)
// with fio's defaults, one spec per job (a job file's sections, or --name
// given several times), each in its group (fio.JobFile.Groups), and refuses
// what qdsweep does not run, every such option named in one line.
func runSpecsFrom(c *cli.Context, fioArgs []string) ([]runSpec, error) {
	var notes []string
	cmdline, rest, err := fio.ParseArgs(fioArgs)
	if err != nil {
		return nil, usagef("run: %v", err)
	}
	var jobFiles []string
	if c.IsSet("jobfile") {
		jobFiles = append(jobFiles, c.String("jobfile"))
	}
	for i, a := range rest {
		fi, statErr := os.Stat(a)
		switch {
		case i == 0 && a == "fio" && statErr != nil && len(fioArgs) > 0 && fioArgs[0] == "fio":
			// "qdsweep run fio --name=…": the word fio left in a pasted command.
			notes = append(notes, report.FioWordNote)
		case statErr == nil && fi.Mode().IsRegular():
			jobFiles = append(jobFiles, a) // a job file, as in `fio job.fio`
		default:
			return nil, usagef("run: unexpected argument %q; options take the form --name=value (e.g. --filename=%s), a job file must exist", a, a)
		}
	}
	if len(jobFiles) == 0 && c.IsSet("section") {
		return nil, usagef("--section picks sections of a job file: name one (qdsweep run job.fio --section=NAME)")
	}
	var runs []fioadapt.JobRun
	var groups []int
	var sectionNames []string // every section of the job files
	if len(jobFiles) == 0 {
		if runs, groups, err = commandLineRuns(cmdline); err != nil {
			return nil, err
		}
	}
	for _, path := range jobFiles {
		if len(cmdline.Jobs) > 0 {
			return nil, usagef("--jobfile %s: --name on the command line starts another job; qdsweep runs the file's jobs or the command line's: drop --name", path)
		}
		fr, fg, err := jobFileRuns(path, cmdline.Global, c.StringSlice("section"), &sectionNames)
		if err != nil {
			return nil, err
		}
		next := 0
		if len(groups) > 0 {
			next = groups[len(groups)-1] + 1 // as fio: each job file after the first waits for the one before
		}
		for _, g := range fg {
			groups = append(groups, next+g)
		}
		runs = append(runs, fr...)
	}
	if err := checkSections(c.StringSlice("section"), sectionNames); err != nil {
		return nil, err
	}
	specs := make([]runSpec, len(runs))
	for i, r := range runs {
		spec, err := specOf(c, r, len(runs) > 1)
		if err != nil {
			return nil, err
		}
		spec.group = groups[i]
		if i == 0 {
			spec.notes = append(notes, spec.notes...)
		}
		specs[i] = spec
	}
	return specs, nil
}

// commandLineRuns is the jobs of a command line (--name starts each).
func commandLineRuns(jf fio.JobFile) ([]fioadapt.JobRun, []int, error) {
	if len(jf.Jobs) == 0 {
		jf.Jobs = []fio.JobSpec{{Options: jf.Global}}
		jf.Global = nil
	}
	runs, err := fioadapt.Runs(jf)
	if errors.Is(err, fio.ErrUnsupported) {
		return nil, nil, usagef("run: %v; qdsweep does not run these: drop them or run the command with fio itself", oneLine(err))
	}
	if err != nil {
		return nil, nil, usagef("run: %v", oneLine(err))
	}
	return runs, jf.Groups(), nil
}

// jobFileRuns reads one job file: its jobs (those sections names, when
// given), the command line's options winning over the file's in each, and
// their groups. Every problem is a usage error naming the file.
func jobFileRuns(path string, cmdline []fio.Option, sections []string, names *[]string) ([]fioadapt.JobRun, []int, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, nil, usagef("--jobfile %s: is a directory; name a fio job file", path)
	}
	file, err := fio.ReadJobFile(path)
	if err != nil {
		return nil, nil, usagef("--jobfile %s: %v", path, oneLine(err))
	}
	if len(file.Jobs) == 0 {
		return nil, nil, usagef("--jobfile %s: holds no job section; add one, e.g. [job1]", path)
	}
	for _, j := range file.Jobs {
		*names = append(*names, j.Name)
	}
	if len(sections) > 0 {
		file.Jobs = slices.DeleteFunc(file.Jobs, func(j fio.JobSpec) bool { return !slices.Contains(sections, j.Name) })
		if len(file.Jobs) == 0 {
			return nil, nil, nil
		}
	}
	for i := range file.Jobs {
		file.Jobs[i].Options = append(file.Jobs[i].Options, cmdline...)
	}
	runs, err := fioadapt.Runs(file)
	if errors.Is(err, fio.ErrUnsupported) {
		return nil, nil, usagef("--jobfile %s: %v; qdsweep does not run these: drop them or run the command with fio itself", path, oneLine(err))
	}
	if err != nil {
		return nil, nil, usagef("--jobfile %s: %v", path, oneLine(err))
	}
	return runs, file.Groups(), nil
}

// checkSections fails when --section names a section none of the job
// files has (have), naming the sections there are.
func checkSections(names, have []string) error {
	for _, n := range names {
		if !slices.Contains(have, n) {
			return usagef("--section: no job section [%s]; the job file has %s", n, strings.Join(have, ", "))
		}
	}
	return nil
}

// specOf is one job's spec: its engine, files, depth and end, and the
// notes said before it runs; several says the run has more than one job
// (then stonewall, wait_for and new_group are not ignored: they group it).
func specOf(c *cli.Context, run fioadapt.JobRun, several bool) (runSpec, error) {
	spec := runSpec{run: run}
	r := &spec.run
	spec.files = r.Files
	spec.engine = r.IOEngine
	if e, set := ioengineFlag(c); set {
		spec.engine = e // sim or fio
	}
	if spec.engine == "" {
		spec.engine = ioengine.EnginePsync // fio's default
	}
	if len(spec.files) > 1 && r.Set["filename"] {
		// fio's filename=a:b: every job spreads its I/Os over the files.
		r.Workload.Files = spec.files
	} else if len(spec.files) > 1 {
		// fio's per-job files: <directory>/<name>.<job>.0.
		r.Workload.JobFiles = spec.files
	}
	if r.ReadOnly && r.Workload.RW.IsWrite() {
		return spec, usagef("run: --readonly with --rw=%s, which writes; drop one of them", r.Workload.RW)
	}
	if u := r.Workload.Uring; u.Set() && spec.engine != ioengine.EngineIOUring && spec.engine != engineFio {
		// As fio: its io_uring engine's options are unknown to the others.
		n := u.FioOptions()[0][0]
		return spec, usagef("run: %s is an option of fio's io_uring engine, and this job runs %s (fio's default when no ioengine is given); set ioengine=io_uring or drop %s", n, spec.engine, n)
	}
	if spec.engine == ioengine.EnginePsync && r.Workload.IODepth > 1 {
		spec.notes = append(spec.notes, report.PsyncDepthNote(r.Workload.IODepth))
		r.Workload.IODepth = 1
	}
	if !r.RandRepeat && !r.Set["randseed"] {
		r.Workload.RandSeed = uint64(time.Now().UnixNano()) // randrepeat=0: new offsets every run
	}
	spec.runtime = r.Runtime
	if spec.runtime <= 0 {
		spec.runtime = runForever
		if r.TimeBased {
			spec.notes = append(spec.notes, report.ForeverNote)
		}
	}
	if several {
		r.Ignored = slices.DeleteFunc(slices.Clone(r.Ignored), func(o string) bool {
			return o == "stonewall" || o == "wait_for_previous" || o == "wait_for" || o == "new_group"
		})
	}
	if n := report.IgnoredNote(r.Ignored, r.Batching); n != "" {
		spec.notes = append(spec.notes, n)
	}
	return spec, nil
}

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
	rjs := make([]report.RunJob, len(jobs))
	var firstErr error
	for i, j := range jobs {
		rjs[i] = j.reported()
		if firstErr == nil {
			firstErr = j.err
		}
	}
	if len(jobs) == 1 {
		if j := jobs[0]; j.st != nil && j.err != nil && format == formatNormal && !c.IsSet("output") {
			out = errw
		}
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

// runJob is one job of a run, from its checks to its figures.
type runJob struct {
	spec   runSpec
	prefix string // "job [name]: " before what is said of it when the run has several jobs
	w      ioengine.Workload
	es     engineSetup
	eng    ioengine.Engine
	reason string // why the engine fell back, said before the run
	t      runTarget
	ours   []guard.FileID // files this run laid out for the job
	ctl    ioengine.Control
	disks  *fioadapt.DiskWatch
	st     *ioengine.Stats
	err    error
	// fsyncFailed: the job's end_fsync failed, which ends the command
	// without a report (as a single run always did).
	fsyncFailed bool
	// cpuShared: the job ran beside others and its CPU is its share of
	// the process's by I/O count (fioadapt.RunGroups).
	cpuShared bool
}

// prepareRunJob opens a job's engine and checks its targets (sizes, the
// write guard, limits, remote writes) without creating anything.
func prepareRunJob(c *cli.Context, spec runSpec, ioTimeout time.Duration, several bool) (*runJob, error) {
	j := &runJob{spec: spec, w: spec.run.Workload}
	if several {
		j.prefix = fmt.Sprintf("job [%s]: ", spec.run.Name)
	}
	j.w.IOTimeout = ioTimeout
	es, err := engineFromFlags(c, "run", spec.engine, nil)
	if err != nil {
		return nil, err
	}
	configureFioEngine(es, &j.spec)
	j.es = es
	if j.t, err = runTargets(&j.w, es, j.spec.run); err != nil {
		return nil, err
	}
	if err := checkRunTargets(c, es, j.w, j.t); err != nil {
		return nil, err
	}
	if j.eng, j.reason, err = es.open(); err != nil {
		return nil, err
	}
	rw := j.w
	rw.Permit = writeGuardFromFlags(c)
	if err := checkRemoteWrites(c, j.eng, rw, []ioengine.RW{j.w.RW}); err != nil {
		return nil, err
	}
	return j, nil
}

// layOutJobs lays out every job's missing files, one job after another; a
// file an earlier job laid out is that job's, and the later one's too (by
// inode). cleanup undoes what layOutRun's cleanups undo, last job first.
func layOutJobs(ctx context.Context, errw io.Writer, jobs []*runJob) (cleanup func(), err error) {
	var cleanups []func()
	cleanup = func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	laid := map[string]guard.FileID{}
	for _, j := range jobs {
		var missing []string
		for _, f := range j.t.missing {
			if id, ok := laid[f]; ok {
				j.ours = append(j.ours, id)
				j.t.existingSize = max(j.t.existingSize, j.t.perFile)
				continue
			}
			missing = append(missing, f)
		}
		j.t.missing = missing
		ids, undo, err := layOutRun(ctx, errw, j.w, &j.t)
		cleanups = append(cleanups, undo)
		if err != nil {
			return cleanup, err
		}
		for i, id := range ids {
			laid[j.t.missing[i]] = id
			j.ours = append(j.ours, id) // laid out here, by inode
		}
	}
	return cleanup, nil
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

// configureFioEngine hands fio what the job asks of it when fio runs it.
func configureFioEngine(es engineSetup, spec *runSpec) {
	if es.fio == nil {
		return
	}
	if len(spec.run.Batching)+len(spec.run.Ignored) > 0 {
		// fio itself honours them: hand them over.
		spec.notes = nil
	}
	es.fio.IOEngine = ioengine.EnginePsync // fio's default, unless --fio-arg names one
	if !spec.run.TimeBased {
		es.fio.IOSize = spec.run.IOSize
	}
	es.fio.EndFsync = spec.run.EndFsync
	if n := spec.run.NumberIOs; n > 0 && !spec.run.TimeBased {
		// io_size holds every loop's bytes, so fio runs one loop: its cap is every loop's.
		es.fio.NumberIOs = n * int64(max(spec.run.Loops, 1))
	}
}

// runTarget is what a run measures: its files, those to lay out, the size
// of the existing ones and each file's share of --size.
type runTarget struct {
	files, missing []string
	temporary      bool // a scratch file laid out and removed
	existingSize   int64
	perFile        int64
}

// runTargets names the run's files and sizes w's region as fio would:
// existing targets whole (or their N%), new ones at --size (1 GiB by
// default).
func runTargets(w *ioengine.Workload, es engineSetup, run fioadapt.JobRun) (runTarget, error) {
	var t runTarget
	if len(w.JobFiles) > 0 && !es.local() {
		return t, usagef("run: --numjobs=%d gives each job its own file, which --ioengine=%s does not run; name one shared file with --filename", w.NumJobs, es.name)
	}
	t.temporary = w.Filename == "" && es.local()
	if t.temporary {
		w.Filename = runScratchFile
		if _, err := os.Lstat(runScratchFile); err == nil {
			return t, usagef("--filename: ./%s already exists (left by an earlier run?); remove it or pass --filename", runScratchFile)
		}
	}
	if len(w.Files) > 1 && es.sim != nil {
		return t, usagef("run: --filename lists %d files, which --ioengine=sim does not model; name one file", len(w.Files))
	}
	t.files = []string{w.Filename}
	if len(w.JobFiles) > 0 {
		t.files = w.JobFiles
	}
	if len(w.Files) > 1 {
		t.files = w.Files
	}
	for _, f := range t.files {
		if fi, err := os.Stat(f); err == nil && es.local() {
			t.existingSize = fioadapt.FileBytes(f, fi)
		} else if es.local() {
			t.missing = append(t.missing, f)
		}
	}
	if err := resolvePercents(run, w, t.missing, t.existingSize); err != nil {
		return t, err
	}
	if len(t.missing) > 0 && w.Size == 0 {
		w.Size = runDefaultSize // fio would refuse; qdsweep lays out 1 GiB
	}
	if es.sim != nil && w.Size == 0 {
		w.Size = runDefaultSize
	}
	t.perFile = w.FileSize() // each file of a list holds an equal share of --size
	if es.remote() && w.Filename == "" {
		return t, usagef("--fio-clients: name the target on the servers with --filename (nothing is laid out on them)")
	}
	return t, nil
}

// checkRunTargets validates each file of the run and runs the write guard
// on it, and checks the process limits, before anything is laid out.
func checkRunTargets(c *cli.Context, es engineSetup, w ioengine.Workload, t runTarget) error {
	for _, f := range t.files {
		fw := w
		fw.Filename, fw.Size, fw.Files = f, t.perFile, nil
		if err := es.validate(fw); err != nil {
			return err
		}
		if es.local() {
			if err := checkWrites(fw, []ioengine.RW{w.RW}, writeGuardFromFlags(c)); err != nil {
				return err
			}
		}
	}
	if es.sim == nil {
		return checkRunLimits(w.NumJobs, w.IODepth, w.BS)
	}
	return nil
}

// layOutRun lays out the run's missing files (ioengine.LayOut: removed
// only by inode; a partial layout always goes, a scratch file when the run
// ends, and a named target is kept as fio keeps it, said last) and returns
// their identities. cleanup, which the caller defers even on an error, does
// the going.
func layOutRun(ctx context.Context, errw io.Writer, w ioengine.Workload, t *runTarget) ([]guard.FileID, func(), error) {
	temporary, missing := t.temporary, t.missing
	size := t.perFile + w.Offset + int64(w.NumJobs-1)*w.OffsetIncrement
	if n := report.LayoutNote(missing, size); n != "" {
		fmt.Fprintln(errw, n)
	}
	l, err := ioengine.LayOut(ctx, missing, size, temporary, onHardExit)
	cleanup := func() {
		if !temporary && len(missing) > 0 {
			var kept []string
			for _, f := range missing {
				if _, err := os.Stat(f); err == nil {
					kept = append(kept, f)
				}
			}
			if n := report.KeptNote(kept); n != "" {
				fmt.Fprintln(errw, n)
			}
		}
		l.Close()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, cleanup, fmt.Errorf("%w: %v", errInterrupted, err)
		}
		return nil, cleanup, err
	}
	if len(missing) > 0 {
		t.existingSize = size
	}
	return l.IDs(), cleanup, nil
}

// runControl is the engine's control of a run: phases, series, fio's disk
// utilisation over the window (local engines) and the size-based end.
func runControl(spec runSpec, es engineSetup, w ioengine.Workload, t runTarget, logEvery time.Duration) (ioengine.Control, *fioadapt.DiskWatch) {
	ctl := ioengine.Control{Ramp: spec.run.Ramp, Runtime: spec.runtime, SeriesInterval: max(0, logEvery)}
	var disks *fioadapt.DiskWatch // fio's disk utilisation over the measured window
	if es.local() && es.fio == nil {
		disks = fioadapt.NewDiskWatch(t.files)
		ctl.OnWindowStart, ctl.OnWindowEnd = disks.Start, disks.End
	}
	if !spec.run.TimeBased && es.fio == nil {
		ctl.IOsPerJob = fioadapt.IOsPerJob(spec.run, w, t.existingSize)
	}
	// fio reports numjobs clones apart unless group_reporting; the fio
	// engine always groups, the simulator has no jobs apart.
	ctl.PerJob = w.NumJobs > 1 && !spec.run.GroupReporting && es.fio == nil && es.sim == nil
	return ctl, disks
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

// resolvePercents applies fio's size=N% / offset=N%, shares of the
// target's own size (existing bytes), to w.
func resolvePercents(run fioadapt.JobRun, w *ioengine.Workload, missing []string, existing int64) error {
	if run.SizePercent+run.OffsetPercent <= 0 {
		return nil
	}
	if len(missing) > 0 || existing <= 0 {
		return usagef("size or offset as a percentage needs an existing target: %v does not exist yet; give --size in bytes (e.g. --size=1g) to lay it out", missing)
	}
	if p := run.OffsetPercent; p > 0 {
		w.Offset = alignDown(int64(float64(existing)*p/100), w.BS)
	}
	if p := run.SizePercent; p > 0 {
		w.Size = alignDown(min(int64(float64(existing)*p/100), existing-w.Offset), w.BS)
	}
	return nil
}

// alignDown rounds n down to a multiple of bs (n when bs < 1).
func alignDown(n, bs int64) int64 {
	if bs < 1 {
		return n
	}
	return n / bs * bs
}
