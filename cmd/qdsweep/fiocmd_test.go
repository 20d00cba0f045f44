package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fioData is a recorded fio output of the fio package's testdata.
func fioData(name string) string {
	return filepath.Join("..", "..", "fio", "testdata", name)
}

// runQdsweep runs the built binary in dir with stdin (nil: none) and
// returns stdout, stderr and the exit status; it fails the test when the
// binary still runs after ten minutes (a sweep through fio's clients on a
// busy machine takes minutes; a hung one, for ever).
func runQdsweep(t *testing.T, dir string, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	return runWithin(t, dir, stdin, 10*time.Minute, args...)
}

func TestExplainCommand(t *testing.T) {
	abs := func(n string) string { p, _ := filepath.Abs(fioData(n)); return p }
	dir := t.TempDir()
	out, errs, code := runQdsweep(t, dir, nil, "explain", "--target-iops=160000", abs("randread-libaio-qd32-normal.txt"))
	flat := strings.Join(strings.Fields(out), " ")
	// One run at QD 32 whose mean is 2.2× its fastest I/O: it cannot tell
	// depth-bound from device-bound, sizes the target by Little's Law at
	// its own latency, and states more than its own full queue as a floor,
	// never a smaller figure.
	if code != 0 || !strings.Contains(flat, "87.8k IOPS") || !strings.Contains(flat, "cannot be told from one run") ||
		!strings.Contains(flat, "QD ≈ 59 if the volume keeps this run's 364 µs") || !strings.Contains(flat, "At least 33") || strings.Contains(flat, "QD ≥ 27") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	pasted, err := os.ReadFile(abs("pasted-psync-qd8-json.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code = runQdsweep(t, dir, pasted, "explain", "--output-format=json", "-")
	var doc struct {
		Jobs []struct {
			Explanation struct{ Verdict, Queue string } `json:"explanation"`
		} `json:"jobs"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Jobs) != 1 || doc.Jobs[0].Explanation.Queue != "sync-engine" || doc.Jobs[0].Explanation.Verdict != "depth-bound" {
		t.Errorf("json: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestImportFioCommand(t *testing.T) {
	abs := func(n string) string { p, _ := filepath.Abs(fioData(n)); return p }
	dir := t.TempDir()
	_, errs, code := runQdsweep(t, dir, nil, "import", "fio", "--out", "res", "-q",
		abs("point-randread-qd1.json"), abs("point-randread-qd8.json"), abs("point-randread-qd32.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "res", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Meta  struct{ Source, Engine string } `json:"meta"`
		Steps []struct {
			QD   int     `json:"qd"`
			IOPS float64 `json:"iops"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Meta.Source != "fio-import" || r.Meta.Engine != "io_uring" || len(r.Steps) != 3 ||
		r.Steps[0].QD != 1 || r.Steps[2].QD != 32 || r.Steps[2].IOPS != 90815.184815 {
		t.Errorf("result meta %+v steps %+v", r.Meta, r.Steps)
	}
}

func TestFioCommandsRefuseBadInput(t *testing.T) {
	notFio, _ := filepath.Abs(fioData("commands.txt"))
	tests := [][]string{
		{"explain"},
		{"explain", "missing.json"},
		{"explain", notFio},
		{"explain", "--output-format=xml", notFio},
		{"explain", notFio, "--target-iops=5"},
		{"import", "fio", "--out", "res"},
		{"import", "fio", "--out", "res", notFio},
		{"import", "fio", "--out", "res", "missing.json"},
	}
	for _, args := range tests {
		dir := t.TempDir()
		out, errs, code := runQdsweep(t, dir, nil, args...)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line", args, code, out, errs)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%v left %d entries behind", args, len(entries))
		}
	}
}

// TestExplainWithoutLatencyOrDepth: a gtod_reduce run has no latency (said,
// never read as 0) and a pasted block without its header has no iodepth
// (said, never assumed 1); import refuses outputs it cannot analyse.
func TestExplainWithoutLatencyOrDepth(t *testing.T) {
	abs := func(n string) string { p, _ := filepath.Abs(fioData(n)); return p }
	dir := t.TempDir()
	for _, tt := range []struct{ file, verdict, queue, says string }{
		{"gtod-libaio-qd8.json", "latency-not-measured", "", "fio measured no latency"},
		{"gtod-libaio-qd8-normal.txt", "latency-not-measured", "", "fio measured no latency"},
		{"pasted-allclients-block.txt", "undetermined", "depth-unknown", "does not say the iodepth"},
	} {
		out, errs, code := runQdsweep(t, dir, nil, "explain", abs(tt.file))
		flat := strings.Join(strings.Fields(out), " ")
		if code != 0 || !strings.Contains(flat, tt.says) || strings.Contains(flat, "% full") {
			t.Errorf("%s: exit %d\n%s%s", tt.file, code, out, errs)
		}
		out, _, code = runQdsweep(t, dir, nil, "explain", "--output-format=json", abs(tt.file))
		var doc struct {
			Jobs []struct {
				Explanation struct {
					Verdict string  `json:"verdict"`
					Queue   string  `json:"queue"`
					Fill    float64 `json:"fill"`
				} `json:"explanation"`
			} `json:"jobs"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Jobs) != 1 ||
			doc.Jobs[0].Explanation.Verdict != tt.verdict || doc.Jobs[0].Explanation.Queue != tt.queue || doc.Jobs[0].Explanation.Fill != 0 {
			t.Errorf("%s json: exit %d\n%s", tt.file, code, out)
		}
	}
	_, errs, code := runQdsweep(t, dir, nil, "import", "fio", "-o", filepath.Join(dir, "imp"), abs("gtod-libaio-qd8.json"))
	if code != 2 || !strings.Contains(errs, "no latency") {
		t.Errorf("import of a gtod_reduce run: exit %d, %q", code, errs)
	}
	_, errs, code = runQdsweep(t, dir, nil, "import", "fio", "-o", filepath.Join(dir, "imp2"), abs("pasted-allclients-block.txt"))
	if code != 2 || !strings.Contains(errs, "iodepth") {
		t.Errorf("import of a block without iodepth: exit %d, %q", code, errs)
	}
	// fio 2.x outputs import like 3.x ones.
	out, errs, code := runQdsweep(t, dir, nil, "import", "fio", "-o", filepath.Join(dir, "imp3"),
		abs("fio-2.18-randread-libaio-qd16.json"), abs("fio-2.0.15-randread-libaio-qd32-normal.txt"))
	if code != 0 || !strings.Contains(out, "Imported 2 steps") {
		t.Errorf("import of fio 2.x outputs: exit %d\n%s%s", code, out, errs)
	}
}
