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

// exampleSteps is the advisor's known curve (saturation 32, efficient 8) as
// steps of rw/bs, with iodepth × numjobs splits.
func exampleSteps(rw string, bs int64) []sweep.Step {
	qd := []int{1, 2, 4, 8, 16, 32, 64}
	iops := []float64{20e3, 38e3, 70e3, 110e3, 140e3, 150e3, 151e3}
	latUs := []float64{50, 53, 57, 73, 114, 213, 424}
	var out []sweep.Step
	for i := range qd {
		s := sweep.Step{RW: rw, BS: bs, IODepth: qd[i], NumJobs: 1, QD: qd[i], IOPS: iops[i],
			BWBytes: iops[i] * float64(bs), InflightMean: float64(qd[i])}
		s.Lat.MeanNs = latUs[i] * 1e3
		s.Lat.P99Ns = int64(3 * latUs[i] * 1e3)
		out = append(out, s)
	}
	return out
}

func TestCurvesGroupInPlanOrder(t *testing.T) {
	r := &sweep.Result{Plan: sweep.Plan{RW: []string{"randread", "randwrite"}, BS: []int64{4096, 16384}}}
	// Steps arrive interleaved and out of plan order.
	w16 := exampleSteps("randwrite", 16384)
	r4 := exampleSteps("randread", 4096)
	r16 := exampleSteps("randread", 16384)
	for i := range w16 {
		r.Steps = append(r.Steps, w16[i], r4[i], r16[i])
	}
	r.Steps = append(r.Steps, sweep.Step{RW: "read", BS: 1 << 20, QD: 1, IODepth: 1, NumJobs: 1, Skipped: "not in plan"})
	cs := r.Curves()
	want := []struct {
		rw string
		bs int64
		n  int
	}{{"randread", 4096, 7}, {"randread", 16384, 7}, {"randwrite", 16384, 7}, {"read", 1 << 20, 1}}
	if len(cs) != len(want) {
		t.Fatalf("%d curves, want %d", len(cs), len(want))
	}
	for i, w := range want {
		if cs[i].RW != w.rw || cs[i].BS != w.bs || len(cs[i].Steps) != w.n {
			t.Errorf("curve %d = %s/%d with %d steps, want %s/%d with %d", i, cs[i].RW, cs[i].BS, len(cs[i].Steps), w.rw, w.bs, w.n)
		}
	}
	for i := 1; i < len(cs[0].Steps); i++ {
		if cs[0].Steps[i].QD < cs[0].Steps[i-1].QD {
			t.Errorf("steps reordered: %v", cs[0].Steps)
		}
	}
}

func TestCurvePointsSkipFailedAndSkipped(t *testing.T) {
	steps := exampleSteps("randread", 4096)
	steps[2].Failed = "EIO"
	steps[3].Skipped = "early stop"
	c := sweep.Curve{RW: "randread", BS: 4096, Steps: steps}
	pts := c.Points()
	if len(pts) != 5 {
		t.Fatalf("%d points, want 5", len(pts))
	}
	p := pts[0]
	want := littleslaw.Point{QD: 1, IODepth: 1, NumJobs: 1, IOPS: 20e3, BWBytes: 20e3 * 4096, LatMeanNs: 50e3, P99Ns: 150e3, InflightMean: 1}
	if p != want {
		t.Errorf("point %+v, want %+v", p, want)
	}
	for _, p := range pts {
		if p.QD == 4 || p.QD == 8 {
			t.Errorf("failed or skipped QD %g kept", p.QD)
		}
	}
}

func TestResultAnalyze(t *testing.T) {
	r := &sweep.Result{Meta: sweep.Meta{CPUs: 2}, Plan: sweep.Plan{RW: []string{"randread", "randwrite"}, BS: []int64{4096}}}
	r.Steps = append(r.Steps, exampleSteps("randread", 4096)...)
	r.Steps = append(r.Steps, exampleSteps("randwrite", 4096)[:1]...) // one point only
	if err := r.Analyze(littleslaw.Options{TargetIOPS: 100000, For: "workers"}); err != nil {
		t.Fatal(err)
	}
	if len(r.Analysis) != 2 {
		t.Fatalf("%d analyses, want 2", len(r.Analysis))
	}
	a := r.Analysis[0]
	if a.RW != "randread" || a.BS != 4096 {
		t.Errorf("first analysis %s/%d", a.RW, a.BS)
	}
	if a.Analysis.Saturation.QD != 32 || a.Analysis.Efficient.QD != 8 || a.Analysis.Target == nil || a.Analysis.Target.QD != 7 {
		t.Errorf("randread: saturation %g, efficient %g, target %+v; want 32, 8, QD 7",
			a.Analysis.Saturation.QD, a.Analysis.Efficient.QD, a.Analysis.Target)
	}
	if got := a.Analysis.Settings[1].Value; got != "36" { // CPUs from Meta: 2 × 2 + 32
		t.Errorf("pool size %s, want 36 (CPUs taken from the result)", got)
	}
	w := r.Analysis[1].Analysis
	if len(w.Points) != 1 || len(w.Notices) == 0 || w.Notices[0].Kind != littleslaw.NoticeOnePoint {
		t.Errorf("one-point curve: %d points, notices %+v", len(w.Points), w.Notices)
	}
	if err := r.Analyze(littleslaw.Options{For: "oracle"}); err == nil {
		t.Error("bad options: no error")
	}
}

func TestAnalyzeSimulatedSweep(t *testing.T) {
	// A device of 1 ms per I/O capped at 20,000 IOPS: the bound model with
	// N* = 20. Its sweep saturates at QD 32 (within 5% of the cap, and QD 64
	// adds nothing while latency doubles).
	cfg := simConfig(ioengine.SimConfig{Latency: time.Millisecond, Jitter: 0.02, IOPS: 20000}, 150*time.Millisecond)
	r := sweep.NewResult(sweep.Meta{Simulated: true, CPUs: 2}, plan([]int{1, 2, 4, 8, 16, 32, 64}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if err := r.Analyze(littleslaw.Options{TargetIOPS: 10000}); err != nil {
		t.Fatal(err)
	}
	if len(r.Analysis) != 1 {
		t.Fatalf("%d analyses, want 1", len(r.Analysis))
	}
	a := r.Analysis[0].Analysis
	if !a.Saturation.Found || a.Saturation.QD != 32 {
		t.Errorf("saturation %+v, want QD 32", a.Saturation)
	}
	b, ok := a.Fits[0], a.Fits[0].Name == littleslaw.ModelBound
	if !ok || math.Abs(b.Params["xmax"]-20000)/20000 > 0.05 || math.Abs(b.Params["r0_ns"]-1e6)/1e6 > 0.1 {
		t.Errorf("bound fit %+v, want xmax ≈ 20000, r0 ≈ 1 ms", b)
	}
	// 10,000 IOPS at ≈ 1 ms needs ≈ 10 in flight.
	if a.Target == nil || !a.Target.Reachable || a.Target.QD < 9 || a.Target.QD > 12 {
		t.Errorf("target %+v, want QD ≈ 10", a.Target)
	}
	for _, c := range a.Checks {
		if c.Flagged {
			t.Errorf("check flagged on a full queue: %+v", c)
		}
	}
}

// TestStepMeasured pins the one rule for which steps count.
func TestStepMeasured(t *testing.T) {
	ok := sweep.Step{IOPS: 1000, Lat: ioengine.Latency{MeanNs: 1e6}}
	tests := []struct {
		name string
		s    sweep.Step
		want bool
	}{
		{"measured", ok, true},
		{"skipped", func() sweep.Step { s := ok; s.Skipped = "early stop"; return s }(), false},
		{"failed", func() sweep.Step { s := ok; s.Failed = "EIO"; return s }(), false},
		{"no I/O", func() sweep.Step { s := ok; s.IOPS = 0; return s }(), false},
		{"no latency", func() sweep.Step { s := ok; s.Lat.MeanNs = 0; return s }(), false},
	}
	for _, tt := range tests {
		if got := tt.s.Measured(); got != tt.want {
			t.Errorf("%s: Measured() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
