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
	ivs := mergeSeries([]*seriesJob{job}, []int64{0}, ticks, 1000*ms, 250*time.Millisecond, false)
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

// TestSeriesSlicesUnderStalls: the cuts of three -race runs of
// TestSeriesRealEngines (two jobs, 50 ms slices of a 400 ms window) beside
// two CPU hogs, whose series had slices of 0 ns: every slice lasts, they
// are contiguous, count every I/O once and hold no more in flight than the
// depth.
//
//   - both jobs held up past the end: each cut tick 8 and ended in the same
//     reap at 793 ms, and slice 8 held 6 I/Os in 0 ns (now the tail joins
//     slice 7);
//   - one job cut tick 8 at 522 ms, the other ended at 414 ms without: slice
//     7 ended at the first's cut alone, slice 8 at the mean of both ends, 54
//     ms earlier, and lasted 0 ns with 746 I/Os;
//   - both jobs' windows opened at 137 ms, after ticks 1 and 2 (their first
//     reaps after the start): slices 0 and 1 lasted 0 ns (now they hold the
//     I/Os the jobs had in flight then).
func TestSeriesSlicesUnderStalls(t *testing.T) {
	const ms = 1e6
	const depth = 4
	type c struct {
		tick    int64
		at      float64
		ios     int64
		isFinal bool
	}
	job := func(start float64, open int64, cs ...c) (*seriesJob, int64) {
		s := &seriesJob{open: open}
		for _, x := range cs {
			at := int64(x.at * ms)
			s.cuts = append(s.cuts, ivCut{tick: x.tick, t: at, ios: [2]int64{x.ios, 0}, bytes: [2]int64{x.ios * 4096, 0},
				area: depth * (at - int64(start*ms)), final: x.isFinal})
		}
		return s, int64(start * ms)
	}
	msTicks := func(ts ...float64) []int64 {
		out := make([]int64, len(ts))
		for i, v := range ts {
			out[i] = int64(v * ms)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		ticks  []int64
		jobs   [][]c
		starts []float64
		open   int64
		slices int
	}{
		{"both past the end", msTicks(0, 86.4, 103.4, 150.6, 200.8, 250.1, 300.3, 350.6, 400.2), [][]c{
			{{1, 92.5, 116, false}, {2, 103.5, 137, false}, {3, 150.7, 195, false}, {4, 201.0, 258, false}, {5, 250.2, 415, false}, {6, 302.6, 637, false}, {7, 354.0, 681, false}, {8, 793.4, 690, false}, {0, 793.4, 693, true}},
			{{1, 103.1, 49, false}, {2, 108.5, 53, false}, {3, 150.6, 106, false}, {4, 200.9, 162, false}, {5, 250.2, 277, false}, {6, 300.8, 488, false}, {7, 380.8, 538, false}, {8, 794.2, 552, false}, {0, 794.2, 555, true}},
		}, []float64{0.5, 0.7}, 0, 8},
		{"one cut the last tick", msTicks(0, 50.3, 100.9, 151.1, 200.6, 250.9, 300.4, 350.1, 405.6), [][]c{
			{{1, 59.5, 48, false}, {2, 105.6, 167, false}, {3, 157.7, 223, false}, {4, 213.7, 244, false}, {5, 251.1, 1008, false}, {6, 300.5, 1742, false}, {7, 361.6, 2222, false}, {8, 522.0, 2240, false}, {0, 522.2, 2243, true}},
			{{1, 59.6, 9, false}, {2, 106.4, 70, false}, {3, 157.6, 110, false}, {4, 213.6, 142, false}, {5, 250.9, 873, false}, {6, 300.4, 1597, false}, {7, 350.2, 2325, false}, {0, 413.6, 3068, true}},
		}, []float64{0.1, 2.5}, 0, 8},
		{"windows opened late", msTicks(0, 63.1, 104.5, 150.9, 200.4, 252.0, 301.8, 355.1, 400.7), [][]c{
			{{6, 302.0, 1, false}, {7, 355.3, 119, false}, {0, 401.6, 219, true}},
			{{5, 298.1, 3, false}, {6, 301.8, 4, false}, {7, 355.2, 121, false}, {0, 401.8, 227, true}},
		}, []float64{137.8, 137.4}, depth, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var jobs []*seriesJob
			var starts []int64
			var end, want int64
			for i, cs := range tc.jobs {
				j, s := job(tc.starts[i], tc.open, cs...)
				jobs, starts = append(jobs, j), append(starts, s)
				end = max(end, j.cuts[len(j.cuts)-1].t)
				want += cs[len(cs)-1].ios
			}
			ivs := mergeSeries(jobs, starts, tc.ticks, end, 50*time.Millisecond, false)
			if len(ivs) != tc.slices {
				t.Errorf("%d slices, want %d", len(ivs), tc.slices)
			}
			var ios, prevEnd int64
			for i, iv := range ivs {
				ios += iv.IOs
				if iv.StartNs != prevEnd || iv.DurNs <= 0 {
					t.Errorf("slice %d starts at %.1f ms (previous ended at %.1f), lasts %d ns", i, float64(iv.StartNs)/ms, float64(prevEnd)/ms, iv.DurNs)
				}
				prevEnd = iv.StartNs + iv.DurNs
				if iv.InflightMean > 2*depth+1e-9 {
					t.Errorf("slice %d: %.2f in flight, above 2 jobs × %d", i, iv.InflightMean, depth)
				}
				if tc.open == depth && math.Abs(iv.InflightMean-2*depth) > 1e-9 {
					t.Errorf("slice %d: %.2f in flight, want %d (the jobs' I/Os were outstanding from the start)", i, iv.InflightMean, 2*depth)
				}
			}
			if ios != want {
				t.Errorf("slices count %d I/Os, the jobs %d", ios, want)
			}
		})
	}
}
