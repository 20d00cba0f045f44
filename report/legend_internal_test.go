package report

import (
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// curveResult is a one-curve randread result at depths, IOPS following
// 90k·N/(N+6), with a USL model of the given error and the knees given.
func curveResult(depths []int, relErr float64, sat, eff bool) *sweep.Result {
	r := &sweep.Result{}
	for _, d := range depths {
		q := float64(d)
		iops := 90000 * q / (q + 6)
		r.Steps = append(r.Steps, sweep.Step{RW: "randread", BS: 4096, IODepth: d, NumJobs: 1, QD: d, IOPS: iops,
			BWBytes: iops * 4096, Steady: true})
		r.Steps[len(r.Steps)-1].Lat.MeanNs = q / iops * 1e9
	}
	a := littleslaw.Analysis{BaseLatencyNs: r.Steps[0].Lat.MeanNs,
		Model: &littleslaw.Model{Name: littleslaw.ModelUSL, RelRMS: relErr, XRoof: 90000,
			Params: map[string]float64{"lambda": 90000.0 / 7, "sigma": 1.0 / 7, "kappa": 0}}}
	if sat {
		a.Saturation = littleslaw.Knee{QD: 32, IOPS: 90000 * 32.0 / 38, LatNsMean: 1, Found: true}
	}
	if eff {
		a.Efficient = littleslaw.Knee{QD: 4, IOPS: 90000 * 4.0 / 10, LatNsMean: 1, Found: true}
	}
	r.Analysis = []sweep.CurveAnalysis{{RW: "randread", BS: 4096, Analysis: a}}
	return r
}

// TestFitDrawnOnlyWhereEarned checks when the fitted model is drawn (a
// band from 5 points and 10% error, dashed with its error from 4 points
// and 25%, else not at all) and that the legend lists only what is drawn.
func TestFitDrawnOnlyWhereEarned(t *testing.T) {
	nine := []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	four := []int{1, 4, 16, 64}
	tests := []struct {
		name     string
		r        *sweep.Result
		want     []string // legend keys that must be there
		wantNone []string // prefixes of keys that must not
	}{
		{"9 points, 2%: band and Xmax", curveResult(nine, 0.02, true, true),
			[]string{"fitted model", "Xmax (fitted ceiling)", "saturation QD", "efficient QD (max IOPS/latency)"}, []string{"fit of"}},
		{"4 points, 15%: dashed with its error", curveResult(four, 0.15, false, true),
			[]string{"fit of 4 points, error 15%", "efficient QD (max IOPS/latency)"}, []string{"fitted model", "Xmax", "saturation QD"}},
		{"4 points, 36.5%: not drawn", curveResult(four, 0.365, false, false),
			nil, []string{"fitted model", "fit of", "Xmax", "saturation QD", "efficient QD"}},
		{"9 points, 30%: not drawn", curveResult(nine, 0.30, true, false),
			[]string{"saturation QD"}, []string{"fitted model", "fit of", "Xmax", "efficient QD"}},
		{"3 points, 1%: not drawn", curveResult([]int{1, 8, 64}, 0.01, false, false),
			nil, []string{"fitted model", "fit of", "Xmax"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, build := range []func(chartInput) (*figure, error){iopsFigure, bandwidthFigure} {
				f, err := build(chartInputOf(tc.r, Options{}))
				if err != nil {
					t.Fatal(err)
				}
				keys := strings.Join(f.Keys, " | ")
				for _, w := range tc.want {
					if !contains(f.Keys, w) {
						t.Errorf("%s: legend lacks %q: %s", f.Title, w, keys)
					}
				}
				for _, k := range f.Keys {
					for _, bad := range tc.wantNone {
						if strings.HasPrefix(k, bad) {
							t.Errorf("%s: legend lists %q, which is not drawn: %s", f.Title, k, keys)
						}
					}
				}
			}
		})
	}
}

// TestFitRestsOnAnalysedPoints: a curve whose analysis left measured
// steps out (a level that did not last) has its fit graded, drawn and
// counted over the analysis's points, as its text counts them ("only 4
// points"): six measured steps, four analysed, 2% error, give a dashed fit
// "of 4 points", not the band six points would earn, and the fit's line
// ends at the deepest analysed depth, not over the steps left out.
func TestFitRestsOnAnalysedPoints(t *testing.T) {
	r := curveResult([]int{1, 2, 4, 8, 16, 32}, 0.02, false, true)
	a := &r.Analysis[0].Analysis
	for _, st := range r.Steps[:4] {
		a.Points = append(a.Points, littleslaw.Point{QD: float64(st.QD), IOPS: st.IOPS, LatMeanNs: st.Lat.MeanNs})
	}
	in := chartInputOf(r, Options{})
	f, err := iopsFigure(in)
	if err != nil {
		t.Fatal(err)
	}
	if !contains(f.Keys, "fit of 4 points, error 2%") || contains(f.Keys, "fitted model") {
		t.Errorf("legend %q: want the dashed fit of the 4 analysed points, not a band over 6", f.Keys)
	}
	s := in.Series[0]
	if g := fitGradeOf(s); g != fitDashed {
		t.Errorf("grade %v, want dashed (4 analysed points)", g)
	}
	p := newPlot("qd", "iops")
	m := &marks{}
	if _, _, _, err := addFit(p, m, s, 1, seriesColor(0), 0); err != nil {
		t.Fatal(err)
	}
	if len(m.Lines) != 1 || len(m.Lines[0]) == 0 {
		t.Fatalf("fit lines %v", m.Lines)
	}
	for _, q := range m.Lines[0] {
		if q[0] > 3+1e-9 || q[0] < -1e-9 {
			t.Fatalf("the fit is drawn at log2 QD %.3f, outside the analysed 1–8", q[0])
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestCompareChartsNameInputs checks that every compare chart's subtitle
// carries each input's date, engine, target, steadiness and diagnosis.
func TestCompareChartsNameInputs(t *testing.T) {
	a, b := curveResult([]int{1, 2, 4, 8, 16}, 0.02, true, true), curveResult([]int{1, 2, 4, 8, 16}, 0.02, true, true)
	a.Meta.Engine, a.Meta.Target = "io_uring", "/dev/nvme0n2"
	b.Meta.Engine, b.Meta.Target, b.Meta.Source = "io_uring", "fio.scratch", sweep.SourceFioImport
	a.Meta.Start = time.Date(2026, 11, 30, 4, 13, 0, 0, time.UTC)
	b.Meta.Start = a.Meta.Start.Add(2 * time.Minute)
	a.Steps[0].Steady = false
	for i := range b.Steps {
		b.Steps[i].Steady = false
	}
	a.Diagnosis = []diagnosis.Finding{{Rule: diagnosis.RuleContended}}
	b.Diagnosis = []diagnosis.Finding{{Rule: diagnosis.RuleInconclusive}}
	in := compareChartInput([]Input{{Name: "disk", Result: a}, {Name: "fio", Result: b}}, Options{})
	want := "A = disk: 2026-11-30 04:13 UTC · io_uring · /dev/nvme0n2 · steady 4 of 5 steps · contended\n" +
		"B = fio: 2026-11-30 04:15 UTC · fio (io_uring) · fio.scratch · steady not recorded · inconclusive"
	if in.Subtitle != want {
		t.Errorf("subtitle\n%s\nwant\n%s", in.Subtitle, want)
	}
	for _, k := range chartKinds {
		if k.When != nil && !k.When(in) {
			continue
		}
		f, err := k.Build(in)
		if err != nil {
			t.Fatal(err)
		}
		if f.Subtitle != want {
			t.Errorf("%s: subtitle %q", k.Name, f.Subtitle)
		}
	}
}

// TestLatencyLegendsListDrawnStats checks that the latency charts name
// only the statistics a result has (here the mean, no percentiles).
func TestLatencyLegendsListDrawnStats(t *testing.T) {
	in := chartInputOf(curveResult([]int{1, 2, 4, 8, 16}, 0.02, true, true), Options{})
	for _, build := range []func(chartInput) (*figure, error){latencyFigure, hockeyFigure} {
		f, err := build(in)
		if err != nil {
			t.Fatal(err)
		}
		if !contains(f.Keys, "mean") {
			t.Errorf("%s: legend lacks mean: %q", f.Title, f.Keys)
		}
		for _, k := range []string{"p50", "p99", "p99.9"} {
			if contains(f.Keys, k) {
				t.Errorf("%s: legend lists %s, which the result lacks: %q", f.Title, k, f.Keys)
			}
		}
	}
}

// TestRefinedStepsRinged checks that steps of the refine pass are ringed on
// the throughput charts and named in the legend, and that a grid-only
// result names no refined step.
func TestRefinedStepsRinged(t *testing.T) {
	grid := curveResult([]int{1, 2, 4, 8, 16, 32, 64}, 0.02, true, false)
	refined := curveResult([]int{1, 2, 4, 8, 16, 23, 32, 64}, 0.02, true, false)
	refined.Steps[5].Refined = "knee"
	for _, build := range []func(chartInput) (*figure, error){iopsFigure, bandwidthFigure} {
		f, err := build(chartInputOf(refined, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		if !contains(f.Keys, "refined step (between grid steps)") {
			t.Errorf("%s: a refined step but no legend key: %s", f.Title, strings.Join(f.Keys, " | "))
		}
		g, err := build(chartInputOf(grid, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range g.Keys {
			if strings.HasPrefix(k, "refined") {
				t.Errorf("%s: no refined step, yet the legend lists %q", g.Title, k)
			}
		}
	}
}
