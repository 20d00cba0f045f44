package ioengine

import (
	"fmt"
	"math"
	"time"
)

// ThinkTime is fio's thinktime family: a job that computes between its
// I/Os. After every Blocks I/Os (completed, or issued with Issued) the job
// lets all its I/Os complete, spins for Spin, then sleeps for the rest of
// Time, with nothing in flight. With IOTime the job thinks once it has
// issued I/O for IOTime since its last think, and Blocks counts only when
// given. The zero value never thinks.
type ThinkTime struct {
	Time   time.Duration // fio's thinktime: each pause, spin included
	Spin   time.Duration // fio's thinktime_spin: the part of Time spent spinning (at most Time)
	Blocks int           // fio's thinktime_blocks (0: fio's default, 1)
	// Issued is fio's thinktime_blocks_type=issue: Blocks counts issued
	// I/Os; false counts completed ones (fio's default, complete).
	Issued bool
	// IOTime is fio's thinktime_iotime: the time between two thinks.
	// BlocksSet says that Blocks was given too (fio then also thinks
	// after Blocks I/Os).
	IOTime    time.Duration
	BlocksSet bool
}

// On reports whether the job thinks at all.
func (t ThinkTime) On() bool { return t.Time > 0 }

// RateFloor is fio's rate_min (bytes per second) and rate_iops_min (I/Os
// per second), per direction, checked per job over Cycle (fio's
// rate_cycle, 0: its default 1 s) after a settling time of 2 s from the
// job's start, outside the ramp: a job whose completions over a cycle
// fall below a floor ends with an error naming the floor and the rate it
// had, as fio's. A direction the job has not completed I/O in is not
// checked. Bytes is checked in place of IOPS when both are set, as fio.
type RateFloor struct {
	Bytes [2]float64
	IOPS  [2]float64
	Cycle time.Duration
}

// On reports whether any floor is set.
func (f RateFloor) On() bool { return f.Bytes != [2]float64{} || f.IOPS != [2]float64{} }

// LatencyTarget is fio's latency_target family: each job searches for the
// deepest queue, up to IODepth, at which Percentile per cent of its I/Os
// complete within Target (total latency, from issue to completion),
// judged over every Window of I/O. It starts at depth 1, doubles after a
// window that meets the target until one fails, then bisects; after a
// failure it lets its I/Os drain before the next window. Without Run the
// job ends once its depth settles, after one more window at that depth
// (its figures are over the whole run); with Run it keeps adjusting until
// the run ends. Stats.LatencyDepth is the depth each job ended at.
type LatencyTarget struct {
	Target     time.Duration // fio's latency_target; 0: off
	Window     time.Duration // fio's latency_window (0: judged at every reap, as fio)
	Percentile float64       // fio's latency_percentile, 0 < p ≤ 100 (0: fio's default, 100)
	Run        bool          // fio's latency_run
}

// On reports whether the job searches its depth.
func (l LatencyTarget) On() bool { return l.Target > 0 }

// percentile is Percentile with fio's default.
func (l LatencyTarget) percentile() float64 {
	if l.Percentile == 0 {
		return 100
	}
	return l.Percentile
}

// validatePacingFamily checks the thinktime, rate_process, floor and
// latency-target settings.
func validatePacingFamily(w Workload, engine string) error {
	t := w.Think
	switch {
	case t.Time < 0 || t.Spin < 0 || t.IOTime < 0 || t.Blocks < 0:
		return refusef("%s: negative values; use e.g. %s %s", SetThinkTime, use(SetThinkTime, "100us"), use(SetThinkTimeBlocks, 8))
	case !t.On() && (t.Spin > 0 || t.IOTime > 0 || t.BlocksSet || t.Issued):
		return refusef("%s/%s/%s act only with %s; add e.g. %s", SetThinkTimeSpin, SetThinkTimeBlocks, SetThinkTimeIOTime, SetThinkTime, use(SetThinkTime, "100us"))
	case w.Poisson && w.RateIOPS == [2]float64{}:
		return refusef("%s: needs a rate to draw arrivals around; add e.g. %s", use(SetRateProcess, "poisson"), use(SetRateIOPS, 500))
	}
	for d := range 2 {
		for _, r := range []float64{w.RateMin.Bytes[d], w.RateMin.IOPS[d]} {
			if !(r >= 0) || math.IsInf(r, 0) {
				return refusef("%s/%s: %g is not a rate; use e.g. %s", SetRateMin, SetRateIOPSMin, r, use(SetRateIOPSMin, 100))
			}
		}
	}
	if w.RateMin.Cycle < 0 {
		return refusef("%s: negative; use milliseconds, e.g. %s", SetRateCycle, use(SetRateCycle, 1000))
	}
	l := w.LatTarget
	if l.Target < 0 || l.Window < 0 || !(l.Percentile >= 0 && l.Percentile <= 100) {
		return refusef("%s/%s/%s: use a time, a time and a percentage 0..100, e.g. %s %s %s", SetLatencyTarget, SetLatencyWindow, SetLatencyPercentile,
			use(SetLatencyTarget, "2ms"), use(SetLatencyWindow, "1s"), use(SetLatencyPercentile, 99))
	}
	if engine == EngineSim && w.Flow.On() {
		return refusef("%s: the sim engine models a device, not jobs' shares of a flow; use %s, libaio or psync", SetFlow, use(SetEngine, EngineIOUring))
	}
	if engine == EngineSim && (t.On() || w.Poisson || w.RateMin.On() || l.On()) {
		return refusef("%s/%s/%s/%s: the sim engine models a device, not a job's pacing; use %s, libaio or psync",
			SetThinkTime, SetRateProcess, SetRateMin, SetLatencyTarget, use(SetEngine, EngineIOUring))
	}
	return nil
}

// FloorError is the error of a job that fell below its RateFloor, as
// fio's: "rate_iops_min=100 not met, got 42 IOPS" (Line, named by fio's
// options; Error names Workload's fields).
type FloorError struct {
	Bytes bool    // rate_min (bytes per second), else rate_iops_min
	Floor float64 // the floor set
	Got   int64   // the rate over the last cycle, fio's integer
}

// Line is e's line, naming the floor's setting as n does.
func (e *FloorError) Line(n SettingNames) string {
	if e.Bytes {
		return fmt.Sprintf("%s=%.0fB/s not met, got %dB/s", n.name(SetRateMin), e.Floor, e.Got)
	}
	return fmt.Sprintf("%s=%.0f not met, got %d IOPS", n.name(SetRateIOPSMin), e.Floor, e.Got)
}

// Error is e's line with Go's name of the floor (Workload.RateMin.IOPS).
func (e *FloorError) Error() string { return e.Line(nil) }

// LatencyTargetError is the error of a job under a latency target of the
// 100th percentile that missed it at depth 1, as fio's lat_fatal: "latency
// of N nsec exceeds specified max (T nsec)".
type LatencyTargetError struct {
	LatNs, TargetNs int64
}

func (e *LatencyTargetError) Error() string {
	return fmt.Sprintf("latency of %d nsec exceeds specified max (%d nsec)", e.LatNs, e.TargetNs)
}
