package littleslaw_test

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

func TestAnalyzeKnownExample(t *testing.T) {
	a, err := littleslaw.Analyze(exampleCurve(), littleslaw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.BaseLatencyNs != 50e3 || a.MaxIOPS != 151e3 || a.MaxIOPSQD != 64 {
		t.Errorf("R0 %g, Xmax %g at QD %g; want 50000 ns, 151000 at 64", a.BaseLatencyNs, a.MaxIOPS, a.MaxIOPSQD)
	}
	if !a.Saturation.Found || a.Saturation.QD != 32 || a.Saturation.IOPS != 150e3 {
		t.Errorf("saturation %+v, want QD 32 at 150000 IOPS", a.Saturation)
	}
	if !a.Efficient.Found || a.Efficient.QD != 8 {
		t.Errorf("efficient %+v, want QD 8", a.Efficient)
	}
	for _, k := range []littleslaw.Knee{a.Saturation, a.Efficient, a.ModelKnee, a.Kneedle} {
		if k.Kind == "" {
			t.Errorf("knee %+v has no kind", k)
		}
	}
	if a.Model == nil || len(a.Fits) != 2 {
		t.Fatalf("model %v, %d fits; want a chosen model of 2", a.Model, len(a.Fits))
	}
	for _, f := range a.Fits {
		if f.AIC < a.Model.AIC {
			t.Errorf("chose %s (AIC %g) over %s (AIC %g)", a.Model.Name, a.Model.AIC, f.Name, f.AIC)
		}
	}
	if !a.ModelKnee.Found || a.ModelKnee.QD != a.Model.KneeQD {
		t.Errorf("model knee %+v, want the model's %g", a.ModelKnee, a.Model.KneeQD)
	}
	if len(a.Checks) != 7 {
		t.Fatalf("%d checks, want 7", len(a.Checks))
	}
	for _, c := range a.Checks {
		// The example obeys Little's Law: IOPS × latency ≈ QD.
		if c.Flagged || !within(c.EffectiveInflight, c.QD, 0.01) {
			t.Errorf("check %+v: want unflagged with in-flight ≈ QD", c)
		}
	}
	if len(a.Notices) != 0 {
		t.Errorf("notices %+v, want none", a.Notices)
	}
}

func TestAnalyzeNoSaturation(t *testing.T) {
	// Latency flat at 100 µs: IOPS keep doubling up to the deepest QD.
	pts := curve(func(n float64) float64 { return n * 10000 }, 0, 1, 1, 2, 4, 8, 16, 32, 64)
	a, err := littleslaw.Analyze(pts, littleslaw.Options{TargetIOPS: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	if a.Saturation.Found {
		t.Errorf("saturation %+v on a linear curve", a.Saturation)
	}
	if a.Saturation.Reason != littleslaw.KneeNotSaturated || a.Saturation.SuggestQD != 4*a.Saturation.DeepestQD {
		t.Errorf("saturation %+v, want not saturated with a deeper QD to sweep", a.Saturation)
	}
	if a.Target == nil || a.Target.Reachable || a.Target.Reason != littleslaw.TargetNotReached {
		t.Errorf("target %+v: want not reached and advice to sweep deeper", a.Target)
	}
}

func TestAnalyzeFewPoints(t *testing.T) {
	ex := exampleCurve()
	tests := []struct {
		name    string
		pts     []littleslaw.Point
		wantErr bool
		fits    int
		notice  littleslaw.NoticeKind
	}{
		{"none", nil, true, 0, littleslaw.NoticeNoPoints},
		{"one", ex[:1], true, 0, littleslaw.NoticeOnePoint},
		{"two", ex[:2], false, 1, littleslaw.NoticeTwoPoints},
		{"three", ex[:3], false, 2, littleslaw.NoticeFewPoints},
		{"bad rows dropped", append([]littleslaw.Point{{QD: 0, IOPS: 5, LatMeanNs: 1}}, ex...), false, 2, littleslaw.NoticeDropped},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := littleslaw.Analyze(tt.pts, littleslaw.Options{TargetIOPS: 30000})
			if tt.wantErr != (err != nil) {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if err != nil && !errors.Is(err, littleslaw.ErrTooFewPoints) {
				t.Errorf("err %v, want ErrTooFewPoints", err)
			}
			if len(a.Fits) != tt.fits {
				t.Errorf("%d fits, want %d", len(a.Fits), tt.fits)
			}
			found := false
			for _, n := range a.Notices {
				found = found || n.Kind == tt.notice
			}
			if !found {
				t.Errorf("notices %+v, want one of kind %s", a.Notices, tt.notice)
			}
		})
	}
}

func TestAnalyzeBadOptions(t *testing.T) {
	for _, o := range []littleslaw.Options{
		{TargetIOPS: -1},
		{For: "oracle"},
		{SLO: &littleslaw.SLO{Stat: "p42", LimitNs: 1e6}},
		{SLO: &littleslaw.SLO{Stat: "p99", LimitNs: 0}},
	} {
		if _, err := littleslaw.Analyze(exampleCurve(), o); !errors.Is(err, littleslaw.ErrBadOptions) {
			t.Errorf("%+v: err %v, want ErrBadOptions", o, err)
		}
	}
}

func TestCheckFlagsEmptyQueue(t *testing.T) {
	tests := []struct {
		name    string
		p       littleslaw.Point
		flagged bool
		fill    float64
	}{
		{"full", littleslaw.Point{QD: 32, IOPS: 160000, LatMeanNs: 200e3, InflightMean: 32}, false, 1},
		{"queue not kept full", littleslaw.Point{QD: 32, IOPS: 40000, LatMeanNs: 200e3}, true, 0.25},
		{"measured mismatch", littleslaw.Point{QD: 32, IOPS: 160000, LatMeanNs: 200e3, InflightMean: 16}, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := littleslaw.CheckPoint(tt.p)
			if c.Flagged != tt.flagged || !within(c.Fill, tt.fill, 1e-9) {
				t.Errorf("check %+v, want flagged %v, fill %g", c, tt.flagged, tt.fill)
			}
			if c.Flagged && c.Reason == "" {
				t.Error("flagged without a note")
			}
		})
	}
}

func TestTargetOnCurve(t *testing.T) {
	tests := []struct {
		name      string
		target    float64
		reachable bool
		qd        float64
		naive     float64
	}{
		// Between QD 4 (70k) and QD 8 (110k): 4 + 3/4 × 4 = 7.
		{"interpolated", 100000, true, 7, 5},
		// Below the first point: 1 × 10000 / 20000 = 0.5 → 1.
		{"below first point", 10000, true, 1, 0.5},
		{"at the maximum", 151000, true, 64, 7.55},
		{"beyond the maximum", 160000, false, 32, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := littleslaw.Analyze(exampleCurve(), littleslaw.Options{TargetIOPS: tt.target, MaxJobs: 4})
			if err != nil {
				t.Fatal(err)
			}
			r := a.Target
			if r.Reachable != tt.reachable || r.QD != tt.qd || !within(r.NaiveQD, tt.naive, 1e-9) {
				t.Errorf("target %+v, want reachable %v, QD %g, naive %g", r, tt.reachable, tt.qd, tt.naive)
			}
			if r.Split.IODepth*r.Split.NumJobs < int(r.QD) {
				t.Errorf("split %+v does not cover QD %g", r.Split, r.QD)
			}
			if !tt.reachable {
				if r.ReachableIOPS != 151000 || r.Reason != littleslaw.TargetSaturated {
					t.Errorf("unreachable: %+v", r)
				}
			}
			if tt.reachable && (r.LatencyNs < 50e3 || r.LatencyNs > 424e3) {
				t.Errorf("latency %g ns outside the measured range", r.LatencyNs)
			}
		})
	}
}

func TestTargetQDMonotone(t *testing.T) {
	// Property: the recommended QD never falls as the target rises, on a
	// measured curve (noisy, so latency is not monotone) and by pure Little.
	for seed := uint64(1); seed <= 20; seed++ {
		pts := curve(func(n float64) float64 { return 30000 * n / (1 + 0.08*(n-1) + 0.0004*n*(n-1)) }, 0.08, seed)
		base, err := littleslaw.Analyze(pts, littleslaw.Options{})
		if err != nil {
			t.Fatal(err)
		}
		prev, prevNaive := 0.0, 0.0
		for i := 1; i <= 400; i++ {
			tgt := base.MaxIOPS * float64(i) / 400
			r := base.TargetFor(tgt, littleslaw.Options{})
			if !r.Reachable {
				t.Fatalf("seed %d: %g ≤ max %g not reachable", seed, tgt, base.MaxIOPS)
			}
			if r.QD < prev {
				t.Fatalf("seed %d: QD %g for %g IOPS < %g for less", seed, r.QD, tgt, prev)
			}
			prev = r.QD
			n := littleslaw.AdviseTarget(tgt, 1.3e6, littleslaw.Options{}).QD
			if n < prevNaive {
				t.Fatalf("AdviseTarget not monotone at %g", tgt)
			}
			prevNaive = n
		}
	}
}

func TestSLO(t *testing.T) {
	pts := exampleCurve()
	p99 := []float64{90, 100, 120, 200, 400, 900, 2000} // µs
	for i := range pts {
		pts[i].P99Ns = p99[i] * 1e3
	}
	tests := []struct {
		slo  string
		met  bool
		qd   float64
		iops float64
	}{
		{"p99=1ms", true, 32, 150000},
		{"p99=5ms", true, 64, 151000},
		{"p99=50us", false, 0, 0},
		{"mean=100us", true, 8, 110000},
		{"p50=1ms", false, 0, 0}, // not measured
	}
	for _, tt := range tests {
		t.Run(tt.slo, func(t *testing.T) {
			s, err := littleslaw.ParseSLO(tt.slo)
			if err != nil {
				t.Fatal(err)
			}
			a, err := littleslaw.Analyze(pts, littleslaw.Options{SLO: &s})
			if err != nil {
				t.Fatal(err)
			}
			r := a.SLO
			if r.Met != tt.met || r.QD != tt.qd || r.IOPS != tt.iops {
				t.Errorf("%+v, want met %v at QD %g, %g IOPS", r, tt.met, tt.qd, tt.iops)
			}
			if !r.Met && r.Reason == "" {
				t.Error("unmet SLO without a reason")
			}
		})
	}
}

// TestSLONoisyCurve uses the sample disk's measured p99s: QD 4 breaks
// p99 ≤ 1 ms by noise while QD 8 meets it at 721 µs; the answer is the
// deepest QD meeting it, and the note names the shallower step that broke it.
func TestSLONoisyCurve(t *testing.T) {
	qd := []float64{1, 2, 4, 8, 16, 32}
	iops := []float64{16190, 25110, 25114, 52569, 45457, 38451}
	latUs := []float64{61.6, 79.5, 159, 152, 352, 831}
	p99Us := []float64{156, 191, 1670, 721, 2700, 3820}
	var pts []littleslaw.Point
	for i := range qd {
		pts = append(pts, littleslaw.Point{QD: qd[i], IOPS: iops[i], LatMeanNs: latUs[i] * 1e3, P99Ns: p99Us[i] * 1e3})
	}
	tests := []struct {
		slo    string
		met    bool
		qd     float64
		reason littleslaw.SLOReason
		breaks float64   // QD of Breaks (0: none)
		noisy  []float64 // QDs of Noisy
	}{
		{"p99=1ms", true, 8, littleslaw.SLOBrokenDeeper, 16, []float64{4}},
		{"p99=200us", true, 2, littleslaw.SLOBrokenDeeper, 4, nil},
		{"p99=3ms", true, 16, littleslaw.SLOBrokenDeeper, 32, nil},
		{"p99=5ms", true, 32, littleslaw.SLOMetEverywhere, 0, nil},
		{"p99=100us", false, 0, littleslaw.SLONotMet, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.slo, func(t *testing.T) {
			s, err := littleslaw.ParseSLO(tt.slo)
			if err != nil {
				t.Fatal(err)
			}
			a, err := littleslaw.Analyze(pts, littleslaw.Options{SLO: &s})
			if err != nil {
				t.Fatal(err)
			}
			r := a.SLO
			if r.Met != tt.met || r.QD != tt.qd {
				t.Errorf("%+v, want met %v at QD %g", r, tt.met, tt.qd)
			}
			var breaks float64
			if r.Breaks != nil {
				breaks = r.Breaks.QD
			}
			var noisy []float64
			for _, n := range r.Noisy {
				noisy = append(noisy, n.QD)
			}
			if r.Reason != tt.reason || breaks != tt.breaks || !reflect.DeepEqual(noisy, tt.noisy) {
				t.Errorf("%+v, want %s, breaks at QD %g, noisy %v", r, tt.reason, tt.breaks, tt.noisy)
			}
		})
	}
}

func TestSettings(t *testing.T) {
	tests := []struct {
		for_  string
		names []string
		value map[string]string
	}{
		{"workers", []string{"max useful workers", "connection pool size"}, map[string]string{"max useful workers": "32", "connection pool size": "36"}},
		{"postgres", []string{"effective_io_concurrency", "maintenance_io_concurrency", "io_method", "io_workers"}, map[string]string{"effective_io_concurrency": "32", "io_workers": "32"}},
		{"mysql", []string{"innodb_io_capacity", "innodb_io_capacity_max", "innodb_read_io_threads", "innodb_write_io_threads"}, map[string]string{"innodb_io_capacity_max": "151000", "innodb_read_io_threads": "4"}},
	}
	for _, tt := range tests {
		t.Run(tt.for_, func(t *testing.T) {
			a, err := littleslaw.Analyze(exampleCurve(), littleslaw.Options{For: tt.for_, CPUs: 2})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]littleslaw.Setting{}
			for _, s := range a.Settings {
				got[s.Name] = s
				if s.Rule == "" || s.SaturationQD <= 0 || !strings.HasPrefix(s.Doc, "https://") {
					t.Errorf("%s: rule %q on QD %d, doc %q", s.Name, s.Rule, s.SaturationQD, s.Doc)
				}
			}
			for _, n := range tt.names {
				if _, ok := got[n]; !ok {
					t.Errorf("no %s in %v", n, a.Settings)
				}
			}
			for n, v := range tt.value {
				if got[n].Value != v {
					t.Errorf("%s = %q, want %q", n, got[n].Value, v)
				}
			}
		})
	}
}

func TestKneedleOnLogAxis(t *testing.T) {
	a, _ := littleslaw.Analyze(exampleCurve(), littleslaw.Options{})
	if !a.Kneedle.Found || a.Kneedle.QD != 16 {
		t.Errorf("kneedle %+v, want QD 16", a.Kneedle)
	}
	if math.IsNaN(a.Kneedle.IOPS) {
		t.Error("NaN")
	}
}
