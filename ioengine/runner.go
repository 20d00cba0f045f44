//go:build linux

package ioengine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"
)

// defaultIOTimeout applies when Workload.IOTimeout is 0.
const defaultIOTimeout = 30 * time.Second

// ErrStalled is wrapped by the error of a run whose device completed nothing
// for Workload.IOTimeout while I/Os were outstanding.
var ErrStalled = errors.New("device stalled")

// jobResult is what a job hands back when it ends.
type jobResult struct {
	idx     int
	m       meter
	buffers string
	err     error
	// spent is set when the job ended because it issued all its I/Os
	// (Control.IOsPerJob) and they completed.
	spent bool
}

// runWorkload is the engine-independent part of Run, in four phases:
// openRun checks the workload and opens the target; startJobs starts one
// goroutine per job (locked to its OS thread) and waits until each has set
// up its loop; measure lets them go and paces the ramp and the measured
// window, watching for stalls; finish collects the jobs and merges their
// figures.
func runWorkload(ctx context.Context, w Workload, ctl Control, engine, fallback string, newLoop newLoopFunc) (*Stats, error) {
	if w.IOTimeout == 0 {
		w.IOTimeout = defaultIOTimeout
	}
	flow := flowOf(&w)
	r, err := openRun(w, ctl, engine)
	if err != nil {
		flow.Unjoin(w.Flow.Weight, w.NumJobs) // none ran
		return nil, err
	}
	r.flow = flow
	flow.Unjoin(w.Flow.Weight, w.NumJobs-r.jobs) // those a limit keeps from starting
	release := leaseProcs(r.jobs)
	defer release()
	if err := r.startJobs(newLoop); err != nil {
		return nil, err
	}
	// Collect the garbage of the setup now, while the jobs wait: a
	// collection during the window takes a quarter of GOMAXPROCS (raised
	// to one P per job) for its mark workers, and a job whose P a worker
	// took parks on its return from the kernel with no I/O in flight. On
	// a loaded machine, 256 psync jobs kept 109 in flight while one ran.
	runtime.GC()
	if ctl.BeforeStart != nil {
		ctl.BeforeStart()
	}
	win, runErr := r.measure(ctx)
	return r.finish(win, runErr, fallback)
}

// workloadRun is one run of runWorkload: the workload, the target's
// descriptors, and the jobs' channels.
type workloadRun struct {
	w       Workload
	ctl     Control
	engine  string
	fd      int       // the target, opened once
	jobFDs  [][]int   // each job's files (fd or others)
	sizes   [][]int64 // each job's region in each of its files
	total   int64     // the target's bytes
	jobs    int       // jobs to start (numjobs, or fewer under a thread limit)
	limited bool      // a thread limit is near: io_uring keeps few workers
	short   *Shortfall
	running int          // jobs that set up and run
	flow    *FlowCounter // the jobs' flow (Workload.Flow; nil: none)

	c       *coord
	pubs    []jobPub
	ready   chan jobReady
	results chan jobResult
	begin   chan struct{}
	wg      sync.WaitGroup
}

// openRun checks w against the engine and opens its target and files.
func openRun(w Workload, ctl Control, engine string) (*workloadRun, error) {
	if err := Validate(w, engine); err != nil {
		return nil, err
	}
	if ctl.Runtime <= 0 {
		return nil, refusef("%s: must be positive; use e.g. %s (seconds) or 10s", SetRuntime, use(SetRuntime, 30))
	}
	if engine == EngineNull {
		return openNullRun(w, ctl)
	}
	total, err := heldSize(&w)
	if err != nil {
		return nil, err
	}
	fw := w
	fw.Size = w.FileSize()
	sizes, err := jobSizes(fw, total)
	if err != nil {
		return nil, err
	}
	r := &workloadRun{w: w, ctl: ctl, engine: engine, total: total}
	if r.jobs, r.short, r.limited, err = jobsWithinThreadLimit(w.NumJobs, engine); err != nil {
		return nil, err
	}
	if r.fd, err = openTarget(&fw); err != nil { // the guard checks the file's own share of a list
		return nil, err
	}
	if r.jobFDs, r.sizes, err = openJobFiles(w, r.fd, sizes); err != nil {
		unix.Close(r.fd)
		return nil, err
	}
	if w.Invalidate {
		end := w.GuardTarget(w.Filename, false, 0).End // 0: to the end of the file
		dropCaches(r.jobFDs, w.Offset, max(end-w.Offset, 0))
	}
	adviseFiles(r.jobFDs, w.Fadvise.of(w.RW))
	return r, nil
}

// closeFiles closes the target and the jobs' files.
func (r *workloadRun) closeFiles() {
	closeJobFiles(r.jobFDs, r.fd)
	unix.Close(r.fd)
}

// startJobs starts the jobs and waits until each has set up its loop. A
// job that cannot start for want of a resource (files, memory, AIO events)
// leaves the others to run, and the shortfall says so; any other setup
// error stops them all, closes the files and is returned.
func (r *workloadRun) startJobs(newLoop newLoopFunc) error {
	w, ctl := &r.w, r.ctl
	r.c = &coord{base: time.Now(), ser: newSeriesClock(ctl)}
	if ctl.Ramp <= 0 {
		r.c.phase.Store(phaseMeasure)
	}
	r.pubs = make([]jobPub, r.jobs)
	r.ready = make(chan jobReady, r.jobs)
	r.results = make(chan jobResult, r.jobs)
	r.begin = make(chan struct{})
	cpu0 := currentCPU()
	for i := 0; i < r.jobs; i++ {
		j := &job{idx: i, cpu0: cpu0, w: w, fds: r.jobFDs[i], depth: w.IODepth, bs: w.MaxBS(), verify: newVerifier(w, i), fewThreads: r.limited, pace: newPacer(w.RateIOPS), left: -1}
		if w.Poisson {
			j.pace = newPoissonPacer(w.RateIOPS, w.RandSeed, i)
		}
		j.left, j.leftBytes = ctl.jobEnd(i)
		j.gen = newOffsetGen(w, w.JobStart(i), r.sizes[i], i)
		j.gen.setFileEnd(r.total)
		j.content = newFiller(w, i, j.gen.regions[0].size)
		j.gen.passEnds = ctl.PassEnds && (ctl.IOsPerJob > 0 || ctl.BytesPerJob > 0) && j.gen.backlog == nil
		j.gen.setLoops(ctl, r.engine == EngineIOUring || r.engine == EngineLibaio)
		if j.loops = 1; j.gen.passEnds && j.gen.skip > 0 && !j.gen.random && j.gen.zone == nil {
			j.loops, j.loopsRepeat = max(ctl.Loops, 1), ctl.LoopsRepeat
		}
		if w.Invalidate && !w.Direct {
			j.invalidate = func(f int) { dropCache(j.fds[f], j.gen.regions[f].start, j.gen.regions[f].size) }
		}
		j.m = newMeter(r.c, &r.pubs[i], w.ContinueOnError)
		j.m.rampKept = ctl.Ramp > 0 && (ctl.IOsPerJob > 0 || ctl.BytesPerJob > 0)
		j.prio, j.m.prios = newPrioChooser(w, i), newPrioMeters(w)
		j.gate = newGate(w, w.IODepth)
		if j.gate != nil {
			j.gate.fl.c = r.flow
		}
		if i == 0 {
			j.trace = ctl.issueTrace
		}
		j.m.g, j.m.pace = j.gate, &j.pace
		if w.SyncEvery > 0 {
			j.m.sync.hist = hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
		}
		j.m.ser = r.c.ser.job()
		if ctl.IOLog {
			j.m.ioLog = new([]IORecord)
		}
		j.m.hist = newHistWindows(ctl.HistWindow)
		r.wg.Add(1)
		go r.runJob(j, newLoop)
	}
	tids, short, err := collectReady(r.ready, r.jobs, r.engine, r.short)
	if err != nil {
		r.c.phase.Store(phaseAbort)
		close(r.begin)
		r.wg.Wait()
		r.closeFiles()
		return err
	}
	r.running, r.short = len(tids), short
	return nil
}

// runJob is one job's goroutine: set up its loop on its own thread, wait
// for the start, run, and hand back its meter.
func (r *workloadRun) runJob(j *job, newLoop newLoopFunc) {
	defer r.wg.Done()
	if j.gate != nil {
		defer j.gate.fl.leave() // as it ends, whether it ran or not
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := r.c
	err := takeJobPrio(j.w)
	var loop jobLoop
	if err == nil {
		loop, err = newLoop(j)
	}
	r.ready <- jobReady{idx: j.idx, tid: unix.Gettid(), err: err}
	if err != nil {
		return
	}
	<-r.begin
	if c.phase.Load() == phaseAbort {
		loop.close(false)
		return
	}
	t := c.now()
	j.m.start(t)
	j.pace.begin(t)
	if j.gate != nil {
		j.gate.begin(t)
	}
	err = loop.run(j)
	if err == nil && j.gate != nil {
		err = j.gate.err // a floor not met, a latency target missed at depth 1
	}
	j.m.finish(c.now())
	loop.close(c.phase.Load() == phaseAbort)
	r.results <- jobResult{idx: j.idx, m: j.m, buffers: j.buffers, err: err, spent: j.left == 0 || j.gate != nil && j.gate.ended}
}

// finish collects the jobs (those that ended early already sent their
// result) and merges their figures into the run's Stats.
func (r *workloadRun) finish(win *runWindow, runErr error, fallback string) (*Stats, error) {
	w, grace := &r.w, r.w.IOTimeout+time.Second
	got, buffers, pending, jobErr := collectResults(r.results, r.jobs, r.running, grace)
	if pending == 0 {
		r.closeFiles() // a job stuck in a syscall keeps its files; leave them open then
	}
	if errors.Is(runErr, errJobEnded) {
		runErr = nil
	}
	var window time.Duration
	if win.started {
		window = time.Duration(win.end - win.start)
	}
	if d := finalWindow(got, w); d > 0 {
		window = d
	}
	ramped := !win.started && rampWindow(got) > 0
	if ramped {
		window = rampWindow(got) // every job ended in its ramp: their figures from the first I/O
	}
	st := mergeStats(got, r.engine, fallback, w, window)
	st.Buffers = buffers
	st.Series, st.JobSeries = r.c.ser.merge(got)
	st.IOLog = ioLogs(got, r.c.windowStart)
	st.HistLog = histLogs(got, r.c.windowStart)
	st.Ramp = r.c.rampIntervals([2]float64{w.MeanBS(0), w.MeanBS(1)})
	if win.started || ramped {
		st.CPU = CPU{UsrS: tvSeconds(win.ru1.Utime) - tvSeconds(win.ru0.Utime), SysS: tvSeconds(win.ru1.Stime) - tvSeconds(win.ru0.Stime)}
	}
	st.Shortfall = shortfallOf(st, w, r.running, r.short, win.sched1.sub(win.sched0), heldCause(got, w))
	if r.ctl.PerJob && len(got) > 1 {
		st.PerJob = perJobStats(got, st, r.engine, fallback, w, window)
	}
	return st, runOutcome(runErr, jobErr, pending, grace)
}

// runOutcome is a run's error: the pacing's, else a job's, else jobs that
// did not finish within grace of the end.
func runOutcome(runErr, jobErr error, pending int, grace time.Duration) error {
	switch {
	case runErr != nil:
		return runErr
	case jobErr != nil:
		return jobErr
	case pending > 0:
		return fmt.Errorf("%d job(s) did not finish within %v of the end: %w", pending, grace, ErrStalled)
	}
	return nil
}

// jobsWithinThreadLimit is how many of numjobs jobs the thread limit
// leaves room for. Each job needs its own thread, and a thread the kernel
// refuses is fatal to a Go program: start only as many jobs as the limits
// allow (short says so when fewer). A job takes its own thread, and its P
// (see leaseProcs) may take another when the runtime hands it off while
// the job sits in the kernel (garbage collection workers run on such Ps):
// two per job. limited reports whether a thread limit is near.
func jobsWithinThreadLimit(numjobs int, engine string) (jobs int, short *Shortfall, limited bool, err error) {
	room, limit, value, limited := systemLimits.threadHeadroom()
	perJob := int64(2)
	if limited && engine == EngineIOUring {
		perJob += 2 * iowqWorkersUnderLimit // the ring's capped kernel workers
	}
	if !limited || int64(numjobs)*perJob+threadReserve <= room {
		return numjobs, nil, limited, nil
	}
	n := int(max((room-threadReserve)/perJob, 0))
	if n < 1 {
		return 0, nil, limited, settingErrf(nil, "%s (%d) leaves no room for another thread; raise it or lower %s", limit, value, SetNumJobs)
	}
	return n, &Shortfall{Cause: ShortfallLimit, Limit: limit, LimitValue: value}, limited, nil
}

// adviseFiles gives every file the jobs use the access pattern advice
// (posix_fadvise) as fio does when it opens a file (fadvise_hint); none
// for advice 0. A failure is ignored, as fio's is.
func adviseFiles(jobFDs [][]int, advice int) {
	if advice == 0 {
		return
	}
	seen := map[int]bool{}
	for _, fds := range jobFDs {
		for _, f := range fds {
			if !seen[f] {
				seen[f] = true
				_ = unix.Fadvise(f, 0, 0, advice)
			}
		}
	}
}

// dropCaches drops the cached pages of the n bytes from off of every file
// the jobs use, once each (fio's invalidate=1).
func dropCaches(jobFDs [][]int, off, n int64) {
	seen := map[int]bool{}
	for _, fds := range jobFDs {
		for _, f := range fds {
			if !seen[f] {
				seen[f] = true
				dropCache(f, off, n)
			}
		}
	}
}

// collectReady waits for the jobs' setup: the threads of those that
// started, and the shortfall when some could not for want of a resource
// (files, memory, AIO events), which leaves the others to run. Any other
// setup error, or none starting, fails the run (setupErr).
func collectReady(ready <-chan jobReady, jobs int, engine string, short *Shortfall) (tids []int, _ *Shortfall, setupErr error) {
	var limitErr error
	for i := 0; i < jobs; i++ {
		r := <-ready
		if r.err == nil {
			tids = append(tids, r.tid)
			continue
		}
		limit := setupLimit(r.err, engine)
		if limit == limitNone {
			if setupErr == nil {
				setupErr = r.err
			}
			continue
		}
		if limitErr == nil {
			limitErr = r.err
		}
		if short == nil || short.Err == "" {
			short = &Shortfall{Cause: ShortfallLimit, Limit: limit, Err: r.err.Error()}
		}
		if limit == LimitNofile {
			var rl unix.Rlimit
			if unix.Getrlimit(unix.RLIMIT_NOFILE, &rl) == nil {
				short.LimitValue = int64(rl.Cur)
			}
		}
	}
	if setupErr == nil && len(tids) == 0 {
		setupErr = limitErr
	}
	return tids, short, setupErr
}

// collectResults gathers the running jobs' meters (those that ended early
// already sent theirs), waiting at most grace for the rest: pending is how
// many did not finish by then. buffers is how the jobs used their buffers
// (the first that was not "registered", if any); jobErr the first job's
// error.
func collectResults(results chan jobResult, jobs, running int, grace time.Duration) (got []meter, buffers string, pending int, jobErr error) {
	got = make([]meter, jobs)
	collect := func(r jobResult) {
		got[r.idx] = r.m
		if r.buffers != "" && (buffers == "" || buffers == "registered") {
			buffers = r.buffers
		}
		if r.err != nil && jobErr == nil {
			jobErr = fmt.Errorf("job %d: %w", r.idx, r.err)
		}
	}
	pending = running
	for _, r := range drainResults(results) {
		collect(r)
		pending--
	}
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for pending > 0 {
		select {
		case r := <-results:
			collect(r)
			pending--
		case <-timer.C:
			return got, buffers, pending, jobErr
		}
	}
	return got, buffers, 0, jobErr
}

// openJobFiles returns each job's descriptors and the bytes of its region
// in each of them (sizes: each job's in Filename). Job 0 has fd (Filename)
// and every other job the same file opened again by default (ownOpen: fd
// itself where it cannot be); with Workload.JobFiles each job has one
// opened file of its own (job 0 keeps fd); with Workload.Files every job
// has all of them, fd first, each job's region in each file FileSize bytes
// (0: to the file's end from the job's start). Every file is checked to
// hold its regions.
func openJobFiles(w Workload, fd int, sizes []int64) ([][]int, [][]int64, error) {
	fds := make([][]int, w.NumJobs)
	regions := make([][]int64, w.NumJobs)
	for i := range regions {
		regions[i] = []int64{sizes[i]}
	}
	switch {
	case len(w.JobFiles) > 0 && len(w.Files) > 1:
		return nil, nil, refusef("%s lists %d files and each job has its own file; use one or the other", SetFilename, len(w.Files))
	case len(w.JobFiles) > 0:
		if len(w.JobFiles) != w.NumJobs {
			return nil, nil, refusef("%s with %d job files; give one file per job", use(SetNumJobs, w.NumJobs), len(w.JobFiles))
		}
		fds[0] = []int{fd}
		for i := 1; i < len(fds); i++ {
			f, own, err := openOther(w, w.JobFiles[i])
			if err != nil {
				closeJobFiles(fds[:i], fd)
				return nil, nil, err
			}
			fds[i], regions[i] = []int{f}, own[i:i+1]
		}
		return fds, regions, nil
	case len(w.Files) > 1:
		if w.Files[0] != w.Filename {
			return nil, nil, refusef("%s: the list must start with the target %s", SetFilename, w.Filename)
		}
		all := []int{fd}
		for _, name := range w.Files[1:] {
			f, own, err := openOther(w, name)
			if err != nil {
				closeJobFiles([][]int{all}, fd)
				return nil, nil, err
			}
			all = append(all, f)
			for i := range regions {
				regions[i] = append(regions[i], own[i])
			}
		}
		for i := range fds {
			fds[i] = all
		}
		return fds, regions, nil
	}
	fds[0] = []int{fd}
	for i := 1; i < len(fds); i++ {
		fds[i] = []int{ownOpen(fd, ownOpenReserve(len(fds)))}
	}
	return fds, regions, nil
}

// openOther opens a file of the run other than Filename, checked to hold
// each job's region (FileSize bytes, or with 0 the file's own bytes past
// the job's start, as fio sizes each file of a list); it returns the
// descriptor and each job's region bytes in it.
func openOther(w Workload, name string) (int, []int64, error) {
	jw := w
	jw.Filename, jw.Size = name, w.FileSize()
	total, err := heldSize(&jw)
	if err != nil {
		return -1, nil, err
	}
	sizes, err := jobSizes(jw, total)
	if err != nil {
		return -1, nil, err
	}
	if w.Size == 0 {
		jw.Size = 0 // the guard checks the file to its end
	}
	fd, err := openTarget(&jw)
	if err != nil {
		return -1, nil, err
	}
	return fd, sizes, nil
}

// closeJobFiles closes the jobs' descriptors other than shared, each once.
func closeJobFiles(fds [][]int, shared int) {
	closed := map[int]bool{shared: true}
	for _, job := range fds {
		for _, f := range job {
			if !closed[f] {
				closed[f] = true
				unix.Close(f)
			}
		}
	}
}

// jobReady is what a job reports once its loop is set up (or failed to be).
type jobReady struct {
	idx int
	tid int // the job's OS thread
	err error
}

// drainResults returns results already sent without blocking.
func drainResults(ch chan jobResult) []jobResult {
	var out []jobResult
	for {
		select {
		case r := <-ch:
			out = append(out, r)
		default:
			return out
		}
	}
}
