package report_test

import (
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestLabelsClearOfLines renders every chart and dashboard of several
// results and comparisons, then renders them again with the labels hidden,
// and checks that no label box covers a pixel of a line, point or glyph,
// and that no two labels overlap: on the rendered layout, not by eye.
func TestLabelsClearOfLines(t *testing.T) {
	slo := littleslaw.SLO{Stat: "p99", LimitNs: 5e6}
	sample := func(name string) *sweep.Result {
		r, err := sweep.Read(filepath.Join("..", "examples", "data", name, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Analyze(littleslaw.Options{}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	one := oneCurve(littleslaw.Options{})
	four := fourCurves(littleslaw.Options{}, pow2to256)
	seq := fixture(false, littleslaw.Options{}, curveSpec{rw: "read", bs: 1 << 20, xmax: 2400, k: 2, numjobs: []int{1, 4}, depths: []int{1, 2, 4, 8, 16, 32, 64}})
	cases := []struct {
		name string
		ins  []report.Input
		o    report.Options
	}{
		{"one curve with target and SLO", []report.Input{{Name: "one", Result: one}}, report.Options{TargetIOPS: 120000, SLO: &slo}},
		{"four curves, two block sizes", []report.Input{{Name: "four", Result: four}}, report.Options{}},
		{"1 MiB reads, two job counts", []report.Input{{Name: "seq", Result: seq}}, report.Options{}},
		{"sample: four block sizes", []report.Input{{Name: "bs", Result: sample("disk-randread-bs")}}, report.Options{}},
		{"sample: tmpfs", []report.Input{{Name: "tmpfs", Result: sample("tmpfs-randread-4k")}}, report.Options{TargetIOPS: 40000}},
		{"compare samples", []report.Input{{Name: "disk-randread-4k", Result: sample("disk-randread-4k")},
			{Name: "fio-randread-4k", Result: sample("fio-randread-4k")}}, report.Options{}},
		{"compare one vs four", []report.Input{{Name: "before", Result: one}, {Name: "after", Result: four}}, report.Options{}},
	}
	total := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clashes, placed, dropped, err := report.CheckLabelLayout(tc.ins, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range clashes {
				t.Errorf("%s: label %q covers %d inked pixels, first %s (overlaps another label: %v)", c.Chart, c.Label, c.Ink, c.First, c.Overlap)
			}
			t.Logf("%d labels placed, %d left out for want of room", placed, dropped)
			if dropped > 0 { // a label may be left out rather than drawn over a line, but none of these needs to be
				t.Errorf("%d labels left out", dropped)
			}
			total += placed
		})
	}
	if total < 20 {
		t.Errorf("only %d labels placed over all charts: the check saw too little", total)
	}
}
