package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
)

// runScratchFile is the file `run` lays out and removes when neither
// --filename nor --name names one.
const runScratchFile = ScratchName

// runDefaultSize is the size of the scratch file `run` lays out when
// neither --filename nor --name names a target and no --size is given.
const runDefaultSize = 1 << 30

// RunForever stands for "no runtime": a size-based run ends when its bytes
// are done, a time_based one without --runtime runs until interrupted, as fio.
const RunForever = 100 * 365 * 24 * time.Hour

// Run is a run session: the jobs one fio invocation would run, and how
// their figures are reported. Execute runs it.
type Run struct {
	Specs     []RunSpec
	Permit    guard.Permit // what the command line permits writing over
	IOTimeout time.Duration
	LogEvery  time.Duration // series interval (< 0: off)
	Format    string        // report.RunNormal (""), RunJSON, RunTerse, RunFioJSON or RunJSONPlus
	Output    string        // file for the figures ("": Stdout)
	Overwrite bool          // Output may replace a file qdsweep did not write
	JobFile   string        // the job file named (never replaced by Output)
	// Inputs are the other files the run reads (RunRequest.Inputs: job
	// files named on their own, included files): never replaced by Output.
	Inputs []string
	// Engines are the engine settings given (Set) with which the engine a
	// job names is set up.
	Engines EngineRequest
	Set     Fields
	Version string // qdsweep's, in the reports

	Stdout, Stderr io.Writer
	OnHardExit     HardExit
}

// Execute checks every job (its engine, targets, the write guard, limits)
// before any file is created, lays out what is missing, runs the jobs as fio
// runs them (groups one after another) and reports their figures in Format.
func (r *Run) Execute(ctx context.Context) (err error) {
	started := time.Now() // fio's genesis, whence its JSON's "elapsed"
	specs, format := r.Specs, r.Format
	if format == "" {
		format = report.RunNormal
	}
	jobs := make([]*runJob, len(specs))
	var files []string
	laid := map[string]int64{} // the files earlier jobs lay out, and their sizes
	for i, spec := range specs {
		if jobs[i], err = r.prepareJob(ctx, spec, len(specs) > 1, laid); err != nil {
			return err
		}
		laidSizes(jobs[i], laid)
		files = append(files, jobs[i].t.files...)
	}
	errw := r.Stderr
	out, flush, err := r.output(files)
	if err != nil {
		return err
	}
	defer func() {
		if werr := flush(); werr != nil && err == nil {
			err = werr
		}
	}()
	logs, logOut, win, err := r.checkLogs(jobs, files)
	if err != nil {
		return err
	}
	logsDone, err := askFioForLogs(jobs, logs)
	defer logsDone()
	if err != nil {
		return err
	}
	cleanup, err := r.layOutJobs(ctx, errw, jobs)
	defer cleanup()
	if err != nil {
		return err
	}
	sayJobNotes(errw, jobs)
	r.controlJobs(jobs, win)
	var rjs []report.RunJob // fio's report of a job file it ran whole
	var fileErr error
	if wholeViaFio(jobs) {
		if rjs, fileErr = runFile(ctx, jobs); rjs == nil {
			return fileErr
		}
	} else if err := runGroups(ctx, jobs); err != nil {
		return err
	}
	exact, err := writeRunLogs(logs, logOut)
	if err != nil {
		return err
	}
	if !exact {
		fmt.Fprintln(errw, report.HistBinsNote())
	}
	if slatUnlogged(jobs) {
		fmt.Fprintln(errw, report.SlatLogNote())
	}
	if len(jobs) == 1 && jobs[0].st != nil && jobs[0].err != nil && format == report.RunNormal && r.Output == "" {
		out = errw // a run that failed part-way: its figures beside its error
	}
	if rjs != nil {
		return publishRunJobs(out, errw, format, started, rjs, fileErr)
	}
	rjs = make([]report.RunJob, len(jobs))
	var firstErr error
	for i, j := range jobs {
		rjs[i] = j.reported()
		if firstErr == nil {
			firstErr = j.err
		}
	}
	return publishRunJobs(out, errw, format, started, rjs, firstErr)
}

// publishRunJobs writes the jobs' figures in format (report.WriteRun, or
// WriteRuns for several), of a run started then, and returns firstErr,
// the first job's error, an interrupted one as such.
func publishRunJobs(out, errw io.Writer, format string, started time.Time, rjs []report.RunJob, firstErr error) error {
	for i := range rjs {
		rjs[i].Started = started
	}
	if err := (publication{runs: rjs, runFormat: format, stdout: out, stderr: errw}).publish(); err != nil {
		return err
	}
	if errors.Is(firstErr, context.Canceled) {
		return fmt.Errorf("%w: %v", ErrInterrupted, firstErr)
	}
	return firstErr
}

// reported is the job as run's reports see it.
func (j *runJob) reported() report.RunJob {
	return report.RunJob{Name: j.spec.run.Name, Group: j.spec.group, Prefix: j.prefix, GroupReporting: j.spec.run.GroupReporting,
		Workload: j.w, Stats: j.st, Disks: j.disks.Utils(), Steady: j.steadyResult(), Err: j.err, CPUShared: j.cpuShared,
		Runtime: j.spec.runtime, Ramp: j.spec.run.Ramp, TimeBased: j.spec.run.TimeBased, Percentiles: j.spec.run.Percentiles, Reporting: j.spec.run.Reporting,
		Version: fio.WriterVersion(j.version), JobOptions: j.spec.run.JobOptions, GlobalOptions: j.spec.run.GlobalOptions,
		TrimBS: j.spec.run.TrimBS, KBBase: j.spec.run.KBBase}
}

// steadyResult is the job's steady-state test: fio's when fio ran the job,
// else the native test's (nil without one).
func (j *runJob) steadyResult() *fio.SteadyState {
	if j.fioSteady != nil {
		return j.fioSteady
	}
	return j.steady.result()
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
		fjs[i] = &fioadapt.Job{Group: j.spec.wave, WaitFor: j.spec.waitFor, StartDelay: j.spec.run.StartDelay, EndFsync: j.spec.run.EndFsync && j.es.Local(),
			Engine: j.eng, Workload: j.w, Control: j.ctl, VerifyPass: j.spec.run.VerifyPass(), VerifyOnly: j.spec.run.VerifyOnly && j.spec.run.VerifyPass(),
			ReportGroup: j.spec.group}
		fjs[i].ExitAll, fjs[i].ExitWhat = exitOf(j.spec.run)
	}
	err := fioadapt.RunGroups(ctx, fjs)
	for i, j := range jobs {
		j.st, j.err, j.fsyncFailed, j.cpuShared = fjs[i].Stats, fjs[i].Err, fjs[i].FsyncFailed, fjs[i].CPUShared
		var floor *ioengine.FloorError
		var lat *ioengine.LatencyTargetError
		if errors.As(j.err, &floor) || errors.As(j.err, &lat) {
			j.err = fmt.Errorf("%s: %w", j.spec.run.Name, j.err) // as fio names the job that failed its floor or target
		}
	}
	if errors.Is(err, ioengine.ErrBadWorkload) {
		return UsageErr(err)
	}
	return err
}

// output is where the run's figures go: standard output, or fio's
// --output through the one writer: never a device, a symlink or a file
// the run reads or measures (files, the job file), written whole by flush
// when the run ends (temporary file and rename).
func (r *Run) output(files []string) (io.Writer, func() error, error) {
	if r.Output == "" {
		return r.Stdout, func() error { return nil }, nil
	}
	path := r.Output
	oo := guard.OutOptions{Flag: "--output", Overwrite: r.Overwrite, Protect: append(append(slices.Clone(files), r.JobFile), r.Inputs...)}
	if err := guard.CheckOutFile(path, oo); err != nil {
		return nil, nil, OutErr(err)
	}
	var buf bytes.Buffer
	flush := func() error {
		if err := guard.WriteFile(path, buf.Bytes(), oo); err != nil {
			// Checked before the run, yet refused now (the disk filled, the
			// directory went): the figures go to standard output rather
			// than nowhere.
			// A runtime failure (exit 1), not a usage error: the run is done.
			if _, werr := r.Stdout.Write(buf.Bytes()); werr == nil && buf.Len() > 0 {
				return fmt.Errorf("writing results: %w; they were written to standard output instead", err)
			}
			return fmt.Errorf("writing results: %w", err)
		}
		return nil
	}
	return &buf, flush, nil
}

// controlJobs sets each job's control (runControl: phases, series, logs
// in win's windows, its steady-state test) and the write guard its engine
// runs again on what it opens.
func (r *Run) controlJobs(jobs []*runJob, win time.Duration) {
	for _, j := range jobs {
		j.ctl, j.disks = runControl(j.spec, j.es, j.w, j.t, r.LogEvery)
		if j.es.Fio == nil { // fio runs its own test (fioSteady)
			j.steady = watchSteady(&j.ctl, j.spec.run.Steady)
		}
		j.ctl.IOLog = j.spec.run.Logs.PerIO() // fio logs every I/O without log_avg_msec
		j.markLogEpoch()
		if l := j.spec.run.Logs; l.Hist != "" && l.HistMs > 0 {
			j.ctl.HistWindow = time.Duration(l.HistMs) * time.Millisecond // fio's windows, from the first completion
		}
		if win > 0 {
			j.ctl.SeriesInterval = win  // fio's logs' windows, a whole number of slices each
			j.ctl.SeriesKeepTail = true // fio writes the last part-window in some logs only
			l := j.spec.run.Logs
			j.ctl.SeriesBins = l.Hist != "" || l.Lat != "" && j.w.RW.IsRead() && j.w.RW.IsWrite() // each direction's latency
			j.ctl.SeriesPerJob = j.w.NumJobs > 1 && j.spec.run.Logs.Any()
		}
	}
}
