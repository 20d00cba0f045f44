package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestTableSaysWhyNotSteady checks that the steady column names why a
// step is not steady and that a note under the table explains the words
// with the run's own window, limit and runtime.
func TestTableSaysWhyNotSteady(t *testing.T) {
	r := oneCurve(littleslaw.Options{})
	r.Meta.SteadyWindowNs, r.Meta.SteadyLimit = int64(2*time.Second), 0.02
	r.Steps[0].Steady, r.Steps[0].NotSteady, r.Steps[0].RuntimeNs = false, sweep.NotSteadyShort, int64(300*time.Millisecond)
	r.Steps[1].Steady, r.Steps[1].NotSteady = false, sweep.NotSteadyDrift
	r.Steps[2].Steady = false // an older result: no reason recorded
	var buf bytes.Buffer
	if err := report.Table(&buf, r, report.Options{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(out, "\n")
	cells := map[string]string{} // QD → steady cell
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 8 && strings.Contains(f[1], "×") {
			cells[f[0]] = f[len(f)-1]
		}
	}
	for qd, want := range map[string]string{"1": "short", "2": "drift", "4": "no", "8": "yes"} {
		if got := cells[qd]; got != want {
			t.Errorf("QD %s steady cell %q, want %q:\n%s", qd, got, want, out)
		}
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, w := range []string{"short = the step measured 300 ms, less than the 2 s steady window (--ss_dur)",
		"drift = IOPS still moved by more than 2% of its mean per second (--ss)"} {
		if !strings.Contains(flat, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	var md bytes.Buffer
	if err := report.Markdown(&md, r, report.Options{}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| short |") || !strings.Contains(md.String(), "steady: short = ") {
		t.Errorf("Markdown lacks the steady reason or its note:\n%s", md.String())
	}
}
