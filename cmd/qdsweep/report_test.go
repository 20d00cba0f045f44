package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// savedSweep writes a results directory holding a 9-step randread sweep
// (IOPS = 90k·N/(N+7)) and returns its path.
func savedSweep(t *testing.T, name string, xmax float64) string {
	t.Helper()
	r := &sweep.Result{Schema: sweep.Schema, Meta: sweep.Meta{Tool: "qdsweep", Version: "test",
		Start: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC), Target: "/dev/vdb", Engine: "io_uring"}}
	for d := 1; d <= 256; d *= 2 {
		q := float64(d)
		iops := xmax * q / (q + 7)
		mean := q / iops * 1e9
		r.Steps = append(r.Steps, sweep.Step{RW: "randread", BS: 4096, IODepth: d, NumJobs: 1, QD: d,
			IOPS: iops, BWBytes: iops * 4096, Lat: ioengine.Latency{MeanNs: mean, P50Ns: int64(mean), P99Ns: int64(2 * mean), P999Ns: int64(3 * mean)},
			InflightMean: q, Steady: true})
	}
	if err := r.Analyze(littleslaw.Options{}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := sweep.Write(outtest.Open(t, dir), r); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runMain runs the CLI in-process and returns stdout, stderr and the exit code.
func runMain(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	dir := t.TempDir()
	outF, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errF, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = outF, errF
	code := realMain(append([]string{"qdsweep"}, args...))
	os.Stdout, os.Stderr = oldOut, oldErr
	outF.Close()
	errF.Close()
	o, _ := os.ReadFile(outF.Name())
	e, _ := os.ReadFile(errF.Name())
	return string(o), string(e), code
}

func TestReportCommand(t *testing.T) {
	dir := savedSweep(t, "run1", 90000)
	out := filepath.Join(t.TempDir(), "rendered")
	stdout, stderr, code := runMain(t, "report", dir, "--out", out, "--target-iops", "50k", "--latency-slo", "p99=1ms", "--chart-format", "svg")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, w := range []string{"Saturates at", "50,000 IOPS needs", "p99 ≤ 1 ms", "Charts: " + filepath.Join(out, "dashboard.svg")} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
	for _, f := range []string{"summary.md", "iops-vs-qd.svg", "latency-vs-qd.svg", "latency-vs-iops.svg", "dashboard.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// Default --out is the results directory itself; results.json is read, not changed.
	before, _ := os.ReadFile(filepath.Join(dir, sweep.ResultsJSON))
	if _, stderr, code := runMain(t, "report", filepath.Join(dir, sweep.ResultsJSON)); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	after, _ := os.ReadFile(filepath.Join(dir, sweep.ResultsJSON))
	if string(before) != string(after) {
		t.Error("report changed results.json")
	}
	if _, err := os.Stat(filepath.Join(dir, "dashboard.png")); err != nil {
		t.Error(err)
	}
}

func TestReportBadInput(t *testing.T) {
	tmp := t.TempDir()
	good := savedSweep(t, "good", 90000)
	write := func(name, body string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	whole, err := os.ReadFile(filepath.Join(good, sweep.ResultsJSON))
	if err != nil {
		t.Fatal(err)
	}
	truncated := write("truncated.json", string(whole[:len(whole)/2]))
	otherSchema := write("other.json", `{"schema":"qdsweep/v9","steps":[]}`)
	noSteps := write("nosteps.json", `{"schema":"qdsweep/v1","steps":[]}`)
	plainFile := write("plain", "x")
	tests := []struct {
		name string
		args []string
		want string // in the one-line message
	}{
		{"no argument", []string{"report"}, "one results directory"},
		{"two arguments", []string{"report", good, good}, "one results directory"},
		{"missing file", []string{"report", filepath.Join(tmp, "nope.json")}, "nope.json"},
		{"truncated", []string{"report", truncated}, "truncated"},
		{"other schema", []string{"report", otherSchema}, "qdsweep/v9"},
		{"no steps", []string{"report", noSteps}, "no measured steps"},
		{"unwritable out", []string{"report", good, "--out", filepath.Join(plainFile, "sub")}, "--out"},
		{"bad chart format", []string{"report", good, "--chart-format", "gif"}, "--chart-format"},
		{"bad target", []string{"report", good, "--target-iops", "lots"}, "--target-iops"},
		{"bad slo", []string{"report", good, "--latency-slo", "p99"}, "--latency-slo"},
		{"unknown trailing flag", []string{"report", good, "--colour"}, "unknown flag"},
		{"compare one input", []string{"compare", good, "--out", filepath.Join(tmp, "c1")}, "at least two"},
		{"compare without out", []string{"compare", good, good}, "--out"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runMain(t, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr %q", code, stderr)
			}
			if n := strings.Count(strings.TrimSpace(stderr), "\n"); n != 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q: want one line containing %q", stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(tmp, "c1")); err == nil {
		t.Error("compare with one input created its --out directory")
	}
}

func TestCompareCommand(t *testing.T) {
	a := savedSweep(t, "before", 60000)
	b := savedSweep(t, "after", 90000)
	out := filepath.Join(t.TempDir(), "cmp")
	stdout, stderr, code := runMain(t, "compare", a, filepath.Join(b, sweep.ResultsJSON), "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, w := range []string{"Saturation points", "before · randread 4k", "B = after · randread 4k vs A = before · randread 4k", "Report: " + filepath.Join(out, "compare.md")} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
	for _, f := range []string{"compare.md", "iops-vs-qd.png", "latency-vs-qd.png", "latency-vs-iops.png", "dashboard.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}
