package littleslaw_test

import (
	"math"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

func TestFitBoundRecoversParameters(t *testing.T) {
	const r0, xmax = 100e-6, 50000.0 // 100 µs, 50k IOPS: N* = 5
	for seed := uint64(1); seed <= 5; seed++ {
		pts := curve(func(n float64) float64 { return math.Min(n/r0, xmax) }, 0.02, seed)
		a, err := littleslaw.Analyze(pts, littleslaw.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, ok := fit(a, littleslaw.ModelBound)
		if !ok {
			t.Fatalf("seed %d: no bound fit", seed)
		}
		if !within(m.Params["r0_ns"], r0*1e9, 0.05) || !within(m.Params["xmax"], xmax, 0.05) {
			t.Errorf("seed %d: r0 %.0f ns, xmax %.0f; want %.0f ns, %.0f within 5%%", seed, m.Params["r0_ns"], m.Params["xmax"], r0*1e9, xmax)
		}
		if !within(m.KneeQD, 5, 0.1) {
			t.Errorf("seed %d: knee %.2f, want N* = 5", seed, m.KneeQD)
		}
		if a.Model == nil || a.Model.Name != littleslaw.ModelBound {
			t.Errorf("seed %d: chose %v for a hockey stick, want bound", seed, a.Model)
		}
	}
}

func TestFitUSLRecoversParameters(t *testing.T) {
	const lambda, sigma, kappa = 20000.0, 0.05, 0.0002 // N_max = √(0.95/0.0002) ≈ 68.9
	usl := func(n float64) float64 { return lambda * n / (1 + sigma*(n-1) + kappa*n*(n-1)) }
	qds := []float64{1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}
	for seed := uint64(1); seed <= 5; seed++ {
		pts := curve(usl, 0.005, seed, qds...)
		a, err := littleslaw.Analyze(pts, littleslaw.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, ok := fit(a, littleslaw.ModelUSL)
		if !ok {
			t.Fatalf("seed %d: no USL fit", seed)
		}
		p := m.Params
		if !within(p["lambda"], lambda, 0.05) || !within(p["sigma"], sigma, 0.05) || !within(p["kappa"], kappa, 0.05) {
			t.Errorf("seed %d: λ %.0f σ %.4f κ %.6f; want %.0f %.4f %.6f within 5%%", seed, p["lambda"], p["sigma"], p["kappa"], lambda, sigma, kappa)
		}
		want := math.Sqrt((1 - sigma) / kappa)
		if !within(m.NMax, want, 0.05) {
			t.Errorf("seed %d: N_max %.1f, want %.1f", seed, m.NMax, want)
		}
		if m.XRoof != 0 || m.KneeQD != m.NMax {
			t.Errorf("seed %d: retrograde with X_roof %g, knee %g; want no asymptote and knee = N_max", seed, m.XRoof, m.KneeQD)
		}
		if a.Model == nil || a.Model.Name != littleslaw.ModelUSL {
			t.Errorf("seed %d: chose %v for a retrograde curve, want usl", seed, a.Model)
		}
	}
}

func TestFitThrottledPlateau(t *testing.T) {
	// A throttled cloud disk: κ = 0, X = Xmax·N/(N+K), Xmax = λ/σ = 25,000.
	const lambda, sigma = 2500.0, 0.1
	pts := curve(func(n float64) float64 { return lambda * n / (1 + sigma*(n-1)) }, 0.01, 7)
	a, err := littleslaw.Analyze(pts, littleslaw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := fit(a, littleslaw.ModelUSL)
	if !ok {
		t.Fatal("no USL fit")
	}
	if m.NMax != 0 {
		t.Errorf("N_max %.1f on a plateau, want none (κ ≈ 0, κ = %g)", m.NMax, m.Params["kappa"])
	}
	if m.Params["kappa"] > 1e-5 {
		t.Errorf("κ = %g, want ≈ 0", m.Params["kappa"])
	}
	if !within(m.XRoof, lambda/sigma, 0.05) {
		t.Errorf("X_roof %.0f, want %.0f", m.XRoof, lambda/sigma)
	}
	if !within(m.KneeQD, 1/sigma, 0.1) {
		t.Errorf("knee %.1f, want X_roof × R0 = 1/σ = %.1f", m.KneeQD, 1/sigma)
	}
	if m.Params["sigma"] < 0 || m.Params["sigma"] > 1 || m.Params["lambda"] < 0 {
		t.Errorf("parameters out of bounds: %v", m.Params)
	}
}

func TestFitParametersStayInBounds(t *testing.T) {
	// A curve that keeps growing faster than linear early on tempts an
	// unbounded fit into negative σ; bounds must hold.
	pts := curve(func(n float64) float64 { return 1000 * math.Pow(n, 1.1) }, 0.01, 3, 1, 2, 4, 8, 16, 32)
	a, _ := littleslaw.Analyze(pts, littleslaw.Options{})
	m, ok := fit(a, littleslaw.ModelUSL)
	if !ok {
		t.Fatal("no USL fit")
	}
	for _, k := range []string{"sigma", "kappa"} {
		if v := m.Params[k]; v < 0 || v > 1 || math.IsNaN(v) {
			t.Errorf("%s = %g, want within [0, 1]", k, v)
		}
	}
	if m.Params["lambda"] < 0 {
		t.Errorf("λ = %g < 0", m.Params["lambda"])
	}
}

func TestModelCurves(t *testing.T) {
	tests := []struct {
		name  string
		m     littleslaw.Model
		qd    float64
		iops  float64
		latNs float64
	}{
		{"bound below knee", littleslaw.Model{Name: littleslaw.ModelBound, Params: map[string]float64{"r0_ns": 100e3, "xmax": 50000}}, 2, 20000, 100e3},
		{"bound above knee", littleslaw.Model{Name: littleslaw.ModelBound, Params: map[string]float64{"r0_ns": 100e3, "xmax": 50000}}, 50, 50000, 1e6},
		{"usl at 1", littleslaw.Model{Name: littleslaw.ModelUSL, Params: map[string]float64{"lambda": 1000, "sigma": 0.1, "kappa": 0}}, 1, 1000, 1e6},
		{"usl at 11", littleslaw.Model{Name: littleslaw.ModelUSL, Params: map[string]float64{"lambda": 1000, "sigma": 0.1, "kappa": 0}}, 11, 5500, 2e6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.m.IOPSAt(tt.qd); !within(got, tt.iops, 1e-9) {
				t.Errorf("IOPSAt(%g) = %g, want %g", tt.qd, got, tt.iops)
			}
			if got := tt.m.LatencyNsAt(tt.qd); !within(got, tt.latNs, 1e-9) {
				t.Errorf("LatencyNsAt(%g) = %g, want %g", tt.qd, got, tt.latNs)
			}
		})
	}
}

// TestBoundModelUsesMeasuredBounds: the bound model takes R0 and Xmax from
// the data (operational analysis), so on a noisy curve its ceiling is the
// measured peak, never below it, and N* = Xmax × R0 follows.
func TestBoundModelUsesMeasuredBounds(t *testing.T) {
	tests := []struct {
		name  string
		qd    []float64
		iops  []float64
		latUs []float64
	}{
		// The sample disk: QD 16 and 32 fall below the QD 8 peak.
		{"noisy disk", []float64{1, 2, 4, 8, 16, 32}, []float64{16190, 25110, 25114, 52569, 45457, 38451},
			[]float64{61.6, 79.5, 159, 152, 352, 831}},
		{"clean hockey stick", []float64{1, 2, 4, 8}, []float64{10000, 20000, 30000, 30000},
			[]float64{100, 100, 133.3, 266.7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pts []littleslaw.Point
			for i := range tt.qd {
				pts = append(pts, littleslaw.Point{QD: tt.qd[i], IOPS: tt.iops[i], LatMeanNs: tt.latUs[i] * 1e3})
			}
			a, err := littleslaw.Analyze(pts, littleslaw.Options{})
			if err != nil {
				t.Fatal(err)
			}
			m, ok := fit(a, littleslaw.ModelBound)
			if !ok {
				t.Fatal("no bound model")
			}
			if m.XRoof != a.MaxIOPS || m.Params["xmax"] != a.MaxIOPS || m.Params["r0_ns"] != a.BaseLatencyNs {
				t.Errorf("bound %+v, want Xmax %g and R0 %g ns as measured", m, a.MaxIOPS, a.BaseLatencyNs)
			}
			if !within(m.KneeQD, a.MaxIOPS*a.BaseLatencyNs/1e9, 1e-12) {
				t.Errorf("N* %g, want Xmax × R0 = %g", m.KneeQD, a.MaxIOPS*a.BaseLatencyNs/1e9)
			}
			var ss float64
			if len(m.Residuals) != len(a.Points) {
				t.Fatalf("%d residuals for %d points", len(m.Residuals), len(a.Points))
			}
			for i, p := range a.Points {
				r := m.IOPSAt(p.QD)/p.IOPS - 1
				if !within(m.Residuals[i], r, 1e-12) && math.Abs(r) > 1e-12 {
					t.Errorf("residual %d = %g, want %g", i, m.Residuals[i], r)
				}
				ss += r * r
				if m.IOPSAt(p.QD) < p.IOPS*(1-1e-12) && p.QD >= m.KneeQD {
					t.Errorf("QD %g: model %g below measured %g past the knee", p.QD, m.IOPSAt(p.QD), p.IOPS)
				}
			}
			if want := math.Sqrt(ss / float64(len(pts))); !within(m.RelRMS, want, 1e-9) {
				t.Errorf("RelRMS %g, want %g", m.RelRMS, want)
			}
		})
	}
}

// TestFitCeilingBelowDataIsWarned: the USL stays a least-squares fit, so on
// a noisy curve its ceiling may land below a measured point; Analyze then
// says so instead of leaving a ceiling that contradicts the data unremarked.
// The points are the sample disk's 16 KiB random reads.
func TestFitCeilingBelowDataIsWarned(t *testing.T) {
	qd := []float64{1, 2, 4, 8, 16, 32, 64}
	iops := []float64{12844, 21270, 20842, 39795, 40214, 45001, 50515}
	latUs := []float64{77.7, 93.9, 191.8, 200.9, 398.2, 710.7, 1266.7}
	var pts []littleslaw.Point
	for i := range qd {
		pts = append(pts, littleslaw.Point{QD: qd[i], IOPS: iops[i], LatMeanNs: latUs[i] * 1e3})
	}
	a, err := littleslaw.Analyze(pts, littleslaw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Model == nil {
		t.Fatal("no model")
	}
	warned := false
	for _, n := range a.Notices {
		warned = warned || n.Kind == littleslaw.NoticeFitBelow
	}
	below := a.Model.XRoof > 0 && a.Model.XRoof < 0.99*a.MaxIOPS
	if below != warned {
		t.Errorf("model %s ceiling %.0f vs measured %.0f: warned %v, want %v (%+v)", a.Model.Name, a.Model.XRoof, a.MaxIOPS, warned, below, a.Notices)
	}
	if !below || a.Model.Name != littleslaw.ModelUSL {
		t.Errorf("the %s fit's ceiling %.0f; this curve's USL fit lands below the measured %.0f", a.Model.Name, a.Model.XRoof, a.MaxIOPS)
	}
}
