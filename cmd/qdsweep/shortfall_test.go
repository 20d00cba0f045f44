package main_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

// underFileLimit runs the binary with args under an open-file limit of n
// (soft and hard, so the program cannot raise it) and returns stderr.
func underFileLimit(t *testing.T, dir string, n int, args ...string) string {
	t.Helper()
	c := exec.Command("sh", append([]string{"-c", `ulimit -n "$0" && exec "$@"`, strconv.Itoa(n), bin}, args...)...)
	c.Dir = dir
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stderr.String())
	}
	return stderr.String()
}

// TestShortfallSaid: when a limit stops jobs from starting (here the
// open-file limit, one io_uring ring per job), run and sweep measure with
// the jobs that started and say so on stderr and in their results: the
// limit, the jobs that ran and the in-flight mean against the depth.
func TestShortfallSaid(t *testing.T) {
	if e, _, err := ioengine.New(ioengine.EngineIOUring); err != nil || e.Name() != ioengine.EngineIOUring {
		t.Skip("io_uring unavailable here")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := ioengine.CreateScratch(context.Background(), target, 8<<20); err != nil {
		t.Fatal(err)
	}
	shape := []string{"--filename=" + target, "--ioengine=io_uring", "--direct=1", "--rw=randread", "--bs=4k",
		"--iodepth=4", "--numjobs=16", "--runtime=200ms", "--ramp_time=0"}

	out := filepath.Join(dir, "run.json")
	stderr := underFileLimit(t, dir, 12, append(append([]string{"run"}, shape...), "--time_based", "--output-format=json", "--output="+out)...)
	for _, want := range []string{"of 16 jobs started", "RLIMIT_NOFILE (12)", "ulimit -n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("run's stderr lacks %q:\n%s", want, stderr)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Shortfall *ioengine.Shortfall `json:"inflight_shortfall"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if sf := doc.Shortfall; sf == nil || sf.Cause != ioengine.ShortfallLimit || sf.Limit != ioengine.LimitNofile || sf.JobsRun >= 16 || sf.QD != 64 {
		t.Errorf("run's JSON shortfall %+v, want RLIMIT_NOFILE with fewer than 16 jobs of QD 64", doc.Shortfall)
	}

	res := filepath.Join(dir, "res")
	stderr = underFileLimit(t, dir, 16, append(append([]string{"sweep"}, shape...), "--ss=0", "--output="+res)...)
	if !strings.Contains(stderr, "QD 64 (4×16): only") || !strings.Contains(stderr, "RLIMIT_NOFILE") {
		t.Errorf("sweep's stderr does not say the step fell short:\n%s", stderr)
	}
	r, err := sweep.Read(filepath.Join(res, sweep.ResultsJSON))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 1 || r.Steps[0].Shortfall == nil || r.Steps[0].Shortfall.Limit != ioengine.LimitNofile {
		t.Fatalf("sweep's step: %+v", r.Steps)
	}
}
