package sweep

import (
	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// attachCaveats carries what weakens each curve's answers into its
// analysis (and so into its target, SLO and settings): the diagnosis
// findings about the curve (contended, inconclusive, CPU-bound, cache) and
// measured steps whose IOPS were still drifting when they ended.
func (r *Result) attachCaveats() {
	for i := range r.Analysis {
		ca := &r.Analysis[i]
		for _, f := range r.Diagnosis {
			if f.RW == ca.RW && (f.BS == ca.BS || f.BS == 0) {
				ca.Analysis.AddCaveats(diagnosis.FindingCaveat(f))
			}
		}
		for _, s := range r.Steps {
			if s.RW == ca.RW && s.BS == ca.BS && s.Analysable() && s.NotSteady == NotSteadyDrift {
				ca.Analysis.AddCaveats(littleslaw.CaveatNotSteady)
				break
			}
		}
	}
}
