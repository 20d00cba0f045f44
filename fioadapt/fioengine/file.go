package fioengine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// FileJob is one job of a job file that fio runs whole (RunFile), in the
// file's order: its engine (a NewEngine, with the options qdsweep hands
// fio for the job), its name, workload and control (runtime, ramp), and
// Links: the options as written that tie it to the file's other jobs
// (stonewall, wait_for, new_group, exitall, exit_what, group_reporting),
// which fio gets as they are.
type FileJob struct {
	Engine   ioengine.Engine
	Name     string
	Workload ioengine.Workload
	Control  ioengine.Control
	Links    [][2]string
	// StartDelay is the job's startdelay (among Links), for the
	// watchdog's reckoning of how long the run may take.
	StartDelay time.Duration
}

// FileReport is one job of fio's report of a job file run whole, as fio
// reported it: a group_reporting group as one job named after its first,
// each of numjobs clones as its own without it.
type FileReport struct {
	Name  string
	Group int // fio's groupid
	// Jobs are the FileJobs (indices) whose processes it covers, the
	// first the one it is named after; NumJobs counts the processes.
	Jobs     []int
	NumJobs  int
	Workload ioengine.Workload // Jobs[0]'s, with every direction its jobs do and NumJobs
	Stats    *ioengine.Stats
	Steady   *fio.SteadyState // fio's steady-state test, nil without one
}

// RunFile runs jobs as one fio invocation, as fio runs the job file they
// came from: every job with its options, in order, so that fio itself
// orders, groups, links and stops them (stonewall, wait_for, new_group,
// flow, exitall). Every target of every job is held under the write guard
// (the engine's own checks, a block device claimed) before fio starts and
// handed to fio as an inherited descriptor, as Run does for one job. It
// returns fio's report of each job, in fio's order (FileReport), and the
// error of a run fio failed or that was interrupted (with what fio
// reported, if anything).
func RunFile(ctx context.Context, jobs []FileJob) ([]FileReport, error) {
	if len(jobs) == 0 {
		return nil, errors.New("fio job file: no job")
	}
	first, ok := jobs[0].Engine.(*Engine)
	if !ok {
		return nil, errors.New("fio job file: not a fio engine")
	}
	bin, err := first.check(jobs[0].Workload)
	if err != nil {
		return nil, err
	}
	if err := CheckExtraArgs(first.opt.ExtraArgs); err != nil {
		return nil, err
	}
	sets, engines, fallback, err := fileOptions(jobs)
	if err != nil {
		return nil, err
	}
	held, err := holdFile(jobs)
	if err != nil {
		return nil, err
	}
	defer held.close()
	args := append(outputArgs(), withoutIOEngine(first.opt.ExtraArgs)...)
	for i, j := range jobs {
		args = append(args, "--"+fio.OptName+"="+j.Name)
		for _, kv := range held.rename(j.Workload, sets[i]) {
			args = append(args, fioArg(kv))
		}
	}
	stdout, stderr, runErr := first.execWith(ctx, bin, args, held.files, fileControl(jobs))
	outs, perr := fio.ParseJSON(bytes.NewReader(stdout))
	if perr != nil {
		return nil, notReported(ctx, args, runErr, perr, stderr)
	}
	final := fio.Final(outs)
	reps, err := fileReports(final[len(final)-1], jobs, engines, fallback)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return reps, fmt.Errorf("fio run interrupted: %w", ctx.Err())
	}
	if noIO(reps) {
		// As Run: a file none of whose jobs could do an I/O is an error,
		// never a measurement of 0 IOPS.
		return nil, fmt.Errorf("fio did no I/O on %s%s", strings.Join(held.paths, ", "), firstLines(stderr, 3))
	}
	if runErr != nil {
		return reps, fmt.Errorf("fio exited with an error: %w%s", runErr, firstLines(stderr, 3))
	}
	return reps, nil
}

// noIO reports whether no job of fio's report did an I/O.
func noIO(reps []FileReport) bool {
	for _, r := range reps {
		if r.Stats.All.TotalIOs > 0 {
			return false
		}
	}
	return true
}

// fioArg is an option on fio's command line: --key=value, or --key for a
// bare option (stonewall, group_reporting).
func fioArg(kv [2]string) string {
	if kv[1] == "" {
		return "--" + kv[0]
	}
	return "--" + kv[0] + "=" + kv[1]
}

// fileOptions are each job's options as Run would hand fio the job alone
// (fioadapt.JobOptions, as given, its end, the options qdsweep hands
// fio), less the group_reporting every such job gets, then its Links;
// the ioengine each runs on, and why an io_uring job runs on libaio (""
// when none does).
func fileOptions(jobs []FileJob) (sets [][][2]string, engines []string, fallback string, err error) {
	sets, engines = make([][][2]string, len(jobs)), make([]string, len(jobs))
	for i, j := range jobs {
		e, ok := j.Engine.(*Engine)
		if !ok || len(e.opt.Clients) > 0 {
			return nil, nil, "", fmt.Errorf("fio job file: job %s: a local fio engine runs a job file whole", j.Name)
		}
		if _, err := e.check(j.Workload); err != nil {
			return nil, nil, "", err
		}
		ioeng, fb := e.ioEngine()
		if fb != "" {
			fallback = fb
		}
		engines[i] = ioeng
		opts, err := fioadapt.JobOptions(j.Workload, j.Control.Runtime, j.Control.Ramp, ioeng)
		if err != nil {
			return nil, nil, "", err
		}
		opts = e.sizeBased(fioadapt.AsGiven(opts, e.opt.Given))
		if err := e.targetsExist(j.Workload); err != nil {
			return nil, nil, "", err
		}
		all := slices.DeleteFunc(append(slices.Clone(opts.Global), opts.Job...), func(kv [2]string) bool { return kv[0] == fio.OptGroupReporting })
		all = append(all, e.opt.JobOptions...)
		sets[i] = append(all, j.Links...)
	}
	return sets, engines, fallback, nil
}

// fileControl is the control of the whole run, for fio's watchdog: every
// job's ramp, runtime and start delay one after another (none when one
// job runs until its bytes are done).
func fileControl(jobs []FileJob) ioengine.Control {
	var ctl ioengine.Control
	for _, j := range jobs {
		ctl.Runtime += j.Control.Ramp + j.Control.Runtime + j.StartDelay
	}
	return ctl
}

// fileHeld are the targets of a job file's jobs, each path held once for
// the whole run (for writing when any job writes it) and handed to fio as
// descriptor 3+i.
type fileHeld struct {
	paths []string
	files []*os.File
	holds []*guard.Held
}

// holdFile holds every target of every job under the write guard, each
// path once: the first job that writes it judges it (else the first that
// names it), after the engine's own checks (a write never through a
// symbolic link).
func holdFile(jobs []FileJob) (*fileHeld, error) {
	h := &fileHeld{}
	judge := map[string]int{}
	var order []string
	for i, j := range jobs {
		for _, f := range j.Workload.Targets() {
			k, seen := judge[f]
			if !seen {
				order = append(order, f)
				judge[f] = i
				continue
			}
			if j.Workload.RW.IsWrite() && !jobs[k].Workload.RW.IsWrite() {
				judge[f] = i
			}
		}
	}
	for _, f := range order {
		w := jobs[judge[f]].Workload
		if w.RW.IsWrite() {
			if fi, err := os.Lstat(f); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				h.close()
				return nil, errSymlinkWrite(f)
			}
		}
		hd := w.HeldFile(f) // held since the run's start (session's holdJobFiles)
		if hd == nil {
			var err error
			if hd, err = guard.Hold(w.GuardTarget(f, w.RW.IsWrite(), 0), w.Permit); err != nil {
				h.close()
				return nil, err
			}
			h.holds = append(h.holds, hd)
		}
		if err := hd.Same(f); err != nil {
			h.close()
			return nil, err
		}
		fd, err := hd.Dup()
		if err != nil {
			h.close()
			return nil, err
		}
		h.paths = append(h.paths, f)
		h.files = append(h.files, os.NewFile(uintptr(fd), f))
	}
	return h, nil
}

// rename replaces a job's filename with its held descriptors' names.
func (h *fileHeld) rename(w ioengine.Workload, opts [][2]string) [][2]string {
	var names []string
	for _, f := range w.Targets() {
		names = append(names, fdName(slices.Index(h.paths, f)))
	}
	out := slices.Clone(opts)
	for i, kv := range out {
		if kv[0] == fio.OptFilename {
			out[i][1] = strings.Join(names, ":")
		}
	}
	return out
}

// close lets every descriptor and hold go.
func (h *fileHeld) close() {
	for _, f := range h.files {
		f.Close()
	}
	for _, hd := range h.holds {
		hd.Close()
	}
	h.files, h.holds = nil, nil
}

// fileReports are fio's jobs as FileReports: each of fio's reported jobs
// covers the processes (each job's numjobs, in the file's order) from the
// first of its name onwards to the next reported job's first.
func fileReports(o fio.Output, jobs []FileJob, engines []string, fallback string) ([]FileReport, error) {
	var procs []int // the job of each process fio ran, in order
	for i, j := range jobs {
		for range max(j.Workload.NumJobs, 1) {
			procs = append(procs, i)
		}
	}
	starts := make([]int, 0, len(o.Jobs))
	at := 0
	for _, fj := range o.Jobs {
		for at < len(procs) && jobs[procs[at]].Name != fj.Name {
			at++
		}
		if at == len(procs) {
			return nil, fmt.Errorf("fio output: job %q is none of the job file's, in its order", fj.Name)
		}
		starts = append(starts, at)
		at++
	}
	reps := make([]FileReport, len(o.Jobs))
	for n, fj := range o.Jobs {
		end := len(procs)
		if n+1 < len(starts) {
			end = starts[n+1]
		}
		r := FileReport{Name: fj.Name, Group: fj.GroupID, NumJobs: end - starts[n], Jobs: slices.Compact(slices.Clone(procs[starts[n]:end]))}
		r.Workload = coveredWorkload(jobs, r.Jobs, r.NumJobs)
		st, err := statsOf(fio.Output{Jobs: []fio.Job{fj}}, withFioDirs(r.Workload, fj), nil)
		if err != nil {
			return nil, err
		}
		st.FioIOEngine, st.FallbackReason = engines[r.Jobs[0]], fallback
		r.Stats, r.Steady = st, fj.Steady
		reps[n] = r
	}
	return reps, nil
}

// coveredWorkload is the workload of the first of jobs' covered ones, with
// every direction they do and n processes.
func coveredWorkload(jobs []FileJob, covered []int, n int) ioengine.Workload {
	w := jobs[covered[0]].Workload
	w.NumJobs = n
	reads, writes, random := false, false, false
	for _, k := range covered {
		rw := jobs[k].Workload.RW
		reads, writes, random = reads || rw.IsRead(), writes || rw.IsWrite(), random || rw.IsRandom()
	}
	if reads && writes && !(w.RW.IsRead() && w.RW.IsWrite()) {
		w.RW = ioengine.ReadWrite
		if random {
			w.RW = ioengine.RandRW
		}
	}
	return w
}

// withFioDirs is w doing every direction fio reported I/O in for fj, for
// reading fj's figures: a job that writes and verifies (do_verify) reads
// its blocks back, and fio reports those reads as the job's.
func withFioDirs(w ioengine.Workload, fj fio.Job) ioengine.Workload {
	reads := fj.Read != nil && fj.Read.TotalIOs > 0
	writes := fj.Write != nil && fj.Write.TotalIOs > 0
	if (reads && !w.RW.IsRead()) || (writes && !w.RW.IsWrite()) {
		w.RW = map[bool]ioengine.RW{false: ioengine.ReadWrite, true: ioengine.RandRW}[w.RW.IsRandom()]
	}
	return w
}
