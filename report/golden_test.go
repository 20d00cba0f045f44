package report_test

import (
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// TestGoldenImages renders one chart of every kind from fixed results
// (hand-written analysis, so fitting changes do not move them) and compares
// it with its image in testdata/ by perceived colour, tolerating font
// rasteriser differences. A failed comparison writes what was rendered and
// a diff image (differing pixels red over a faded golden) beside the
// golden, as NAME.got.png and NAME.diff.png (ignored by git).
// Regenerate with: go test ./report -run TestGoldenImages -update, then
// look at every image before committing it.
func TestGoldenImages(t *testing.T) {
	slo := littleslaw.SLO{Stat: "p99", LimitNs: 5e6}
	one := handAnalysed(oneCurve(littleslaw.Options{}), 128, 8)
	four := handAnalysed(fixture(false, littleslaw.Options{},
		curveSpec{rw: "randread", bs: 4096, xmax: 140000, k: 12, depths: pow2to256},
		curveSpec{rw: "randread", bs: 16384, xmax: 60000, k: 5, depths: pow2to256},
		curveSpec{rw: "randwrite", bs: 4096, xmax: 40000, k: 3, depths: pow2to256},
	), 64, 4)
	sameBS := handAnalysed(fixture(false, littleslaw.Options{},
		curveSpec{rw: "randread", bs: 4096, xmax: 140000, k: 12, depths: pow2to256},
		curveSpec{rw: "randwrite", bs: 4096, xmax: 40000, k: 3, depths: pow2to256},
		curveSpec{rw: "randrw", bs: 4096, xmax: 70000, k: 6, depths: pow2to256},
		curveSpec{rw: "read", bs: 4096, xmax: 180000, k: 16, depths: pow2to256},
	), 64, 4)
	mixed := handAnalysed(fixture(false, littleslaw.Options{},
		curveSpec{rw: "randread", bs: 4096, xmax: 95000, k: 7, depths: pow2to256[:8]},
		curveSpec{rw: "randread", bs: 64 << 10, xmax: 20000, k: 3, depths: pow2to256[:8]},
		curveSpec{rw: "read", bs: 1 << 20, xmax: 1400, k: 1.5, depths: pow2to256[:6]},
	), 16, 2)
	after := handAnalysed(fixture(false, littleslaw.Options{}, curveSpec{rw: "randread", bs: 4096, xmax: 99000, k: 6, depths: pow2to256}), 64, 8)
	after.Meta.Engine, after.Meta.Target = "libaio", "/dev/nvme1n1"
	after.Meta.Start = after.Meta.Start.Add(26 * 3600e9)
	for i := range after.Steps {
		after.Steps[i].IOPSCV = 0.02
	}
	compare := func(file string, ins ...report.Input) func(dir string) (string, error) {
		return func(dir string) (string, error) {
			_, err := report.WriteCompare(outtest.Open(t, dir), ins, report.Options{})
			return filepath.Join(dir, file), err
		}
	}
	writeAll := func(r *sweep.Result, file string, o report.Options) func(dir string) (string, error) {
		return func(dir string) (string, error) {
			_, err := report.WriteAll(outtest.Open(t, dir), r, o)
			return filepath.Join(dir, file), err
		}
	}
	cases := []struct {
		golden string // file in testdata/
		write  func(dir string) (string, error)
	}{
		{"golden-dashboard.png", writeAll(one, "dashboard.png", report.Options{TargetIOPS: 120000, SLO: &slo})},
		{"golden-compare-iops.png", compare("iops-vs-qd.png", report.Input{Name: "before", Result: one}, report.Input{Name: "after", Result: four})},
		{"golden-compare-dashboard.png", compare("dashboard.png", report.Input{Name: "nvme0n2", Result: one}, report.Input{Name: "nvme1n1", Result: after})},
		{"golden-latency-multi.png", writeAll(sameBS, "latency-vs-qd.png", report.Options{SLO: &slo})},
		{"golden-bandwidth.png", writeAll(mixed, "bandwidth-vs-qd.png", report.Options{})},
		{"golden-iops-panels.png", writeAll(mixed, "iops-vs-qd.png", report.Options{})},
		{"golden-hockey-bandwidth.png", writeAll(mixed, "latency-vs-bandwidth.png", report.Options{})},
		{"golden-bandwidth-dashboard.png", writeAll(mixed, "dashboard.png", report.Options{})},
	}
	for _, tc := range cases {
		t.Run(strings.TrimSuffix(tc.golden, ".png"), func(t *testing.T) {
			got, err := tc.write(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
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
			gi, wi := decodePNG(t, got), decodePNG(t, golden)
			share := differingShare(gi, wi, 0.1)
			if share <= 0.005 {
				return
			}
			base := strings.TrimSuffix(golden, ".png")
			if data, err := os.ReadFile(got); err == nil {
				_ = os.WriteFile(base+".got.png", data, 0o644)
			}
			if err := writeDiff(base+".diff.png", gi, wi, 0.1); err != nil {
				t.Log(err)
			}
			t.Errorf("%s differs from %s on %.2f%% of pixels (tolerance 0.5%%); see %s.got.png and %s.diff.png, "+
				"then rerun with -update if the change is wanted", tc.golden, golden, 100*share, base, base)
		})
	}
}

// writeDiff writes a PNG of golden faded to a fifth of its contrast with
// every pixel that differs from got by more than delta (as differingShare
// counts them) in red.
func writeDiff(path string, got, golden image.Image, delta float64) error {
	b := golden.Bounds()
	out := image.NewRGBA(b)
	const maxDiff = 35215.0
	lim := maxDiff * delta * delta
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := golden.At(x, y)
			if !got.Bounds().Empty() && (image.Point{X: x, Y: y}).In(got.Bounds()) && yiq2(got.At(x, y), c) > lim {
				out.Set(x, y, color.RGBA{0xE0, 0x00, 0x00, 0xFF})
				continue
			}
			r, g, bl, _ := c.RGBA()
			fade := func(v uint32) uint8 { return uint8(0xFF - (0xFF-v>>8)/5) }
			out.Set(x, y, color.RGBA{fade(r), fade(g), fade(bl), 0xFF})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, out); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
