package session

import (
	"runtime"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
)

// ExplainFio explains fio outputs: every job by Little's Law, and every
// workload run at several depths (fioadapt.CurveGroups) once, from its
// curve, by the one advisor — exactly the answer `import fio` of those
// runs and then `advise --from` give. source names the inputs in the
// answers' notes.
func ExplainFio(outs []fio.Output, o fioadapt.ExplainOptions, source string) report.ExplainDoc {
	var doc report.ExplainDoc
	o.Curved, o.Unsaturated = map[string]bool{}, map[string]bool{}
	for _, g := range fioadapt.CurveGroups(outs) {
		if len(g.Depths) < 2 {
			continue
		}
		c, ok := explainCurve(g, o, source)
		if !ok {
			continue
		}
		doc.Curves = append(doc.Curves, c)
		o.Curved[g.Key] = true
		o.Unsaturated[g.Key] = c.Advice.Analysis != nil && !c.Advice.Analysis.Saturation.Found
	}
	doc.Jobs = fioadapt.ExplainFio(outs, o)
	return doc
}

// explainCurve answers one workload's runs as a curve: the runs imported as
// a sweep's result, analysed and advised on as advise --from does.
func explainCurve(g fioadapt.CurveGroup, o fioadapt.ExplainOptions, source string) (report.ExplainCurve, bool) {
	r, err := fioadapt.ImportResult(g.Outputs)
	if err != nil {
		return report.ExplainCurve{}, false
	}
	in := littleslaw.AdviceInput{TargetIOPS: o.TargetIOPS,
		Options: littleslaw.Options{TargetIOPS: o.TargetIOPS, MaxIODepth: o.MaxIODepth, MaxJobs: o.MaxJobs, CPUs: runtime.NumCPU()}}
	if err := r.Analyze(in.Options); err != nil || len(r.Analysis) != 1 || len(r.Analysis[0].Analysis.Points) < 2 {
		return report.ExplainCurve{}, false
	}
	ca := r.Analysis[0]
	adv := littleslaw.AdviseCurve(ca.Analysis, ca.BS, in)
	d := report.NewAdviceDoc(adv, source, &ca.Analysis, nil)
	d.Warnings = append(d.Warnings, report.TimeCaveats(ca)...)
	return report.ExplainCurve{RW: g.RW, BS: g.BS, Engine: g.Engine, Host: g.Host, Jobs: g.Jobs, Depths: g.Depths, Advice: d}, true
}
