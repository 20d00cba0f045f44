package report

import (
	"fmt"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// analysisLines returns the analysis of r as plain sentences, one paragraph
// per element: per curve the saturation, efficiency, model, target and SLO
// answers, flagged Little's-Law checks and warnings, then r's diagnosis.
func analysisLines(r *sweep.Result, o Options) []string {
	var out []string
	ss := seriesOf(r)
	multi := countPrimary(ss) > 1
	for _, s := range ss {
		if !s.Primary {
			continue
		}
		prefix := ""
		if multi {
			prefix = curveName(s.RW, s.BS) + ": "
		}
		n := 0
		for _, x := range ss {
			if x.RW == s.RW && x.BS == s.BS {
				n += len(x.measuredSteps())
			}
		}
		switch {
		case n == 0:
			out = append(out, prefix+"no measured steps: nothing to analyse.")
			continue
		case n == 1:
			out = append(out, prefix+"only one measured step: no curve, knee or fit can be drawn from it; sweep at least two queue depths.")
			continue
		case s.Analysis == nil:
			out = append(out, prefix+"no analysis in this result.")
			continue
		}
		out = append(out, curveSentences(prefix, s.Analysis, o)...)
	}
	for _, f := range r.Diagnosis {
		out = append(out, findingLines(f))
	}
	return out
}

// countPrimary counts the distinct rw × bs curves among ss.
func countPrimary(ss []series) int {
	n := 0
	for _, s := range ss {
		if s.Primary {
			n++
		}
	}
	return n
}

// curveSentences states one curve's analysis in a few sentences.
func curveSentences(prefix string, a *littleslaw.Analysis, o Options) []string {
	var out []string
	out = append(out, prefix+saturationSentence(a))
	if k := a.Efficient; k.Found {
		s := fmt.Sprintf("Best latency per IOPS at QD %s (%s IOPS at %s mean", fmtQD(k.QD), fmtIOPS(k.IOPS), fmtLat(k.LatNsMean))
		if k.Note != "" {
			s += "; " + strings.TrimSuffix(k.Note, ".")
		}
		out = append(out, s+").")
	}
	if m := a.Model; m != nil {
		s := fmt.Sprintf("Fitted %s model", modelName(m.Name))
		var facts []string
		if m.XRoof > 0 {
			facts = append(facts, "ceiling "+fmtIOPS(m.XRoof)+" IOPS")
		}
		if a.BaseLatencyNs > 0 {
			facts = append(facts, "R0 "+fmtLat(a.BaseLatencyNs))
		}
		if m.KneeQD > 0 {
			facts = append(facts, "knee N* ≈ "+fmtQD(m.KneeQD))
		}
		facts = append(facts, fmt.Sprintf("error %.1f%%", m.RelRMS*100))
		out = append(out, s+": "+strings.Join(facts, ", ")+".")
	}
	if t := a.Target; t != nil {
		out = append(out, targetSentence(t))
	}
	if slo := a.SLO; slo != nil {
		out = append(out, sloSentence(slo))
	}
	for _, c := range a.Checks {
		if !c.Flagged {
			continue
		}
		s := fmt.Sprintf("Little's-Law check at QD %s: IOPS × latency = %.1f in flight (fill %.0f%%)",
			fmtQD(c.QD), c.EffectiveInflight, c.Fill*100)
		if c.MeasuredInflight > 0 {
			s += fmt.Sprintf(", measured %.1f", c.MeasuredInflight)
		}
		if c.Note != "" {
			s += ": " + c.Note
		}
		out = append(out, s+".")
	}
	for _, w := range a.Warnings {
		if !isCheckWarning(w, a.Checks) {
			out = append(out, "Warning: "+sentence(w))
		}
	}
	return out
}

// saturationSentence says where the curve saturates and what the next step costs.
func saturationSentence(a *littleslaw.Analysis) string {
	k := a.Saturation
	if !k.Found {
		hint := "sweep deeper"
		if i := strings.Index(k.Note, "sweep deeper"); i >= 0 {
			hint = k.Note[i:]
		}
		return fmt.Sprintf("No saturation within the sweep: IOPS still rising at QD %s (%s IOPS); %s.",
			fmtQD(a.MaxIOPSQD), fmtIOPS(a.MaxIOPS), strings.TrimSuffix(hint, "."))
	}
	s := fmt.Sprintf("Saturates at %s IOPS from QD %s", fmtIOPS(k.IOPS), fmtQD(k.QD))
	if next, ok := nextPoint(a.Points, k.QD); ok && k.IOPS > 0 && k.LatNsMean > 0 {
		gain := next.IOPS/k.IOPS - 1
		verb := "adds"
		if gain < 0 {
			verb, gain = "loses", -gain
		}
		s += fmt.Sprintf("; QD %s %s %.0f%% IOPS %s", fmtQD(next.QD), verb, gain*100, latencyPhrase(next.LatMeanNs/k.LatNsMean))
	}
	return s + "."
}

// latencyPhrase words what a latency ratio (deeper / knee) costs:
// "and doubles latency", "at 1.4× the latency".
func latencyPhrase(r float64) string {
	switch w := ratioWords(r); {
	case w == "doubles" || w == "triples":
		return "and " + w + " latency"
	case r >= 1.05:
		return fmt.Sprintf("at %.1f× the latency", r)
	case r > 0.95:
		return "at about the same latency"
	default:
		return fmt.Sprintf("at %.2f× the latency", r)
	}
}

// nextPoint returns the point with the smallest QD above qd.
func nextPoint(ps []littleslaw.Point, qd float64) (littleslaw.Point, bool) {
	var best littleslaw.Point
	found := false
	for _, p := range ps {
		if p.QD > qd && (!found || p.QD < best.QD) {
			best, found = p, true
		}
	}
	return best, found
}

// modelName spells a model's name for people.
func modelName(n string) string {
	switch n {
	case "bound":
		return "bound (min(N/R0, Xmax))"
	case "usl":
		return "USL"
	}
	return n
}

// targetSentence answers "what QD for T IOPS".
func targetSentence(t *littleslaw.TargetResult) string {
	var s string
	if t.Reachable {
		s = fmt.Sprintf("%s IOPS needs ~%s in flight", fmtCount(t.TargetIOPS), fmtQD(t.QD))
		if t.LatencyNs > 0 {
			s += " at " + fmtLat(t.LatencyNs)
		}
		if t.Split.IODepth > 0 {
			s += fmt.Sprintf(": iodepth %d × numjobs %d", t.Split.IODepth, t.Split.NumJobs)
			var alts []string
			for _, a := range t.AltSplits {
				alts = append(alts, fmt.Sprintf("%d × %d", a.IODepth, a.NumJobs))
			}
			if len(alts) > 0 {
				s += " (or " + strings.Join(alts, ", ") + ")"
			}
		}
		s += ". Reachable."
		if _, warn, ok := strings.Cut(t.Note, "; "); ok && strings.Contains(warn, "exceeds") {
			s += " " + sentence(capitalize(warn))
		}
		return s
	}
	if t.Note != "" && !strings.Contains(t.Note, "saturates") {
		// Not reached without saturating: littleslaw's note says how to go on.
		return fmt.Sprintf("For %s IOPS: %s", fmtCount(t.TargetIOPS), sentence(t.Note))
	}
	s = fmt.Sprintf("For %s IOPS: not reachable here; this device saturates at about %s IOPS", fmtCount(t.TargetIOPS), fmtIOPS(t.ReachableIOPS))
	if t.NaiveQD > 0 {
		s += fmt.Sprintf(" (Little's Law alone would ask for %s in flight)", fmtQD(t.NaiveQD))
	}
	s += ". The limit is the device or the VM, not the queue depth."
	return s
}

// sloSentence answers the latency objective.
func sloSentence(r *littleslaw.SLOResult) string {
	obj := fmt.Sprintf("%s ≤ %s", r.Stat, fmtLat(r.LimitNs))
	var s string
	if r.Met {
		s = fmt.Sprintf("Deepest QD meeting %s: QD %s (%s IOPS, %s %s).", obj, fmtQD(r.QD), fmtIOPS(r.IOPS), r.Stat, fmtLat(r.LatNs))
	} else {
		s = fmt.Sprintf("No measured QD meets %s.", obj)
		if rest, ok := strings.CutPrefix(r.Note, "not met: "); ok {
			return fmt.Sprintf("No measured QD meets %s: %s", obj, sentence(rest))
		}
	}
	if r.Note != "" {
		s += " " + sentence(capitalize(r.Note))
	}
	return s
}

// findingLines renders one diagnosis finding with its evidence.
func findingLines(f littleslaw.Finding) string {
	s := fmt.Sprintf("Diagnosis (%s): %s", f.Rule, sentence(f.Summary))
	for _, e := range f.Evidence {
		s += "\n  - " + e
	}
	if f.Next != "" {
		s += "\n  Next: " + sentence(f.Next)
	}
	return s
}

// sentence capitalises nothing but makes sure s ends with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// isCheckWarning reports whether warning w only repeats a flagged check,
// which the check's own sentence already states.
func isCheckWarning(w string, checks []littleslaw.StepCheck) bool {
	for _, c := range checks {
		if c.Flagged && w == fmt.Sprintf("QD %g: %s", c.QD, c.Note) {
			return true
		}
	}
	return false
}
