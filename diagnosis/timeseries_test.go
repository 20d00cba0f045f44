package diagnosis_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"
)

// closedLoop builds a series at queue depth qd from per-interval IOPS:
// latency follows Little's Law (qd / IOPS).
func closedLoop(qd, dt float64, iops []float64) []diagnosis.TimeSample {
	out := make([]diagnosis.TimeSample, len(iops))
	for i, x := range iops {
		out[i] = diagnosis.TimeSample{TSec: float64(i) * dt, DurSec: dt, IOs: x * dt, IOPS: x,
			BWBytes: x * 4096, LatMeanNs: qd / x * 1e9, P99Ns: 1.5 * qd / x * 1e9, Inflight: qd}
	}
	return out
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

func TestAnalyzeTimeBurst(t *testing.T) {
	// 8000 IOPS for 2.3 s, then 2000: 0.25 s intervals, 6 s.
	var iops []float64
	for i := 0; i < 24; i++ {
		t0, t1 := float64(i)*0.25, float64(i+1)*0.25
		switch {
		case t1 <= 2.3:
			iops = append(iops, 8000)
		case t0 >= 2.3:
			iops = append(iops, 2000)
		default:
			f := (2.3 - t0) / 0.25
			iops = append(iops, 8000*f+2000*(1-f))
		}
	}
	st := diagnosis.AnalyzeTime(closedLoop(32, 0.25, iops), diagnosis.SteadyCriterion{WindowSec: 2, Limit: 0.02}, false)
	b := st.Find(diagnosis.TimeBurst)
	if b == nil {
		t.Fatalf("no burst found: %+v", st)
	}
	if !near(b.BurstIOPS, 8000, 0.01) || !near(b.SustainedIOPS, 2000, 0.01) || math.Abs(b.BurstSec-2.3) > 0.01 {
		t.Errorf("burst %+v, want 8000 IOPS until 2.3 s then 2000", b)
	}
	if st.Sustained == nil || !near(st.Sustained.IOPS, 2000, 0.01) || !near(st.Sustained.LatMeanNs, 16e6, 0.01) {
		t.Errorf("sustained %+v, want 2000 IOPS at 16 ms", st.Sustained)
	}
	if l := st.Sustained.IOPS * st.Sustained.LatMeanNs / 1e9; !near(l, st.Sustained.Inflight, 0.01) {
		t.Errorf("sustained level breaks Little's Law: %.2f vs %.2f", l, st.Sustained.Inflight)
	}
	if !near(st.MinRuntimeSec, 4.3, 0.01) {
		t.Errorf("min runtime %.2f s, want 2.3 + 2", st.MinRuntimeSec)
	}
	if st.Steady == nil || st.Steady.Cause != diagnosis.TimeBurst && st.Steady.Cause != "" {
		t.Errorf("steady %+v", st.Steady)
	}
}

func TestAnalyzeTimeThrottle(t *testing.T) {
	// 1 s period sampled every 0.25 s: one busy interval, three idle-ish.
	var iops []float64
	for i := 0; i < 40; i++ {
		if i%4 == 0 {
			iops = append(iops, 8000)
		} else {
			iops = append(iops, 50)
		}
	}
	st := diagnosis.AnalyzeTime(closedLoop(8, 0.25, iops), diagnosis.SteadyCriterion{WindowSec: 2.5, Limit: 0.02}, false)
	th := st.Find(diagnosis.TimeThrottle)
	if th == nil {
		t.Fatalf("no throttle found: %+v", st.Findings)
	}
	if math.Abs(th.PeriodSec-1) > 0.05 || !near(th.PeakIOPS, 8000, 0.01) || !near(th.MeanIOPS, 2037.5, 0.01) {
		t.Errorf("throttle %+v, want a 1 s period peaking at 8000", th)
	}
	if st.Has(diagnosis.TimeBurst) || st.Has(diagnosis.TimeNoisy) {
		t.Errorf("extra findings %+v", st.Findings)
	}
	if !near(st.MinRuntimeSec, 3, 0.05) || st.Steady.Cause != diagnosis.TimeThrottle || !near(st.Steady.WholePeriods, 2.5, 0.05) {
		t.Errorf("runtime %.2f, steady %+v", st.MinRuntimeSec, st.Steady)
	}
}

func TestAnalyzeTimeWarmupAndCacheFill(t *testing.T) {
	for _, tc := range []struct {
		from float64
		kind diagnosis.TimeKind
	}{{4000, diagnosis.TimeWarmup}, {40000, diagnosis.TimeCacheFill}} {
		// IOPS moves exponentially from tc.from to 10000 (τ = 0.5 s).
		var iops []float64
		for i := 0; i < 32; i++ {
			iops = append(iops, 10000+(tc.from-10000)*math.Exp(-float64(i)*0.25/0.5))
		}
		st := diagnosis.AnalyzeTime(closedLoop(16, 0.25, iops), diagnosis.SteadyCriterion{WindowSec: 2, Limit: 0.02}, true)
		w := st.Find(tc.kind)
		if w == nil {
			t.Fatalf("%s not found: %+v", tc.kind, st.Findings)
		}
		if !near(w.PlateauLatNs, 1.6e6, 0.02) || w.PlateauSec <= 0 || w.PlateauSec > 2 {
			t.Errorf("%s %+v, want a 1.6 ms plateau within 2 s", tc.kind, w)
		}
		if st.Has(diagnosis.TimeBurst) {
			t.Errorf("a gradual change called a burst: %+v", st.Findings)
		}
		if st.Sustained == nil || !near(st.Sustained.IOPS, 10000, 0.05) {
			t.Errorf("sustained %+v", st.Sustained)
		}
	}
}

func TestAnalyzeTimeNoisyAndQuiet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var noisy, quiet []float64
	for i := 0; i < 60; i++ {
		noisy = append(noisy, 10000*(1+0.4*(rng.Float64()-0.5)*2))
		quiet = append(quiet, 10000*(1+0.01*(rng.Float64()-0.5)))
	}
	st := diagnosis.AnalyzeTime(closedLoop(16, 0.25, noisy), diagnosis.SteadyCriterion{WindowSec: 2, Limit: 0.02}, false)
	if n := st.Find(diagnosis.TimeNoisy); n == nil || n.CV < 0.15 || len(st.Findings) != 1 {
		t.Errorf("noise: %+v", st.Findings)
	}
	st = diagnosis.AnalyzeTime(closedLoop(16, 0.25, quiet), diagnosis.SteadyCriterion{WindowSec: 2, Limit: 0.02}, true)
	if len(st.Findings) != 0 || st.Sustained != nil || st.MinRuntimeSec != 0 {
		t.Errorf("a quiet series gave %+v", st)
	}
	if !st.Steady.Attained || math.Abs(st.Steady.SlopePerSec) > 0.02 || st.Steady.Samples != 8 {
		t.Errorf("steady %+v", st.Steady)
	}
	if diagnosis.AnalyzeTime(nil, diagnosis.SteadyCriterion{}, false) != nil {
		t.Error("an empty series gave a verdict")
	}
}
