package report_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

func TestWriteAllPNG(t *testing.T) {
	slo, err := littleslaw.ParseSLO("p99=5ms")
	if err != nil {
		t.Fatal(err)
	}
	r := fourCurves(littleslaw.Options{TargetIOPS: 100000, SLO: &slo}, pow2to256)
	dir := t.TempDir()
	paths, err := report.WriteAll(outtest.Open(t, dir), r, report.Options{TargetIOPS: 100000, SLO: &slo})
	if err != nil {
		t.Fatal(err)
	}
	// 4k and 16k curves: block sizes differ, so the bandwidth views are added.
	want := []string{"bandwidth-vs-qd.png", "dashboard.png", "iops-vs-qd.png", "latency-vs-bandwidth.png",
		"latency-vs-iops.png", "latency-vs-qd.png", "summary.md"}
	assertFiles(t, dir, paths, want)
	sizes := map[string][2]int{
		"iops-vs-qd.png": {1000, 640}, "latency-vs-qd.png": {1000, 640}, "bandwidth-vs-qd.png": {1000, 640},
		"latency-vs-iops.png": {1000, 640}, "latency-vs-bandwidth.png": {1000, 640}, "dashboard.png": {1600, 1200},
	}
	for name, wh := range sizes {
		img := decodePNG(t, filepath.Join(dir, name))
		if b := img.Bounds(); b.Dx() != wh[0] || b.Dy() != wh[1] {
			t.Errorf("%s is %d×%d, want %d×%d", name, b.Dx(), b.Dy(), wh[0], wh[1])
		}
		if s := inkShare(img); s < 0.02 || s > 0.6 {
			t.Errorf("%s: %.1f%% of pixels inked; a chart should be between 2%% and 60%%", name, 100*s)
		}
		for i := 0; i < 4; i++ {
			if n := colourCount(img, report.Palette[i]); n < 40 {
				t.Errorf("%s: series %d colour %v on %d pixels only", name, i, report.Palette[i], n)
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"# Queue-depth sweep", "## Steps", "### randwrite 16k", "## Analysis", "![Dashboard](dashboard.png)", "![IOPS vs queue depth](iops-vs-qd.png)", "![Bandwidth vs queue depth](bandwidth-vs-qd.png)", "| QD |"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("summary.md lacks %q", w)
		}
	}
}

func TestWriteAllSVG(t *testing.T) {
	dir := t.TempDir()
	paths, err := report.WriteAll(outtest.Open(t, dir), oneCurve(littleslaw.Options{}), report.Options{ChartFormat: "svg"})
	if err != nil {
		t.Fatal(err)
	}
	assertFiles(t, dir, paths, []string{"dashboard.svg", "iops-vs-qd.svg", "latency-vs-iops.svg", "latency-vs-qd.svg", "summary.md"})
	data, err := os.ReadFile(filepath.Join(dir, "iops-vs-qd.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "<svg") || !strings.Contains(string(data), "saturation QD") {
		t.Errorf("iops-vs-qd.svg is not an SVG with the knee label: %.200s", data)
	}
}

func TestWriteAllRefuses(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dir  func(t *testing.T) string
		r    *sweep.Result
		o    report.Options
		is   error
	}{
		{"no steps", func(t *testing.T) string { return filepath.Join(t.TempDir(), "out") },
			&sweep.Result{Schema: sweep.Schema}, report.Options{}, report.ErrNoSteps},
		{"only skipped steps", func(t *testing.T) string { return filepath.Join(t.TempDir(), "out") },
			&sweep.Result{Schema: sweep.Schema, Steps: []sweep.Step{{RW: "randread", BS: 4096, IODepth: 1, NumJobs: 1, QD: 1, Skipped: "resume"}}},
			report.Options{}, report.ErrNoSteps},
		{"nil result", func(t *testing.T) string { return filepath.Join(t.TempDir(), "out") }, nil, report.Options{}, report.ErrNoSteps},
		{"bad chart format", func(t *testing.T) string { return filepath.Join(t.TempDir(), "out") },
			oneCurve(littleslaw.Options{}), report.Options{ChartFormat: "jpeg"}, report.ErrChartFormat},
	}
	if _, err := guard.OpenOut(filepath.Join(file, "sub"), guard.OutOptions{}); !errors.Is(err, guard.ErrOutput) {
		t.Errorf("a directory under a file: %v, want a refusal", err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			paths, err := report.WriteAll(outtest.Open(t, dir), tc.r, tc.o)
			if err == nil {
				t.Fatalf("no error, wrote %v", paths)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want %v", err, tc.is)
			}
			if len(paths) != 0 {
				t.Errorf("wrote %v", paths)
			}
			if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
				t.Errorf("%s holds %v (%v), want nothing written", dir, ents, err)
			}
		})
	}
}

func TestWriteAllOneStep(t *testing.T) {
	r := fixture(false, littleslaw.Options{}, curveSpec{rw: "randread", bs: 4096, xmax: 50000, k: 4, depths: []int{1}})
	dir := t.TempDir()
	paths, err := report.WriteAll(outtest.Open(t, dir), r, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertFiles(t, dir, paths, []string{"summary.md"})
	md, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "No charts: 1 measured step") || !strings.Contains(string(md), "Only one measured step") {
		t.Errorf("summary.md does not say what cannot be shown:\n%s", md)
	}
}

// assertFiles checks that paths are exactly want inside dir and that dir
// holds nothing else (no temporary files left behind).
func assertFiles(t *testing.T, dir string, paths, want []string) {
	t.Helper()
	var got []string
	for _, p := range paths {
		if filepath.Dir(p) != dir {
			t.Errorf("%s written outside %s", p, dir)
		}
		got = append(got, filepath.Base(p))
	}
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("wrote %v, want %v", got, want)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The writer's manifest of what qdsweep wrote there is the one extra.
	ents = slices.DeleteFunc(ents, func(e os.DirEntry) bool { return e.Name() == guard.ManifestFile })
	if len(ents) != len(want) {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("%s holds %v, want only %v", dir, names, want)
	}
}
