package sweep_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

func sampleResult() *sweep.Result {
	r := sweep.NewResult(sweep.Meta{Version: "test", Engine: "sim", Simulated: true}, plan([]int{1, 2}, false))
	g := r.Plan.Grid()
	st := &ioengine.Stats{Runtime: 1e9, InflightMean: 1, All: ioengine.DirStats{IOPS: 1000, BWBytes: 4096000}}
	st.All.Lat.MeanNs = 1e6
	r.Steps = append(r.Steps, sweep.StepFromStats(g[0], st))
	s := sweep.Step{RW: "randread", BS: 4096, IODepth: 2, NumJobs: 1, QD: 2, Skipped: "early stop, with \"quotes\", commas"}
	r.Steps = append(r.Steps, s)
	return r
}

func TestWriteReadRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r := sampleResult()
	for range 2 { // the second write replaces the first
		if err := sweep.Write(outtest.Open(t, dir), r); err != nil {
			t.Fatal(err)
		}
	}
	back, err := sweep.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Schema != sweep.Schema || len(back.Steps) != 2 || back.Steps[1].Skipped != r.Steps[1].Skipped || !back.Meta.Simulated {
		t.Errorf("round trip lost data: %+v", back)
	}
	if back.Steps[0].LittleError != 0 || back.Steps[0].IOPS != 1000 {
		t.Errorf("step 0: %+v", back.Steps[0])
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 { // results.json, results.csv and the writer's manifest
		t.Errorf("dir holds %d entries (temporary files left?)", len(entries))
	}
	for _, name := range []string{sweep.ResultsJSON, sweep.ResultsCSV} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v %v", name, fi, err)
		}
	}
	f, _ := os.Open(filepath.Join(dir, sweep.ResultsCSV))
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 3 || len(rows[0]) != len(sweep.CSVHeader) || rows[2][slices.Index(sweep.CSVHeader, "skipped")] != r.Steps[1].Skipped {
		t.Errorf("csv rows %v, %v", rows, err)
	}
	if !sweep.IsResultsDir(dir) || sweep.IsResultsDir(t.TempDir()) {
		t.Error("IsResultsDir wrong")
	}
}

func TestReadRejects(t *testing.T) {
	var full bytes.Buffer
	dir := t.TempDir()
	if err := sweep.Write(outtest.Open(t, dir), sampleResult()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, sweep.ResultsJSON))
	full.Write(b)
	tests := []struct {
		name, content, want string
	}{
		{"truncated", full.String()[:full.Len()/2], "truncated"},
		{"empty", "", "truncated"},
		{"other schema", strings.Replace(full.String(), sweep.Schema, "qdsweep/v9", 1), "schema"},
		{"not JSON", "hello", "invalid JSON"},
		{"two documents", full.String() + full.String(), "after the result"},
	}
	for _, tc := range tests {
		p := filepath.Join(t.TempDir(), "results.json")
		os.WriteFile(p, []byte(tc.content), 0o644)
		_, err := sweep.Read(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err %v, want it to mention %q and the path", tc.name, err, tc.want)
		}
	}
	if _, err := sweep.Read(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzParseResult(f *testing.F) {
	var b bytes.Buffer
	dir := f.TempDir()
	if err := sweep.Write(outtest.Open(f, dir), sampleResult()); err == nil {
		data, _ := os.ReadFile(filepath.Join(dir, sweep.ResultsJSON))
		b.Write(data)
	}
	f.Add(b.String())
	f.Add(`{"schema":"qdsweep/v1","steps":null}`)
	f.Add(`{"schema":"qdsweep/v1"`)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := sweep.ParseResult(strings.NewReader(s))
		if err != nil {
			return
		}
		if r.Schema != sweep.Schema || r.Steps == nil {
			t.Fatalf("accepted %+v", r)
		}
		var out bytes.Buffer
		if err := sweep.WriteCSV(&out, r); err != nil {
			t.Fatal(err)
		}
	})
}

// TestReadValidates: a results.json whose steps break what every reader
// relies on (qd ≥ 1, depth and jobs ≥ 1, no negative measurement) is
// refused naming the field; control characters in its text (an ANSI
// escape in meta.target) never reach a reader.
func TestReadValidates(t *testing.T) {
	var full bytes.Buffer
	dir := t.TempDir()
	if err := sweep.Write(outtest.Open(t, dir), sampleResult()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, sweep.ResultsJSON))
	full.Write(b)
	for _, c := range []struct{ from, to, field string }{
		{`"qd": 1,`, `"qd": 0,`, "steps[0].qd"},
		{`"qd": 1,`, `"qd": -3,`, "steps[0].qd"},
		{`"iodepth": 2,`, `"iodepth": 0,`, "steps[1].iodepth"},
		{`"iops": 1000,`, `"iops": -1,`, "steps[0].iops"},
	} {
		if !strings.Contains(full.String(), c.from) {
			t.Fatalf("sample lacks %s", c.from)
		}
		_, err := sweep.ParseResult(strings.NewReader(strings.Replace(full.String(), c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v, want a refusal naming %s", c.to, err, c.field)
		}
	}
	evil := strings.Replace(full.String(), `"target": "`, `"target": "\u001b[2J\u001b]0;pwned\u0007x`, 1)
	r, err := sweep.ParseResult(strings.NewReader(evil))
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(r.Meta.Target, "\x1b\x07") || !strings.HasPrefix(r.Meta.Target, "[2J]0;pwnedx") {
		t.Errorf("target %q still holds control characters", r.Meta.Target)
	}
}
