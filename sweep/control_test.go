package sweep_test

import (
	"context"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestControlFindsCreditsSpentBetweenSteps: a volume whose burst credits
// run out between two steps (2 ms, 6,000 IOPS on credits, 1,500
// sustained, the bucket kept from step to step) reads high early and
// flat at 1,500 after. The control step, the best step measured again at
// the end, gives 1,500: the result says the device did not hold still, the
// steps above what lasted leave the analysis, the diagnosis names the
// change instead of "healthy", and 1,800 IOPS is not reachable.
//
// The bucket refills at 1,500 a second of wall time, so on a busy machine
// a pause before the control step could fill it again: the credits are
// spent here before the control step (it runs on the sustained level
// alone), which is what the test is about, whatever the machine's pauses.
func TestControlFindsCreditsSpentBetweenSteps(t *testing.T) {
	sim := ioengine.SimConfig{Latency: 2 * time.Millisecond, IOPS: 1500, BurstIOPS: 6000, BurstCredits: 3000, BurstCarry: true, Seed: 3}
	cfg := simConfig(sim, 400*time.Millisecond)
	r := sweep.NewResult(sweep.Meta{Simulated: true}, plan([]int{1, 2, 4, 8, 16, 32, 64}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	spent := sim
	spent.BurstIOPS, spent.BurstCredits, spent.BurstCarry = 0, 0, false // the credits are gone
	cfg.Engine = ioengine.NewSim(spent)
	if err := sweep.RunControl(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	c := r.Control
	if c == nil || c.Change != sweep.ControlFell || c.IOPS > 1500*1.1 || c.WasIOPS < 2500 {
		t.Fatalf("control %+v, want it fallen to about 1,500 from the burst level", c)
	}
	if err := r.Analyze(littleslaw.Options{TargetIOPS: 1800}); err != nil {
		t.Fatal(err)
	}
	a := r.Analysis[0].Analysis
	if a.MaxIOPS > 1500*(1+diagnosis.PlateauBand)*1.05 {
		t.Errorf("analysis max %.0f IOPS: the steps above the sustained 1,500 should be left out", a.MaxIOPS)
	}
	if a.Target == nil || a.Target.Reachable {
		t.Errorf("1,800 IOPS on a volume that sustains 1,500: %+v, want not reachable", a.Target)
	}
	// Steps within the plateau band above what lasted stay in the curve;
	// a target among them is above what the volume sustains all the same.
	if a.SustainedIOPS != c.IOPS {
		t.Errorf("analysis sustained level %.0f, want the control step's %.0f", a.SustainedIOPS, c.IOPS)
	}
	if tg := a.TargetFor(c.IOPS*1.04, littleslaw.Options{}); tg.Reachable || tg.ReachableIOPS > c.IOPS*(1+1e-9) {
		t.Errorf("%.0f IOPS, 4%% above the %.0f sustained: %+v, want not reachable at the sustained level", c.IOPS*1.04, c.IOPS, tg)
	}
	var found bool
	for _, f := range r.Diagnose(littleslaw.Options{}) {
		if f.Rule == diagnosis.RuleHealthy {
			t.Errorf("diagnosis says healthy beside a level that did not last: %+v", f)
		}
		found = found || f.Rule == diagnosis.RuleNotStationary && f.Reason == diagnosis.ReasonControlFell
	}
	if !found {
		t.Error("no not-stationary finding")
	}
	checkLeftOutNamed(t, r)
}

// TestControlHeldOnASteadyDevice: on a device whose level does not change,
// the control step agrees with its first measurement and nothing is left
// out.
func TestControlHeldOnASteadyDevice(t *testing.T) {
	cfg := simConfig(ioengine.SimConfig{Latency: time.Millisecond, Jitter: 0.05, IOPS: 20000, Seed: 4}, 300*time.Millisecond)
	r := sweep.NewResult(sweep.Meta{Simulated: true}, plan([]int{1, 4, 16, 64}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if err := sweep.RunControl(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if c := r.Control; c == nil || c.Change != "" {
		t.Fatalf("control %+v, want it held", c)
	}
	if err := r.Analyze(littleslaw.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Steps {
		if s.Time != nil && s.Time.AboveControl {
			t.Errorf("QD %d left out on a steady device", s.QD)
		}
	}
}

// TestRampFindsCreditsSpentInARamp: burst credits that run out during a
// step's ramp (2 ms, 6,000 IOPS on credits, 1,500 sustained; the bucket of
// 3,300 I/Os lasts into QD 16's ramp) leave no trace in any window: QD 8
// measures 4,000, QD 16 1,500 with latency ∝ QD, which alone reads as a
// cap. The ramp's slices show the fall: the result says where, leaves the
// steps above what lasted out, and 1,800 IOPS is not reachable.
func TestRampFindsCreditsSpentInARamp(t *testing.T) {
	sim := ioengine.SimConfig{Latency: 2 * time.Millisecond, IOPS: 1500, BurstIOPS: 6000, BurstCredits: 3300, BurstCarry: true, Seed: 3}
	cfg := sweep.Config{Engine: ioengine.NewSim(sim), Workload: ioengine.Workload{RandSeed: 1},
		Ramp: 400 * time.Millisecond, Runtime: 400 * time.Millisecond}
	r := sweep.NewResult(sweep.Meta{Simulated: true}, plan([]int{1, 2, 4, 8, 16, 32}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	falls := r.RampFalls()
	if len(falls) != 1 || falls[0].QD != 16 || falls[0].PeakIOPS < 4000 || falls[0].IOPS > 1500*1.1 || falls[0].FellSec >= 0 {
		t.Fatalf("ramp falls %+v; want QD 16's ramp, from the burst level to about 1,500 before its window", falls)
	}
	if err := r.Analyze(littleslaw.Options{TargetIOPS: 1800}); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Steps {
		left := s.Time != nil && s.Time.AboveControl
		if want := s.QD == 4 || s.QD == 8; left != want {
			t.Errorf("QD %d (%.0f IOPS): left out %v, want %v", s.QD, s.IOPS, left, want)
		}
	}
	if a := r.Analysis[0].Analysis; a.Target == nil || a.Target.Reachable {
		t.Errorf("1,800 IOPS on a volume that sustains 1,500: %+v, want not reachable", a.Target)
	}
	var found bool
	for _, f := range r.Diagnose(littleslaw.Options{}) {
		if f.Rule == diagnosis.RuleHealthy {
			t.Errorf("diagnosis says healthy beside a level that did not last: %+v", f)
		}
		found = found || f.Rule == diagnosis.RuleNotStationary && f.Reason == diagnosis.ReasonRampFell && f.Figures.QD == 16
	}
	if !found {
		t.Error("no not-stationary finding for QD 16's ramp")
	}
	checkLeftOutNamed(t, r)

	// A control step that fell to a level above the ramp's (here 3,000,
	// between QD 4's 2,000 and QD 8's 4,000) speaks for the curve: only
	// the steps above its level are left out and named, never QD 4
	// "above the 3,000 that lasted".
	best := r.Steps[0]
	for _, s := range r.Steps {
		if s.IOPS > best.IOPS {
			best = s
		}
	}
	ctl := best
	ctl.IOPS = 3000
	r.Control = &sweep.ControlStep{Step: ctl, WasIOPS: best.IOPS, WasLatNs: best.Lat.MeanNs, Band: 0.05, Change: sweep.ControlFell}
	if err := r.Analyze(littleslaw.Options{}); err != nil {
		t.Fatal(err)
	}
	checkLeftOutNamed(t, r)
	for _, s := range r.Steps {
		if left := s.Time != nil && s.Time.AboveControl; left != (s.IOPS > 3000*(1+diagnosis.PlateauBand)) {
			t.Errorf("QD %d (%.0f IOPS) beside a control that fell to 3,000: left out %v", s.QD, s.IOPS, left)
		}
	}
}

// checkLeftOutNamed holds what a reader checks in a not-stationary
// finding: every step it names as above the level that lasted ran above
// the level it quotes (by more than the plateau band), and every step left
// out of the analysis is named by a finding.
func checkLeftOutNamed(t *testing.T, r *sweep.Result) {
	t.Helper()
	named := map[int]bool{}
	for _, f := range r.Diagnose(littleslaw.Options{}) {
		if f.Reason == diagnosis.ReasonRising {
			// "extend the sweep past QD n" never where deeper steps ran
			for _, s := range r.Steps {
				if s.RW == f.RW && s.BS == f.BS && float64(s.QD) > f.Figures.QD && s.Time != nil && s.Time.AboveControl {
					t.Errorf("rising past QD %g, told to extend the sweep, beside QD %d measured and left out", f.Figures.QD, s.QD)
				}
			}
		}
		for _, x := range f.Facts {
			if x.Kind != diagnosis.FactAboveControl {
				continue
			}
			named[int(x.QD)] = true
			if x.IOPS <= x.ToIOPS*(1+diagnosis.PlateauBand) {
				t.Errorf("QD %g ran at %.0f IOPS, named above the %.0f IOPS that lasted", x.QD, x.IOPS, x.ToIOPS)
			}
		}
	}
	for _, s := range r.Steps {
		if s.Time != nil && s.Time.AboveControl && !named[s.QD] {
			t.Errorf("QD %d (%.0f IOPS) left out of the analysis, named by no finding", s.QD, s.IOPS)
		}
	}
}

// TestLeftOutStepsAreNotASweepTooShallow: a curve rising through QD 4 at
// its base latency, whose QD 8-32 ran on a level that did not last (the
// control step fell to 45k), is not told to extend the sweep past QD 4:
// it ran those depths. The fall speaks for the curve and names them.
func TestLeftOutStepsAreNotASweepTooShallow(t *testing.T) {
	r := sweep.NewResult(sweep.Meta{Simulated: true}, plan([]int{1, 2, 4, 8, 16, 32}, true))
	for _, p := range []struct {
		qd   int
		iops float64
	}{{1, 10000}, {2, 20000}, {4, 40000}, {8, 80000}, {16, 100000}, {32, 100000}} {
		s := sweep.Step{RW: "randread", BS: 4096, IODepth: p.qd, NumJobs: 1, QD: p.qd, IOPS: p.iops, BWBytes: p.iops * 4096, InflightMean: float64(p.qd)}
		s.Lat.MeanNs = float64(p.qd) / p.iops * 1e9
		r.Steps = append(r.Steps, s)
	}
	ctl := r.Steps[4]
	ctl.IOPS, ctl.Lat.MeanNs = 45000, 16/45000.0*1e9
	r.Control = &sweep.ControlStep{Step: ctl, WasIOPS: 100000, WasLatNs: 160000, Band: 0.05, Change: sweep.ControlFell}
	if err := r.Analyze(littleslaw.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Steps {
		if left := s.Time != nil && s.Time.AboveControl; left != (s.QD >= 8) {
			t.Errorf("QD %d: left out %v", s.QD, left)
		}
	}
	checkLeftOutNamed(t, r)
}
