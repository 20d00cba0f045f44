package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGroupedJobRuntimeAsFio: a grouped report of 4 jobs means by
// job_runtime what fio 3.33's means, the sum of the jobs' runtimes (about
// 4 × the runtime of a 1 s run), and by usr_cpu and sys_cpu their CPU time
// over that sum, so at most 100 % (a job is one thread), under both.
func TestGroupedJobRuntimeAsFio(t *testing.T) {
	args := []string{"--name=g", "--filename=f", "--size=1m", "--bs=4k", "--rw=randread", "--numjobs=4", "--group_reporting",
		"--time_based", "--runtime=1", "--output-format=json"}
	tools := []string{"qdsweep"}
	if _, err := exec.LookPath("fio"); err == nil {
		tools = append(tools, "fio")
	}
	for _, who := range tools {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		var out []byte
		if who == "fio" {
			var err error
			if out, err = runIn(dir, "fio", args...); err != nil {
				t.Fatalf("fio: %v\n%s", err, out)
			}
		} else {
			stdout, stderr, code := runQdsweep(t, dir, append([]string{"run"}, args...)...)
			if code != 0 {
				t.Fatalf("qdsweep run: exit %d: %s", code, stderr)
			}
			out = []byte(stdout)
		}
		var doc struct {
			Jobs []struct {
				JobRuntime float64 `json:"job_runtime"`
				Usr        float64 `json:"usr_cpu"`
				Sys        float64 `json:"sys_cpu"`
				Read       struct {
					Runtime float64 `json:"runtime"`
				} `json:"read"`
			} `json:"jobs"`
		}
		if err := json.Unmarshal(jsonPart(out), &doc); err != nil || len(doc.Jobs) != 1 {
			t.Fatalf("%s's JSON: %v\n%s", who, err, out)
		}
		j := doc.Jobs[0]
		t.Logf("%s: job_runtime %.0f ms, read runtime %.0f ms, usr %.1f %%, sys %.1f %%", who, j.JobRuntime, j.Read.Runtime, j.Usr, j.Sys)
		if r := j.JobRuntime / j.Read.Runtime; r < 3.5 || r > 4.5 {
			t.Errorf("%s: job_runtime %.0f ms for a runtime of %.0f ms; want the 4 jobs' sum", who, j.JobRuntime, j.Read.Runtime)
		}
		if j.Usr+j.Sys > 101 {
			t.Errorf("%s: usr %.1f %% + sys %.1f %%: more than one thread's CPU per job", who, j.Usr, j.Sys)
		}
	}
}
