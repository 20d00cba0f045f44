package report

import (
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestSettleWords words each way a step settles with the figures of its
// littleslaw.Settle, and nothing for a step that records none.
func TestSettleWords(t *testing.T) {
	p := littleslaw.StepEstimate{QD: 1, IOPS: 18000, LatNs: 53e3, IOPSErr: 0.01, LatErr: 0.01, N: 5}
	q := littleslaw.StepEstimate{QD: 2, IOPS: 30600, LatNs: 62e3, IOPSErr: 0.04, LatErr: 0.04, N: 5}
	gain := littleslaw.SettleStep(&p, q, 0.02)
	q.IOPS, q.LatNs, q.IOPSErr, q.LatErr = p.IOPS*1.01, p.LatNs*2, 0.005, 0.005
	flat := littleslaw.SettleStep(&p, q, 0.02)
	prec := littleslaw.SettleStep(nil, q, 0.02)
	q.IOPS, q.LatNs, q.IOPSErr, q.LatErr = p.IOPS*1.05, p.LatNs*1.8, 0.06, 0.06
	open := littleslaw.SettleStep(&p, q, 0.02)
	open.EndUndecidable(30)
	q.IOPS, q.IOPSErr = p.IOPS*0.99, 0.005
	held := littleslaw.SettleControl(p, q, 0.05, 0.02)
	q.IOPSErr = 0.2
	first := littleslaw.SettleStep(nil, q, 0.02)
	first.EndUndecidable(30)
	for _, c := range []struct {
		s    *littleslaw.Settle
		want string
	}{
		{&gain, "IOPS +70.0% ±19.5% over QD 1, clear of 5% at 95%"},
		{&flat, "IOPS +1.0% ±3.1% over QD 1, under 5%; latency ×2.00 QD 1's, at or over ×1.80 at 95%"},
		{&prec, "mean known to ±0.5%"},
		{&open, "undecided: IOPS +5.0% ±17.7% would not settle at 95% within the 30 intervals of its window cap"},
		{&first, "undecided: mean known to ±20.0% would not reach ±2.0% within the 30 intervals of its window cap"},
		{&held, "IOPS -1.0% ±3.1% of the first measurement, inside its 5% band at 95%"},
		{nil, ""},
	} {
		if got := SettleWords(nil, sweep.Step{Steady: true, Settle: c.s}); got != c.want {
			t.Errorf("SettleWords(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}

// TestAgainWordsNameTheRowsFigure: the words of a step measured again
// after a fall or as a curve's top quote the deeper step's figure as
// "QD n's X" only when QD n's row shows X; a level is named as one, and a
// figure of a deeper step measured again since is named as its first
// measurement's. Every way the figure and the deeper step's history
// combine is tried, and the step judged against a step measured again
// since says so too (SettleWords).
func TestAgainWordsNameTheRowsFigure(t *testing.T) {
	const level, sustained, first, second = 9400.0, 9100.0, 9800.0, 10200.0
	for _, why := range []string{littleslaw.AgainFell, littleslaw.AgainTop} {
		for _, of := range []string{"", littleslaw.FellLevel, littleslaw.FellSustained} {
			for _, again := range []string{"", littleslaw.AgainLead, littleslaw.AgainBefore} {
				fell := map[string]float64{"": first, littleslaw.FellLevel: level, littleslaw.FellSustained: sustained}[of]
				deep := sweep.Step{RW: "randread", BS: 4096, QD: 128, IODepth: 128, NumJobs: 1, IOPS: first,
					Settle: &littleslaw.Settle{Settled: true, Level: level, PrevQD: 64, PrevIOPS: 11000},
					Time:   &diagnosis.StepTime{Sustained: &diagnosis.Sustained{IOPS: sustained}}}
				if again == littleslaw.AgainBefore {
					// measured again after the fall: every figure changed
					deep.IOPS, deep.Settle.Level, deep.Time.Sustained.IOPS = second, second-200, second-300
					deep.Settle.FirstIOPS, deep.Settle.Again, deep.Settle.FirstNs = first, again, 3e8
				} else if again == littleslaw.AgainLead {
					// measured again before the fall was judged: the figure is its own
					deep.Settle.FirstIOPS, deep.Settle.Again, deep.Settle.FirstNs = 13000, again, 3e8
				}
				st := sweep.Step{RW: "randread", BS: 4096, QD: 64, IODepth: 64, NumJobs: 1, IOPS: 11000,
					Settle: &littleslaw.Settle{Settled: true, Confidence: 0.95, FirstIOPS: 12000, FirstNs: 3e8, Again: why, FellQD: 128, FellIOPS: fell, FellOf: of}}
				r := &sweep.Result{Steps: []sweep.Step{st, deep}}
				w := AgainWords(r, st)
				plain := "QD 128's " + FormatIOPS(fell)
				named := strings.Contains(w, plain)
				if named != (of == "" && again != littleslaw.AgainBefore) {
					t.Errorf("%s, figure %q, deeper step measured again %q: %q says %q: want it only when the row shows %s", why, of, again, w, plain, FormatIOPS(deep.IOPS))
				}
				if !strings.Contains(w, FormatIOPS(fell)) || (of != "") != strings.Contains(w, "level") || (again == littleslaw.AgainBefore) != strings.Contains(w, "first measurement") {
					t.Errorf("%s, figure %q, deeper step measured again %q: %q", why, of, again, w)
				}
				if again == littleslaw.AgainBefore && of == "" {
					// the step judged against QD 64 before it was measured again
					deep.Settle = &littleslaw.Settle{Settled: true, By: littleslaw.SettledByDecision, Confidence: 0.95, T: 2, PrevQD: 64, PrevIOPS: 12000, Gain: -0.15, GainErr: 0.01, GainClear: true, GainLimit: 0.05, LatRatio: 2.5, LatNeed: 1.8, LatClear: true}
					if w := SettleWords(r, deep); !strings.Contains(w, "QD 64 as first measured ("+FormatIOPS(12000)+" IOPS)") {
						t.Errorf("SettleWords of a step judged against one measured again since: %q", w)
					}
					r.Steps[0].IOPS = 12000
					if w := SettleWords(r, deep); strings.Contains(w, "first") {
						t.Errorf("SettleWords of a step judged against the row it names: %q", w)
					}
				}
			}
		}
	}
}
