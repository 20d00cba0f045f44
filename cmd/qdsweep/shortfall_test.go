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

// TestShortfallSaid: when a limit stops jobs from starting (here the
// user's process limit, RLIMIT_NPROC, as a user other than root, whom it
// does not bind), run and sweep measure with the jobs that started and say
// so on stderr and in their results: the limit, the jobs that ran and the
// in-flight mean against the depth.
func TestShortfallSaid(t *testing.T) {
	dir, exe, target := asOtherUser(t)
	shape := []string{"--filename=" + target, "--ioengine=psync", "--direct=1", "--rw=randread", "--bs=4k",
		"--iodepth=1", "--numjobs=64", "--runtime=200ms", "--ramp_time=0"}

	out := "run.json" // in dir, where the command runs
	stderr := underProcLimit(t, dir, 60, exe, append(append([]string{"run"}, shape...), "--time_based", "--output-format=qdsweep-json", "--output="+out)...)
	said := strings.Join(strings.Fields(stderr), " ") // unwrapped
	for _, want := range []string{"of 64 jobs started", "RLIMIT_NPROC (60)", "ulimit -u"} {
		if !strings.Contains(said, want) {
			t.Errorf("run's stderr lacks %q:\n%s", want, stderr)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, out))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Shortfall *ioengine.Shortfall `json:"inflight_shortfall"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if sf := doc.Shortfall; sf == nil || sf.Cause != ioengine.ShortfallLimit || sf.Limit != ioengine.LimitNproc || sf.JobsRun >= 64 || sf.QD != 64 {
		t.Errorf("run's JSON shortfall %+v, want RLIMIT_NPROC with fewer than 64 jobs of QD 64", doc.Shortfall)
	}

	res := filepath.Join(dir, "res")
	stderr = underProcLimit(t, dir, 60, exe, append(append([]string{"sweep"}, shape...), "--ss=0", "--output=res")...)
	if said := strings.Join(strings.Fields(stderr), " "); !strings.Contains(said, "QD 64 (1×64): only") || !strings.Contains(said, "RLIMIT_NPROC") {
		t.Errorf("sweep's stderr does not say the step fell short:\n%s", stderr)
	}
	r, err := sweep.Read(filepath.Join(res, sweep.ResultsJSON))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 1 || r.Steps[0].Shortfall == nil || r.Steps[0].Shortfall.Limit != ioengine.LimitNproc {
		t.Fatalf("sweep's step: %+v", r.Steps)
	}
}

// asOtherUser prepares a directory another user can write, with a copy of
// the binary and a laid-out target in it, and returns it with the names
// the commands use inside it (relative: the commands run there as the
// other user, who may not be able to pass through the directories above
// it, a $TMPDIR only root may enter); it skips where the test cannot
// switch users.
func asOtherUser(t *testing.T) (dir, exe, target string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the binary as another user")
	}
	for _, tool := range []string{"setpriv", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	dir = t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil { // the other user writes results here
		t.Fatal(err)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "qdsweep"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ioengine.CreateScratch(context.Background(), filepath.Join(dir, "target"), 8<<20); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "target"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, "./qdsweep", "target"
}

// underProcLimit runs exe with args as a uid no other test uses (the limit
// counts all of the user's threads) under RLIMIT_NPROC n, and returns its
// stderr; the command must succeed.
func underProcLimit(t *testing.T, dir string, n int, exe string, args ...string) string {
	t.Helper()
	c := exec.Command("bash", append([]string{"-c", `ulimit -u "$0" && exec setpriv --reuid=61234 --regid=61234 --clear-groups -- "$@"`, strconv.Itoa(n), exe}, args...)...)
	c.Dir = dir
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", args[0], err, firstLines(stderr.String(), 8))
	}
	return stderr.String()
}

// TestThreadLimitShortfall runs 64 jobs as an unprivileged user (a uid no
// other test uses: the limit counts all of the user's threads) whose
// process limit (RLIMIT_NPROC) leaves room for fewer threads: a thread the
// kernel refuses would be fatal to the Go runtime, so run starts only the
// jobs the limit allows (io_uring's kernel workers, threads of the process
// too, counted), measures with them and says so.
func TestThreadLimitShortfall(t *testing.T) {
	dir, exe, target := asOtherUser(t)
	for _, eng := range []string{"psync", "io_uring", "libaio"} {
		t.Run(eng, func(t *testing.T) {
			depth := "4"
			if eng == "psync" {
				depth = "1"
			}
			stderr := underProcLimit(t, dir, 60, exe, "run", "--filename="+target, "--direct=1", "--ioengine="+eng,
				"--iodepth="+depth, "--numjobs=64", "--runtime=200ms", "--time_based", "--ramp_time=0")
			said := strings.Join(strings.Fields(stderr), " ") // unwrapped
			for _, want := range []string{"of 64 jobs started", "RLIMIT_NPROC (60)", "ulimit -u"} {
				if !strings.Contains(said, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
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
