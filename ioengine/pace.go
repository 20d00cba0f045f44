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
			// Every I/O moves BS bytes (a mix of sizes: their mean):
			// counted from IOs, the sample's bytes agree with its I/Os
			// even when a job publishes between the loads.
			s.Bytes = int64(float64(s.IOs) * w.MeanBSMix())
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
