package diagnosis_test

import (
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// TestOpenLoopFactsCarryLoads diagnoses a curve over offered loads (each
// point's QD the I/Os it kept in flight, as an open-loop sweep's): the
// facts spanning two steps (growth, plateau, the last step) carry both
// steps' offered loads, and every figure naming a step its load, so their
// words can name the loads swept rather than depths that were not.
func TestOpenLoopFactsCarryLoads(t *testing.T) {
	var pts []littleslaw.Point
	for _, p := range []struct{ offered, iops, latNs float64 }{
		{10e3, 10e3, 100e3}, {20e3, 20e3, 100e3}, {40e3, 40e3, 105e3}, {80e3, 79e3, 108e3},
	} {
		in := p.iops * p.latNs / 1e9
		pts = append(pts, littleslaw.Point{QD: in, OfferedIOPS: p.offered, IODepth: 64, NumJobs: 1, IOPS: p.iops, LatMeanNs: p.latNs,
			P99Ns: 2 * p.latNs, InflightMean: in})
	}
	fs := diagnosis.Diagnose(diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{RW: "randread", BS: 4096, Engine: "io_uring", Direct: true, Points: pts}}})
	spans := 0
	for _, f := range fs {
		t.Logf("%s/%s figures %+v", f.Rule, f.Reason, f.Figures)
		if f.Figures.QD > 0 && f.Figures.OfferedIOPS == 0 {
			t.Errorf("%s/%s: figures name a step by QD %.2f without its load", f.Rule, f.Reason, f.Figures.QD)
		}
		for _, x := range f.Facts {
			if x.ToQD > 0 && x.QD > 0 && (x.OfferedIOPS == 0 || x.ToOfferedIOPS == 0) {
				t.Errorf("%s: fact %s spans QD %.2f → %.2f without both loads: %+v", f.Rule, x.Kind, x.QD, x.ToQD, x)
			}
			if x.ToOfferedIOPS > 0 {
				spans++
				if x.OfferedIOPS != 10e3 || x.ToOfferedIOPS != 80e3 {
					t.Errorf("%s: fact %s spans %.0f → %.0f offered, want 10000 → 80000", f.Rule, x.Kind, x.OfferedIOPS, x.ToOfferedIOPS)
				}
			}
		}
	}
	if spans == 0 {
		t.Errorf("no fact spans two loads in %+v: the test's curve must rise at R0 (depth-bound's growth)", fs)
	}
}
