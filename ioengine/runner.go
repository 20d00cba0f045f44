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
	r, err := openRun(w, ctl, engine)
	if err != nil {
		return nil, err
	}
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
	win, runErr := r.measure(ctx)
	return r.finish(win, runErr, fallback)
}

// workloadRun is one run of runWorkload: the workload, the target's
// descriptors, and the jobs' channels.
type workloadRun struct {
	w       Workload
	ctl     Control
	engine  string
	fd      int     // the target, opened once
	jobFDs  [][]int // each job's files (fd or others)
	sizes   []int64 // the region of each file
	jobs    int     // jobs to start (numjobs, or fewer under a thread limit)
	limited bool    // a thread limit is near: io_uring keeps few workers
	short   *Shortfall
	running int // jobs that set up and run

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
		return nil, badf("--runtime: must be positive; use e.g. --runtime=30 (seconds) or 10s")
	}
	total, err := targetSize(w.Filename)
	if err != nil {
		return nil, err
	}
	fw := w
	fw.Size = w.FileSize()
	size, err := regionSize(fw, total)
	if err != nil {
		return nil, err
	}
	r := &workloadRun{w: w, ctl: ctl, engine: engine}
	if r.jobs, r.short, r.limited, err = jobsWithinThreadLimit(w.NumJobs, engine); err != nil {
		return nil, err
	}
	if r.fd, err = openTarget(&fw); err != nil { // the guard checks the file's own share of a list
		return nil, err
	}
	if r.jobFDs, r.sizes, err = openJobFiles(w, r.fd, size); err != nil {
		unix.Close(r.fd)
		return nil, err
	}
	if w.Invalidate && !w.Direct {
		dropCaches(r.jobFDs)
	}
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
		j := &job{idx: i, cpu0: cpu0, w: w, fds: r.jobFDs[i], depth: w.IODepth, bs: w.BS, verify: w.Verify, fewThreads: r.limited, pace: newPacer(w.RateIOPS), left: -1}
		if ctl.IOsPerJob > 0 {
			j.left = ctl.IOsPerJob
		}
		j.gen = newOffsetGen(w, w.Offset+int64(i)*w.OffsetIncrement, r.sizes, i)
		j.m = newMeter(r.c, &r.pubs[i], w.ContinueOnError)
		if w.SyncEvery > 0 {
			j.m.sync.hist = hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
		}
		j.m.ser = r.c.ser.job()
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
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := r.c
	loop, err := newLoop(j)
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
	err = loop.run(j)
	j.m.finish(c.now())
	loop.close(c.phase.Load() == phaseAbort)
	r.results <- jobResult{idx: j.idx, m: j.m, buffers: j.buffers, err: err, spent: j.left == 0}
}

// runWindow is what measure saw: the measured window in event time, and
// the process's CPU and the job threads' scheduling over it.
type runWindow struct {
	started        bool
	start, end     int64
	ru0, ru1       unix.Rusage
	sched0, sched1 schedTotals
}

// measure lets the jobs go, runs the ramp and the window, and stops them.
func (r *workloadRun) measure(ctx context.Context) (*runWindow, error) {
	c, ctl := r.c, r.ctl
	win := &runWindow{}
	startWindow := func() {
		if ctl.OnWindowStart != nil {
			ctl.OnWindowStart()
		}
		_ = unix.Getrusage(unix.RUSAGE_SELF, &win.ru0)
		win.sched0 = readSched()
		c.phase.Store(phaseMeasure)
		win.start = c.now()
		c.windowStart = win.start
		win.started = true
	}
	if ctl.Ramp <= 0 {
		// Without a ramp the jobs measure from their first I/O: the
		// window opens before they are let go, so none of their I/O falls
		// outside it. (Opened after, it began late by the time its own
		// readings took: 36 ms under the race detector, so IOPS and the
		// syncs' time ran above what the window could hold.)
		startWindow()
	}
	close(r.begin)

	runErr := pace(ctx, &r.w, ctl, c, r.pubs, r.results, r.running, startWindow, &win.started)
	stopPhase := phaseStop
	if errors.Is(runErr, ErrStalled) {
		stopPhase = phaseAbort
	}
	if win.started {
		_ = unix.Getrusage(unix.RUSAGE_SELF, &win.ru1)
		win.sched1 = readSched()
	}
	win.end = c.now()
	c.phase.Store(stopPhase)
	if win.started && ctl.OnWindowEnd != nil {
		ctl.OnWindowEnd()
	}
	return win, runErr
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
	st := mergeStats(got, r.engine, fallback, w, window)
	st.Buffers = buffers
	st.Series = r.c.ser.merge(got)
	st.Ramp = r.c.rampIntervals(w.BS)
	if win.started {
		st.CPU = CPU{UsrS: tvSeconds(win.ru1.Utime) - tvSeconds(win.ru0.Utime), SysS: tvSeconds(win.ru1.Stime) - tvSeconds(win.ru0.Stime)}
	}
	st.Shortfall = shortfallOf(st, w, r.running, r.short, win.sched1.sub(win.sched0), anyHeld(got))
	if r.ctl.PerJob && len(got) > 1 {
		st.PerJob = perJobStats(got, st, r.engine, fallback, w, window)
	}
	return st, runOutcome(runErr, jobErr, pending, grace)
}

// anyHeld reports whether a job held an I/O back for its rate.
func anyHeld(got []meter) bool {
	for i := range got {
		if got[i].held > 0 {
			return true
		}
	}
	return false
}

// perJobStats is each job's own figures (Stats.PerJob): over its own
// window when it has one (a job that ended on its I/O count), else the
// run's; its CPU the share of the run's by I/O count.
func perJobStats(got []meter, st *Stats, engine, fallback string, w *Workload, window time.Duration) []Stats {
	out := make([]Stats, 0, len(got))
	for i := range got {
		win := window
		if d := got[i].winEnd - got[i].winStart; d > 0 {
			win = time.Duration(d)
		}
		js := mergeStats(got[i:i+1], engine, fallback, w, win)
		if st.All.TotalIOs > 0 {
			f := float64(js.All.TotalIOs) / float64(st.All.TotalIOs)
			js.CPU = CPU{UsrS: st.CPU.UsrS * f, SysS: st.CPU.SysS * f}
		}
		js.Buffers = st.Buffers
		out = append(out, *js)
	}
	return out
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
		return 0, nil, limited, fmt.Errorf("%s (%d) leaves no room for another thread; raise it or lower --numjobs", limit, value)
	}
	return n, &Shortfall{Cause: ShortfallLimit, Limit: limit, LimitValue: value}, limited, nil
}

// dropCaches drops the cached pages of every file the jobs use, once each
// (fio's invalidate=1 for a buffered run).
func dropCaches(jobFDs [][]int) {
	seen := map[int]bool{}
	for _, fds := range jobFDs {
		for _, f := range fds {
			if !seen[f] {
				seen[f] = true
				dropCache(f)
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
// in each of them. Every job shares fd (Filename) by default; with
// Workload.JobFiles each job has one opened file of its own (job 0 keeps
// fd); with Workload.Files every job has all of them, fd first, each
// region size bytes unless the file is shorter. Every file is checked to
// hold its region.
func openJobFiles(w Workload, fd int, size int64) ([][]int, []int64, error) {
	fds := make([][]int, w.NumJobs)
	sizes := []int64{size}
	switch {
	case len(w.JobFiles) > 0 && len(w.Files) > 1:
		return nil, nil, badf("--filename lists %d files and each job has its own file; use one or the other", len(w.Files))
	case len(w.JobFiles) > 0:
		if len(w.JobFiles) != w.NumJobs {
			return nil, nil, badf("--numjobs=%d with %d job files; give one file per job", w.NumJobs, len(w.JobFiles))
		}
		fds[0] = []int{fd}
		for i := 1; i < len(fds); i++ {
			f, _, err := openOther(w, w.JobFiles[i], size, false)
			if err != nil {
				closeJobFiles(fds[:i], fd)
				return nil, nil, err
			}
			fds[i] = []int{f}
		}
		return fds, sizes, nil
	case len(w.Files) > 1:
		if w.Files[0] != w.Filename {
			return nil, nil, badf("--filename: the list must start with the target %s", w.Filename)
		}
		all := []int{fd}
		for _, name := range w.Files[1:] {
			f, n, err := openOther(w, name, size, true)
			if err != nil {
				closeJobFiles([][]int{all}, fd)
				return nil, nil, err
			}
			all = append(all, f)
			sizes = append(sizes, n)
		}
		for i := range fds {
			fds[i] = all
		}
		return fds, sizes, nil
	}
	for i := range fds {
		fds[i] = []int{fd}
	}
	return fds, sizes, nil
}

// openOther opens a file of the run other than Filename, checked to hold a
// region of size bytes (with own and Workload.Size 0, the file's own bytes
// past the region's start, as fio sizes each file of a list); it returns
// the descriptor and the region's bytes.
func openOther(w Workload, name string, size int64, own bool) (int, int64, error) {
	jw := w
	jw.Filename = name
	total, err := targetSize(name)
	if err != nil {
		return -1, 0, err
	}
	if own && w.Size == 0 {
		if size, err = regionSize(jw, total); err != nil {
			return -1, 0, err
		}
	}
	lastStart := w.Offset + int64(w.NumJobs-1)*w.OffsetIncrement
	if lastStart+size > total {
		return -1, 0, badf("--size: %s holds %d bytes, short of the region (offset %d + %d bytes)", name, total, lastStart, size)
	}
	if w.Size > 0 {
		jw.Size = size // the guard checks the region this file holds
	}
	fd, err := openTarget(&jw)
	if err != nil {
		return -1, 0, err
	}
	return fd, size, nil
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

// shortfallOf returns the run's shortfall, or nil when it kept at least
// ShortfallFraction of iodepth × numjobs in flight. limit is set when some
// jobs could not start; sched covers the job threads over the window.
func shortfallOf(st *Stats, w *Workload, running int, limit *Shortfall, sched schedTotals, held bool) *Shortfall {
	qd := w.QD()
	if st.Runtime <= 0 || st.InflightMean >= ShortfallFraction*float64(qd) {
		return nil
	}
	sf := &Shortfall{Cause: ShortfallUnexplained}
	switch {
	case limit != nil && running < w.NumJobs:
		*sf = *limit
	case held:
		sf.Cause = ShortfallRate
	case st.Sync != nil && st.Sync.TotalIOs > 0:
		sf.Cause, sf.SyncData = ShortfallSync, w.SyncData
	}
	sf.QD, sf.InflightMean, sf.JobsAsked, sf.JobsRun = qd, st.InflightMean, w.NumJobs, running
	if sched.ok && running > 0 {
		win := float64(st.Runtime)
		sf.CPUBusy = min(float64(sched.cpuNs+sched.waitNs)/(win*float64(running)), 1)
		sf.CPUWait = float64(sched.waitNs) / win
	}
	gap := float64(qd) - st.InflightMean
	if sf.Cause == ShortfallUnexplained && sched.ok && (sf.CPUBusy >= cpuBoundBusy || sf.CPUWait >= gap) {
		sf.Cause = ShortfallCPU
	}
	return sf
}

// cpuBoundBusy is the share of the window above which job threads that
// were running or waiting for a CPU count as CPU-bound. Below it, threads
// that waited for a CPU at least as long as the missing in-flight time
// (CPUWait ≥ QD − in flight) also explain the shortfall: a job waiting
// for a CPU between two I/Os has none in flight.
const cpuBoundBusy = 0.8

// errJobEnded ends pacing when a job ends on its own (its error is reported by collect).
var errJobEnded = errors.New("a job ended")

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

// pace runs the ramp and the measured window; it returns when the window
// should end: nil at Runtime or when OnSample says so, ctx's error wrapped,
// an ErrStalled error, or errJobEnded when a job ended early (its result is
// pushed back on results). Jobs that ended having done their I/O count
// (Control.IOsPerJob) leave the others running; when all running jobs have,
// the window ends (nil). Their results are pushed back too.
func pace(ctx context.Context, w *Workload, ctl Control, c *coord, pubs []jobPub, results chan jobResult, running int, startWindow func(), started *bool) error {
	var spent []jobResult
	defer func() {
		for _, r := range spent {
			results <- r
		}
	}()
	watch := w.IOTimeout / 4
	watch = min(max(watch, 5*time.Millisecond), 100*time.Millisecond)
	watchdog := time.NewTicker(watch)
	defer watchdog.Stop()
	var rampT *time.Timer
	var rampC, rampTickC <-chan time.Time
	if !*started {
		rampT = time.NewTimer(ctl.Ramp)
		defer rampT.Stop()
		rampC = rampT.C
		if ctl.SeriesInterval > 0 {
			// The ramp in slices too: a level that falls before the
			// window (burst credits spent) shows there.
			tick := time.NewTicker(ctl.SeriesInterval)
			defer tick.Stop()
			rampTickC = tick.C
			c.rampCut(c.now(), pubs)
		}
	}
	var runC <-chan time.Time
	var sampleC <-chan time.Time
	var runT *time.Timer
	var sampleT *time.Ticker
	armWindow := func() {
		// The series starts where the window did (the phase change), not
		// later: jobs count I/Os from then, and a coordinator that waited
		// for a CPU in between would otherwise squeeze them into a shorter
		// first slice.
		c.ser.start(c.windowStart)
		runT = time.NewTimer(ctl.Runtime)
		runC = runT.C
		if ctl.SampleInterval > 0 && ctl.OnSample != nil {
			sampleT = time.NewTicker(ctl.SampleInterval)
			sampleC = sampleT.C
		}
	}
	defer func() {
		if runT != nil {
			runT.Stop()
		}
		if sampleT != nil {
			sampleT.Stop()
		}
		c.ser.stop()
	}()
	if *started {
		armWindow()
	}
	winStart := c.now()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("run interrupted: %w", ctx.Err())
		case <-rampTickC:
			c.rampCut(c.now(), pubs)
		case <-rampC:
			if rampTickC != nil {
				c.rampCut(c.now(), pubs)
				rampTickC = nil
			}
			startWindow()
			winStart = c.now()
			rampC = nil
			armWindow()
		case <-runC:
			return nil
		case <-c.ser.C():
			c.ser.tickAt(c.now())
			if ctl.OnInterval != nil {
				ctl.OnInterval(len(c.ser.times) - 2)
			}
		case <-sampleC:
			s := Sample{Elapsed: time.Duration(c.now() - winStart)}
			for i := range pubs {
				s.IOs += pubs[i].ios.Load()
				s.LatSumNs += pubs[i].latSum.Load()
			}
			// Every I/O moves BS bytes: counted from IOs, the sample's
			// bytes agree with its I/Os even when a job publishes between
			// the loads.
			s.Bytes = s.IOs * w.BS
			if ctl.OnSample(s) {
				return nil
			}
		case r := <-results:
			if r.spent && r.err == nil {
				if spent = append(spent, r); len(spent) < running {
					continue
				}
				return nil
			}
			results <- r
			return errJobEnded
		case <-watchdog.C:
			now := c.now()
			for i := range pubs {
				n := pubs[i].inflight.Load()
				last := pubs[i].lastProgress.Load()
				if n > 0 && last > 0 && time.Duration(now-last) > w.IOTimeout {
					return fmt.Errorf("job %d: no I/O completed for %v with %d outstanding on %s (raise --io_timeout if the device is just slow): %w",
						i, time.Duration(now-last).Round(time.Millisecond), n, w.Filename, ErrStalled)
				}
			}
		}
	}
}

func tvSeconds(tv unix.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }

// mergeStats merges the jobs' meters into Stats over the measured window
// (ns, from the coordinator's start of the window to its end). Every job
// counts the I/Os that complete in its own view of the window (from the
// first reap it makes after the start to the first after the end, a lag of
// microseconds unless its thread waits for a CPU), and the figures are
// taken over the one window: IOPS is all those I/Os over it, the in-flight
// mean their in-flight time over it, so IOPS × mean latency equals the
// in-flight mean. (Summing each job's own rate instead lets a job that
// reaped rarely, starved of CPU among many, weigh by the inverse of a short
// window of its own.)
func mergeStats(ms []meter, engine, fallback string, w *Workload, window time.Duration) *Stats {
	st := &Stats{Engine: engine, FallbackReason: fallback, Errors: []IOError{}}
	var dirs [2]DirStats
	var dirHist [2]*hdrhistogram.Histogram
	var dirLatSum [2]int64
	allHist := hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
	for d := range dirHist {
		dirHist[d] = hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
	}
	var areaSum int64
	var syncs *DirStats
	var syncHist *hdrhistogram.Histogram
	var syncLatSum int64
	if w.SyncEvery > 0 {
		syncs, syncHist = &DirStats{}, hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
	}
	for _, m := range ms {
		if m.dir[0].hist == nil { // job never started
			continue
		}
		areaSum += m.windowArea()
		if syncs != nil && m.sync.hist != nil {
			syncs.TotalIOs += m.sync.ios
			syncLatSum += m.sync.latSum
			syncHist.Merge(m.sync.hist)
		}
		for d := range m.dir {
			dm := &m.dir[d]
			dirs[d].TotalIOs += dm.ios
			dirs[d].Bytes += dm.bytes
			dirLatSum[d] += dm.latSum
			dirHist[d].Merge(dm.hist)
			allHist.Merge(dm.hist)
		}
		st.ShortIOs += m.shortIOs
		for b := range m.depths {
			st.IODepths[b] += m.depths[b]
			st.Submits[b] += m.submits[b]
			st.Completes[b] += m.completes[b]
		}
		for _, e := range m.errs {
			st.Errors = mergeIOError(st.Errors, e)
		}
	}
	st.Runtime = window
	win := float64(window)
	if win > 0 {
		for d := range dirs {
			dirs[d].IOPS = float64(dirs[d].TotalIOs) / (win / 1e9)
			dirs[d].BWBytes = float64(dirs[d].Bytes) / (win / 1e9)
		}
		st.InflightMean = float64(areaSum) / win
	}
	for d := range dirs {
		dirs[d].Lat = latencyOf(dirHist[d], dirLatSum[d], dirs[d].TotalIOs)
		dirs[d].Hist = dirHist[d]
	}
	st.All = DirStats{
		TotalIOs: dirs[0].TotalIOs + dirs[1].TotalIOs,
		Bytes:    dirs[0].Bytes + dirs[1].Bytes,
		IOPS:     dirs[0].IOPS + dirs[1].IOPS,
		BWBytes:  dirs[0].BWBytes + dirs[1].BWBytes,
		Lat:      latencyOf(allHist, dirLatSum[0]+dirLatSum[1], dirs[0].TotalIOs+dirs[1].TotalIOs),
		Hist:     allHist,
	}
	if w.RW.IsRead() {
		r := dirs[dirRead]
		st.Read = &r
	}
	if w.RW.IsWrite() {
		wr := dirs[dirWrite]
		st.Write = &wr
	}
	if syncs != nil {
		if win > 0 {
			syncs.IOPS = float64(syncs.TotalIOs) / (win / 1e9)
		}
		syncs.Lat = latencyOf(syncHist, syncLatSum, syncs.TotalIOs)
		syncs.Hist = syncHist
		st.Sync = syncs
	}
	return st
}

// latencyOf summarises a histogram; the mean is the exact sum over count.
func latencyOf(h *hdrhistogram.Histogram, sum, n int64) Latency {
	if n == 0 || h.TotalCount() == 0 {
		return Latency{}
	}
	// ValueAtQuantile takes a percentage (99.9), not a fraction.
	return Latency{
		MinNs:  h.Min(),
		MeanNs: float64(sum) / float64(n),
		P50Ns:  h.ValueAtQuantile(50),
		P90Ns:  h.ValueAtQuantile(90),
		P99Ns:  h.ValueAtQuantile(99),
		P999Ns: h.ValueAtQuantile(99.9),
		MaxNs:  h.Max(),
	}
}
