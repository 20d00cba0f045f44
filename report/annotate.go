package report

import (
	"strings"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// Annotate writes the words of r's analysis and diagnosis into their text
// fields (Finding.Summary, Evidence and Next; Knee.Rule and Note;
// StepCheck.Note; SLOResult.Note; TargetResult.Note; Setting.Formula;
// Analysis.Warnings), so results.json carries sentences for its readers as
// it always has. littleslaw computes the typed fields; call Annotate after
// sweep.Result.Analyze and before writing the result.
func Annotate(r *sweep.Result) {
	if r == nil {
		return
	}
	for i := range r.Analysis {
		AnnotateAnalysis(&r.Analysis[i].Analysis)
	}
	AnnotateFindings(r.Diagnosis)
}

// AnnotateAnalysis writes the words of a into its text fields.
func AnnotateAnalysis(a *littleslaw.Analysis) {
	if a == nil {
		return
	}
	for _, k := range []*littleslaw.Knee{&a.Saturation, &a.Efficient, &a.ModelKnee, &a.Kneedle} {
		k.Rule, k.Note = kneeRule(k.Kind), kneeNote(*k)
	}
	switch {
	case !a.Saturation.Found && a.EarlyStopped:
		a.Saturation.Note = "no saturation confirmed, and the sweep stopped early after flat steps; --full measures the skipped ones"
	case !a.Saturation.Found && a.SetAside > 0:
		a.Saturation.Note = "no saturation " + setAsideWords(a)
	}
	for i := range a.Checks {
		a.Checks[i].Note = checkNote(a.Checks[i])
	}
	if a.SLO != nil {
		a.SLO.Note = withCaveats(sloNote(*a.SLO), "", a.SLO.Caveats, "")
	}
	if a.Target != nil {
		AnnotateTarget(a.Target)
	}
	for i := range a.Settings {
		a.Settings[i].Value = settingValue(a.Settings[i])
		a.Settings[i].Formula = withCaveats(settingFormula(a.Settings[i]), settingBoundText(a.Settings[i]), a.Settings[i].Caveats, littleslaw.CaveatUnsaturated)
	}
	a.Warnings = nil
	for _, n := range a.Notices {
		a.Warnings = append(a.Warnings, noticeText(n, a))
	}
}

// AnnotateTarget writes the words of t into t.Note.
func AnnotateTarget(t *littleslaw.TargetResult) {
	t.Note = withCaveats(targetNote(*t), "", t.Caveats, "")
}

// withCaveats appends a bound clause and the caveats' words (but skip,
// already said by the bound) to s, "; "-separated.
func withCaveats(s, bound string, ks []littleslaw.CaveatKind, skip littleslaw.CaveatKind) string {
	parts := []string{}
	if s != "" {
		parts = append(parts, s)
	}
	if bound != "" {
		parts = append(parts, bound)
	}
	for _, k := range ks {
		if k != skip || bound == "" {
			parts = append(parts, "caveat: "+CaveatText(k))
		}
	}
	return strings.Join(parts, "; ")
}

// AnnotateFindings writes the words of each finding into its Summary,
// Evidence and Next.
func AnnotateFindings(fs []diagnosis.Finding) {
	for i := range fs {
		f := &fs[i]
		f.Summary, f.Evidence, f.Next = FindingSummary(*f), FindingEvidence(*f), FindingNext(*f)
	}
}
