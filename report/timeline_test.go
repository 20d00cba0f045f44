package report_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// burstResult sweeps a simulated volume with 3000 burst credits at 8000
// IOPS over a 2000 IOPS baseline (a 0.5 s burst at the cap).
func burstResult(t *testing.T) *sweep.Result {
	t.Helper()
	sim := ioengine.SimConfig{Latency: time.Millisecond, IOPS: 2000, BurstIOPS: 8000, BurstCredits: 3000, Seed: 1}
	cfg := sweep.Config{Engine: ioengine.NewSim(sim), Workload: ioengine.Workload{RandSeed: 1}, Runtime: 1200 * time.Millisecond,
		Steady: sweep.SteadyConfig{Interval: 50 * time.Millisecond, Window: 400 * time.Millisecond}, LogInterval: 50 * time.Millisecond}
	r := sweep.NewResult(sweep.Meta{Engine: "sim", Simulated: true},
		sweep.NewPlan([]ioengine.RW{ioengine.RandRead}, []int64{4096}, []int{2, 16, 64}, []int{1}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if err := r.Analyze(littleslaw.Options{TargetIOPS: 3000}); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTimelineAndBurstWords: the report draws timeline.png (and a taller
// dashboard with its row) and says, beside the saturation and the target,
// that they use the sustained level, with the burst-credits finding.
func TestTimelineAndBurstWords(t *testing.T) {
	r := burstResult(t)
	dir := t.TempDir()
	files, err := report.WriteAll(outtest.Open(t, dir), r, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tl, dash string
	for _, f := range files {
		switch filepath.Base(f) {
		case report.ChartTimeline + ".png":
			tl = f
		case report.ChartDashboard + ".png":
			dash = f
		}
	}
	if tl == "" || dash == "" {
		t.Fatalf("files %v: want timeline.png and dashboard.png", files)
	}
	for _, f := range []string{tl, dash} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w < 1000 || h < 600 {
			t.Errorf("%s is %d×%d", f, w, h)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	text := string(md)
	for _, want := range []string{"sustained 2k IOPS", "burst-credits", "burst credits ran out", "8k IOPS"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	var adv bytes.Buffer
	for _, c := range report.TimeCaveats(r.Analysis[0]) {
		adv.WriteString(c + "\n")
	}
	if !strings.Contains(adv.String(), "sustained level") {
		t.Errorf("advice caveats %q lack the sustained level", adv.String())
	}
}

// TestWriteRunTimeQuiet: a series with no pattern adds no words to run's output.
func TestWriteRunTimeQuiet(t *testing.T) {
	var ivs []ioengine.Interval
	for i := 0; i < 20; i++ {
		ivs = append(ivs, ioengine.Interval{StartNs: int64(i) * 1e8, DurNs: 1e8, IOs: 1000, ReadIOPS: 10000, LatMeanNs: 1e5, InflightMean: 1})
	}
	var b bytes.Buffer
	if err := report.WriteRunTime(&b, 1, ivs); err != nil || b.Len() != 0 {
		t.Errorf("flat series: %q, %v", b.String(), err)
	}
}
