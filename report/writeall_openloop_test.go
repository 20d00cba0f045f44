package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/outtest"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// openLoopResult is a Poisson sweep of six loads at iodepth 64, with the
// figures of one measured on a virtual disk (2 CPUs, load ~1): it kept up
// to 56.3k IOPS offered and fell behind at 84.5k (94.6 % achieved), 101k
// and 124k.
func openLoopResult(t *testing.T) *sweep.Result {
	t.Helper()
	p := sweep.NewPlan([]ioengine.RW{ioengine.RandRead}, []int64{4096}, []int{64}, []int{1}, true)
	p.Rates = []float64{11263, 28158, 56315, 84473, 101367, 123893}
	r := sweep.NewResult(sweep.Meta{Engine: "io_uring", Target: "scratch"}, p)
	for i, f := range [][4]float64{ // achieved IOPS, mean and p99 latency from issue (ns), response p99 (ns)
		{11291, 139910, 651263, 1818623}, {28189, 161662, 983039, 1261567}, {56366, 442596, 2326527, 57933823},
		{79889, 768285, 4521983, 108527615}, {78047, 818960, 6160383, 457179135}, {72967, 876873, 7110655, 826277887},
	} {
		in := f[0] * f[1] / 1e9
		r.Steps = append(r.Steps, sweep.Step{RW: "randread", BS: 4096, IODepth: 64, NumJobs: 1, QD: 64, OfferedIOPS: p.Rates[i],
			IOPS: f[0], BWBytes: f[0] * 4096, InflightMean: in, Steady: true, RuntimeNs: 2e9,
			Lat:        ioengine.Latency{MeanNs: f[1], P50Ns: int64(f[1]), P99Ns: int64(f[2])},
			ArrivalLat: &ioengine.Latency{MeanNs: 2 * f[1], P50Ns: int64(f[1]), P99Ns: int64(f[3])}})
	}
	slo := littleslaw.SLO{Stat: "p99", LimitNs: 2e6}
	if err := r.Analyze(littleslaw.Options{SLO: &slo}); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWriteAllOpenLoop: an open-loop sweep, whose depth was not swept,
// gets its charts against the load offered (achieved IOPS, response time,
// in flight) and the hockey stick, never a queue-depth axis; summary.md
// links them, and no chart or sentence of it calls a load's step a QD.
func TestWriteAllOpenLoop(t *testing.T) {
	r := openLoopResult(t)
	dir := t.TempDir()
	paths, err := report.WriteAll(outtest.Open(t, dir), r, report.Options{ChartFormat: "svg"})
	if err != nil {
		t.Fatal(err)
	}
	assertFiles(t, dir, paths, []string{"dashboard.svg", "inflight-vs-offered-load.svg", "iops-vs-offered-load.svg",
		"latency-vs-iops.svg", "latency-vs-offered-load.svg", "summary.md"})
	for _, name := range []string{"iops-vs-offered-load.svg", "inflight-vs-offered-load.svg", "latency-vs-iops.svg", "summary.md"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if strings.Contains(s, "QD") || strings.Contains(s, "queue depth (") {
			i := max(strings.Index(s, "QD"), 0)
			t.Errorf("%s names a queue depth in an open-loop sweep: …%s…", name, s[max(i-120, 0):min(i+40, len(s))])
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	for _, want := range []string{"kept up to 56.3k IOPS offered", "fell behind, its arrivals queueing for a free slot, at 84.5k (79.9k achieved)",
		"at least 98% of it was achieved"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "inflight-vs-offered-load.svg"))
	for _, want := range []string{"iodepth × numjobs = 64", "in flight (achieved IOPS × mean latency)"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("inflight-vs-offered-load.svg lacks %q", want)
		}
	}
	svg, _ = os.ReadFile(filepath.Join(dir, "iops-vs-offered-load.svg"))
	if !strings.Contains(string(svg), "achieved = offered") || !strings.Contains(string(svg), "fell behind the load offered") {
		t.Errorf("iops-vs-offered-load.svg lacks its diagonal or the loads it fell behind of")
	}
	svg, _ = os.ReadFile(filepath.Join(dir, "latency-vs-iops.svg"))
	if !strings.Contains(string(svg), "latency from issue") || strings.Contains(string(svg), "SLO") {
		t.Errorf("latency-vs-iops.svg: its latency must be named as from issue, without the SLO judged on response times")
	}
}

// TestCompareOpenLoop compares two open-loop sweeps of the same loads at
// one iodepth: each load offered to both is a row of its own, named by the
// load (all six steps share iodepth 64, so by depth they were one row),
// and no sentence calls a load a queue depth.
func TestCompareOpenLoop(t *testing.T) {
	a, b := openLoopResult(t), openLoopResult(t)
	b.Steps[1].IOPS *= 0.5
	var out strings.Builder
	if err := report.CompareTable(&out, []report.Input{{Name: "a", Result: a}, {Name: "b", Result: b}}, report.Options{Width: 200}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	t.Log(s)
	for _, want := range []string{"offered", "11.3k", "28.2k", "124k", "sat. in flight", "at 11.3k, 28.2k, 56.3k, 84.5k, 101k and 124k IOPS offered"} {
		if !strings.Contains(s, want) {
			t.Errorf("comparison lacks %q", want)
		}
	}
	// The noise note under the tables speaks of the column its mark
	// follows, the load offered: no step of an open-loop sweep is a depth.
	if strings.Contains(s, "QD") || !strings.Contains(s, "† after the load offered, left out") {
		t.Errorf("comparison of two open-loop sweeps names a QD, or its legend does not say the mark follows the load offered")
	}
}
