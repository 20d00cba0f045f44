package report

import (
	"testing"

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
		if got := SettleWords(sweep.Step{Steady: true, Settle: c.s}); got != c.want {
			t.Errorf("SettleWords(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}
