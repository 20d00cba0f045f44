//go:build linux

package ioengine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

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
	} else {
		// The process's CPU from here, for jobs that end in their ramp
		// (rampKept); the window's start takes it again.
		_ = unix.Getrusage(unix.RUSAGE_SELF, &win.ru0)
		win.sched0 = readSched()
		if ctl.SeriesInterval > 0 {
			c.rampBegin(c.now())
		}
	}
	close(r.begin)

	runErr := pace(ctx, &r.w, ctl, c, r.pubs, r.results, r.running, startWindow, &win.started)
	stopPhase := phaseStop
	if errors.Is(runErr, ErrStalled) {
		stopPhase = phaseAbort
	}
	_ = unix.Getrusage(unix.RUSAGE_SELF, &win.ru1)
	win.sched1 = readSched()
	win.end = c.now()
	c.phase.Store(stopPhase)
	if win.started && ctl.OnWindowEnd != nil {
		ctl.OnWindowEnd()
	}
	return win, runErr
}

// errJobEnded ends pacing when a job ends on its own (its error is reported by collect).
var errJobEnded = errors.New("a job ended")

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
	ramp := newRampClock(ctl, c, *started)
	defer ramp.stop()
	var win windowClock
	defer func() {
		win.stop()
		c.ser.stop()
	}()
	if *started {
		win.arm(c, ctl)
	}
	winStart := c.now()
	endRamp := func() {
		if ramp.tick != nil {
			c.rampCut(c.now(), pubs)
		}
		ramp.end, ramp.tick, ramp.sample = nil, nil, nil
		startWindow()
		winStart = c.now()
		win.arm(c, ctl)
	}
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("run interrupted: %w", ctx.Err())
		case <-ramp.tick:
			c.rampCut(c.now(), pubs)
		case <-ramp.sample:
			if ctl.OnRampSample(rampSample(c.now()-ramp.start, pubs)) {
				endRamp()
			}
		case <-ramp.end:
			endRamp()
		case <-win.runC:
			return nil
		case <-ctl.Stop:
			return nil
		case <-c.ser.C():
			c.ser.tickAt(c.now())
			if ctl.OnInterval != nil {
				ctl.OnInterval(len(c.ser.times) - 2)
			}
		case <-win.sampleC:
			if ctl.OnSample(sampleOf(w, pubs, time.Duration(c.now()-winStart))) {
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
			if err := stalled(w, pubs, c.now()); err != nil {
				return err
			}
		}
	}
}

// windowClock is the measured window's clocks: its end (runC) and the
// samples the control asks for (sampleC); nil channels until it is armed.
type windowClock struct {
	runC, sampleC <-chan time.Time
	run           *time.Timer
	sample        *time.Ticker
}

// arm starts the window's clocks and the time series.
func (wc *windowClock) arm(c *coord, ctl Control) {
	// The series starts where the window did (the phase change), not
	// later: jobs count I/Os from then, and a coordinator that waited for
	// a CPU in between would otherwise squeeze them into a shorter first
	// slice.
	c.ser.start(c.windowStart)
	wc.run = time.NewTimer(ctl.Runtime)
	wc.runC = wc.run.C
	if ctl.SampleInterval > 0 && ctl.OnSample != nil {
		wc.sample = time.NewTicker(ctl.SampleInterval)
		wc.sampleC = wc.sample.C
	}
}

// stop stops the clocks armed.
func (wc *windowClock) stop() {
	if wc.run != nil {
		wc.run.Stop()
	}
	if wc.sample != nil {
		wc.sample.Stop()
	}
}

// sampleOf is the jobs' cumulative counts, elapsed into the window.
func sampleOf(w *Workload, pubs []jobPub, elapsed time.Duration) Sample {
	s := Sample{Elapsed: elapsed}
	for i := range pubs {
		s.IOs += pubs[i].ios.Load()
		s.LatSumNs += pubs[i].latSum.Load()
		s.Inflight += pubs[i].inflight.Load()
	}
	// Every I/O moves BS bytes (a mix of sizes: their mean): counted from
	// IOs, the sample's bytes agree with its I/Os even when a job publishes
	// between the loads.
	s.Bytes = int64(float64(s.IOs) * w.MeanBSMix())
	return s
}

// stalled is the watchdog's verdict at now: an error wrapping ErrStalled
// for the first job with I/O outstanding and none completed for longer
// than w.IOTimeout, nil when every job is moving.
func stalled(w *Workload, pubs []jobPub, now int64) error {
	for i := range pubs {
		n := pubs[i].inflight.Load()
		last := pubs[i].lastProgress.Load()
		if n > 0 && last > 0 && time.Duration(now-last) > w.IOTimeout {
			return fmt.Errorf("job %d: no I/O completed for %v with %d outstanding on %s (raise --io_timeout if the device is just slow): %w",
				i, time.Duration(now-last).Round(time.Millisecond), n, w.Filename, ErrStalled)
		}
	}
	return nil
}

// rampClock is the ramp's timers: its end (Control.Ramp), its series'
// ticks (Control.SeriesInterval: the ramp in slices too, so a level that
// falls before the window, burst credits spent, shows there) and its
// samples (Control.OnRampSample). Without a ramp (started) all are nil.
type rampClock struct {
	end, tick, sample <-chan time.Time
	start             int64
	stops             []func()
}

func newRampClock(ctl Control, c *coord, started bool) *rampClock {
	r := &rampClock{start: c.now()}
	if started {
		return r
	}
	t := time.NewTimer(ctl.Ramp)
	r.end, r.stops = t.C, append(r.stops, func() { t.Stop() })
	if ctl.RampSampleInterval > 0 && ctl.OnRampSample != nil {
		tick := time.NewTicker(ctl.RampSampleInterval)
		r.sample, r.stops = tick.C, append(r.stops, tick.Stop)
	}
	if ctl.SeriesInterval > 0 {
		tick := time.NewTicker(ctl.SeriesInterval)
		r.tick, r.stops = tick.C, append(r.stops, tick.Stop)
	}
	return r
}

func (r *rampClock) stop() {
	for _, f := range r.stops {
		f()
	}
}

// rampSample is the ramp's figures so far (Control.OnRampSample): its
// completions and their latency since it began, elapsed ago, and the I/Os
// in flight now, as the jobs last published them.
func rampSample(elapsed int64, pubs []jobPub) Sample {
	s := Sample{Elapsed: time.Duration(elapsed)}
	for i := range pubs {
		s.IOs += pubs[i].rampReads.Load() + pubs[i].rampWrites.Load()
		s.LatSumNs += pubs[i].rampLatSum.Load()
		s.Inflight += pubs[i].inflight.Load()
	}
	return s
}
