package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
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

// TestCompareMarksNoise checks that a difference inside the uncertainty of
// the inputs' step means reads "≈" and one outside it a percentage, that
// the noise column follows 2·√(σA² + σB²) with σ the standard error of a
// step's mean (its interval spread over √ of the intervals it is worth),
// and that each input's date, engine, target, steadiness and diagnosis
// are named.
func TestCompareMarksNoise(t *testing.T) {
	a := oneCurve(littleslaw.Options{})
	b := oneCurve(littleslaw.Options{})
	b.Meta.Engine, b.Meta.Target = "libaio", "/dev/nvme1n1"
	for i := range a.Steps {
		// 5 s at 250 ms slices, worth a third as many: σ = CV / √6.67, so
		// the band is 2·√(0.0116² + 0.0155²) = 3.9%.
		a.Steps[i].IOPSCV, b.Steps[i].IOPSCV = 0.03, 0.04
		f := 1.02 // inside the band
		if a.Steps[i].QD >= 64 {
			f = 1.25 // outside it
		}
		b.Steps[i].IOPS *= f
		b.Steps[i].Lat.MeanNs /= f
	}
	b.Steps[0].Steady, b.Steps[0].NotSteady = false, "drift"
	var buf bytes.Buffer
	ins := []report.Input{{Name: "before", Result: a}, {Name: "after", Result: b}}
	if err := report.CompareTable(&buf, ins, report.Options{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	flat := strings.Join(strings.Fields(out), " ")
	for _, w := range []string{"A = before: 2026-11-30 10:15 UTC · io_uring · /dev/nvme0n2 · steady 9 of 9 steps",
		"B = after: 2026-11-30 10:15 UTC · libaio · /dev/nvme1n1 · steady 8 of 9 steps", "steady A/B", "±3.9%"} {
		if !strings.Contains(flat, w) {
			t.Errorf("compare table lacks %q:\n%s", w, out)
		}
	}
	if len(a.Diagnosis) == 0 || !strings.Contains(flat, "steady 9 of 9 steps · "+string(a.Diagnosis[0].Rule)) {
		t.Errorf("compare table lacks A's diagnosis %v:\n%s", a.Diagnosis, out)
	}
	rows := 0
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) < 12 || !strings.HasPrefix(f[len(f)-1], "±") {
			continue
		}
		rows++
		qd, _ := strconv.Atoi(f[0])
		want := "≈"
		if qd >= 64 {
			want = "+25.0%"
		}
		if f[3] != want {
			t.Errorf("QD %d: Δ IOPS %q, want %q:\n%s", qd, f[3], want, out)
		}
		if wantSteady := map[bool]string{true: "yes/drift", false: "yes/yes"}[qd == 1]; f[len(f)-2] != wantSteady {
			t.Errorf("QD %d: steady %q, want %q", qd, f[len(f)-2], wantSteady)
		}
	}
	if rows != 9 {
		t.Errorf("%d delta rows, want 9:\n%s", rows, out)
	}

	dir := filepath.Join(t.TempDir(), "cmp")
	if _, err := report.WriteCompare(outtest.Open(t, dir), ins, report.Options{}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "compare.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"| A | before | 2026-11-30 10:15 UTC | io\\_uring | /dev/nvme0n2 | 9 of 9 steps |", "| ≈ |", "| +25.0% |"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("compare.md lacks %q:\n%s", w, md)
		}
	}
}

// TestCompareOneVerdictPerQD: noisy steps never make a 2× difference "≈"
// (the band stops at 10%), and IOPS and latency at one QD get one verdict:
// a latency outside the band makes the IOPS figure a percentage too.
func TestCompareOneVerdictPerQD(t *testing.T) {
	a, b := oneCurve(littleslaw.Options{}), oneCurve(littleslaw.Options{})
	ins := []report.Input{{Name: "before", Result: a}, {Name: "after", Result: b}}
	var buf bytes.Buffer
	for i := range a.Steps {
		a.Steps[i].IOPSCV, b.Steps[i].IOPSCV = 2, 2
		b.Steps[i].IOPS = a.Steps[i].IOPS * 2
		b.Steps[i].Lat.MeanNs = a.Steps[i].Lat.MeanNs / 2
	}
	b.Steps[0].IOPS, b.Steps[0].Lat.MeanNs = a.Steps[0].IOPS, a.Steps[0].Lat.MeanNs*1.5
	if err := report.CompareTable(&buf, ins, report.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(buf.String(), "\n") {
		f := strings.Fields(l)
		if len(f) >= 12 && strings.HasPrefix(f[len(f)-1], "±") && (f[3] == "≈" || f[6] == "≈") {
			t.Errorf("a 2× difference or a latency ×1.5 reads ≈: %s", l)
		}
	}
}
