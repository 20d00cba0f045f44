package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

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
	paths, err := report.WriteCompare(dir, ins, report.Options{})
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
	if _, err := report.WriteCompare(t.TempDir(), one, report.Options{}); err == nil {
		t.Error("WriteCompare of one result: no error")
	}
	if err := report.CompareTable(&bytes.Buffer{}, one, report.Options{}); err == nil {
		t.Error("CompareTable of one result: no error")
	}
}
