package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/sweep"
)

// adviseRun runs `qdsweep advise args…` in process and returns stdout,
// stderr and the exit code.
func adviseRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	app := newApp()
	var out, errw bytes.Buffer
	app.Writer, app.ErrWriter = &out, &errw
	err := app.Run(append([]string{"qdsweep", "advise"}, args...))
	if err != nil {
		errw.WriteString(err.Error())
	}
	return out.String(), errw.String(), exitCode(io.Discard, err)
}

const examplePointsCSV = `iodepth,numjobs,iops,lat_mean_us,p99_us
1,1,20000,50,90
2,1,38000,53,100
4,1,70000,57,120
8,1,110000,73,200
16,1,140000,114,400
32,1,150000,213,900
64,1,151000,424,2000
`

func TestAdviseLittlesLaw(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		qd     float64
		want   string // in the human output
		latNs  float64
		target float64
	}{
		{"2 ms", []string{"--target-iops", "160000", "--latency", "2ms"}, 320, "needs 320 I/Os in flight", 2e6, 160000},
		{"1.3 ms", []string{"--target-iops", "160k", "--latency", "1.3ms"}, 208, "needs 208 I/Os in flight", 1.3e6, 160000},
		{"throughput", []string{"--target-bw", "1200MiB", "--bs", "16k", "--latency", "2ms"}, 154, "1,200 MiB/s at 16k per I/O is 76,800 IOPS", 2e6, 76800},
		{"cloud latency", []string{"--cloud", "aws-gp3", "--target-iops", "16000"}, 16, "EBS General Purpose SSD", 1e6, 16000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := adviseRun(t, tt.args...)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, tt.want)
			}
			for _, line := range strings.Split(out, "\n") {
				if len([]rune(line)) > 80 && !strings.Contains(line, "https://") {
					t.Errorf("line wider than 80 columns: %q", line)
				}
			}
			js, _, code := adviseRun(t, append(tt.args, "--output-format=json")...)
			var doc map[string]any
			if err := json.Unmarshal([]byte(js), &doc); code != 0 || err != nil {
				t.Fatalf("json: exit %d, %v: %s", code, err, js)
			}
			if doc["queue_depth"] != tt.qd || doc["latency_ns"] != tt.latNs || doc["target_iops"] != tt.target || doc["reachable"] != true {
				t.Errorf("json %v, want queue_depth %g, latency_ns %g, target_iops %g", doc, tt.qd, tt.latNs, tt.target)
			}
			if doc["iodepth"].(float64)*doc["numjobs"].(float64) < tt.qd {
				t.Errorf("split %v × %v does not cover %g", doc["iodepth"], doc["numjobs"], tt.qd)
			}
		})
	}
}

func TestAdviseTable(t *testing.T) {
	out, _, code := adviseRun(t, "--table")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, row := range []string{"500 IOPS            1", "100,000 IOPS      200", "320,000 IOPS      640", "1,200 MiB/s       153"} {
		if !strings.Contains(out, row) {
			t.Errorf("table lacks %q:\n%s", row, out)
		}
	}
	js, _, code := adviseRun(t, "--table", "--output-format=json")
	var doc struct {
		Table []struct {
			IOPS       float64 `json:"iops"`
			QueueDepth int     `json:"queue_depth"`
		} `json:"table"`
	}
	if err := json.Unmarshal([]byte(js), &doc); code != 0 || err != nil || len(doc.Table) != 15 {
		t.Fatalf("json table: exit %d, %v, %d rows", code, err, len(doc.Table))
	}
	if r := doc.Table[8]; r.IOPS != 100000 || r.QueueDepth != 200 {
		t.Errorf("row 9 = %+v, want 100000 → 200", r)
	}
}

func TestAdviseUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("iodepth,iops\n1,2\n"), 0o644)
	cell := filepath.Join(dir, "cell.csv")
	os.WriteFile(cell, []byte("iodepth,iops,lat_mean_us\n1,20000,50\n2,x,60\n"), 0o644)
	one := filepath.Join(dir, "one.csv")
	os.WriteFile(one, []byte("iodepth,iops,lat_mean_us\n1,20000,50\n"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no unit", []string{"--target-iops", "1000", "--latency", "2"}, "use e.g. 2ms"},
		{"zero target", []string{"--target-iops", "0", "--latency", "2ms"}, "--target-iops"},
		{"negative target", []string{"--target-iops=-5", "--latency", "2ms"}, "--target-iops"},
		{"negative latency", []string{"--target-iops", "1000", "--latency=-2ms"}, "--latency"},
		{"no target", []string{"--latency", "2ms"}, "needs a target"},
		{"no latency", []string{"--target-iops", "1000"}, "needs --latency"},
		{"unknown cloud", []string{"--cloud", "gcp-pd-ssd", "--target-iops", "1000"}, "known: aws-gp3"},
		{"missing columns", []string{"--from", bad}, "missing column(s) lat_mean_us"},
		{"bad cell", []string{"--from", cell}, "line 3: column iops"},
		{"one point", []string{"--from", one}, "a fit needs two"},
		{"absent file", []string{"--from", filepath.Join(dir, "none.json")}, "no such file"},
		{"bad slo", []string{"--from", one, "--latency-slo", "p99=5"}, "--latency-slo"},
		{"slo without data", []string{"--target-iops", "1000", "--latency", "1ms", "--latency-slo", "p99=5ms"}, "--from"},
		{"bad for", []string{"--target-iops", "1000", "--latency", "1ms", "--for", "oracle"}, "--for"},
		{"bad format", []string{"--table", "--output-format", "xml"}, "--output-format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := adviseRun(t, tt.args...)
			if code != 2 || out != "" || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, one line containing %q", code, out, errOut, tt.want)
			}
		})
	}
}

func TestAdviseFromPointsCSV(t *testing.T) {
	p := filepath.Join(t.TempDir(), "points.csv")
	if err := os.WriteFile(p, []byte(examplePointsCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := adviseRun(t, "--from", p, "--target-iops", "200000")
	if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "not reachable: it saturates from QD 32, and the most measured is 151k IOPS (at QD 64)") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	js, _, code := adviseRun(t, "--from", p, "--latency-slo", "p99=1ms", "--for", "postgres", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		QueueDepth float64 `json:"queue_depth"`
		Analysis   struct {
			BaseLatencyNs float64 `json:"base_latency_ns"`
			MaxIOPS       float64 `json:"max_iops"`
			Saturation    struct {
				QD   float64 `json:"qd"`
				IOPS float64 `json:"iops"`
				Lat  float64 `json:"lat_ns_mean"`
			} `json:"saturation"`
			Efficient struct {
				QD float64 `json:"qd"`
			} `json:"efficient"`
			Model struct {
				Name   string  `json:"name"`
				KneeQD float64 `json:"knee_qd"`
			} `json:"model"`
			SLO struct {
				QD float64 `json:"qd"`
			} `json:"slo"`
		} `json:"analysis"`
		Settings []struct{ Name, Value, Doc string } `json:"settings"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	a := doc.Analysis
	if doc.QueueDepth != 32 || a.BaseLatencyNs != 50000 || a.MaxIOPS != 151000 || a.Saturation.QD != 32 ||
		a.Saturation.Lat != 213000 || a.Efficient.QD != 8 || a.Model.Name == "" || a.Model.KneeQD <= 0 || a.SLO.QD != 32 {
		t.Errorf("json %+v", doc)
	}
	if len(doc.Settings) == 0 || doc.Settings[0].Name != "effective_io_concurrency" || doc.Settings[0].Value != "32" {
		t.Errorf("settings %+v", doc.Settings)
	}
}

func TestAdviseFromResults(t *testing.T) {
	dir := t.TempDir()
	r := &sweep.Result{Schema: sweep.Schema, Meta: sweep.Meta{Tool: "qdsweep", CPUs: 4},
		Plan: sweep.Plan{RW: []string{"randread"}, BS: []int64{4096}, IODepth: []int{1, 2, 4, 8, 16, 32, 64}, NumJobs: []int{1}}}
	for _, line := range strings.Split(strings.TrimSpace(examplePointsCSV), "\n")[1:] {
		var qd, nj int
		var iops, lat, p99 float64
		if _, err := fmtSscan(line, &qd, &nj, &iops, &lat, &p99); err != nil {
			t.Fatal(err)
		}
		s := sweep.Step{RW: "randread", BS: 4096, IODepth: qd, NumJobs: nj, QD: qd, IOPS: iops, InflightMean: float64(qd)}
		s.Lat.MeanNs, s.Lat.P99Ns = lat*1e3, int64(p99*1e3)
		r.Steps = append(r.Steps, s)
	}
	if err := sweep.Write(outtest.Open(t, dir), r); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := adviseRun(t, "--from", dir, "--target-iops", "100000", "--for", "workers")
	if code != 0 || !strings.Contains(out, "Saturates at 150k IOPS from QD 32") || !strings.Contains(out, "max useful workers = 32") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	_, errOut, code = adviseRun(t, "--from", dir, "--rw", "write")
	if code != 2 || !strings.Contains(errOut, "--rw randread --bs 4k") {
		t.Errorf("unknown curve: exit %d, %q", code, errOut)
	}
}

// fmtSscan reads one comma-separated row of examplePointsCSV.
func fmtSscan(line string, qd, nj *int, iops, lat, p99 *float64) (int, error) {
	return fmt.Sscan(strings.ReplaceAll(line, ",", " "), qd, nj, iops, lat, p99)
}
