package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSeries: run's JSON holds the --log-interval slices, and its text
// says when the simulated volume's burst credits ran out.
func TestRunSeries(t *testing.T) {
	dir := t.TempDir()
	sim := []string{"run", "--ioengine=sim", "--sim_latency=1ms", "--sim_iops=2000", "--sim_burst_iops=8000", "--sim_burst_credits=2000",
		"--iodepth=16", "--runtime=1s", "--ramp_time=0", "--time_based", "--log-interval=50ms"}
	stdout, stderr, code := runQdsweep(t, dir, append(sim, "--output-format=qdsweep-json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Series []struct {
			IOs  int64   `json:"ios"`
			IOPS float64 `json:"r_iops"`
		} `json:"series"`
		TotalIOs int64 `json:"total_ios"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, s := range doc.Series {
		n += s.IOs
	}
	if len(doc.Series) != 20 || n != doc.TotalIOs {
		t.Errorf("%d slices with %d I/Os; want 20 holding all %d", len(doc.Series), n, doc.TotalIOs)
	}
	stdout, stderr, code = runQdsweep(t, dir, append(sim, "--output-format=qdsweep")...)
	if code != 0 || !strings.Contains(stdout, "Burst credits ran out") {
		t.Errorf("exit %d, text lacks the burst:\n%s%s", code, stdout, stderr)
	}
	if _, _, code := runQdsweep(t, dir, "run", "--ioengine=sim", "--log-interval=1ms"); code != 2 {
		t.Errorf("--log-interval=1ms: exit %d, want 2", code)
	}
}

// TestImportFioLogs imports fio 3.33's JSON with its iops and latency logs:
// the step keeps fio's slices.
func TestImportFioLogs(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "fio", "testdata", "logs"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var args []string
	for _, f := range []string{"qd4.json", "qd4_iops.1.log", "qd4_lat.1.log"} {
		args = append(args, filepath.Join(src, f))
	}
	out := filepath.Join(dir, "imp")
	_, stderr, code := runQdsweep(t, dir, append([]string{"import", "fio", "--output=" + out}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Steps []struct {
			Series *struct {
				Source string `json:"source"`
				Points []any  `json:"points"`
			} `json:"series"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Steps) != 1 {
		t.Fatalf("results: %v", err)
	}
	if s := r.Steps[0].Series; s == nil || s.Source != "fio-logs" || len(s.Points) != 7 {
		t.Errorf("series %+v, want fio's 7 logged windows", s)
	}
	if _, err := os.Stat(filepath.Join(out, "timeline.png")); err != nil {
		t.Errorf("no timeline: %v", err)
	}
}
