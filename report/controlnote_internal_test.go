package report

import (
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/sweep"
)

// TestControlNoteQuotesWhatTheVerdictCompares: a control step judged on
// levels (a start-up burst lifted a mean) names those levels and their
// change beside the means, so the line's "held still" or "beyond the band"
// is checkable from the figures it prints; without levels it quotes only
// the means, which the verdict then compared.
func TestControlNoteQuotesWhatTheVerdictCompares(t *testing.T) {
	cases := []struct {
		name                      string
		was, now, wasLevel, level float64
		change                    string
		wantLevels, wantHeld      bool
	}{
		{"means apart, levels held", 9000, 8000, 8000, 7950, "", true, true},
		{"means held, levels fell", 8000, 7900, 8000, 6000, sweep.ControlFell, true, false},
		{"no lead, held", 8000, 7900, 0, 0, "", false, true},
		{"no lead, rose", 6000, 8000, 0, 0, sweep.ControlRose, false, false},
	}
	for _, c := range cases {
		var st sweep.Step
		st.QD, st.IODepth, st.NumJobs, st.IOPS = 64, 64, 1, c.now
		st.Lat.MeanNs = 64 / c.now * 1e9
		r := &sweep.Result{Control: &sweep.ControlStep{Step: st, WasIOPS: c.was, WasLatNs: 64 / c.was * 1e9,
			Band: 0.05, Change: c.change, WasLevel: c.wasLevel, Level: c.level}}
		n := controlNote(r)
		if !strings.Contains(n, FormatIOPS(c.now)) || !strings.Contains(n, FormatIOPS(c.was)) {
			t.Errorf("%s: the means %s and %s are not in %q", c.name, FormatIOPS(c.was), FormatIOPS(c.now), n)
		}
		levels := FormatIOPS(c.wasLevel) + " then " + FormatIOPS(c.level) + " (" + relDelta(c.wasLevel, c.level) + ")"
		if got := strings.Contains(n, levels); got != c.wantLevels {
			t.Errorf("%s: levels %q quoted %v, want %v: %q", c.name, levels, got, c.wantLevels, n)
		}
		if got := strings.Contains(n, "held still"); got != c.wantHeld {
			t.Errorf("%s: held still %v, want %v: %q", c.name, got, c.wantHeld, n)
		}
	}
}
