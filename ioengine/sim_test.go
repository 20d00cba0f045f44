package ioengine_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
)

func TestSimScenarios(t *testing.T) {
	remote := ioengine.SimConfig{Latency: 1300 * time.Microsecond, Jitter: 0.1, IOPS: 160000, BWBytes: 2400 << 20, Seed: 7}
	tests := []struct {
		name     string
		cfg      ioengine.SimConfig
		iodepth  int
		numjobs  int
		bs       int64
		rw       ioengine.RW
		wantIOPS float64 // expected IOPS
		tol      float64 // relative tolerance
	}{
		{"depth-bound QD1", remote, 1, 1, 4096, ioengine.RandRead, 1 / 1.3e-3, 0.06},
		{"depth-bound QD32", remote, 32, 1, 4096, ioengine.RandRead, 32 / 1.3e-3, 0.05},
		{"IOPS cap QD1024", remote, 256, 4, 4096, ioengine.RandRead, 160000, 0.03},
		{"bandwidth cap 1m", remote, 64, 1, 1 << 20, ioengine.Read, 2400, 0.03},
		{"channels bound", ioengine.SimConfig{Latency: time.Millisecond, Channels: 8}, 64, 1, 4096, ioengine.RandWrite, 8000, 0.03},
		{"mixed", ioengine.SimConfig{Latency: 500 * time.Microsecond, Jitter: 0.3}, 4, 2, 4096, ioengine.RandRW, 8 / 0.5e-3, 0.05},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := ioengine.NewSim(tc.cfg)
			if e.Name() != "sim" {
				t.Fatalf("Name = %q", e.Name())
			}
			w := ioengine.Workload{RW: tc.rw, BS: tc.bs, IODepth: tc.iodepth, NumJobs: tc.numjobs, RWMixRead: 70, RandSeed: 1}
			var starts, ends, samples int
			ctl := ioengine.Control{
				Ramp: 50 * time.Millisecond, Runtime: 300 * time.Millisecond, SampleInterval: 100 * time.Millisecond,
				OnSample:      func(ioengine.Sample) bool { samples++; return false },
				OnWindowStart: func() { starts++ },
				OnWindowEnd:   func() { ends++ },
			}
			st, err := e.Run(context.Background(), w, ctl)
			if err != nil {
				t.Fatal(err)
			}
			got := st.All.IOPS
			if tc.bs == 1<<20 {
				got = st.All.BWBytes / (1 << 20)
			}
			if math.Abs(got-tc.wantIOPS)/tc.wantIOPS > tc.tol {
				t.Errorf("got %.0f, want %.0f ±%.0f%%", got, tc.wantIOPS, tc.tol*100)
			}
			if starts != 1 || ends != 1 || samples < 2 {
				t.Errorf("window hooks start=%d end=%d samples=%d", starts, ends, samples)
			}
			if st.Runtime != ctl.Runtime {
				t.Errorf("runtime %v, want %v", st.Runtime, ctl.Runtime)
			}
			little := st.All.IOPS * st.All.Lat.MeanNs / 1e9
			if math.Abs(st.InflightMean-little)/st.InflightMean > 0.05 {
				t.Errorf("Little's Law: inflight %.2f vs IOPS×lat %.2f", st.InflightMean, little)
			}
			if qd := float64(w.QD()); math.Abs(st.InflightMean-qd) > 1e-6*qd {
				t.Errorf("inflight mean %.3f, want %v", st.InflightMean, qd)
			}
			l := st.All.Lat
			if !(l.MinNs <= l.P50Ns && l.P50Ns <= l.P90Ns && l.P90Ns <= l.P99Ns && l.P99Ns <= l.P999Ns && l.P999Ns <= l.MaxNs+l.MaxNs/500) {
				t.Errorf("latency order broken: %+v", l)
			}
			if tc.rw == ioengine.RandRW {
				if st.Read == nil || st.Write == nil || st.Read.TotalIOs+st.Write.TotalIOs != st.All.TotalIOs {
					t.Fatalf("mixed directions: read %+v write %+v", st.Read, st.Write)
				}
				if share := float64(st.Read.TotalIOs) / float64(st.All.TotalIOs); math.Abs(share-0.7) > 0.05 {
					t.Errorf("read share %.2f, want 0.70", share)
				}
			}
		})
	}
}

func TestSimSampleEndsWindow(t *testing.T) {
	e := ioengine.NewSim(ioengine.SimConfig{Latency: 200 * time.Microsecond})
	w := ioengine.Workload{RW: ioengine.RandRead, BS: 4096, IODepth: 4, NumJobs: 1}
	var last ioengine.Sample
	ctl := ioengine.Control{Runtime: 5 * time.Second, SampleInterval: 50 * time.Millisecond,
		OnSample: func(s ioengine.Sample) bool { last = s; return s.Elapsed >= 150*time.Millisecond }}
	st, err := e.Run(context.Background(), w, ctl)
	if err != nil {
		t.Fatal(err)
	}
	if st.Runtime != 150*time.Millisecond || last.IOs != st.All.TotalIOs || last.Bytes != st.All.Bytes {
		t.Errorf("runtime %v, last sample %+v, total %d", st.Runtime, last, st.All.TotalIOs)
	}
}

func TestSimCancel(t *testing.T) {
	e := ioengine.NewSim(ioengine.SimConfig{Latency: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	st, err := e.Run(ctx, ioengine.Workload{RW: ioengine.Read, BS: 4096, IODepth: 2, NumJobs: 1},
		ioengine.Control{Runtime: 10 * time.Second})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if st == nil || st.All.TotalIOs == 0 || st.Runtime >= 10*time.Second {
		t.Fatalf("partial stats %+v", st)
	}
}

func TestSimConfigRoundTrip(t *testing.T) {
	c := ioengine.SimConfig{Latency: 1300 * time.Microsecond, Jitter: 0.05, Channels: 3, IOPS: 160000, BWBytes: 2400 << 20, Seed: 9}
	got, err := ioengine.ParseSimConfig(c.String())
	if err != nil || got != c {
		t.Fatalf("ParseSimConfig(%q) = %+v, %v", c.String(), got, err)
	}
	for _, bad := range []string{"latency=0", "latency=1ms,x=1", "latency=1ms,channels=-1", "latency", "latency=1ms,iops=abc"} {
		if _, err := ioengine.ParseSimConfig(bad); err == nil {
			t.Errorf("ParseSimConfig(%q) accepted", bad)
		}
	}
}

func TestSimRejectsBadWorkload(t *testing.T) {
	e := ioengine.NewSim(ioengine.SimConfig{Latency: time.Millisecond})
	for _, w := range []ioengine.Workload{
		{RW: ioengine.Read, BS: 0, IODepth: 1, NumJobs: 1},
		{RW: ioengine.Read, BS: 4096, IODepth: 0, NumJobs: 1},
	} {
		if _, err := e.Run(context.Background(), w, ioengine.Control{Runtime: time.Millisecond}); err == nil {
			t.Errorf("accepted %+v", w)
		}
	}
}

// TestSimSpec: a --sim spec starts from DefaultSim, takes bw with fio's
// suffixes and burst_carry alone, and Spec writes what it reads back.
func TestSimSpec(t *testing.T) {
	c, err := ioengine.ParseSimSpec("latency=1ms, iops=20000,bw=200m,burst_carry,burst_iops=30000,burst_credits=1000")
	want := ioengine.DefaultSim
	want.Latency, want.IOPS, want.BWBytes = time.Millisecond, 20000, 200<<20
	want.BurstCarry, want.BurstIOPS, want.BurstCredits = true, 30000, 1000
	if err != nil || c != want {
		t.Fatalf("ParseSimSpec = %+v, %v; want %+v", c, err, want)
	}
	for _, s := range []ioengine.SimConfig{ioengine.DefaultSim, want,
		{Latency: 3 * time.Millisecond, Jitter: 0, IOPS: 0, BWBytes: 1000.5, Channels: 4, Seed: 7,
			ThrottlePeriod: time.Second, ThrottleIOPS: 50}} {
		got, err := ioengine.ParseSimSpec(s.Spec())
		if err != nil || got != s {
			t.Errorf("ParseSimSpec(%q) = %+v, %v; want %+v", s.Spec(), got, err, s)
		}
	}
	if d, err := ioengine.ParseSimSpec(""); err != nil || d != ioengine.DefaultSim {
		t.Errorf("empty spec = %+v, %v; want DefaultSim", d, err)
	}
	for _, bad := range []string{"latency=0", "nokey=1", "iops", "bw=zz", "iops=100,burst_iops=50,burst_credits=1", "latency=1ms,latency=2ms", "burst_carry=maybe"} {
		if _, err := ioengine.ParseSimSpec(bad); err == nil {
			t.Errorf("ParseSimSpec(%q) accepted", bad)
		}
	}
}
