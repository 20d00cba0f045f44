package sweep_test

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

func simConfig(sim ioengine.SimConfig, runtime time.Duration) sweep.Config {
	return sweep.Config{
		Engine:   ioengine.NewSim(sim),
		Workload: ioengine.Workload{RandSeed: 1},
		Ramp:     20 * time.Millisecond,
		Runtime:  runtime,
		Steady:   sweep.SteadyConfig{Interval: 50 * time.Millisecond, Window: 200 * time.Millisecond},
		Stop:     sweep.DefaultEarlyStop,
	}
}

func plan(iodepth []int, full bool) sweep.Plan {
	return sweep.NewPlan([]ioengine.RW{ioengine.RandRead}, []int64{4096}, iodepth, []int{1}, full)
}

func TestRunSaturatesAtCap(t *testing.T) {
	cfg := simConfig(ioengine.SimConfig{Latency: time.Millisecond, Jitter: 0.05, IOPS: 20000}, 150*time.Millisecond)
	r := sweep.NewResult(sweep.Meta{Simulated: true}, plan([]int{1, 4, 16, 64}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 4 || r.Interrupted {
		t.Fatalf("steps %d interrupted %v", len(r.Steps), r.Interrupted)
	}
	want := []float64{1000, 4000, 16000, 20000} // min(QD / 1 ms, cap)
	for i, s := range r.Steps {
		if math.Abs(s.IOPS-want[i])/want[i] > 0.05 {
			t.Errorf("QD %d: %.0f IOPS, want %.0f", s.QD, s.IOPS, want[i])
		}
		if math.Abs(s.LittleError) > 0.05 {
			t.Errorf("QD %d: little_error %.3f", s.QD, s.LittleError)
		}
		if s.QD != s.IODepth*s.NumJobs || s.RuntimeNs != int64(150*time.Millisecond) || s.Skipped != "" || s.Failed != "" {
			t.Errorf("step %+v", s)
		}
	}
	// At the cap, Little's Law puts the mean latency at QD / cap = 3.2 ms.
	if lat := r.Steps[3].Lat.MeanNs; math.Abs(lat-3.2e6)/3.2e6 > 0.05 {
		t.Errorf("QD 64 mean latency %.0f ns, want ≈ 3.2 ms", lat)
	}
}

func TestRunEarlyStop(t *testing.T) {
	cfg := simConfig(ioengine.SimConfig{Latency: time.Millisecond, IOPS: 4000}, 100*time.Millisecond)
	r := sweep.NewResult(sweep.Meta{}, plan([]int{1, 2, 4, 8, 16, 32, 64}, false))
	var calls int
	cfg.OnStep = func(*sweep.Result, sweep.Step) error { calls++; return nil }
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 7 || calls != 6 { // QD 32 and 64 are skipped in one batch
		t.Fatalf("%d steps, %d OnStep calls", len(r.Steps), calls)
	}
	for _, s := range r.Steps {
		skip := s.QD >= 32 // QD 8 and 16 are the two flat steps past the 4k cap
		if (s.Skipped != "") != skip {
			t.Errorf("QD %d skipped=%q, want skipped %v", s.QD, s.Skipped, skip)
		}
		if skip && (s.IOPS != 0 || s.RuntimeNs != 0) {
			t.Errorf("skipped QD %d has measurements", s.QD)
		}
	}
}

func TestRunMaxLatencyStops(t *testing.T) {
	cfg := simConfig(ioengine.SimConfig{Latency: 10 * time.Millisecond}, 100*time.Millisecond)
	cfg.Stop = sweep.EarlyStop{MaxP99: 5 * time.Millisecond}
	r := sweep.NewResult(sweep.Meta{}, plan([]int{1, 2}, false))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if r.Steps[0].Skipped != "" || r.Steps[1].Skipped == "" {
		t.Errorf("steps %+v", r.Steps)
	}
}

func TestRunSteadyEndsStepsEarly(t *testing.T) {
	cfg := simConfig(ioengine.SimConfig{Latency: 200 * time.Microsecond}, 3*time.Second)
	cfg.Steady.Limit = 0.05
	r := sweep.NewResult(sweep.Meta{}, plan([]int{2, 8}, false))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Steps {
		if !s.Steady || s.RuntimeNs >= int64(time.Second) {
			t.Errorf("QD %d: steady %v after %v", s.QD, s.Steady, time.Duration(s.RuntimeNs))
		}
	}
}

// countingProbe records the telemetry calls the controller makes.
type countingProbe struct{ starts, ends, collects int }

func (p *countingProbe) WindowStart() { p.starts++ }
func (p *countingProbe) WindowEnd()   { p.ends++ }
func (p *countingProbe) Collect() (*sweep.DeviceStats, *sweep.HostCPU) {
	p.collects++
	return &sweep.DeviceStats{AquSz: float64(p.collects)}, &sweep.HostCPU{SelfPct: 1}
}

func TestRunProbeAndLive(t *testing.T) {
	cfg := simConfig(ioengine.SimConfig{Latency: 500 * time.Microsecond}, 120*time.Millisecond)
	p := &countingProbe{}
	cfg.Probe = p
	var lives []sweep.Live
	cfg.OnLive = func(l sweep.Live) { lives = append(lives, l) }
	r := sweep.NewResult(sweep.Meta{}, plan([]int{1, 2}, false))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if p.starts != 2 || p.ends != 2 || p.collects != 2 {
		t.Errorf("probe calls %+v", *p)
	}
	if r.Steps[1].Device == nil || r.Steps[1].Device.AquSz != 2 || r.Steps[1].HostCPU == nil {
		t.Errorf("telemetry not stored: %+v", r.Steps[1])
	}
	if len(lives) < 2 || lives[len(lives)-1].Index != 2 || lives[len(lives)-1].Total != 2 || lives[len(lives)-1].IOPS <= 0 {
		t.Errorf("live %+v", lives)
	}
}

func TestRunInterruptAndResume(t *testing.T) {
	cfg := simConfig(ioengine.SimConfig{Latency: 500 * time.Microsecond}, 100*time.Millisecond)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cfg.OnStep = func(r *sweep.Result, s sweep.Step) error {
		if len(r.Steps) == 2 {
			cancel()
		}
		return sweep.Write(outtest.Open(t, dir), r)
	}
	r := sweep.NewResult(sweep.Meta{}, plan([]int{1, 2, 4, 8}, false))
	err := sweep.Run(ctx, cfg, r)
	if !errors.Is(err, context.Canceled) || !r.Interrupted || len(r.Steps) != 2 {
		t.Fatalf("err %v interrupted %v steps %d", err, r.Interrupted, len(r.Steps))
	}
	if err := sweep.Write(outtest.Open(t, dir), r); err != nil {
		t.Fatal(err)
	}
	back, err := sweep.Read(dir)
	if err != nil || !back.Interrupted || len(back.Steps) != 2 {
		t.Fatalf("read back %v: %+v", err, back)
	}
	cfg.OnStep = nil
	if err := sweep.Run(context.Background(), cfg, back); err != nil {
		t.Fatal(err)
	}
	if back.Interrupted || len(back.Steps) != 4 {
		t.Fatalf("resumed: interrupted %v, %d steps", back.Interrupted, len(back.Steps))
	}
	for i, qd := range []int{1, 2, 4, 8} {
		if back.Steps[i].QD != qd {
			t.Errorf("step %d QD %d, want %d", i, back.Steps[i].QD, qd)
		}
	}
	if _, err := sweep.Read(filepath.Join(dir, sweep.ResultsJSON)); err != nil {
		t.Error(err)
	}
}

func TestRunAllFailed(t *testing.T) {
	cfg := simConfig(ioengine.SimConfig{}, 100*time.Millisecond) // latency 0 is invalid: every step fails
	r := sweep.NewResult(sweep.Meta{}, plan([]int{1, 2}, false))
	err := sweep.Run(context.Background(), cfg, r)
	if !errors.Is(err, sweep.ErrAllFailed) || len(r.Steps) != 2 || r.Steps[0].Failed == "" {
		t.Fatalf("err %v steps %+v", err, r.Steps)
	}
	// A failed step is worded by the caller's ErrorText (its options' names).
	cfg.ErrorText = func(err error) string { return "worded: " + err.Error() }
	r = sweep.NewResult(sweep.Meta{}, plan([]int{1, 2}, false))
	if err := sweep.Run(context.Background(), cfg, r); !errors.Is(err, sweep.ErrAllFailed) || !strings.HasPrefix(r.Steps[0].Failed, "worded: ") {
		t.Fatalf("err %v, first step failed with %q, want it worded by ErrorText", err, r.Steps[0].Failed)
	}
}
