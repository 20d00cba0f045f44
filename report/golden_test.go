package report_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// TestGoldenImages renders charts of fixed results (hand-written analysis,
// so fitting changes do not move them) and compares them with the images
// in testdata/ by perceived colour, tolerating font rasteriser differences.
// Regenerate with: go test ./report -run TestGoldenImages -update
func TestGoldenImages(t *testing.T) {
	slo := littleslaw.SLO{Stat: "p99", LimitNs: 5e6}
	one := handAnalysed(oneCurve(littleslaw.Options{}), 128, 8)
	four := handAnalysed(fixture(false, littleslaw.Options{},
		curveSpec{rw: "randread", bs: 4096, xmax: 140000, k: 12, depths: pow2to256},
		curveSpec{rw: "randread", bs: 16384, xmax: 60000, k: 5, depths: pow2to256},
		curveSpec{rw: "randwrite", bs: 4096, xmax: 40000, k: 3, depths: pow2to256},
	), 64, 4)
	cases := []struct {
		name   string
		golden string // file in testdata/
		write  func(dir string) ([]string, error)
		file   string // file of the output compared
	}{
		{"dashboard of a 9-step sweep", "golden-dashboard.png",
			func(dir string) ([]string, error) {
				return report.WriteAll(dir, one, report.Options{TargetIOPS: 120000, SLO: &slo})
			}, "dashboard.png"},
		{"IOPS chart of a 4-curve compare", "golden-compare-iops.png",
			func(dir string) ([]string, error) {
				return report.WriteCompare(dir, []report.Input{{Name: "before", Result: one}, {Name: "after", Result: four}}, report.Options{})
			}, "iops-vs-qd.png"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := tc.write(dir); err != nil {
				t.Fatal(err)
			}
			got := filepath.Join(dir, tc.file)
			golden := filepath.Join("testdata", tc.golden)
			if *update {
				data, err := os.ReadFile(got)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, data, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			share := differingShare(decodePNG(t, got), decodePNG(t, golden), 0.1)
			if share > 0.005 {
				t.Errorf("%s differs from %s on %.2f%% of pixels (tolerance 0.5%%); look at both, then rerun with -update if the change is wanted",
					got, golden, 100*share)
			}
		})
	}
}
