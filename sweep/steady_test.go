package sweep_test

import (
	"math"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

func TestLeastSquaresSlope(t *testing.T) {
	slope, mean := sweep.LeastSquaresSlope([]float64{0, 1, 2, 3}, []float64{1, 3, 5, 7})
	if slope != 2 || mean != 4 {
		t.Errorf("slope %v mean %v, want 2 and 4", slope, mean)
	}
	if s, m := sweep.LeastSquaresSlope([]float64{1, 1}, []float64{2, 4}); s != 0 || m != 3 {
		t.Errorf("degenerate x: %v %v", s, m)
	}
}

// feed turns per-interval IOPS into cumulative samples for the detector and
// returns the 1-based sample index at which steady state was first reached (0: never).
func feed(d *sweep.SteadyDetector, interval time.Duration, iops []float64) int {
	var s ioengine.Sample
	for i, v := range iops {
		s.Elapsed += interval
		s.IOs += int64(math.Round(v * interval.Seconds()))
		if d.Add(s) {
			return i + 1
		}
	}
	return 0
}

func TestSteadyDetector(t *testing.T) {
	cfg := sweep.SteadyConfig{Interval: 250 * time.Millisecond, Window: time.Second, Limit: 0.02}
	flat := []float64{10000, 10100, 9900, 10000, 10050, 9950, 10000, 10000}
	ramp := []float64{1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000}
	// slope of 1 %/s: 10000, 10025, … — steady; 5 %/s is not.
	slow, fast := make([]float64, 8), make([]float64, 8)
	for i := range slow {
		slow[i] = 10000 * (1 + 0.01*0.25*float64(i))
		fast[i] = 10000 * (1 + 0.05*0.25*float64(i))
	}
	tests := []struct {
		name string
		cfg  sweep.SteadyConfig
		iops []float64
		want int
	}{
		{"flat: steady once the window is full", cfg, flat, 4},
		{"ramping never steady", cfg, ramp, 0},
		{"1%/s drift is steady", cfg, slow, 4},
		{"5%/s drift is not", cfg, fast, 0},
		{"disabled", sweep.SteadyConfig{Interval: cfg.Interval, Window: cfg.Window}, flat, 0},
		{"zero IOPS never steady", cfg, make([]float64, 8), 0},
		{"8-slot window", sweep.SteadyConfig{Interval: 250 * time.Millisecond, Window: 2 * time.Second, Limit: 0.02}, flat, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := sweep.NewSteadyDetector(tc.cfg)
			if got := feed(d, tc.cfg.Interval, tc.iops); got != tc.want {
				slope, mean := d.Fit()
				t.Errorf("steady at sample %d, want %d (slope %.1f/s mean %.1f)", got, tc.want, slope, mean)
			}
		})
	}
}

// TestSteadyDetectorWhy checks the reason a step is not steady: too few
// samples for the window, IOPS still drifting, or detection off; and the
// window's spread (CV) and drift figures.
func TestSteadyDetectorWhy(t *testing.T) {
	cfg := sweep.SteadyConfig{Interval: 250 * time.Millisecond, Window: 2 * time.Second, Limit: 0.02}
	fast := make([]float64, 12)
	for i := range fast {
		fast[i] = 10000 * (1 + 0.05*0.25*float64(i))
	}
	tests := []struct {
		name      string
		cfg       sweep.SteadyConfig
		iops      []float64
		want      string
		wantDrift float64 // ±0.005
	}{
		{"runtime under the window", cfg, []float64{10000, 10100, 9900}, sweep.NotSteadyShort, 0},
		{"still drifting", cfg, fast, sweep.NotSteadyDrift, 0.05 / 1.09},
		{"steady", cfg, []float64{10000, 10100, 9900, 10000, 10050, 9950, 10000, 10000}, "", 0.003},
		{"off", sweep.SteadyConfig{Interval: cfg.Interval, Window: cfg.Window}, fast, sweep.NotSteadyOff, 0.05 / 1.09},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := sweep.NewSteadyDetector(tc.cfg)
			feed(d, tc.cfg.Interval, tc.iops)
			if got := d.Why(); got != tc.want {
				t.Errorf("Why() = %q, want %q", got, tc.want)
			}
			if math.Abs(d.Drift()-tc.wantDrift) > 0.005 {
				t.Errorf("Drift() = %.4f, want %.4f", d.Drift(), tc.wantDrift)
			}
		})
	}
	// CV of 10000 ± 100 alternating over the 8-slot window: 100/10000 × √(8/7).
	d := sweep.NewSteadyDetector(cfg)
	feed(d, cfg.Interval, []float64{9900, 10100, 9900, 10100, 9900, 10100, 9900, 10100})
	if want := 0.01 * math.Sqrt(8.0/7); math.Abs(d.CV()-want) > 1e-3 {
		t.Errorf("CV() = %.5f, want %.5f", d.CV(), want)
	}
}

// TestSteadyMeanKnown: from MinWindow on, a step whose mean is known to
// ±Precision and that shows no drift is steady before the slope window
// fills; a drifting step or a noisy one is not.
func TestSteadyMeanKnown(t *testing.T) {
	cfg := sweep.SteadyConfig{Interval: 250 * time.Millisecond, Window: 2 * time.Second, Limit: 0.02, Precision: 0.02, MinWindow: time.Second}
	feed := func(iops func(k int) float64) (int, *sweep.SteadyDetector) {
		d := sweep.NewSteadyDetector(cfg)
		var s ioengine.Sample
		for k := 1; k <= 12; k++ {
			s.Elapsed += cfg.Interval
			s.IOs += int64(iops(k) * cfg.Interval.Seconds())
			if d.Add(s) {
				return k, d
			}
		}
		return 0, d
	}
	// ±1% alternating: the mean is known at the first judged sample (1 s).
	if k, d := feed(func(k int) float64 { return 10000 * (1 + 0.01*float64(k%2*2-1)) }); k != 4 || d.Why() != "" {
		t.Errorf("quiet step steady at sample %d (want 4, at 1 s)", k)
	}
	// Rising 10% a second: never steady by the mean, nor by the slope.
	if k, d := feed(func(k int) float64 { return 10000 * (1 + 0.1*float64(k)/4) }); k != 0 || d.Why() != sweep.NotSteadyDrift {
		t.Errorf("drifting step steady at sample %d (%s)", k, d.Why())
	}
	// ±30% noise: the mean is not known to ±2% within 3 s.
	if k, _ := feed(func(k int) float64 { return 10000 * (1 + 0.3*float64(k%2*2-1)) }); k != 0 && k < 12 {
		t.Errorf("noisy step steady at sample %d", k)
	}
	// Precision 0: only the slope rule, at the full 2 s window.
	cfg.Precision = 0
	if k, _ := feed(func(k int) float64 { return 10000 }); k != 8 {
		t.Errorf("slope rule alone: steady at sample %d, want 8 (2 s)", k)
	}
}

// TestSteadyRising: a step whose gain over the step before is settled
// wholly above the knee's 5 % ends from MinRising on (its third sample
// here); one whose gain is near 5 % waits for MinWindow at the least, and
// with MinRising 0 so does the rising one. A pair settled flat waits for
// MinFlat.
func TestSteadyRising(t *testing.T) {
	cfg := sweep.SteadyConfig{Interval: 100 * time.Millisecond, Window: 2 * time.Second, Limit: 0.02, Precision: 0.02,
		MinWindow: 500 * time.Millisecond, MinRising: 300 * time.Millisecond}
	prev := &littleslaw.StepEstimate{QD: 4, IOPS: 10000, IOPSErr: 0.005, LatNs: 400e3, LatErr: 0.005, N: 5}
	feed := func(cfg sweep.SteadyConfig, mean float64) (int, littleslaw.Settle) {
		d := sweep.NewSteadyDetector(cfg)
		d.Against(8, prev)
		var s ioengine.Sample
		for k := 1; k <= 30; k++ {
			s.Elapsed += cfg.Interval
			s.IOs += int64(mean * (1 + 0.003*float64(k%2*2-1)) * cfg.Interval.Seconds())
			s.LatSumNs = s.IOs * int64(8/mean*1e9)
			if d.Add(s) {
				st, _ := d.Settle()
				return k, st
			}
		}
		return 0, littleslaw.Settle{}
	}
	if k, st := feed(cfg, 16000); k != 3 || !st.Rising || st.By != littleslaw.SettledByDecision {
		t.Errorf("a 60%% gain: steady at sample %d, settle %+v (want sample 3, rising)", k, st)
	}
	if k, st := feed(cfg, 10400); k < 5 || st.Rising {
		t.Errorf("a 4%% gain: steady at sample %d, settle %+v (want sample 5 or later, not rising)", k, st)
	}
	// A pair settled flat (no gain, latency doubled: Little's Law at QD 8
	// against 4), a step on the curve's top: from MinFlat on, else as a
	// rising one.
	cfg.MinFlat = time.Second
	if k, st := feed(cfg, 10000); k != 10 || !st.Flat {
		t.Errorf("a flat pair with MinFlat 1 s: steady at sample %d, settle %+v (want sample 10, flat)", k, st)
	}
	cfg.MinFlat = 0
	if k, st := feed(cfg, 10000); k != 3 || !st.Flat {
		t.Errorf("a flat pair without MinFlat: steady at sample %d, settle %+v (want sample 3, flat)", k, st)
	}
	cfg.MinRising = 0
	if k, _ := feed(cfg, 16000); k != 5 {
		t.Errorf("a 60%% gain without MinRising: steady at sample %d, want 5", k)
	}
	if k, _ := feed(cfg, 10000); k != 5 {
		t.Errorf("a flat pair without MinRising or MinFlat: steady at sample %d, want 5", k)
	}
}
