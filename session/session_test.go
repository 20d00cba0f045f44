package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestSweepSession runs a sweep as a library user would, without the
// command line: a session on the simulator writes its results directory,
// the table and its progress, and finds the simulator's cap.
func TestSweepSession(t *testing.T) {
	dir := t.TempDir()
	sim := ioengine.SimConfig{Latency: time.Millisecond, IOPS: 4000, Seed: 1}
	var out, errw bytes.Buffer
	o := &session.Sweep{
		Plan:     sweep.NewPlan([]ioengine.RW{ioengine.RandRead}, []int64{4096}, []int{1, 2, 4, 8, 16}, []int{1}, false),
		Workload: ioengine.Workload{Size: 1 << 20, Direct: true},
		Engine:   session.Engine{Name: ioengine.EngineSim, Sim: &sim},
		Ramp:     50 * time.Millisecond, Runtime: 400 * time.Millisecond,
		Steady: sweep.SteadyConfig{Interval: 100 * time.Millisecond, Window: 300 * time.Millisecond, Limit: 0.02,
			Precision: 0.02, MinWindow: 300 * time.Millisecond},
		Stop:   sweep.DefaultEarlyStop,
		OutDir: filepath.Join(dir, "res"), OutOpts: guard.OutOptions{Flag: "--output"},
		Report: report.Options{ChartFormat: "png"}, Version: "test",
		Stdout: &out, Stderr: &errw,
	}
	if err := o.Run(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, errw.String())
	}
	r, err := sweep.Read(o.OutDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) == 0 || r.Meta.Engine != ioengine.EngineSim || r.Meta.Version != "test" {
		t.Fatalf("result: %d steps, engine %q, version %q", len(r.Steps), r.Meta.Engine, r.Meta.Version)
	}
	best := 0.0
	for _, s := range r.Steps {
		best = max(best, s.IOPS)
	}
	if best < 3600 || best > 4200 {
		t.Errorf("the simulator caps at 4000 IOPS; the sweep's best step gave %.0f", best)
	}
	if !strings.Contains(out.String(), "SIMULATED") || !strings.Contains(errw.String(), "step 1/") {
		t.Errorf("table or progress missing:\n%s\n%s", out.String(), errw.String())
	}
	for _, f := range []string{sweep.ResultsJSON, "dashboard.png", "summary.md"} {
		if _, err := os.Stat(filepath.Join(o.OutDir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestRunSession runs fio's command line as a library user would: real
// reads of a file the session lays out (it names it, so it is kept), the
// report in qdsweep's JSON, and the parse errors as usage errors.
func TestRunSession(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.img")
	specs, err := session.RunSpecs(session.RunRequest{FioArgs: []string{"--name=j", "--filename=" + target, "--size=4m",
		"--rw=randread", "--bs=4k", "--ioengine=psync", "--runtime=300ms", "--time_based"}})
	if err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	r := &session.Run{Specs: specs, Format: report.RunJSON, IOTimeout: 30 * time.Second, LogEvery: -1, Version: "test",
		Stdout: &out, Stderr: &errw,
	}
	if err := r.Execute(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, errw.String())
	}
	var doc struct {
		IOPS     float64 `json:"iops"`
		TotalIOs int64   `json:"total_ios"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.TotalIOs <= 0 || doc.IOPS <= 0 {
		t.Fatalf("report %v: %s", err, out.String())
	}
	if fi, err := os.Stat(target); err != nil || fi.Size() != 4<<20 {
		t.Errorf("the named target is kept at its size: %v", err)
	}
	// An option qdsweep does not run natively runs through fio, when fio
	// is installed; without fio the refusal names it and says to install fio.
	_, err = session.RunSpecs(session.RunRequest{FioArgs: []string{"--rw=randread", "--serialize_overlap=1"}})
	var ue session.UsageError
	if _, lookErr := exec.LookPath("fio"); lookErr == nil && err != nil {
		t.Errorf("an option fio runs, fio installed: %v, want the job run through fio", err)
	} else if lookErr != nil && (!errors.As(err, &ue) || !strings.Contains(err.Error(), "serialize_overlap") || !strings.Contains(err.Error(), "install fio")) {
		t.Errorf("an option fio runs, fio not installed: %v, want a usage error naming it and fio", err)
	}
	// One fio may not run either (it fills the file system) is refused, named.
	_, err = session.RunSpecs(session.RunRequest{FioArgs: []string{"--rw=randread", "--fill_device=1"}})
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "fill_device") {
		t.Errorf("an option qdsweep does not run, nor fio under it: %v, want a usage error naming it", err)
	}
}
