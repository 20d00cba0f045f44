package main_test

// The outputs of a fixed set of commands whose answers do not depend on a
// measurement (help, report, import, compare, explain, diagnose and advise
// of committed results, fio outputs and numbers, job files emitted, refusals), byte
// for byte: stdout, stderr, the exit status and every file written with
// its SHA-256. They hold the command line's mapping and the publish step
// still: a change of any of them shows here. go test ./cmd/qdsweep -run
// Golden -update rewrites testdata/golden.txt.

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt")

// goldenCases are the commands, run one after another in one directory
// (a later one may read what an earlier one wrote). res1 and res2 are
// committed sweeps, fio-qd*.json committed fio outputs. A case whose name
// starts with "m" measures (the simulated device): only the names of the
// results it writes are kept, and its own output is left out.
var goldenCases = []struct {
	name  string
	stdin string // file fed on standard input ("": none)
	args  []string
}{
	{"help-sweep", "", []string{"sweep", "--help"}},
	{"help-run", "", []string{"run", "--help"}},
	{"help-report", "", []string{"report", "--help"}},
	{"help-compare", "", []string{"compare", "--help"}},
	{"help-explain", "", []string{"explain", "--help"}},
	{"help-import", "", []string{"import", "fio", "--help"}},
	{"report", "", []string{"report", "res1", "--output", "rep1"}},
	{"report-svg", "", []string{"report", "res2/results.json", "--output", "rep2", "--chart-format", "svg", "--target-iops", "30k", "--latency-slo", "p99=1ms", "--device-stats"}},
	{"report-noargs", "", []string{"report"}},
	{"import", "", []string{"import", "fio", "fio-qd1.json", "fio-qd4.json", "fio-qd16.json", "fio-qd64.json", "--output", "imp1", "--target-iops", "50k"}},
	{"import-quiet", "", []string{"import", "fio", "fio-qd1.json", "fio-qd4.json", "--output", "imp2", "-q"}},
	{"import-missing", "", []string{"import", "fio", "nothere.json", "--output", "imp3"}},
	{"compare", "", []string{"compare", "res1", "res2", "--output", "cmp1", "--target-iops", "20k"}},
	{"compare-noout", "", []string{"compare", "res1", "res2"}},
	{"explain", "", []string{"explain", "fio-qd4.json", "fio-qd16.json"}},
	{"explain-json", "", []string{"explain", "--output-format=json", "--target-iops", "100k", "fio-qd64.json"}},
	{"explain-stdin", "fio-qd1.json", []string{"explain", "-", "--base-latency", "40us"}},
	{"diagnose", "", []string{"diagnose", "res1"}},
	{"diagnose-json", "", []string{"diagnose", "res1", "--output-format=json", "--target-iops", "40k"}},
	{"advise-numbers", "", []string{"advise", "--target-iops", "160000", "--latency", "2ms", "--cpus", "2"}},
	{"advise-table-json", "", []string{"advise", "--table", "--output-format=json"}},
	{"advise-from", "", []string{"advise", "--from", "res1", "--target-iops", "30k", "--cpus", "2", "--max-jobs", "2"}},
	{"sweep-bad-rw", "", []string{"sweep", "--rw", "bogus", "--sim=latency=1ms"}},
	{"sweep-sim-no-engine", "", []string{"sweep", "--sim_latency=1ms"}},
	{"sweep-sim-psync", "", []string{"sweep", "--sim=latency=1ms", "--ioengine=psync"}},
	{"sweep-fio-arg", "", []string{"sweep", "--fio-arg=--thread", "--sim=latency=1ms"}},
	{"sweep-bad-jobfile", "", []string{"sweep", "--jobfile", "bad-rw.fio", "--sim=latency=1ms"}},
	{"sweep-resume-plan", "", []string{"sweep", "--resume", "res1", "--iodepth", "1,3"}},
	{"sweep-runtime0", "", []string{"sweep", "--runtime=0", "--sim=latency=1ms"}},
	{"sweep-output-taken", "", []string{"sweep", "--sim=latency=1ms", "--output", "res1"}},
	{"msweep-emit-jobs", "", []string{"sweep", "--sim=latency=1ms,iops=20000", "--iodepth", "1,2", "--rw", "randread,read", "--bs", "4k,64k",
		"--emit-fio-jobs", "jobs1", "--filename", "tgt.bin", "--size", "4m", "--runtime", "200ms", "--ramp_time", "0", "--output", "sw1", "-q"}},
	{"msweep-jobfile", "", []string{"sweep", "--jobfile", "one.fio", "--sim=latency=1ms", "--iodepth", "1,2", "--emit-fio-jobs", "jobs2",
		"--runtime", "200ms", "--ramp_time", "0", "--output", "sw2", "-q"}},
	{"sweep-resume-output", "", []string{"sweep", "--resume", "sw1", "--output", "elsewhere"}},
	{"sweep-resume-sim", "", []string{"sweep", "--resume", "sw1", "--sim_latency=2ms"}},
	{"run-parse-only", "", []string{"run", "--parse-only", "--rw=randread", "--bs=4k", "--size=4m", "--filename=x.bin"}},
	{"run-parse-only-job", "", []string{"run", "--parse-only", "one.fio"}},
	{"run-bad-format", "", []string{"run", "--output-format=xml", "--ioengine=sim", "--size=4m"}},
	{"run-fio-clients", "", []string{"run", "--ioengine=sim", "--fio-clients=h1", "--size=4m"}},
}

func TestGoldenOutputs(t *testing.T) {
	w := t.TempDir()
	for _, c := range [][2]string{
		{"../../examples/data/disk-randread-4k", "res1"}, {"../../examples/data/fio-randread-4k", "res2"},
		{"../../examples/fio", "."}, {"testdata/jobs/bad-rw.fio", "bad-rw.fio"},
	} {
		if fi, err := os.Stat(c[0]); err != nil || !fi.IsDir() {
			copyFile(t, c[0], filepath.Join(w, c[1]))
		} else if err := os.CopyFS(filepath.Join(w, c[1]), os.DirFS(c[0])); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(w, "one.fio"), []byte("[j]\nrw=randread\nbs=16k\niodepth=4\nnumjobs=2\nsize=8m\nruntime=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	fmt.Fprintf(&got, "cpus %d\n", runtime.NumCPU()) // explain's splits are the machine's
	measured := map[string]bool{}
	for _, c := range goldenCases {
		before := tree(t, w)
		cmd := exec.Command(bin, c.args...)
		cmd.Dir = w
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if c.stdin != "" {
			f, err := os.Open(filepath.Join(w, c.stdin))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stdin = f
		}
		code := 0
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("%s: %v", c.name, err)
			}
			code = ee.ExitCode()
		}
		fmt.Fprintf(&got, "=== %s: qdsweep %s\nexit %d\n", c.name, strings.Join(c.args, " "), code)
		if strings.HasPrefix(c.name, "m") {
			for i, a := range c.args {
				if a == "--output" {
					measured[c.args[i+1]] = true
				}
			}
		} else {
			fmt.Fprintf(&got, "--- stdout\n%s--- stderr\n%s", stdout.String(), stderr.String())
		}
		after := tree(t, w)
		var names []string
		for n := range after {
			if after[n] != before[n] {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		fmt.Fprintln(&got, "--- files")
		for _, n := range names {
			if measured[strings.SplitN(n, "/", 2)[0]] {
				fmt.Fprintf(&got, "%s\n", n)
				continue
			}
			fmt.Fprintf(&got, "%s %s\n", after[n], n)
		}
	}
	out := strings.ReplaceAll(got.String(), w, "$DIR")
	golden := filepath.Join("testdata", "golden.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run Golden -update writes it)", err)
	}
	if cpus := strings.SplitN(string(want), "\n", 2)[0]; cpus != fmt.Sprintf("cpus %d", runtime.NumCPU()) {
		t.Skipf("the golden outputs were recorded with %s; this machine has %d (explain's splits differ)", cpus, runtime.NumCPU())
	}
	if out != string(want) {
		gl, wl := strings.Split(out, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("output differs from %s at line %d:\n got: %s\nwant: %s\n(go test -run Golden -update rewrites it when the change is meant)", golden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("output differs from %s in length: %d lines, want %d", golden, len(gl), len(wl))
	}
}

// tree is every regular file under dir by its path, with its SHA-256.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = fmt.Sprintf("%x", sha256.Sum256(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
