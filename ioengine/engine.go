package ioengine

import (
	"context"
	"time"
)

// Engine runs one workload (one fio-like invocation) and measures it.
type Engine interface {
	// Name is the engine's name as written in results: "io_uring", "libaio", "psync", "sim", "fio".
	Name() string
	// Run lays nothing out: the target must exist and be large enough.
	// It runs the workload through a ramp, then a measured window that ends
	// at ctl.Runtime, when ctl.OnSample returns true, or when ctx is done.
	// An interrupted run (ctx done) returns the stats of what was measured
	// and ctx.Err() wrapped.
	Run(ctx context.Context, w Workload, ctl Control) (*Stats, error)
}

// Control paces a run: phases and live samples.
type Control struct {
	// Stop, when closed, ends the run as its Runtime would: the window
	// closes and the figures so far are its result (fio's exitall ending
	// the other jobs; nil: never).
	Stop <-chan struct{}
	// BeforeStart, when set, is called once the run's jobs are set up,
	// just before they are let go: the run starts when it returns. Runs
	// that start together, as fio starts a group's jobs, wait for each
	// other in it.
	BeforeStart func()
	Ramp        time.Duration // excluded warm-up before measuring
	Runtime     time.Duration // longest measured window
	// IOsPerJob, when > 0, is fio's size-based end: each job issues
	// exactly this many I/Os, counted from its first (ramp included), and
	// ends when they have completed; the run ends when every job has, or at
	// Runtime if sooner. 0: the jobs run until the window ends.
	IOsPerJob int64
	// BytesPerJob, when > 0, is fio's size-based end of a job whose I/O
	// sizes vary (Workload.Shape): each job issues I/Os until they add up
	// to this many bytes (the last may go past), and ends as with
	// IOsPerJob; with both, whichever comes first. The simulator, which
	// runs one size, takes IOsPerJob only.
	BytesPerJob int64
	// JobIOs and JobBytes, when set, are each job's own IOsPerJob and
	// BytesPerJob (job i's at i) where the jobs' regions differ: fio's
	// clones each covering a file from their own start to its end.
	JobIOs, JobBytes []int64
	// PassEnds, with IOsPerJob or BytesPerJob, ends a random job whose
	// sequential follow-on I/O (rw=randread:N, percentage_random) would
	// start past its region's end where the file goes on: fio 3.33's pass
	// ends there (its offset past io_size), and with one loop and no
	// io_size to reach, so does the job (its keep_running). Without it the
	// follow-on starts over at the region's start.
	PassEnds bool
	// Loops is fio's loops of a size-based job (0 or 1: one), which
	// IOsPerJob and BytesPerJob hold all of. A job in strided zones
	// (Workload.Zones) with PassEnds ends a loop, not the job, at an I/O
	// its zones cannot place while loops remain, and starts the next at
	// its first zone, as fio 3.33 does; under io_uring and libaio a loop
	// also ends once it has issued its share (IOsPerJob and BytesPerJob
	// over Loops), the rest of one ended early dropped. A sequential job
	// with skips (rw=rw:8k) with PassEnds runs Loops passes: a pass that
	// ends starts the next over at the region's start, as fio's next loop
	// does, and the last ends the job; with LoopsRepeat each pass draws
	// (the mix of directions) what the first drew, as fio's randrepeat=1
	// seeds each loop alike.
	Loops       int
	LoopsRepeat bool
	// PerJob asks for each job's own figures beside the merged ones
	// (Stats.PerJob), as fio reports numjobs clones without
	// group_reporting. Engines that do not run jobs apart ignore it.
	PerJob         bool
	SampleInterval time.Duration // period of OnSample calls during the measured window (0: no samples)
	// OnSample, when set, is called every SampleInterval of the measured
	// window from one goroutine with cumulative figures; returning true ends
	// the measured window now (e.g. steady state reached).
	OnSample func(Sample) bool
	// OnRampSample, when set with RampSampleInterval > 0, is called every
	// RampSampleInterval of the ramp from one goroutine with the ramp's
	// cumulative figures (Elapsed since the ramp began, its completions
	// and their latency, the I/Os in flight now); returning true ends the
	// ramp now and opens the window. Ramp stays the ramp's longest.
	RampSampleInterval time.Duration
	OnRampSample       func(Sample) bool
	// OnWindowStart and OnWindowEnd, when set, are called right when the
	// measured window begins (after the ramp) and ends, before in-flight
	// I/Os are drained: device telemetry samples there.
	OnWindowStart func()
	OnWindowEnd   func()
	// SeriesInterval, when > 0, makes the run record Stats.Series: one
	// Interval per SeriesInterval of the measured window.
	SeriesInterval time.Duration
	// SeriesBins keeps each slice's latency histogram and mean latency
	// per direction (Interval.Bins, DirLatMeanNs), e.g. for fio's
	// histogram logs and each direction's latency log.
	SeriesBins bool
	// SeriesPerJob asks, beside Stats.Series, for each job's own series
	// (Stats.JobSeries), e.g. for fio's logs of each numjobs clone.
	SeriesPerJob bool
	// SeriesKeepTail keeps the window's last slice, from the last tick to
	// its end, apart however short (fio's logs write it, or drop it, as a
	// window of its own); without it a tail under half an interval joins
	// the slice before.
	SeriesKeepTail bool
	// IOLog keeps every I/O the window completes (Stats.IOLog), e.g. for
	// fio's logs of every I/O. It costs 40 bytes an I/O, as fio's logs
	// held in memory until the job ends do.
	IOLog bool
	// HistWindow, when > 0, cuts each job's completion latencies in
	// windows of this length as fio's histogram log does (Stats.HistLog):
	// each direction's from its first completion, a window closed by the
	// first completion past its end. The fio engine keeps none.
	HistWindow time.Duration
	// OnInterval, when set with SeriesInterval, is called from one goroutine
	// at the end of each interval k (0, 1, …) of the series, e.g. to sample
	// device counters beside it.
	OnInterval func(k int)
	// issueTrace, when set (by this package's tests), takes the event time
	// of every I/O the first job issues, ns.
	issueTrace *[]int64
}

// Sample is a cumulative snapshot of the measured window so far.
type Sample struct {
	Elapsed  time.Duration // since the measured window began
	IOs      int64         // I/Os completed in the window, all directions
	Bytes    int64         // bytes transferred in the window
	LatSumNs int64         // sum of per-I/O latencies in the window, ns
	Inflight int64         // I/Os in flight at the sample (as the jobs last published)
}

// jobEnd is job i's size-based end: its I/Os (-1: no count) and bytes (0:
// no budget), Control.JobIOs and JobBytes where set, else IOsPerJob and
// BytesPerJob.
func (c Control) jobEnd(i int) (ios, bytes int64) {
	ios, bytes = c.IOsPerJob, c.BytesPerJob
	if i < len(c.JobIOs) {
		ios = c.JobIOs[i]
	}
	if i < len(c.JobBytes) {
		bytes = c.JobBytes[i]
	}
	if ios <= 0 {
		ios = -1
	}
	return ios, bytes
}
