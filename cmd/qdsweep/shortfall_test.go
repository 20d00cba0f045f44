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
	said := strings.Join(strings.Fields(stderr), " ") // unwrapped
	for _, want := range []string{"of 16 jobs started", "RLIMIT_NOFILE (12)", "ulimit -n"} {
		if !strings.Contains(said, want) {
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
	if said := strings.Join(strings.Fields(stderr), " "); !strings.Contains(said, "QD 64 (4×16): only") || !strings.Contains(said, "RLIMIT_NOFILE") {
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

// TestThreadLimitShortfall runs 64 jobs as an unprivileged user (a uid no
// other test uses: the limit counts all of the user's threads) whose
// process limit (RLIMIT_NPROC) leaves room for fewer threads: a thread the
// kernel refuses would be fatal to the Go runtime, so run starts only the
// jobs the limit allows (io_uring's kernel workers, threads of the process
// too, counted), measures with them and says so.
func TestThreadLimitShortfall(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the binary as another user")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv not installed")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil { // the other user reaches the files
			t.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "qdsweep")
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target")
	if err := ioengine.CreateScratch(context.Background(), target, 8<<20); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, eng := range []string{"psync", "io_uring", "libaio"} {
		t.Run(eng, func(t *testing.T) {
			depth := "4"
			if eng == "psync" {
				depth = "1"
			}
			c := exec.Command("bash", "-c", `ulimit -u 60 && exec "$0" --reuid=61234 --regid=61234 --clear-groups -- "$@"`, setpriv,
				exe, "run", "--filename="+target, "--direct=1", "--ioengine="+eng, "--iodepth="+depth, "--numjobs=64",
				"--runtime=200ms", "--time_based", "--ramp_time=0")
			c.Dir = dir
			var stderr strings.Builder
			c.Stderr = &stderr
			if err := c.Run(); err != nil {
				t.Fatalf("%v\n%s", err, firstLines(stderr.String(), 5))
			}
			said := strings.Join(strings.Fields(stderr.String()), " ") // unwrapped
			for _, want := range []string{"of 64 jobs started", "RLIMIT_NPROC (60)", "ulimit -u"} {
				if !strings.Contains(said, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
		})
	}
}

// firstLines returns s's first n lines.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
