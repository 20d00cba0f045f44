package littleslaw

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestTQuantile(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
	}{{0, 12.706}, {1, 12.706}, {4, 2.776}, {30, 2.042}, {40, 2.021}, {120, 1.980}, {1 << 20, 1.960}} {
		if got := TQuantile(c.df); math.Abs(got-c.want) > 0.002 {
			t.Errorf("TQuantile(%d) = %.4f, want %.3f", c.df, got, c.want)
		}
	}
}

// pairSaturated is the knee's verdict on a pair of neighbouring steps.
func pairSaturated(p, q StepEstimate) bool {
	return q.IOPS < (1+SaturationGain)*p.IOPS && q.LatNs >= LatGrowthNeed(q.QD/p.QD)*p.LatNs
}

// TestSettleDecidedHoldsOverTheInterval: whenever SettleStep calls a
// pair's decision settled, the knee gives the same verdict at every corner
// of the figures' intervals (mean ± T standard errors), and a step settled
// by its decision has its mean known to within Need, never tighter than
// Precision asks.
func TestSettleDecidedHoldsOverTheInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	decided := 0
	for range 20000 {
		p := StepEstimate{QD: 8, IOPS: 10000, LatNs: 800e3, IOPSErr: rng.Float64() * 0.1, LatErr: rng.Float64() * 0.1, N: 5}
		q := StepEstimate{QD: 16, IOPS: p.IOPS * (0.9 + rng.Float64()*0.5), LatNs: p.LatNs * (1 + rng.Float64()*1.5),
			IOPSErr: rng.Float64() * 0.1, LatErr: rng.Float64() * 0.1, N: 3 + rng.IntN(30)}
		s := SettleStep(&p, q, 0.02)
		if s.Settled && s.By == SettledByDecision && s.IOPSErr > s.Need {
			t.Fatalf("settled by decision with error %.3f over need %.3f", s.IOPSErr, s.Need)
		}
		if s.Rising && (!s.Settled || s.Gain-s.T*s.GainErr < SaturationGain) {
			t.Fatalf("rising with gain %.3f ± %.3f × %.3f: %+v", s.Gain, s.T, s.GainErr, s)
		}
		if s.Need < 0.02 {
			t.Fatalf("need %.4f tighter than the precision 0.02", s.Need)
		}
		if !s.Decided {
			continue
		}
		decided++
		want := pairSaturated(p, q)
		gs := (1 + s.Gain) * math.Hypot(p.IOPSErr, q.IOPSErr) * s.T
		ls := s.LatRatioErr * s.T
		for _, dg := range []float64{-1, 1} {
			for _, dl := range []float64{-1, 1} {
				qq := q
				qq.IOPS = p.IOPS * (1 + s.Gain + dg*gs)
				qq.LatNs = p.LatNs * s.LatRatio * math.Exp(dl*ls)
				if pairSaturated(p, qq) != want {
					t.Fatalf("decided pair %+v → %+v flips at gain %+.0fσ, latency %+.0fσ: %+v", p, q, dg, dl, s)
				}
			}
		}
	}
	if decided < 1000 {
		t.Fatalf("only %d of 20000 pairs decided", decided)
	}
}

func TestSettleStepRules(t *testing.T) {
	p := StepEstimate{QD: 1, IOPS: 18000, LatNs: 53e3, IOPSErr: 0.01, LatErr: 0.01, N: 5}
	// QD 1 → 2 gains 70 %: far from 5 %, settled with its mean known to 4 %.
	q := StepEstimate{QD: 2, IOPS: 30600, LatNs: 62e3, IOPSErr: 0.04, LatErr: 0.04, N: 5}
	if s := SettleStep(&p, q, 0.02); !s.Settled || s.By != SettledByDecision || s.Need < 0.04 {
		t.Errorf("a 70%% gain known to 4%%: %+v", s)
	}
	// A 6 % gain known to 4 % at about the latency growth the knee asks
	// decides nothing: only the precision rule can end it.
	q.IOPS, q.LatNs = p.IOPS*1.06, p.LatNs*LatGrowthNeed(2)
	if s := SettleStep(&p, q, 0.02); s.Settled || s.Decided {
		t.Errorf("a 6%% gain known to 4%%: %+v", s)
	}
	q.IOPSErr = 0.015
	if s := SettleStep(&p, q, 0.02); !s.Settled || s.By != SettledByPrecision {
		t.Errorf("a 6%% gain known to 1.5%%: %+v", s)
	}
	// A curve's first step: the precision rule only.
	if s := SettleStep(nil, q, 0.02); !s.Settled || s.By != SettledByPrecision || s.PrevQD != 0 {
		t.Errorf("first step: %+v", s)
	}
	// Fewer than three intervals: nothing is judged.
	q.N = 2
	if s := SettleStep(&p, q, 0.02); s.Settled {
		t.Errorf("two intervals: %+v", s)
	}
}

func TestRampFull(t *testing.T) {
	slice := func(ios int64, latUs float64, inflight int64) RampSlice {
		return RampSlice{IOs: ios, LatSumNs: int64(float64(ios) * latUs * 1e3), Inflight: inflight}
	}
	for _, c := range []struct {
		name       string
		prev, last RampSlice
		qd         int
		want       bool
	}{
		{"full and flat", slice(500, 100, 32), slice(500, 103, 31), 32, true},
		{"latency still climbing", slice(500, 100, 32), slice(500, 120, 32), 32, false},
		{"queue not full", slice(500, 100, 32), slice(500, 100, 20), 32, false},
		{"too few completions", slice(500, 100, 32), slice(40, 100, 32), 32, false},
		{"QD 1 between a reap and its resubmission", slice(64, 50, 0), slice(64, 50, 0), 1, true},
		{"latency falling", slice(600, 300, 256), slice(600, 200, 250), 256, true},
	} {
		if got := RampFull(c.prev, c.last, c.qd); got != c.want {
			t.Errorf("%s: RampFull = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSettleUndecidableProjects: a verdict is undecidable at a cap only
// when, at the cap's intervals and t, with its errors shrunk by √(N/cap),
// neither the pair's decision nor the precision would settle; a flat pair
// settles with its mean held by the gain's interval.
func TestSettleUndecidableProjects(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	undecidable, flat := 0, 0
	for range 20000 {
		p := StepEstimate{QD: 16, IOPS: 50000, LatNs: 320e3, IOPSErr: rng.Float64() * 0.08, LatErr: rng.Float64() * 0.08, N: 10 + rng.IntN(20)}
		q := StepEstimate{QD: 32, IOPS: p.IOPS * (0.85 + rng.Float64()*0.3), LatNs: p.LatNs * (1.5 + rng.Float64()), N: 10,
			IOPSErr: rng.Float64() * 0.08, LatErr: rng.Float64() * 0.08}
		s := SettleStep(&p, q, 0.02)
		if s.Flat {
			flat++
			if !s.Settled || s.IOPSErr > s.Need || s.Gain >= SaturationGain || s.LatRatio < s.LatNeed {
				t.Fatalf("flat but %+v", s)
			}
		}
		if !s.Undecidable(30) {
			continue
		}
		undecidable++
		if s.Settled {
			t.Fatalf("settled and undecidable: %+v", s)
		}
		// The same figures with the cap's errors: nothing settles.
		k := math.Sqrt(float64(q.N) / 30)
		pp, qq := p, q
		pp.IOPSErr, pp.LatErr, qq.IOPSErr, qq.LatErr, qq.N = p.IOPSErr*k, p.LatErr*k, q.IOPSErr*k, q.LatErr*k, 30
		if at := SettleStep(&pp, qq, 0.02); at.Settled {
			t.Fatalf("undecidable at 30 but settled there: %+v", at)
		}
	}
	if undecidable < 500 || flat < 500 {
		t.Fatalf("only %d undecidable and %d flat of 20000", undecidable, flat)
	}
	// Never at or under the intervals it has, nor when settled.
	s := SettleStep(nil, StepEstimate{QD: 1, IOPS: 1000, IOPSErr: 0.5, N: 10}, 0.02)
	if s.Undecidable(10) || !s.Undecidable(30) {
		t.Errorf("first step at ±50%%: undecidable at 10 %v, at 30 %v", s.Undecidable(10), s.Undecidable(30))
	}
	s.EndUndecidable(30)
	if !s.Settled || s.By != SettledByUndecidable || s.CapN != 30 || s.Undecidable(30) {
		t.Errorf("ended undecidable: %+v", s)
	}
}

// TestSettleControl: a control step's verdict settles when its change's
// interval lies wholly inside or wholly outside its band.
func TestSettleControl(t *testing.T) {
	was := StepEstimate{QD: 64, IOPS: 20000, IOPSErr: 0.01, N: 10}
	for _, c := range []struct {
		ratio, err float64
		decided    bool
	}{
		{1.00, 0.005, true}, // held, known to ±1.2 %
		{0.70, 0.005, true}, // fell 30 %, clear of 5 %
		{0.96, 0.02, false}, // −4 % ± 5 %: either side of the band
		{1.00, 0.05, false}, // held but ±11 %: either side
	} {
		cur := StepEstimate{QD: 64, IOPS: was.IOPS * c.ratio, IOPSErr: c.err, N: 10}
		s := SettleControl(was, cur, 0.05, 0.0)
		if s.Decided != c.decided || s.Settled != c.decided {
			t.Errorf("control at %.2f ± %.3f: %+v", c.ratio, c.err, s)
		}
		if s.Decided && math.Abs(math.Abs(s.Gain)-s.Band) < s.T*s.GainErr {
			t.Errorf("decided within its interval: %+v", s)
		}
	}
}

// TestLeadHoldsAStartUpBurst: a step whose first intervals stand above
// every later one, by more than the knee's 5% of their mean, began above
// its level (a throttle's start-up burst); its verdict records the lead
// and is held open while the burst's share of its mean (lead / n)
// exceeds what its decisions need, and released once it is within. A
// first interval within 5%, below a later one, or above the rest by no
// more than their own scatter allows at 95 %, is no lead.
func TestLeadHoldsAStartUpBurst(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		lead float64 // 0: none
	}{
		{[]float64{16000, 8000, 8000}, 1},
		{[]float64{16000, 8100, 7900, 8000}, 1},
		{[]float64{16000, 12000, 8000, 8000}, 1.5}, // a burst over two intervals
		{[]float64{8300, 8000, 8000}, 0},           // within 5%
		{[]float64{9000, 8000, 9100, 8000}, 0},     // a later interval higher
		{[]float64{16000, 16000, 16000, 8000}, 0},  // one later interval: a fall, not a lead
		{[]float64{16000, 8000}, 0},                // too few
		// A disk whose intervals scatter by tens of percent: a first
		// interval above the rest is chance at their spread.
		{[]float64{12000, 10000, 11000}, 0},
		{[]float64{11000, 9000, 10500, 9500, 10000, 9800}, 0},
		{[]float64{11500, 10000, 10100, 9900, 10050, 9950}, 0.15}, // the same lead over a steady level
	} {
		lead, level, ok := Lead(c.xs)
		if ok != (c.lead > 0) || ok && math.Abs(lead-c.lead) > 0.05 {
			t.Errorf("Lead(%v) = %g, %g, %v; want lead %g", c.xs, lead, level, ok, c.lead)
		}
	}
	xs := []float64{16000, 8000, 8000, 8000}
	s := Settle{Settled: true, By: SettledByDecision, Need: 0.05}
	s.HoldForLead(xs)
	if s.Settled || !s.LeadHeld || s.Lead != 1 || s.Level != 8000 || s.LeadShare != 0.25 {
		t.Errorf("a burst a quarter of the mean, needing 5%%: %+v", s)
	}
	xs = append(xs, make([]float64, 16)...)
	for i := 4; i < len(xs); i++ {
		xs[i] = 8000
	}
	s = Settle{Settled: true, By: SettledByDecision, Need: 0.05}
	s.HoldForLead(xs)
	if !s.Settled || s.LeadHeld || s.LeadShare != 0.05 {
		t.Errorf("a burst 5%% of the mean, needing 5%%: %+v", s)
	}
}
