package report

import (
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// chartInput is what every chart draws from: the series, the words for
// its subtitle, and the target and SLO lines.
type chartInput struct {
	Subtitle   string // workload, target and engine
	Simulated  bool
	Series     []series
	TargetIOPS float64         // 0 for none
	SLO        *littleslaw.SLO // nil for none
}

// chartInputOf prepares r for charting. The target and SLO come from o,
// or else from r's analysis.
func chartInputOf(r *sweep.Result, o Options) chartInput {
	in := chartInput{
		Subtitle:   subtitle(r),
		Simulated:  r.Meta.Simulated,
		Series:     seriesOf(r),
		TargetIOPS: o.TargetIOPS,
		SLO:        o.SLO,
	}
	in.fillGoals()
	return in
}

// fillGoals takes the target and SLO from the analyses when not given.
func (in *chartInput) fillGoals() {
	for _, s := range in.Series {
		a := s.Analysis
		if a == nil {
			continue
		}
		if in.TargetIOPS == 0 && a.Target != nil {
			in.TargetIOPS = a.Target.TargetIOPS
		}
		if in.SLO == nil && a.SLO != nil && a.SLO.LimitNs > 0 {
			in.SLO = &littleslaw.SLO{Stat: a.SLO.Stat, LimitNs: a.SLO.LimitNs}
		}
	}
}

// subtitle names a result's workload, target and engine.
func subtitle(r *sweep.Result) string {
	parts := []string{workloadWords(r)}
	if t := r.Meta.Target; t != "" {
		parts = append(parts, t)
	}
	if r.Meta.Engine != "" {
		parts = append(parts, "engine "+engineWords(r.Meta))
	}
	if !r.Meta.Start.IsZero() {
		parts = append(parts, r.Meta.Start.UTC().Format("2006-01-02 15:04 MST"))
	}
	return strings.Join(parts, " · ")
}
