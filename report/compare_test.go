package report_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/outtest"
	"github.com/qdsweep/qdsweep/ioengine"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

func TestCompareTable(t *testing.T) {
	before := oneCurve(littleslaw.Options{})
	after := fixture(false, littleslaw.Options{}, curveSpec{rw: "randread", bs: 4096, xmax: 150000, k: 12, depths: []int{1, 2, 4, 8, 16, 32, 64}})
	var buf bytes.Buffer
	ins := []report.Input{{Name: "before", Result: before}, {Name: "after", Result: after}}
	if err := report.CompareTable(&buf, ins, report.Options{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, w := range []string{"Saturation points", "before · randread 4k", "after · randread 4k", "Δ IOPS", "B = after · randread 4k vs A = before · randread 4k"} {
		if !strings.Contains(out, w) {
			t.Errorf("compare table lacks %q:\n%s", w, out)
		}
	}
	// Deltas at the 7 common depths, none at 128 or 256.
	rows := 0
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if _, err := strconv.Atoi(firstField(f)); err == nil && strings.Contains(l, "%") {
			rows++
			if f[0] == "128" || f[0] == "256" {
				t.Errorf("delta row at QD %s, measured by one result only", f[0])
			}
		}
	}
	if rows != 7 {
		t.Errorf("%d delta rows, want 7:\n%s", rows, out)
	}
}

func TestWriteCompare(t *testing.T) {
	ins := []report.Input{
		{Name: "seq", Result: fixture(false, littleslaw.Options{}, curveSpec{rw: "read", bs: 1 << 20, xmax: 2400, k: 2, depths: pow2to256})},
		{Name: "rand", Result: fourCurves(littleslaw.Options{}, pow2to256)},
	}
	dir := filepath.Join(t.TempDir(), "cmp")
	paths, err := report.WriteCompare(outtest.Open(t, dir), ins, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertFiles(t, dir, paths, []string{"bandwidth-vs-qd.png", "compare.md", "dashboard.png", "iops-vs-qd.png",
		"latency-vs-bandwidth.png", "latency-vs-iops.png", "latency-vs-qd.png"})
	md, err := os.ReadFile(filepath.Join(dir, "compare.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"# Comparison: seq vs rand", "## Saturation points", "rand · randwrite 16k", "![IOPS vs queue depth](iops-vs-qd.png)"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("compare.md lacks %q", w)
		}
	}
	img := decodePNG(t, filepath.Join(dir, "iops-vs-qd.png"))
	for i := 0; i < 5; i++ {
		if n := colourCount(img, report.Palette[i]); n < 40 {
			t.Errorf("series %d colour on %d pixels only", i, n)
		}
	}
}

func TestCompareRefuses(t *testing.T) {
	one := []report.Input{{Name: "a", Result: oneCurve(littleslaw.Options{})}}
	if _, err := report.WriteCompare(outtest.Open(t, t.TempDir()), one, report.Options{}); err == nil {
		t.Error("WriteCompare of one result: no error")
	}
	if err := report.CompareTable(&bytes.Buffer{}, one, report.Options{}); err == nil {
		t.Error("CompareTable of one result: no error")
	}
}

// sliceSpec says how the slices of one step of a generated run spread.
type sliceSpec struct {
	k      int     // slices
	spread float64 // their standard deviation, a fraction of the level
	exact  bool    // exactly that spread, alternating low and high; else drawn (normal)
}

// noisyRun is a one-curve randread 4k result measured at qds whose step
// at QD q holds the slices spec(q) says around level(q), 250 ms each: the
// step's IOPS is their mean, its latency Little's Law's with the queue
// full.
func noisyRun(rng *rand.Rand, qds []int, level func(q int) float64, spec func(q int) sliceSpec) *sweep.Result {
	r := sweep.NewResult(sweep.Meta{Engine: "io_uring", CPUs: 8, Target: "/dev/nvme0n2", Workload: sweep.Workload{Direct: true}},
		sweep.Plan{RW: []string{"randread"}, BS: []int64{4096}, IODepth: qds, NumJobs: []int{1}})
	const iv = int64(250e6)
	for _, q := range qds {
		sp := spec(q)
		xs := make([]float64, sp.k)
		var sd float64
		for i := range xs {
			if sp.exact {
				j := i / 2
				if i%2 == 1 {
					j = sp.k - 1 - i/2
				}
				xs[i] = 2*float64(j)/float64(max(sp.k-1, 1)) - 1
				sd += xs[i] * xs[i]
			} else {
				xs[i] = rng.NormFloat64()
			}
		}
		if sp.exact && sp.k > 1 {
			sd = math.Sqrt(sd / float64(sp.k-1))
		}
		iops := level(q)
		st := sweep.Step{RW: "randread", BS: 4096, IODepth: q, NumJobs: 1, QD: q, InflightMean: float64(q), Steady: true, RuntimeNs: int64(sp.k) * iv}
		if sp.k > 0 {
			st.Series = &sweep.Series{IntervalNs: iv}
			var sum float64
			for i, u := range xs {
				if sp.exact && sd > 0 {
					u /= sd
				}
				x := level(q) * (1 + sp.spread*u)
				sum += x
				st.Series.Points = append(st.Series.Points, sweep.SeriesPoint{Interval: ioengine.Interval{
					StartNs: int64(i) * iv, DurNs: iv, IOs: int64(x / 4), ReadIOPS: x, LatMeanNs: float64(q) / x * 1e9, InflightMean: float64(q)}})
			}
			iops = sum / float64(sp.k)
		}
		st.IOPS, st.BWBytes = iops, iops*4096
		lat := float64(q) / iops * 1e9
		st.Lat.MeanNs, st.Lat.P50Ns, st.Lat.P99Ns = lat, int64(lat*0.9), int64(lat*2.5)
		r.Steps = append(r.Steps, st)
	}
	return r
}

// cmpRow is one row of a delta table as CompareTable prints it.
type cmpRow struct {
	qd                    int
	marked                bool // the QD carries † (a step left out of its run's analysis)
	dIOPS, noise, verdict string
}

// compareRows runs CompareTable on a and b and returns its delta rows by
// QD, and the whole text.
func compareRows(t *testing.T, a, b *sweep.Result) (map[int]cmpRow, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := report.CompareTable(&buf, []report.Input{{Name: "A-run", Result: a}, {Name: "B-run", Result: b}}, report.Options{Width: 1000}); err != nil {
		t.Fatal(err)
	}
	rows := map[int]cmpRow{}
	in := false
	for _, l := range strings.Split(buf.String(), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) > 2 && f[0] == "QD" && f[1] == "IOPS":
			in = true
			continue
		case len(f) < 10:
			in = false
		}
		if !in {
			continue
		}
		qd, err := strconv.Atoi(strings.TrimSuffix(f[0], "†"))
		if err != nil { // the sentence under the table
			in = false
			continue
		}
		r := cmpRow{qd: qd, marked: strings.HasSuffix(f[0], "†"), dIOPS: f[3], verdict: f[len(f)-1], noise: f[len(f)-2]}
		if r.verdict == "out" {
			r.verdict, r.noise = "left out", f[len(f)-3]
		}
		rows[qd] = r
	}
	return rows, buf.String()
}

// pct reads a cell like "+12.5%" or "±3.9%" as a fraction.
func pct(t *testing.T, cell string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimLeft(cell, "±+"), "%"), 64)
	if err != nil {
		t.Fatalf("cell %q is not a percentage", cell)
	}
	return v / 100
}

// verdictLine is the sentence under a delta table that sums up its rows.
func verdictLine(out string) string {
	flat := strings.Join(strings.Fields(out), " ")
	for _, lead := range []string{"B differs", "B is within", "Not judged"} {
		if i := strings.Index(flat, lead); i >= 0 {
			if j := strings.Index(flat[i:], ". "); j >= 0 {
				return flat[i : i+j+1]
			}
		}
	}
	return ""
}

// randCurve is a throughput law with a random ceiling and knee.
func randCurve(rng *rand.Rand) func(q int) float64 {
	xmax, k := 2e4+rng.Float64()*2e5, 1+rng.Float64()*30
	return func(q int) float64 { return xmax * float64(q) / (float64(q) + k) }
}

// TestCompareNoiseProperties generates pairs of runs of known noise and
// known true differences and checks what compare says of them:
//   - slices spreading 20%, 3 to 8 a step, and B 11–13% off A: never
//     "real" (each row's noise column is wider than its difference); the
//     rule this replaced capped the band at 10% and called them real;
//   - slices spreading 2%, 3 to 20 a step, and B 30% off A: always real;
//   - the verdicts do not depend on which run is A.
func TestCompareNoiseProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 55))
	qds := []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	sign := func() float64 { return float64(1 - 2*rng.IntN(2)) }
	for i := 0; i < 40; i++ {
		law := randCurve(rng)
		diff := map[int]float64{}
		for _, q := range qds {
			diff[q] = (0.11 + 0.02*rng.Float64()) * sign()
		}
		wide := func(q int) sliceSpec { return sliceSpec{k: 3 + rng.IntN(6), spread: 0.20, exact: true} }
		a := noisyRun(rng, qds, law, wide)
		b := noisyRun(rng, qds, func(q int) float64 { return law(q) * (1 + diff[q]) }, wide)
		rows, out := compareRows(t, a, b)
		if len(rows) != len(qds) {
			t.Fatalf("pair %d: %d rows, want %d:\n%s", i, len(rows), len(qds), out)
		}
		for q, r := range rows {
			if r.verdict != "≈" || pct(t, r.noise) <= math.Abs(pct(t, r.dIOPS)) || pct(t, r.noise) <= 0.10 {
				t.Fatalf("pair %d, QD %d: %s off under slices spreading 20%%: verdict %q, noise %s:\n%s", i, q, r.dIOPS, r.verdict, r.noise, out)
			}
		}
		if v := verdictLine(out); !strings.HasPrefix(v, "B is within both runs' noise of A at QD 1, 2,") {
			t.Fatalf("pair %d: verdict %q", i, v)
		}

		tight := func(q int) sliceSpec { return sliceSpec{k: 3 + rng.IntN(18), spread: 0.02} }
		s := 0.30 * sign()
		a = noisyRun(rng, qds, law, tight)
		b = noisyRun(rng, qds, func(q int) float64 { return law(q) * (1 + s) }, tight)
		rows, out = compareRows(t, a, b)
		for q, r := range rows {
			if r.verdict != "real" {
				t.Fatalf("pair %d, QD %d: %s off under slices spreading 2%%: verdict %q, noise %s:\n%s", i, q, r.dIOPS, r.verdict, r.noise, out)
			}
		}
		if v := verdictLine(out); !strings.HasPrefix(v, "B differs from A beyond both runs' noise at QD 1 (") || strings.Contains(v, "within") {
			t.Fatalf("pair %d: verdict %q", i, v)
		}
		checkSwapped(t, a, b)
	}
}

// TestCompareLeavesOutWhatTheAnalysisLeftOut: a step either run's
// analysis left out (on burst credits, above the level that lasted,
// iodepth unknown) is shown with its deltas, marked † with its legend,
// and judged neither real nor within noise, though B is twice A there; a
// step with fewer than 3 slices is "?" and never real, though B is half
// again A; the verdicts do not depend on which run is A.
func TestCompareLeavesOutWhatTheAnalysisLeftOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 32))
	qds := []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	for i := 0; i < 40; i++ {
		law := randCurve(rng)
		out := map[int]string{} // QD → which run left it out
		few := map[int]string{} // QD → which run has too few slices
		for _, q := range qds {
			switch rng.IntN(5) {
			case 0:
				out[q] = []string{"A", "B"}[rng.IntN(2)]
			case 1:
				few[q] = []string{"A", "B"}[rng.IntN(2)]
			}
		}
		spec := func(run string) func(q int) sliceSpec {
			return func(q int) sliceSpec {
				if few[q] == run {
					return sliceSpec{k: rng.IntN(3), spread: 0.01, exact: true}
				}
				return sliceSpec{k: 4 + rng.IntN(10), spread: 0.01, exact: true}
			}
		}
		a := noisyRun(rng, qds, law, spec("A"))
		b := noisyRun(rng, qds, func(q int) float64 {
			switch {
			case out[q] != "":
				return 2 * law(q)
			case few[q] != "":
				return 1.5 * law(q)
			}
			return law(q)
		}, spec("B"))
		for _, st := range []*sweep.Result{a, b} {
			for j := range st.Steps {
				q := st.Steps[j].QD
				if out[q] == map[*sweep.Result]string{a: "A", b: "B"}[st] {
					switch rng.IntN(3) {
					case 0:
						st.Steps[j].Time = &diagnosis.StepTime{OnCreditsSec: 30}
					case 1:
						st.Steps[j].Time = &diagnosis.StepTime{AboveControl: true}
					default:
						st.Steps[j].IODepthUnknown = true // an import that did not say it
					}
				}
			}
		}
		rows, text := compareRows(t, a, b)
		verdict := verdictLine(text)
		for q, r := range rows {
			switch {
			case out[q] != "":
				if !r.marked || r.verdict != "left out" || !strings.HasPrefix(r.dIOPS, "×2") && r.dIOPS != "+100.0%" {
					t.Fatalf("pair %d, QD %d left out of %s's analysis: %+v:\n%s", i, q, out[q], r, text)
				}
				if !strings.Contains(verdict, fmt.Sprintf("%d† (", q)) && !strings.Contains(verdict, fmt.Sprintf("%d†,", q)) && !strings.Contains(verdict, fmt.Sprintf("%d† and", q)) {
					t.Fatalf("pair %d: QD %d† not named as left out in %q", i, q, verdict)
				}
			case few[q] != "":
				if r.marked || r.verdict != "?" || r.noise != "?" {
					t.Fatalf("pair %d, QD %d with too few slices in %s: %+v:\n%s", i, q, few[q], r, text)
				}
			default:
				if r.marked || r.verdict != "≈" {
					t.Fatalf("pair %d, QD %d, the same in both: %+v:\n%s", i, q, r, text)
				}
			}
		}
		// The sentence names a QD in its judged parts only when judged.
		judged, _, _ := strings.Cut(verdict, "not judged")
		judged, _, _ = strings.Cut(judged, "Not judged")
		for q := range out {
			if strings.Contains(judged, fmt.Sprintf(" %d,", q)) || strings.Contains(judged, fmt.Sprintf(" %d;", q)) || strings.Contains(judged, fmt.Sprintf(" %d (", q)) {
				t.Fatalf("pair %d: QD %d, left out, judged in %q", i, q, verdict)
			}
		}
		if len(out) > 0 && !strings.Contains(text, "† after the QD, left out: a step one run's analysis left out") {
			t.Fatalf("pair %d: no legend for †:\n%s", i, text)
		}
		checkSwapped(t, a, b)
	}
}

// checkSwapped fails when comparing b against a gives another verdict at
// some QD than a against b.
func checkSwapped(t *testing.T, a, b *sweep.Result) {
	t.Helper()
	ab, _ := compareRows(t, a, b)
	ba, text := compareRows(t, b, a)
	for q, r := range ab {
		if ba[q].verdict != r.verdict || ba[q].marked != r.marked {
			t.Fatalf("QD %d: %q against A, %q the other way round:\n%s", q, r.verdict, ba[q].verdict, text)
		}
	}
}

// TestCompareMarksNoise checks the numbers of one comparison: five slices
// spreading exactly 3% and 4% give se 1.34% and 1.79%, t 2.31 at 7.45
// degrees of freedom (Welch) and a noise column of ±5.2%; 2% apart is
// "≈", 25% apart real; a run with no slices is "?"; and each input's
// date, engine, target, steadiness and diagnosis are named.
func TestCompareMarksNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	qds := []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	law := func(q int) float64 { return 94000 * float64(q) / (float64(q) + 7) }
	a := noisyRun(rng, qds, law, func(int) sliceSpec { return sliceSpec{k: 5, spread: 0.03, exact: true} })
	b := noisyRun(rng, qds, func(q int) float64 {
		if q >= 64 {
			return law(q) * 1.25
		}
		return law(q) * 1.02
	}, func(int) sliceSpec { return sliceSpec{k: 5, spread: 0.04, exact: true} })
	b.Meta.Engine, b.Meta.Target = "libaio", "/dev/nvme1n1"
	b.Steps[0].Steady, b.Steps[0].NotSteady = false, "drift"
	b.Steps[8].Series = nil
	rows, out := compareRows(t, a, b)
	flat := strings.Join(strings.Fields(out), " ")
	for _, w := range []string{"A = A-run: - · io_uring · /dev/nvme0n2 · steady 9 of 9 steps",
		"B = B-run: - · libaio · /dev/nvme1n1 · steady 8 of 9 steps", "steady A/B",
		"Welch's t-test, 95% two-sided", "(4.30 at 2, 2.23 at 10, 1.96 with many)",
		"B differs from A beyond both runs' noise at QD 64 (+25.0% IOPS, beyond ±", "and 128 (+25.0% IOPS, beyond ±",
		"within it at QD 1, 2, 4, 8, 16 and 32", "not judged at QD 256 (noise unknown: B records no slices)"} {
		if !strings.Contains(flat, w) {
			t.Errorf("compare table lacks %q:\n%s", w, out)
		}
	}
	// se: 3% and 4% over √5; at 2% apart B's se is 1.02 × 1.79% of A.
	sa, sb := 0.03/math.Sqrt(5), 0.04/math.Sqrt(5)*1.02
	df := math.Pow(sa*sa+sb*sb, 2) / (math.Pow(sa, 4)/4 + math.Pow(sb, 4)/4)
	band := littleslaw.StudentQuantile(0.975, df) * math.Hypot(sa, sb)
	for q, r := range rows {
		want := "≈"
		switch {
		case q == 256:
			want = "?"
		case q >= 64:
			want = "real"
		}
		if r.verdict != want {
			t.Errorf("QD %d: verdict %q, want %q", q, r.verdict, want)
		}
		if q < 64 && r.noise != fmt.Sprintf("±%.1f%%", band*100) {
			t.Errorf("QD %d: noise %s, want ±%.1f%% (t %.3f at %.2f degrees of freedom)", q, r.noise, band*100, littleslaw.StudentQuantile(0.975, df), df)
		}
	}
	if r := rows[1]; r.dIOPS != "+2.0%" {
		t.Errorf("QD 1: Δ IOPS %s, want +2.0%% (shown, though within noise)", r.dIOPS)
	}

	dir := filepath.Join(t.TempDir(), "cmp")
	ins := []report.Input{{Name: "before", Result: a}, {Name: "after", Result: b}}
	if _, err := report.WriteCompare(outtest.Open(t, dir), ins, report.Options{}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "compare.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"| A | before | - | io\\_uring | /dev/nvme0n2 | 9 of 9 steps |", "| ≈ |", "| real |", "| ? |",
		"B differs from A beyond both runs' noise at QD 64"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("compare.md lacks %q:\n%s", w, md)
		}
	}
}

// TestCompareOneVerdictPerQD: noisy steps never make a 2× difference "≈",
// and IOPS and latency at one QD get one verdict: a mean latency ×1.5 at
// the same IOPS (the queue not kept full) is real too.
func TestCompareOneVerdictPerQD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	qds := []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	law := func(q int) float64 { return 94000 * float64(q) / (float64(q) + 7) }
	wide := func(int) sliceSpec { return sliceSpec{k: 20, spread: 0.3} }
	a := noisyRun(rng, qds, law, wide)
	b := noisyRun(rng, qds, func(q int) float64 { return 2 * law(q) }, wide)
	b.Steps[0] = a.Steps[0]
	b.Steps[0].Lat.MeanNs *= 1.5
	rows, out := compareRows(t, a, b)
	for q, r := range rows {
		if r.verdict != "real" {
			t.Errorf("QD %d: a 2× difference or a latency ×1.5 reads %q:\n%s", q, r.verdict, out)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "QD 1 (mean latency +50.0%, beyond its ±") {
		t.Errorf("the latency difference at QD 1 is not named:\n%s", out)
	}
}

// TestCompareLeftOutByTheAnalysis: the steps a run's own analysis leaves
// out are the ones compare marks. A's control step, measured again at the
// end, fell to 40k IOPS, so Analyze leaves A's steps above that level out
// (a level that did not last); B, the same device steady, is twice A
// there, and compare shows those rows marked †, not judged, while it
// judges the rest.
func TestCompareLeftOutByTheAnalysis(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	qds := []int{1, 2, 4, 8, 16, 32, 64}
	law := func(q int) float64 { return 94000 * float64(q) / (float64(q) + 7) }
	spec := func(int) sliceSpec { return sliceSpec{k: 8, spread: 0.02, exact: true} }
	a := noisyRun(rng, qds, law, spec)
	b := noisyRun(rng, qds, func(q int) float64 {
		if law(q) > 40000*(1+diagnosis.PlateauBand) {
			return 2 * law(q)
		}
		return law(q)
	}, spec)
	ctl := a.Steps[len(a.Steps)-1]
	ctl.IOPS, ctl.Lat.MeanNs = 40000, float64(ctl.QD)/40000*1e9
	a.Control = &sweep.ControlStep{Step: ctl, WasIOPS: a.Steps[len(a.Steps)-1].IOPS, Band: 0.05, Change: sweep.ControlFell}
	for _, r := range []*sweep.Result{a, b} {
		if err := r.Analyze(littleslaw.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	rows, out := compareRows(t, a, b)
	left := 0
	for _, st := range a.Steps {
		r := rows[st.QD]
		above := st.Time != nil && st.Time.AboveControl
		if above != (law(st.QD) > 40000*(1+diagnosis.PlateauBand)) {
			t.Fatalf("QD %d: analysis left it out %v at %.0f IOPS against a control of 40k", st.QD, above, st.IOPS)
		}
		switch {
		case above:
			left++
			if !r.marked || r.verdict != "left out" {
				t.Errorf("QD %d, left out of A's analysis: %+v:\n%s", st.QD, r, out)
			}
		case r.marked || r.verdict != "≈":
			t.Errorf("QD %d, in both analyses and alike: %+v:\n%s", st.QD, r, out)
		}
	}
	if left == 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "(left out of the analysis: A ran above the level that lasted)") {
		t.Errorf("%d rows left out, or the reason is not said:\n%s", left, out)
	}
}
