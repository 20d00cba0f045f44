package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

// writeCappedResult saves a sweep of a volume capped at 25k IOPS (1 ms base
// latency, QD 1…256) with device telemetry, and returns its directory.
func writeCappedResult(t *testing.T) string {
	t.Helper()
	r := &sweep.Result{Schema: sweep.Schema, Meta: sweep.Meta{Tool: "qdsweep", Engine: "io_uring", CPUs: 2,
		Device: &sweep.DeviceInfo{Name: "vdb"}, Workload: sweep.Workload{Direct: true}},
		Plan: sweep.Plan{RW: []string{"randread"}, BS: []int64{4096}}}
	for qd := 1; qd <= 256; qd *= 2 {
		x := math.Min(float64(qd)*1000, 25000) * 0.98
		lat := float64(qd) / x * 1e9
		r.Steps = append(r.Steps, sweep.Step{RW: "randread", BS: 4096, IODepth: qd, NumJobs: 1, QD: qd,
			IOPS: x, BWBytes: x * 4096, Lat: ioengine.Latency{MeanNs: lat}, InflightMean: float64(qd), RuntimeNs: 1e9,
			Device:  &sweep.DeviceStats{ReadsPerSec: x, ReadMBps: x * 4096 / (1 << 20), ReadAwaitMs: lat / 1e6, AquSz: 0.98 * float64(qd), UtilPct: 100},
			HostCPU: &sweep.HostCPU{UserPct: 4, SystemPct: 8, SelfPct: 12}})
	}
	dir := filepath.Join(t.TempDir(), "res")
	if err := sweep.Write(outtest.Open(t, dir), r); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDiagnoseCommand(t *testing.T) {
	dir := writeCappedResult(t)
	stdout, stderr, code := runQdsweep(t, t.TempDir(), "diagnose", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"[device-cap] randread 4k: IOPS flat at 24.5k", "  → compare 24.5k IOPS"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}

	stdout, stderr, code = runQdsweep(t, t.TempDir(), "diagnose", filepath.Join(dir, sweep.ResultsJSON), "--output-format=json", "--target-iops", "40k")
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, stderr)
	}
	var doc struct {
		TargetIOPS float64 `json:"target_iops"`
		Findings   []struct {
			Rule     string   `json:"rule"`
			Evidence []string `json:"evidence"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
	}
	if doc.TargetIOPS != 40000 || len(doc.Findings) == 0 || doc.Findings[0].Rule != "device-cap" {
		t.Errorf("json document %+v", doc)
	}
}

func TestDiagnoseCommandUsage(t *testing.T) {
	dir := writeCappedResult(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no argument", []string{"diagnose"}, "diagnose needs one results directory"},
		{"two arguments", []string{"diagnose", dir, dir}, "got 2 arguments"},
		{"bad format", []string{"diagnose", dir, "--output-format=xml"}, "--output-format"},
		{"bad target", []string{"diagnose", "--target-iops=lots", dir}, "--target-iops"},
		{"missing file", []string{"diagnose", filepath.Join(dir, "nope.json")}, "nope.json"},
		{"unknown flag", []string{"diagnose", dir, "--bogus"}, "--bogus"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runQdsweep(t, t.TempDir(), tc.args...)
			if code != 2 || stdout != "" {
				t.Errorf("exit %d, stdout %q; want exit 2 and nothing written", code, stdout)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n"); lines != 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q: want one line naming %q", stderr, tc.want)
			}
		})
	}
}
