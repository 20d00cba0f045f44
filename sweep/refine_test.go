package sweep_test

import (
	"context"
	"math"
	"sort"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestRefineBisectsBoundaries sweeps a modelled 1 ms disk capped at 20k
// IOPS on a doubling grid, then refines around the knee (~20 in flight),
// a 15k target (~15) and a mean ≤ 2.5 ms objective (~50): each boundary
// gets log-spaced depths strictly between its grid steps, marked refined,
// and the answers end up read from measured depths close together.
func TestRefineBisectsBoundaries(t *testing.T) {
	cfg := simConfig(ioengine.SimConfig{Latency: time.Millisecond, IOPS: 20000, Seed: 3}, 100*time.Millisecond)
	cfg.Stop = sweep.EarlyStop{}
	r := sweep.NewResult(sweep.Meta{Simulated: true}, plan([]int{1, 2, 4, 8, 16, 32, 64, 128}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	grid := len(r.Steps)
	slo := littleslaw.SLO{Stat: "mean", LimitNs: 2.5e6}
	var seen []sweep.Step
	cfg.OnStep = func(_ *sweep.Result, s sweep.Step) error { seen = append(seen, s); return nil }
	rf := sweep.Refine{Knee: true, TargetIOPS: 15000, SLO: &slo}
	if err := sweep.RunRefine(context.Background(), cfg, r, rf); err != nil {
		t.Fatal(err)
	}
	refined := r.Steps[grid:]
	if len(refined) < 6 || len(refined) > 3*sweep.DefaultRefineSteps || len(seen) != len(refined) {
		t.Fatalf("%d refined steps (%d reported), want 6..9", len(refined), len(seen))
	}
	brackets := map[string][2]int{sweep.RefineKnee: {16, 32}, sweep.RefineTarget: {8, 16}, sweep.RefineSLO: {32, 64}}
	qds := map[int]bool{}
	for _, s := range r.Steps[:grid] {
		qds[s.QD] = true
	}
	for _, s := range refined {
		b, ok := brackets[s.Refined]
		if !ok || s.QD <= b[0] || s.QD >= b[1] || s.Failed != "" || s.IOPS <= 0 {
			t.Errorf("refined step %s QD %d (%d×%d), want inside %v", s.Refined, s.QD, s.IODepth, s.NumJobs, b)
		}
		if qds[s.QD] {
			t.Errorf("QD %d measured twice", s.QD)
		}
		qds[s.QD] = true
	}
	// The measured depths now bracket each boundary within a few I/Os.
	var all []int
	for q := range qds {
		all = append(all, q)
	}
	sort.Ints(all)
	near := func(x float64) (lo, hi int) {
		for _, q := range all {
			if float64(q) <= x {
				lo = q
			} else if hi == 0 {
				hi = q
			}
		}
		return lo, hi
	}
	for name, x := range map[string]float64{"target": 15, "slo": 50, "knee": 19} {
		lo, hi := near(x)
		if hi == 0 || float64(hi)/float64(lo) > 1.3 {
			t.Errorf("%s at ≈ %g: measured neighbours %d and %d, want within 30%%", name, x, lo, hi)
		}
	}
	if err := r.Analyze(littleslaw.Options{TargetIOPS: 15000, SLO: &slo}); err != nil {
		t.Fatal(err)
	}
	a := r.Analysis[0].Analysis
	if a.SLO == nil || !a.SLO.Met || a.SLO.QD < 40 || a.SLO.QD >= 64 {
		t.Errorf("SLO answer %+v, want a refined depth between 40 and 64", a.SLO)
	}
	if tr := a.Target; tr == nil || !tr.Reachable || math.Abs(tr.QD-15) > 2 {
		t.Errorf("target answer %+v, want ≈ 15", a.Target)
	}
}

func TestRefineNothingToBisect(t *testing.T) {
	// A curve that never saturates and never reaches the target: no knee,
	// no target bracket; the pass adds nothing.
	cfg := simConfig(ioengine.SimConfig{Latency: time.Millisecond}, 60*time.Millisecond)
	r := sweep.NewResult(sweep.Meta{Simulated: true}, plan([]int{1, 2, 4}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	n := len(r.Steps)
	if err := sweep.RunRefine(context.Background(), cfg, r, sweep.Refine{Knee: true, TargetIOPS: 1e6}); err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != n {
		t.Errorf("refine added %d steps to an unsaturated curve below its target", len(r.Steps)-n)
	}
}

// A real short sweep (io_uring or its libaio fallback on a temp file) and a
// refine pass for a target between its first and last step's IOPS: the
// refined steps are measured at depths strictly between two grid steps.
func TestRefineRealEngine(t *testing.T) {
	eng, path := scratchEngine(t)
	cfg := sweep.Config{
		Engine:   eng,
		Workload: ioengine.Workload{Filename: path, Size: scratchSize, Direct: true, RandSeed: 1},
		Ramp:     20 * time.Millisecond,
		Runtime:  150 * time.Millisecond,
	}
	r := sweep.NewResult(sweep.Meta{Engine: eng.Name()}, plan([]int{1, 16}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	lo, hi := r.Steps[0].IOPS, r.Steps[1].IOPS
	if !(hi > lo*1.2) {
		t.Skipf("QD 16 gave %.0f IOPS against %.0f at QD 1: no rise to refine on this machine now", hi, lo)
	}
	if err := sweep.RunRefine(context.Background(), cfg, r, sweep.Refine{TargetIOPS: (lo + hi) / 2, Steps: 2}); err != nil {
		t.Fatal(err)
	}
	refined := r.Steps[2:]
	if len(refined) == 0 {
		t.Fatal("no refined step")
	}
	for _, s := range refined {
		t.Logf("refined QD %d: %.0f IOPS at %.0f µs, in flight %.2f", s.QD, s.IOPS, s.Lat.MeanNs/1e3, s.InflightMean)
		if s.Refined != sweep.RefineTarget || s.QD <= 1 || s.QD >= 16 || s.Failed != "" || s.IOPS <= 0 {
			t.Errorf("refined step QD %d (%s) failed %q IOPS %.0f", s.QD, s.Refined, s.Failed, s.IOPS)
		}
		if s.InflightMean <= 0 {
			t.Errorf("QD %d: in flight %.2f", s.QD, s.InflightMean)
		}
	}
}
