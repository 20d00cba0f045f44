package examples_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

var update = flag.Bool("update", false, "rewrite the committed sample texts (terminal.txt, summary.md, the README's sample block) from examples/data")

// samples are the committed sample results and how they were made: by
// sweep (progress lines, table, files) or by import fio.
var samples = []struct {
	dir      string
	imported bool
}{
	{"disk-randread-4k", false},
	{"disk-randread-bs", false},
	{"tmpfs-randread-4k", false},
	{"fio-randread-4k", true},
}

// TestSampleTexts renders every sample's terminal output and summary.md
// from its results.json, as the commands that made them print them, and
// fails on any difference with the committed files. Lines about events a
// result does not record (laying out the scratch file first, keeping it
// last) are kept as they are. With -update it rewrites the files.
func TestSampleTexts(t *testing.T) {
	for _, s := range samples {
		t.Run(s.dir, func(t *testing.T) {
			dir := filepath.Join("data", s.dir)
			r, err := sweep.Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Analyze(analyzeOptions()); err != nil {
				t.Fatal(err)
			}
			report.Annotate(r)
			var charts []string
			for _, c := range []string{report.ChartIOPS, report.ChartLatency, report.ChartHockey, report.ChartTimeline, report.ChartDashboard} {
				if _, err := os.Stat(filepath.Join(dir, c+".png")); err == nil {
					charts = append(charts, c+".png")
				}
			}
			var files []string
			for _, c := range append(append([]string{}, charts...), report.SummaryFile) {
				files = append(files, filepath.Join(s.dir, c))
			}

			var term bytes.Buffer
			o := report.Options{}
			if s.imported {
				report.WriteImported(&term, len(r.Steps), len(r.Curves()), r.Meta.Engine, importedFiles(r), s.dir)
			} else {
				report.ProgressLines(&term, r)
			}
			if err := report.Table(&term, r, o); err != nil {
				t.Fatal(err)
			}
			var notes bytes.Buffer
			report.WriteWritten(&term, &notes, files, filepath.Join(s.dir, sweep.ResultsJSON))
			compareText(t, filepath.Join(dir, "terminal.txt"), term.String(), true)

			var md bytes.Buffer
			if err := report.Markdown(&md, r, o, charts); err != nil {
				t.Fatal(err)
			}
			compareText(t, filepath.Join(dir, report.SummaryFile), md.String(), false)
		})
	}
}

// TestREADMESample checks the README's sample output: the first lines of
// what the default sweep in examples/data/disk-randread-4k printed after
// its progress lines, up to the end of the first diagnosis sentence.
func TestREADMESample(t *testing.T) {
	r, err := sweep.Read(filepath.Join("data", "disk-randread-4k"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Analyze(analyzeOptions()); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.Table(&b, r, report.Options{}); err != nil {
		t.Fatal(err)
	}
	// The sample ends with the diagnosis's verdict: its evidence is in
	// terminal.txt.
	var want []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "  - ") {
			break
		}
		want = append(want, l)
	}
	path := filepath.Join(repoRoot, "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	const mark = "## A real sweep of a small VM"
	i := strings.Index(doc, mark)
	if i < 0 {
		t.Fatalf("README.md has no %q section", mark)
	}
	start := i + strings.Index(doc[i:], "```\n") + len("```\n")
	end := start + strings.Index(doc[start:], "```\n")
	got := doc[start:end]
	rendered := strings.Join(want, "\n") + "\n"
	if got == rendered {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc[:start]+rendered+doc[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's sample differs from what examples/data/disk-randread-4k renders (go test ./examples -run TestREADMESample -update rewrites it):\n%s", lineDiff(got, rendered))
}

// analyzeOptions are the options the samples were made with: the
// defaults (no target, no SLO).
func analyzeOptions() littleslaw.Options { return littleslaw.Options{} }

// importedFiles is how many fio outputs an imported result came from: one
// per step.
func importedFiles(r *sweep.Result) int { return len(r.Steps) }

// compareText compares the committed file at path with rendered. With
// keepEvents, leading "qdsweep: laying out" and trailing "kept " lines of
// the file are events a result does not record and stay as they are.
func compareText(t *testing.T, path, rendered string, keepEvents bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	head, tail := 0, len(lines)
	if keepEvents {
		for head < len(lines) && strings.HasPrefix(lines[head], "qdsweep: laying out ") {
			head++
		}
		for tail > head && (lines[tail-1] == "" || strings.HasPrefix(lines[tail-1], "kept ")) {
			tail--
		}
	}
	got := strings.Join(lines[head:tail], "")
	if got == rendered {
		return
	}
	if *update {
		out := strings.Join(lines[:head], "") + rendered + strings.Join(lines[tail:], "")
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s differs from what its results.json renders (go test ./examples -run TestSampleTexts -update rewrites it):\n%s", path, lineDiff(got, rendered))
}

// lineDiff lists the lines that differ between a committed text and a
// rendered one.
func lineDiff(committed, rendered string) string {
	a, b := strings.Split(committed, "\n"), strings.Split(rendered, "\n")
	var out strings.Builder
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			out.WriteString("  line " + strconv.Itoa(i+1) + "\n    committed: " + x + "\n    rendered:  " + y + "\n")
		}
	}
	return out.String()
}
