//go:build linux

package ioengine

import (
	"math"
	"testing"
	"time"
)

// TestSeriesSliceWithoutCompletion: a slice in which a job reaped nothing
// (a stalled device, or its thread kept off the CPU, for longer than a
// slice) still had the job's I/Os in flight. Its share of the span to the
// job's next cut holds them: the slices' time-weighted in-flight adds up
// to the job's, and every I/O is still counted once, in the slice that
// reaped it. (Before, such a slice showed 0 in flight and the series' mean
// fell short of the step's: 10.09 against 16 at QD 16 under a blkio cap
// with two CPU hogs beside it.)
func TestSeriesSliceWithoutCompletion(t *testing.T) {
	const ms = int64(1e6)
	const depth = 16
	cut := func(tick, at, ios int64, final bool) ivCut {
		return ivCut{tick: tick, t: at, ios: [2]int64{ios, 0}, bytes: [2]int64{ios * 4096, 0}, area: depth * at, final: final}
	}
	job := &seriesJob{cuts: []ivCut{cut(1, 260*ms, 40, false), cut(3, 760*ms, 120, false), cut(3, 1000*ms, 160, true)}}
	ticks := []int64{0, 250 * ms, 500 * ms, 750 * ms}
	ivs := mergeSeries([]*seriesJob{job}, []int64{0}, ticks, 1000*ms, 250*time.Millisecond)
	if len(ivs) != 4 {
		t.Fatalf("%d slices, want 4: %+v", len(ivs), ivs)
	}
	var area, dur float64
	var ios int64
	for i, iv := range ivs {
		if math.Abs(iv.InflightMean-depth) > 1e-9 {
			t.Errorf("slice %d: %.2f in flight, want %d (the job's I/Os were outstanding the whole time)", i, iv.InflightMean, depth)
		}
		area += iv.InflightMean * float64(iv.DurNs)
		dur += float64(iv.DurNs)
		ios += iv.IOs
	}
	if ivs[1].IOs != 0 || ivs[1].ReadIOPS != 0 {
		t.Errorf("the slice that reaped nothing shows %d I/Os, %.0f IOPS", ivs[1].IOs, ivs[1].ReadIOPS)
	}
	if ios != 160 || math.Abs(area/dur-depth) > 1e-9 || dur != float64(1000*ms) {
		t.Errorf("slices: %d I/Os over %.0f ms, %.2f in flight; want 160 over 1000 ms, %d", ios, dur/1e6, area/dur, depth)
	}
	// The slice after the gap reaped its I/Os in its own span: its rate is
	// its I/Os over its own time, so rate × duration adds up to the I/Os.
	var sum float64
	for _, iv := range ivs {
		sum += iv.ReadIOPS * float64(iv.DurNs) / 1e9
	}
	if math.Abs(sum-160) > 1e-6 {
		t.Errorf("Σ IOPS × duration = %.2f I/Os, want 160", sum)
	}
}
