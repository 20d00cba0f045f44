package sweep_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// openLoopConfig is a real engine over a laid-out temp file, with Poisson
// arrivals.
func openLoopConfig(t *testing.T, runtime time.Duration) sweep.Config {
	t.Helper()
	eng, path := scratchEngine(t)
	return sweep.Config{
		Engine: eng,
		// Buffered reads of the file just laid out: the page cache serves
		// them, so no neighbour's I/O on a shared disk stalls the loads.
		Workload: ioengine.Workload{Filename: path, Size: scratchSize, RandSeed: 7, Poisson: true},
		Ramp:     50 * time.Millisecond,
		Runtime:  runtime,
		Steady:   sweep.SteadyConfig{Interval: 50 * time.Millisecond, Window: 150 * time.Millisecond, Limit: 0.02},
		Stop:     sweep.DefaultEarlyStop,
	}
}

// TestOpenLoopSweepOverOfferedLoads sweeps Poisson arrivals at three loads
// far below what a cached scratch file serves, and holds each step to its
// load: offered loads rise in run order, no step achieves more than it was
// offered (beyond the 4σ scatter of a Poisson count), the lowest keeps up
// with it, the I/Os in flight are IOPS × mean latency (Little's Law),
// which the analysis reads as the depth each load needs, and the latency
// objective's answer is the highest load that kept up and met it.
func TestOpenLoopSweepOverOfferedLoads(t *testing.T) {
	cfg := openLoopConfig(t, time.Second)
	p := plan([]int{16}, true)
	p.Rates = []float64{150, 300, 600}
	r := sweep.NewResult(sweep.Meta{Engine: cfg.Engine.Name()}, p)
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != len(p.Rates) {
		t.Fatalf("%d steps for %d loads", len(r.Steps), len(p.Rates))
	}
	prev := 0.0
	for i, s := range r.Steps {
		t.Logf("offered %.0f: achieved %.1f IOPS, mean %.0f µs, p99 %d µs, in flight %.3f (IOPS×lat %.3f) over %v",
			s.OfferedIOPS, s.IOPS, s.Lat.MeanNs/1e3, s.Lat.P99Ns/1e3, s.InflightMean, s.IOPS*s.Lat.MeanNs/1e9, time.Duration(s.RuntimeNs))
		if s.Failed != "" || !s.Measured() {
			t.Fatalf("step %d: %+v", i, s)
		}
		if s.OfferedIOPS != p.Rates[i] || s.OfferedIOPS <= prev {
			t.Errorf("step %d offered %.0f after %.0f; the plan's loads are %v", i, s.OfferedIOPS, prev, p.Rates)
		}
		prev = s.OfferedIOPS
		// A Poisson count over the window scatters by its square root.
		n := s.OfferedIOPS * time.Duration(s.RuntimeNs).Seconds()
		tol := 4 * math.Sqrt(n) / n
		if got := s.IOPS / s.OfferedIOPS; got-1 > tol {
			t.Errorf("offered %.0f: achieved %.1f IOPS, %.1f%% over (allowed %.1f%%, 4σ of a Poisson count of %.0f)",
				s.OfferedIOPS, s.IOPS, (got-1)*100, tol*100, n)
		}
		if math.Abs(s.LittleError) > 0.02 {
			t.Errorf("offered %.0f: in flight %.3f vs IOPS × latency %.3f: Little's Law open by %.1f%%",
				s.OfferedIOPS, s.InflightMean, s.IOPS*s.Lat.MeanNs/1e9, s.LittleError*100)
		}
	}
	checkLoadAnalysis(t, r)
}

// checkLoadAnalysis holds r's analysis to its open-loop steps: one load
// step per step, each keeping up as its point says, its depth its
// in-flight by Little's Law, and the objective's answer (a mean of 1 s)
// the highest load that kept up and met it.
func checkLoadAnalysis(t *testing.T, r *sweep.Result) {
	t.Helper()
	p := r.Plan
	slo := littleslaw.SLO{Stat: "mean", LimitNs: float64(time.Second)}
	if err := r.Analyze(littleslaw.Options{SLO: &slo}); err != nil {
		t.Fatal(err)
	}
	a := r.Analysis[0].Analysis
	if a.Load == nil || len(a.Load.Steps) != len(p.Rates) {
		t.Fatalf("load curve %+v", a.Load)
	}
	if !a.Load.Steps[0].KeptUp {
		t.Errorf("the lowest load, %.0f offered, fell behind: %+v", a.Load.Steps[0].OfferedIOPS, a.Load.Steps[0])
	}
	pts := r.Curves()[0].Points()
	want := 0.0 // the highest load that kept up and met the objective
	for i, ls := range a.Load.Steps {
		s := r.Steps[i]
		if ls.KeptUp != littleslaw.KeptUp(pts[i]) {
			t.Errorf("load step %d: kept up %v, the point says %v", i, ls.KeptUp, littleslaw.KeptUp(pts[i]))
		}
		if ls.KeptUp && ls.LatMeanNs <= float64(time.Second) {
			want = ls.OfferedIOPS
		}
		if ls.OfferedIOPS != s.OfferedIOPS || ls.Depth != littleslaw.CeilQD(ls.Inflight) ||
			math.Abs(ls.Inflight-littleslaw.QueueDepth(s.IOPS, s.Lat.MeanNs)) > 1e-9*ls.Inflight {
			t.Errorf("load step %d: %+v for step %+v", i, ls, s)
		}
	}
	if a.SLO == nil || !a.SLO.Met || a.SLO.OfferedIOPS != want {
		t.Fatalf("SLO answer %+v; want the highest load that kept up, %.0f offered", a.SLO, want)
	}
	for _, s := range r.Steps {
		if s.OfferedIOPS == want && a.SLO.QD != s.InflightMean {
			t.Errorf("SLO answer at %.3f in flight; the load's step kept %.3f", a.SLO.QD, s.InflightMean)
		}
	}
	qd, from := a.AnswerDepth()
	if from != littleslaw.DepthSaturation && from != littleslaw.DepthDeepest && from != littleslaw.DepthSLO || qd <= 0 {
		t.Errorf("answer depth %v from %q", qd, from)
	}
}

// TestOpenLoopFractionsOfCapacity offers loads as shares of the
// closed-loop IOPS measured first at the plan's depth: the step measured
// is kept (Result.Capacity) and the loads are its shares in whole IOPS.
func TestOpenLoopFractionsOfCapacity(t *testing.T) {
	cfg := openLoopConfig(t, 300*time.Millisecond)
	p := plan([]int{4}, true)
	p.RateFractions = []float64{0.05, 0.1}
	r := sweep.NewResult(sweep.Meta{Engine: cfg.Engine.Name()}, p)
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	c := r.Capacity
	if c == nil || c.IOPS <= 0 || c.OfferedIOPS != 0 || c.QD != 4 {
		t.Fatalf("capacity step %+v", c)
	}
	if len(r.Plan.Rates) != 2 || len(r.Steps) != 2 {
		t.Fatalf("rates %v, %d steps", r.Plan.Rates, len(r.Steps))
	}
	for i, f := range p.RateFractions {
		want := math.Max(1, math.Round(f*c.IOPS))
		if r.Plan.Rates[i] != want || r.Steps[i].OfferedIOPS != want {
			t.Errorf("load %d: %v offered, step %v; want %.0f (%.0f%% of %.0f IOPS)", i, r.Plan.Rates[i], r.Steps[i].OfferedIOPS, want, f*100, c.IOPS)
		}
	}
	t.Logf("capacity %.0f IOPS at QD 4; loads %v; achieved %.0f, %.0f", c.IOPS, r.Plan.Rates, r.Steps[0].IOPS, r.Steps[1].IOPS)
}

// TestOpenLoopNoRampFallAcrossLoads: in an open-loop sweep a load the
// device fell behind of achieves less than a lower load did, and its ramp
// may run above its window while the queue fills; that is the load, not a
// level that did not last. The same steps over depths read as a ramp fall
// that leaves the step above out; over loads nothing is left out.
func TestOpenLoopNoRampFallAcrossLoads(t *testing.T) {
	ramp := []ioengine.Interval{
		{StartNs: -200e6, DurNs: 100e6, IOs: 300, ReadIOPS: 3000, LatMeanNs: 1e6, Ramp: true},
		{StartNs: -100e6, DurNs: 100e6, IOs: 150, ReadIOPS: 1500, LatMeanNs: 5e6, Ramp: true},
	}
	build := func(rates []float64) *sweep.Result {
		p := plan([]int{1, 2, 4}, true)
		if rates != nil {
			p = plan([]int{8}, true)
			p.Rates = rates
		}
		r := sweep.NewResult(sweep.Meta{}, p)
		for i, iops := range []float64{1000, 2000, 1500} {
			s := sweep.Step{RW: "randread", BS: 4096, IODepth: 1 << i, NumJobs: 1, QD: 1 << i, IOPS: iops, Steady: true, RuntimeNs: 1e9,
				Lat: ioengine.Latency{MeanNs: 1e6, P99Ns: 2e6}, Series: &sweep.Series{IntervalNs: 100e6}}
			if rates != nil {
				s.IODepth, s.QD, s.OfferedIOPS = 8, 8, rates[i]
			}
			if i == 2 {
				s.Series.Ramp = ramp
			}
			r.Steps = append(r.Steps, s)
		}
		return r
	}
	if falls := build(nil).RampFalls(); len(falls) != 1 {
		t.Fatalf("over depths: ramp falls %+v, want the third step's", falls)
	}
	r := build([]float64{1000, 2000, 4000})
	if falls := r.RampFalls(); len(falls) != 0 {
		t.Errorf("over loads: ramp falls %+v, want none", falls)
	}
	if err := r.Analyze(littleslaw.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Steps {
		if s.Time != nil && s.Time.AboveControl {
			t.Errorf("%.0f IOPS offered (%.0f achieved) left out as above a level that did not last", s.OfferedIOPS, s.IOPS)
		}
	}
}
