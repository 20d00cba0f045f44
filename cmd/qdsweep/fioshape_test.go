package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// TestRunFioShapesCarryDepths: fio-shaped outputs (fio-json, terse) carry
// fio's "IO depths" distribution measured from the run, so readers keyed
// on it (qdsweep's own explain among them) get back the depth that ran:
// iodepth 8 kept full is "8" (8–15 in flight) for nearly every I/O.
func TestRunFioShapesCarryDepths(t *testing.T) {
	dir := t.TempDir()
	common := []string{"run", "--name=d", "--filename=" + filepath.Join(dir, "f"), "--size=1m", "--rw=randread",
		"--iodepth=8", "--direct=1", "--time_based", "--runtime=300ms"}
	for _, engine := range []string{"io_uring", "libaio", "sim"} {
		args := append(append([]string{}, common...), "--ioengine="+engine, "--output-format=fio-json")
		stdout, stderr, code := runQdsweep(t, dir, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", engine, code, stderr)
		}
		var doc struct {
			Jobs []struct {
				Depth    map[string]float64 `json:"iodepth_level"`
				Submit   map[string]float64 `json:"iodepth_submit"`
				Complete map[string]float64 `json:"iodepth_complete"`
			} `json:"jobs"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Jobs) != 1 {
			t.Fatalf("%s: %v\n%s", engine, err, stdout)
		}
		sum := 0.0
		for _, v := range doc.Jobs[0].Depth {
			sum += v
		}
		if d := doc.Jobs[0].Depth["8"]; d < 80 || sum < 99.9 || sum > 100.1 {
			t.Errorf("%s: iodepth_level %v; want most I/Os at 8–15 in flight, 100%% in all", engine, doc.Jobs[0].Depth)
		}
		// Submissions and reaps of 1 to 8 I/Os each at iodepth 8: fio's "4" and "8" buckets hold them all.
		for what, dist := range map[string]map[string]float64{"submit": doc.Jobs[0].Submit, "complete": doc.Jobs[0].Complete} {
			if v := dist["4"] + dist["8"]; v < 99.9 || v > 100.1 {
				t.Errorf("%s: iodepth_%s %v; want every call in 1–8 I/Os", engine, what, dist)
			}
		}
	}
	args := append(append([]string{}, common...), "--ioengine=io_uring", "--output-format=terse")
	stdout, stderr, code := runQdsweep(t, dir, args...)
	if code != 0 {
		t.Fatalf("terse: exit %d: %s", code, stderr)
	}
	f := strings.Split(strings.TrimSpace(stdout), ";")
	if len(f) < 99 {
		t.Fatalf("terse has %d fields", len(f))
	}
	// Fields 93–99 (1-based) are IO depths 1, 2, 4, 8, 16, 32, >=64.
	if v, err := strconv.ParseFloat(strings.TrimSuffix(f[95], "%"), 64); err != nil || v < 80 {
		t.Errorf("terse IO depth 8: %q (fields 93–99: %v)", f[95], f[92:99])
	}
	terse := filepath.Join(dir, "run.terse")
	if err := os.WriteFile(terse, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runQdsweep(t, dir, "explain", "--output-format=json", terse)
	if code != 0 {
		t.Fatalf("explain of qdsweep's terse: exit %d: %s", code, stderr)
	}
	var ex struct {
		Jobs []struct {
			Explanation littleslaw.Explanation `json:"explanation"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(out), &ex); err != nil || len(ex.Jobs) != 1 {
		t.Fatalf("explain: %v\n%s", err, out)
	}
	if e := ex.Jobs[0].Explanation; e.Input.IODepth != 8 || e.Queue != littleslaw.QueueFull {
		t.Errorf("explain of qdsweep's own terse: iodepth %d, queue %s; it ran 8, full", e.Input.IODepth, e.Queue)
	}
}

// TestRunJSONPlus: --output-format=json+ adds fio's json+ completion
// latency bins, one count per I/O, with the IOPS and bandwidth samples of
// the run's slices; fio's own fio_jsonplus_clat2csv, where installed,
// reads one row per bin.
func TestRunJSONPlus(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runQdsweep(t, dir, "run", "--name=p", "--filename="+filepath.Join(dir, "f"), "--size=1m",
		"--rw=randread", "--iodepth=4", "--ioengine=io_uring", "--direct=1", "--time_based", "--runtime=600ms", "--output-format=json+")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Jobs []struct {
			Read struct {
				TotalIOs    int64   `json:"total_ios"`
				IOPS        float64 `json:"iops"`
				IOPSMean    float64 `json:"iops_mean"`
				IOPSSamples int64   `json:"iops_samples"`
				BWSamples   int64   `json:"bw_samples"`
				BWMin       int64   `json:"bw_min"`
				BWMax       int64   `json:"bw_max"`
				Clat        struct {
					Bins map[string]int64 `json:"bins"`
				} `json:"clat_ns"`
			} `json:"read"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("%v\n%s", err, stdout)
	}
	rd := doc.Jobs[0].Read
	var n int64
	for _, c := range rd.Clat.Bins {
		n += c
	}
	if len(rd.Clat.Bins) == 0 || n != rd.TotalIOs {
		t.Fatalf("json+ bins hold %d I/Os in %d bins; the run did %d", n, len(rd.Clat.Bins), rd.TotalIOs)
	}
	// 600 ms at the default 250 ms slices: 2 whole slices (a short last one left out).
	if rd.IOPSSamples < 2 || rd.BWSamples != rd.IOPSSamples || rd.BWMin <= 0 || rd.BWMax < rd.BWMin ||
		rd.IOPSMean < 0.5*rd.IOPS || rd.IOPSMean > 1.5*rd.IOPS {
		t.Errorf("samples: %d IOPS samples, mean %.0f (run %.0f), bw %d–%d KiB/s over %d", rd.IOPSSamples, rd.IOPSMean, rd.IOPS,
			rd.BWMin, rd.BWMax, rd.BWSamples)
	}
	tool, err := exec.LookPath("fio_jsonplus_clat2csv")
	if err != nil {
		t.Skip("fio_jsonplus_clat2csv not installed: fio's own reader not tried")
	}
	in := filepath.Join(dir, "plus.json")
	if err := os.WriteFile(in, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, in, filepath.Join(dir, "clat.csv"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, out)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "clat_job0.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(string(csv), "\n") - 1; rows != len(rd.Clat.Bins) {
		t.Errorf("fio_jsonplus_clat2csv wrote %d rows for %d bins", rows, len(rd.Clat.Bins))
	}
}

// TestRunClonesApart: numjobs clones are reported one by one without
// group_reporting (fio's default) and as one with it; the clones' I/Os add
// up to the group's and each closes Little's Law on its own.
func TestRunClonesApart(t *testing.T) {
	dir := t.TempDir()
	base := []string{"run", "--name=c", "--filename=" + filepath.Join(dir, "f"), "--size=1m", "--numjobs=2", "--rw=randread",
		"--iodepth=2", "--ioengine=libaio", "--direct=1", "--number_ios=200", "--allow-write"}
	stdout, stderr, code := runQdsweep(t, dir, append(base, "--output-format=terse")...)
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(lines) != 2 {
		t.Fatalf("without group_reporting: exit %d, %d terse lines, want 2: %s\n%s", code, len(lines), stdout, stderr)
	}
	stdout, _, code = runQdsweep(t, dir, append(base, "--group_reporting", "--output-format=terse")...)
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(lines) != 1 {
		t.Fatalf("with group_reporting: exit %d, %d terse lines, want 1", code, len(lines))
	}
	stdout, stderr, code = runQdsweep(t, dir, append(base, "--output-format=qdsweep-json")...)
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, stderr)
	}
	type one struct {
		NumJobs  int     `json:"numjobs"`
		TotalIOs int64   `json:"total_ios"`
		IOPS     float64 `json:"iops"`
		Inflight float64 `json:"inflight_mean"`
		Lat      struct {
			Mean float64 `json:"mean"`
		} `json:"lat_ns"`
	}
	var doc struct {
		one
		Clones []one `json:"clones"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Clones) != 2 || doc.TotalIOs != 400 || doc.Clones[0].TotalIOs+doc.Clones[1].TotalIOs != 400 {
		t.Fatalf("clones %+v of %d I/Os; want 2 of 200 each (number_ios)", doc.Clones, doc.TotalIOs)
	}
	for i, c := range doc.Clones {
		if law := c.IOPS * c.Lat.Mean / 1e9; c.NumJobs != 1 || math.Abs(law-c.Inflight) > 0.05*c.Inflight+0.05 {
			t.Errorf("clone %d: %+v; IOPS × latency %.2f against %.2f in flight", i, c, law, c.Inflight)
		}
	}
}

// TestExplainReadsEveryRunOutput: explain of each output of qdsweep run
// but its own text (fio's normal, json, json+ and terse; qdsweep-json)
// gives back the
// depth, IOPS and latency it ran: the simulator at 1 ms and iodepth 8 does
// 8,000 IOPS, and explain says so whatever the format.
func TestExplainReadsEveryRunOutput(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"qdsweep-json", "terse", "json", "fio-json", "json+", "normal"} {
		stdout, stderr, code := runQdsweep(t, dir, "run", "--name=x", "--ioengine=sim", "--sim_latency=1ms", "--sim_jitter=0",
			"--iodepth=8", "--time_based", "--runtime=500ms", "--output-format="+format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		f := filepath.Join(dir, "out."+format)
		if err := os.WriteFile(f, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		out, stderr, code := runQdsweep(t, dir, "explain", "--output-format=json", f)
		if code != 0 {
			t.Fatalf("explain of %s: exit %d: %s", format, code, stderr)
		}
		var ex struct {
			Jobs []struct {
				Explanation littleslaw.Explanation `json:"explanation"`
			} `json:"jobs"`
		}
		if err := json.Unmarshal([]byte(out), &ex); err != nil || len(ex.Jobs) != 1 {
			t.Fatalf("explain of %s: %v\n%s", format, err, out)
		}
		in := ex.Jobs[0].Explanation.Input
		if in.IODepth != 8 || math.Abs(in.IOPS/8000-1) > 0.02 || math.Abs(in.LatMeanNs/1e6-1) > 0.02 {
			t.Errorf("explain of %s: iodepth %d, %.0f IOPS at %.0f ns; it ran 8 at 8,000 IOPS and 1 ms", format, in.IODepth, in.IOPS, in.LatMeanNs)
		}
	}
}
