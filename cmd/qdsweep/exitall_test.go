package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// exitJobs runs a job file with run (or fio itself, bin) and returns
// each job's runtime (ms) and read I/Os, by name, from fio's JSON.
func exitJobs(t *testing.T, dir, job, bin string) map[string][2]int64 {
	t.Helper()
	var out []byte
	if bin != "" {
		var err error
		if out, err = exec.Command(bin, "--output-format=json", job).Output(); err != nil {
			t.Fatalf("fio: %v", err)
		}
	} else {
		stdout, stderr, code := runQdsweep(t, dir, "run", job, "--output-format=json")
		if code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
		out = []byte(stdout)
	}
	var doc struct {
		Jobs []struct {
			Name    string `json:"jobname"`
			Runtime int64  `json:"job_runtime"`
			Read    struct {
				IOs int64 `json:"total_ios"`
			} `json:"read"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	m := map[string][2]int64{}
	for _, j := range doc.Jobs {
		m[j.Name] = [2]int64{j.Runtime, j.Read.IOs}
	}
	return m
}

// TestExitAllStopsJobs runs fio's exitall natively, as fio 3.33 does,
// beside fio itself when it is installed: job a ends after 100 I/Os and,
// by exit_what, stops b (a 20 s job) when they share a reporting group
// (group, the default) or a wave (stonewall, all); b in a group of its
// own runs on under group; c, stonewalled after them, runs unless
// exit_what=all, which fio reports as a job of no I/O.
func TestExitAllStopsJobs(t *testing.T) {
	bin, _ := exec.LookPath("fio")
	if bin != "" {
		if v, _ := exec.Command(bin, "--version").Output(); !strings.HasPrefix(string(v), "fio-3.33") {
			bin = ""
		}
	}
	for _, tc := range []struct {
		what, bGroup string
		bStopped     bool
		cRuns        bool
	}{
		{"group", "", true, true},
		{"group", "new_group\n", false, true},
		{"stonewall", "new_group\n", true, true},
		{"all", "", true, false},
	} {
		t.Run(tc.what+strings.TrimSpace(" "+tc.bGroup), func(t *testing.T) {
			dir := t.TempDir()
			f := filepath.Join(dir, "f")
			if err := os.WriteFile(f, make([]byte, 1<<20), 0o600); err != nil {
				t.Fatal(err)
			}
			bRuntime := "20"
			if !tc.bStopped {
				bRuntime = "1" // runs on: its own end
			}
			job := filepath.Join(dir, "exit.fio")
			body := "[global]\nfilename=" + f + "\nsize=1m\n[a]\nexitall\nexit_what=" + tc.what + "\nnumber_ios=100\nthinktime=1000\n" +
				"[b]\n" + tc.bGroup + "runtime=" + bRuntime + "\ntime_based\nrate_iops=100\n[c]\nstonewall\nruntime=300ms\ntime_based\nrate_iops=100\n"
			if err := os.WriteFile(job, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, who := range []string{"qdsweep", "fio"} {
				b := ""
				if who == "fio" {
					if b = bin; b == "" {
						continue
					}
				}
				jobs := exitJobs(t, dir, job, b)
				t.Logf("%s: %v", who, jobs)
				if a := jobs["a"]; a[1] != 100 {
					t.Errorf("%s: a did %d I/Os, want 100", who, a[1])
				}
				switch bt := jobs["b"][0]; {
				case tc.bStopped && bt > 10000:
					t.Errorf("%s: b ran %d ms: a's exitall (exit_what=%s) should have stopped it", who, bt, tc.what)
				case !tc.bStopped && bt < 800:
					t.Errorf("%s: b ran %d ms: in a group of its own it runs its 1 s", who, bt)
				}
				c, ok := jobs["c"]
				if !ok || tc.cRuns != (c[1] > 0) {
					t.Errorf("%s: c %v (listed %v): want it to run: %v", who, c, ok, tc.cRuns)
				}
			}
		})
	}
}
