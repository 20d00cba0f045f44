package littleslaw

import "slices"

// CaveatKind names a reason a recommendation is weaker than it reads: it
// travels with every answer it affects (target, SLO, settings) so that a
// reader of any one of them sees it.
type CaveatKind string

// Caveat kinds.
const (
	// CaveatUnsaturated: the sweep never saturated, so every depth read
	// from it (the useful parallelism of the settings, an unreached
	// target's depth) is a lower bound.
	CaveatUnsaturated CaveatKind = "unsaturated"
	// CaveatContended: other I/O shared the device during the sweep, so the
	// figures are not the workload's alone.
	CaveatContended CaveatKind = "contended"
	// CaveatNotSteady: some steps' IOPS were still drifting when they ended.
	CaveatNotSteady CaveatKind = "not-steady"
	// CaveatInconclusive: the diagnosis could not tell what limits the curve.
	CaveatInconclusive CaveatKind = "inconclusive"
	// CaveatCPUBound: the submitter ran out of CPU, so the curve shows the
	// host's limit rather than the device's.
	CaveatCPUBound CaveatKind = "cpu-bound"
	// CaveatCache: the figures were served without device I/O (a cache),
	// not by the device being sized.
	CaveatCache CaveatKind = "cache"
)

// AddCaveats records caveats on a and on every answer it holds (target,
// SLO, settings), once each, in the order given.
func (a *Analysis) AddCaveats(ks ...CaveatKind) {
	for _, k := range ks {
		if k == "" || slices.Contains(a.Caveats, k) {
			continue
		}
		a.Caveats = append(a.Caveats, k)
		if a.Target != nil {
			a.Target.Caveats = append(a.Target.Caveats, k)
		}
		if a.SLO != nil {
			a.SLO.Caveats = append(a.SLO.Caveats, k)
		}
		for i := range a.Settings {
			a.Settings[i].Caveats = append(a.Settings[i].Caveats, k)
		}
	}
}
