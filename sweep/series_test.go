package sweep_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
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
