package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var runBin struct {
	once sync.Once
	path string
	err  error
}

// runBinary builds the qdsweep binary once for the CLI tests. It goes next
// to the test binary, in the work directory `go test` removes afterwards.
func runBinary(t *testing.T) string {
	t.Helper()
	runBin.once.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			runBin.err = err
			return
		}
		runBin.path = filepath.Join(filepath.Dir(exe), "qdsweep-cli")
		if out, err := exec.Command("go", "build", "-o", runBin.path, ".").CombinedOutput(); err != nil {
			runBin.err = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if runBin.err != nil {
		t.Fatalf("building qdsweep: %v", runBin.err)
	}
	return runBin.path
}

// runQdsweep runs the binary in dir and returns stdout, stderr and the exit code.
func runQdsweep(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(runBinary(t), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

// TestRunFioCommandLine runs a fio command line with fio swapped for
// `qdsweep run` (both --k=v and --k v) and reads its JSON.
func TestRunFioCommandLine(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "data")
	stdout, stderr, code := runQdsweep(t, dir, "run", "--name=x", "--filename="+target, "--ioengine=libaio", "--direct=1",
		"--rw=randrw", "--rwmixread", "70", "--bs=4k", "--iodepth", "8", "--numjobs=2", "--runtime=0.3", "--ramp_time", "0",
		"--time_based", "--group_reporting", "--size=16M", "--output-format=json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Engine   string  `json:"engine"`
		RW       string  `json:"rw"`
		BS       int64   `json:"bs"`
		IODepth  int     `json:"iodepth"`
		NumJobs  int     `json:"numjobs"`
		Runtime  int64   `json:"runtime_ns"`
		TotalIOs int64   `json:"total_ios"`
		IOPS     float64 `json:"iops"`
		Lat      struct {
			Mean float64 `json:"mean"`
			P999 int64   `json:"p999"`
		} `json:"lat_ns"`
		Inflight float64                 `json:"inflight_mean"`
		CPU      map[string]any          `json:"cpu"`
		Errors   []any                   `json:"errors"`
		Read     *struct{ IOPS float64 } `json:"read"`
		Write    *struct{ IOPS float64 } `json:"write"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
	}
	if doc.Engine != "libaio" || doc.RW != "randrw" || doc.BS != 4096 || doc.IODepth != 8 || doc.NumJobs != 2 {
		t.Fatalf("echoed workload wrong: %+v", doc)
	}
	if doc.TotalIOs == 0 || doc.Runtime <= 0 || doc.Lat.Mean <= 0 || doc.Lat.P999 <= 0 || doc.Errors == nil || doc.CPU == nil {
		t.Fatalf("figures missing: %+v", doc)
	}
	if doc.Read == nil || doc.Write == nil || math.Abs(doc.Read.IOPS+doc.Write.IOPS-doc.IOPS) > 1 {
		t.Fatalf("read/write sub-objects: %+v %+v", doc.Read, doc.Write)
	}
	if !strings.Contains(stderr, "laying out") {
		t.Fatalf("expected the layout note on stderr, got %q", stderr)
	}
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("a named target qdsweep created is kept (as fio does): %v", err)
	}
}

// TestRunScratchRemoved runs without --filename: the scratch file is laid out and removed.
func TestRunScratchRemoved(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runQdsweep(t, dir, "run", "--size=8m", "--runtime=200ms", "--ramp_time=0", "--iodepth=4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"randread 4 KiB, iodepth 4 × 1 job", "IOPS", "p99.9", "in flight", "CPU"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	for _, l := range strings.Split(stdout, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line over 80 columns: %q", l)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "qdsweep.scratch")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("scratch file left behind: %v", err)
	}
}

// TestRunBadInput checks that bad input exits 2 with one line naming the flag, writing nothing.
func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing")
	if err := os.WriteFile(existing, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--bs=1000", "--filename=" + existing}, "--bs"},
		{[]string{"--bs=4q"}, "--bs"},
		{[]string{"--size=lots"}, "--size"},
		{[]string{"--runtime=soon"}, "--runtime"},
		{[]string{"--ramp_time=-1"}, "--ramp_time"},
		{[]string{"--io_timeout=x"}, "--io_timeout"},
		{[]string{"--rw=randomread"}, "--rw"},
		{[]string{"--ioengine=spdk"}, "--ioengine"},
		{[]string{"--iodepth=0"}, "--iodepth"},
		{[]string{"--numjobs=0"}, "--numjobs"},
		{[]string{"--ioengine=psync", "--iodepth=8"}, "--numjobs=8"},
		{[]string{"--rwmixread=120"}, "--rwmixread"},
		{[]string{"--direct=2"}, "--direct"},
		{[]string{"--output-format=xml"}, "--output-format"},
		{[]string{"--filename=" + filepath.Join(dir, "missing", "f")}, "--filename"},
		{[]string{"--rw=randwrite", "--filename=" + existing}, "--allow-write"},
		{[]string{"--filename=" + existing, "--size=2m"}, "--size"},
		{[]string{"--no-such-flag"}, "no-such-flag"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			stdout, stderr, code := runQdsweep(t, dir, append([]string{"run", "--runtime=100ms"}, c.args...)...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], c.want) {
				t.Fatalf("stderr %q: want one line naming %q", stderr, c.want)
			}
			if stdout != "" {
				t.Fatalf("stdout not empty: %q", stdout)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Fatalf("bad input wrote files: %v", entries)
			}
		})
	}
}
