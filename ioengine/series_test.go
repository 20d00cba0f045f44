//go:build linux

package ioengine_test

import (
	"context"
	"math"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestSeriesRealEngines runs each native engine on a real file with a
// series and checks what must hold whatever the machine's load: the
// slices count every measured I/O exactly once, none holds more in flight
// than the depth, and every slice with completions has a p99 at or above
// the smallest latency seen.
func TestSeriesRealEngines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "series")
	if err := ioengine.CreateScratch(context.Background(), path, 32<<20); err != nil {
		t.Fatal(err)
	}
	for _, eng := range engines {
		t.Run(eng, func(t *testing.T) {
			depth := depthFor(eng, 4)
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRW, RWMixRead: 50, BS: 4096, IODepth: depth, NumJobs: 2, Direct: true, Permit: guard.Permit{AllowWrite: true}}
			var ticks int
			ctl := ioengine.Control{Ramp: 30 * time.Millisecond, Runtime: 400 * time.Millisecond,
				SeriesInterval: 50 * time.Millisecond, OnInterval: func(int) { ticks++ }}
			st, err := mustEngine(t, eng).Run(context.Background(), w, ctl)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Series) < 2 {
				t.Fatalf("series has %d slices, want several", len(st.Series))
			}
			var ios int64
			var prevEnd int64
			var rd, wr float64
			for i, iv := range st.Series {
				ios += iv.IOs
				if iv.StartNs != prevEnd || iv.DurNs <= 0 {
					t.Errorf("slice %d starts at %d (previous ended at %d), lasts %d ns", i, iv.StartNs, prevEnd, iv.DurNs)
				}
				prevEnd = iv.StartNs + iv.DurNs
				if iv.InflightMean > float64(w.QD())+0.001 {
					t.Errorf("slice %d: in flight %.2f above QD %d", i, iv.InflightMean, w.QD())
				}
				if iv.IOs > 0 && (iv.LatP99Ns < st.All.Lat.MinNs*31/32 || iv.LatMeanNs <= 0) {
					t.Errorf("slice %d: p99 %d ns, mean %.0f ns, run min %d ns", i, iv.LatP99Ns, iv.LatMeanNs, st.All.Lat.MinNs)
				}
				rd += iv.ReadIOPS * float64(iv.DurNs)
				wr += iv.WriteIOPS * float64(iv.DurNs)
			}
			if rd <= 0 || wr <= 0 {
				t.Errorf("a 50/50 mix read %.0f and wrote %.0f I/Os·ns over the slices", rd, wr)
			}
			if ios != st.All.TotalIOs {
				t.Errorf("slices count %d I/Os, the run %d", ios, st.All.TotalIOs)
			}
			if ticks < len(st.Series)-1 {
				t.Errorf("OnInterval called %d times for %d slices", ticks, len(st.Series))
			}
		})
	}
}

// TestSimBurstSeries: a burst bucket of 6000 credits at 8000 IOPS over a
// 2000 IOPS baseline lasts 6000 / (8000 − 2000) = 1 s; the series shows
// 8000 IOPS before and 2000 after, in simulated (exact) time.
func TestSimBurstSeries(t *testing.T) {
	cfg := ioengine.SimConfig{Latency: time.Millisecond, IOPS: 2000, BurstIOPS: 8000, BurstCredits: 6000, Seed: 1}
	w := ioengine.Workload{RW: ioengine.RandRead, BS: 4096, IODepth: 32, NumJobs: 1, RandSeed: 1}
	st, err := ioengine.NewSim(cfg).Run(context.Background(), w, ioengine.Control{Runtime: 2 * time.Second, SeriesInterval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Series) != 20 {
		t.Fatalf("%d slices, want 20", len(st.Series))
	}
	for i, iv := range st.Series {
		want := 2000.0
		switch {
		case i < 9:
			want = 8000
		case i < 11:
			continue // the slice the burst ends in, and the queue draining after it
		}
		if math.Abs(iv.IOPS()-want)/want > 0.03 {
			t.Errorf("slice %d (%.1f s): %.0f IOPS, want %.0f", i, float64(iv.StartNs)/1e9, iv.IOPS(), want)
		}
		// Little's Law holds in every slice of a closed loop at QD 32.
		if l := iv.IOPS() * iv.LatMeanNs / 1e9; math.Abs(l-iv.InflightMean)/iv.InflightMean > 0.1 {
			t.Errorf("slice %d: IOPS × latency %.1f, in flight %.1f", i, l, iv.InflightMean)
		}
	}
}

// TestSimThrottleSeries: 2000 IOPS per 500 ms window on a device that can do
// 8000: each window runs 1000 I/Os in 125 ms and then waits 375 ms.
func TestSimThrottleSeries(t *testing.T) {
	cfg := ioengine.SimConfig{Latency: time.Millisecond, ThrottlePeriod: 500 * time.Millisecond, ThrottleIOPS: 2000, Seed: 1}
	w := ioengine.Workload{RW: ioengine.RandRead, BS: 4096, IODepth: 8, NumJobs: 1, RandSeed: 1}
	st, err := ioengine.NewSim(cfg).Run(context.Background(), w, ioengine.Control{Runtime: 2 * time.Second, SeriesInterval: 125 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(st.All.IOPS-2000)/2000 > 0.02 {
		t.Errorf("mean %.0f IOPS, want 2000", st.All.IOPS)
	}
	if len(st.Series) != 16 {
		t.Fatalf("%d slices, want 16", len(st.Series))
	}
	for i, iv := range st.Series {
		var want float64
		if i%4 == 0 {
			want = 8000
		}
		if math.Abs(iv.IOPS()-want) > 0.05*8000 {
			t.Errorf("slice %d: %.0f IOPS, want %.0f", i, iv.IOPS(), want)
		}
	}
}

func TestSimConfigBurstThrottleRoundTrip(t *testing.T) {
	c := ioengine.SimConfig{Latency: time.Millisecond, IOPS: 3000, BurstIOPS: 9000, BurstCredits: 5.4e6,
		ThrottlePeriod: time.Second, ThrottleIOPS: 2500}
	got, err := ioengine.ParseSimConfig(c.String())
	if err != nil || got != c {
		t.Fatalf("ParseSimConfig(%q) = %+v, %v", c.String(), got, err)
	}
	for _, bad := range []string{
		"latency=1ms,iops=3000,burst_iops=9000",                 // credits missing
		"latency=1ms,iops=9000,burst_iops=3000,burst_credits=5", // burst below baseline
		"latency=1ms,burst_iops=3000,burst_credits=5",           // no baseline
		"latency=1ms,throttle_period=1s",                        // iops missing
		"latency=1ms,throttle_period=1ms,throttle_iops=10",      // nothing per period
	} {
		if _, err := ioengine.ParseSimConfig(bad); err == nil {
			t.Errorf("ParseSimConfig(%q) accepted", bad)
		}
	}
}

// TestSeriesNoAllocationsPerIO: recording a series (every 10 ms) keeps the
// I/O loops free of per-I/O allocations: a few per slice, none per I/O.
func TestSeriesNoAllocationsPerIO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "alloc")
	if err := ioengine.CreateScratch(context.Background(), path, 8<<20); err != nil {
		t.Fatal(err)
	}
	for _, eng := range engines {
		t.Run(eng, func(t *testing.T) {
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: depthFor(eng, 16), NumJobs: 1, Direct: true}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			ctl := ioengine.Control{Runtime: 3 * time.Second, SampleInterval: 10 * time.Millisecond, SeriesInterval: 10 * time.Millisecond,
				OnSample: func(s ioengine.Sample) bool { return s.IOs >= 20000 }}
			st, err := mustEngine(t, eng).Run(context.Background(), w, ctl)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			allocs := after.Mallocs - before.Mallocs
			t.Logf("%d allocations for %d I/Os in %d slices", allocs, st.All.TotalIOs, len(st.Series))
			// One allocation per I/O would be >= TotalIOs; the runtime's own
			// (new threads and Ps for the run's jobs, more of them under the
			// race detector: 1,934 seen with psync) stay far below that.
			if st.All.TotalIOs < 1000 || float64(allocs) > 0.05*float64(st.All.TotalIOs)+1000+8*float64(len(st.Series)) {
				t.Fatalf("%d allocations for %d I/Os in %d slices", allocs, st.All.TotalIOs, len(st.Series))
			}
		})
	}
}
