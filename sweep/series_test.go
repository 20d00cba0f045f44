package sweep_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

// runSeriesSweep sweeps a simulated device with a series every 50 ms and
// analyses the result.
func runSeriesSweep(t *testing.T, sim ioengine.SimConfig, qds []int, runtime time.Duration, ss sweep.SteadyConfig) *sweep.Result {
	t.Helper()
	cfg := sweep.Config{Engine: ioengine.NewSim(sim), Workload: ioengine.Workload{RandSeed: 1}, Runtime: runtime,
		Steady: ss, LogInterval: 50 * time.Millisecond}
	r := sweep.NewResult(sweep.Meta{Engine: "sim", Simulated: true}, plan(qds, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if err := r.Analyze(littleslaw.Options{}); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSeriesFindsBurstCredits: 3000 credits at 8000 IOPS over a 2000 IOPS
// baseline last 3000 / 6000 = 0.5 s at any queue deep enough to reach the
// cap (QD 16 and 64 at 1 ms); QD 2 runs at the baseline and spends none.
// The analysis must size from 2000 IOPS, not 8000.
func TestSeriesFindsBurstCredits(t *testing.T) {
	sim := ioengine.SimConfig{Latency: time.Millisecond, IOPS: 2000, BurstIOPS: 8000, BurstCredits: 3000, Seed: 1}
	r := runSeriesSweep(t, sim, []int{2, 16, 64}, 1500*time.Millisecond, sweep.SteadyConfig{Interval: 50 * time.Millisecond, Window: 400 * time.Millisecond})
	for _, s := range r.Steps {
		if s.Series == nil || len(s.Series.Points) != 30 {
			t.Fatalf("QD %d: series %+v, want 30 slices of 50 ms", s.QD, s.Series)
		}
		b := s.Time.Find(diagnosis.TimeBurst)
		if s.QD == 2 {
			if b != nil {
				t.Errorf("QD 2 runs at the baseline, yet a burst was found: %+v", b)
			}
			continue
		}
		if b == nil {
			t.Fatalf("QD %d: no burst found in %+v", s.QD, s.Time)
		}
		if !within(b.BurstIOPS, 8000, 0.03) || !within(b.SustainedIOPS, 2000, 0.03) || math.Abs(b.BurstSec-0.5) > 0.06 {
			t.Errorf("QD %d: burst %.0f IOPS for %.2f s then %.0f, want 8000 for 0.5 s then 2000", s.QD, b.BurstIOPS, b.BurstSec, b.SustainedIOPS)
		}
		if v := s.Time.Sustained; v == nil || math.Abs(v.Inflight-float64(s.QD)) > 0.5 ||
			!within(v.IOPS*v.LatMeanNs/1e9, v.Inflight, 0.05) {
			t.Errorf("QD %d: sustained level %+v breaks Little's Law or the queue", s.QD, v)
		}
	}
	ct := r.Analysis[0].Time
	if ct == nil || ct.Burst == nil || !within(ct.Burst.CreditsIOs, 3000, 0.1) {
		t.Fatalf("curve time %+v, want a burst of about 3000 credits", ct)
	}
	if !within(ct.RuntimeSec, 0.9, 0.15) {
		t.Errorf("runtime guidance %.2f s, want the 0.5 s burst plus the 0.4 s steady window", ct.RuntimeSec)
	}
	sat := r.Analysis[0].Analysis.Saturation
	if !within(sat.IOPS, 2000, 0.05) {
		t.Errorf("saturation at %.0f IOPS, want the sustained 2000", sat.IOPS)
	}

	// The series file holds every slice.
	dir := t.TempDir()
	if err := sweep.Write(outtest.Open(t, dir), r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, sweep.ResultsSeriesCSV))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) != 1+3*30 || len(rows[0]) != len(sweep.SeriesCSVHeader) {
		t.Fatalf("%s: %d rows, %v", sweep.ResultsSeriesCSV, len(rows), err)
	}
	back, err := sweep.Read(filepath.Join(dir, sweep.ResultsJSON))
	if err != nil {
		t.Fatal(err)
	}
	if back.Steps[1].Series == nil || len(back.Steps[1].Series.Points) != 30 || back.Steps[1].Time.Find(diagnosis.TimeBurst) == nil {
		t.Errorf("results.json lost the series or the finding")
	}
}

// TestSeriesFindsThrottle: 2000 IOPS per 400 ms window on a device that
// does 8000 at QD 8: 100 ms busy, 300 ms waiting, every 400 ms.
func TestSeriesFindsThrottle(t *testing.T) {
	sim := ioengine.SimConfig{Latency: time.Millisecond, ThrottlePeriod: 400 * time.Millisecond, ThrottleIOPS: 2000, Seed: 1}
	r := runSeriesSweep(t, sim, []int{8}, 2400*time.Millisecond, sweep.SteadyConfig{Interval: 50 * time.Millisecond, Window: 500 * time.Millisecond, Limit: 0.005})
	s := r.Steps[0]
	th := s.Time.Find(diagnosis.TimeThrottle)
	if th == nil {
		t.Fatalf("no throttle found: %+v", s.Time)
	}
	if math.Abs(th.PeriodSec-0.4) > 0.03 || !within(th.MeanIOPS, 2000, 0.05) || !within(th.PeakIOPS, 8000, 0.1) {
		t.Errorf("throttle period %.3f s, mean %.0f, peak %.0f; want 0.4 s, 2000, 8000", th.PeriodSec, th.MeanIOPS, th.PeakIOPS)
	}
	w := s.Time.Steady
	if w == nil || w.Cause != diagnosis.TimeThrottle || !within(w.WholePeriods, 1.25, 0.1) {
		t.Errorf("steady reason %+v, want the throttle over 1.25 periods", w)
	}
	if ct := r.Analysis[0].Time; ct == nil || !within(ct.RuntimeSec, 1.2, 0.1) {
		t.Errorf("runtime guidance %+v, want three 0.4 s periods", ct)
	}
}

// TestStepNoiseOneSample: the settling rule's uncertainty and the
// comparison's noise read one sample of a step, over generated steps of
// every shape (series of 0–30 slices with a partial last one or not,
// climbing or alike slices, imports' summaries): the comparison counts
// exactly the slices SliceIOPS gives, and the two agree wherever their
// stated policies do (no series; or slices too few to count likeness in
// either, or as many as both count it from).
func TestStepNoiseOneSample(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 37))
	const iv = int64(100 * time.Millisecond)
	for i := range 4000 {
		var st sweep.Step
		st.RuntimeNs = r.Int64N(int64(5 * time.Second))
		if r.IntN(3) == 0 {
			st.IOPSCV = r.Float64() * 0.3
			st.IOPSSamples = int64(r.IntN(8))
		}
		k := r.IntN(31)
		if r.IntN(4) > 0 {
			st.Series = &sweep.Series{IntervalNs: iv}
			climb := r.IntN(2) == 0
			for j := range k {
				d := iv
				if j == k-1 && r.IntN(2) == 0 {
					d = r.Int64N(iv)
				}
				ios := 1000 + r.Int64N(100)
				if climb {
					ios += int64(50 * j)
				}
				st.Series.Points = append(st.Series.Points, sweep.SeriesPoint{Interval: ioengine.Interval{StartNs: int64(j) * iv, DurNs: d, IOs: ios, ReadIOPS: float64(ios) / (float64(d) / 1e9)}})
			}
		}
		xs, n, u := st.SliceIOPS(), st.IOPSNoise(), st.IOPSUncertainty()
		if st.Series != nil && len(st.Series.Points) > 0 && n.Samples != len(xs) {
			t.Fatalf("step %d: the comparison counts %d slices, SliceIOPS gives %d", i, n.Samples, len(xs))
		}
		for _, x := range xs {
			if x <= 0 || math.IsNaN(x) {
				t.Fatalf("step %d: slice IOPS %v", i, x)
			}
		}
		alike := len(xs) < littleslaw.MinNoiseSamples || len(xs) >= littleslaw.MinAutocorrSamples
		if (len(xs) == 0 || alike) && n.Samples >= littleslaw.MinNoiseSamples && math.Abs(u-n.RelSE) > 1e-12 {
			t.Fatalf("step %d (%d slices, cv %v over %d): rule's uncertainty %v, comparison's %v", i, len(xs), st.IOPSCV, st.IOPSSamples, u, n.RelSE)
		}
		if n.Samples < littleslaw.MinNoiseSamples && len(xs) < littleslaw.MinNoiseSamples && u != 0 {
			t.Fatalf("step %d: uncertainty %v from %d samples", i, u, n.Samples)
		}
	}
}
