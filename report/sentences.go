package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// para is one paragraph of the analysis: a sentence about a curve (or
// the whole result), or a diagnosis finding with its evidence.
type para struct {
	Curve    string   // "randread 4k"; "" for a single-curve result or a result-wide finding
	Text     string   // the sentence(s)
	Rank     int      // importance: rankKey is never dropped from the dashboard
	Evidence []string // a finding's evidence, one fact each
	Next     string   // a finding's next step
}

// Paragraph ranks, most important first.
const (
	rankKey      = iota // saturation, target, SLO
	rankFinding         // a diagnosis summary
	rankDetail          // efficient QD, model, checks, warnings
	rankEvidence        // a finding's evidence and next step
)

// analysisParas returns the analysis of r as paragraphs: per curve the
// saturation, target and SLO answers, the efficient QD and the model,
// flagged Little's-Law checks, warnings and the curve's diagnosis; then
// the findings about the whole result.
func analysisParas(r *sweep.Result, o Options) []para {
	var out []para
	ss := seriesOf(r)
	multi := countPrimary(ss) > 1
	used := make([]bool, len(r.Diagnosis))
	for _, s := range ss {
		if !s.Primary {
			continue
		}
		name := curveName(s.RW, s.BS)
		curve := ""
		if multi {
			curve = name
		}
		add := func(rank int, text string) { out = append(out, para{Curve: curve, Text: text, Rank: rank}) }
		n := 0
		for _, x := range ss {
			if x.RW == s.RW && x.BS == s.BS {
				n += len(x.measuredSteps())
			}
		}
		switch {
		case n == 0:
			add(rankKey, "No measured steps: nothing to analyse.")
		case n == 1:
			add(rankKey, "Only one measured step: no curve, knee or fit can be drawn from it; sweep at least two queue depths.")
		case s.Analysis == nil:
			add(rankKey, "No analysis in this result.")
		default:
			out = append(out, curveParas(curve, s.Analysis)...)
		}
		ct := curveTime(r, s.RW, s.BS)
		out = append(out, timeKeyParas(curve, ct)...)
		out = append(out, timeDetailParas(curve, r, s.RW, s.BS, ct)...)
		for i, f := range r.Diagnosis {
			if !used[i] && findingCurve(f) == name {
				used[i] = true
				out = append(out, findingPara(f, curve, s.Analysis))
			}
		}
	}
	for i, f := range r.Diagnosis {
		if !used[i] {
			out = append(out, findingPara(f, "", nil))
		}
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

// curveParas states one curve's analysis in a few ranked sentences.
func curveParas(curve string, a *littleslaw.Analysis) []para {
	if a.Load != nil {
		return append(loadParas(curve, a), checkParas(curve, a, modelNotices...)...)
	}
	var out []para
	add := func(rank int, text string) { out = append(out, para{Curve: curve, Text: text, Rank: rank}) }
	add(rankKey, saturationSentence(a))
	if t := a.Target; t != nil {
		add(rankKey, targetSentence(t, a.BaseLatencyNs))
	}
	if slo := a.SLO; slo != nil {
		add(rankKey, sloSentence(slo))
	}
	var cav []string
	for _, k := range a.Caveats {
		if k != littleslaw.CaveatUnsaturated { // the saturation sentence says it
			cav = append(cav, CaveatText(k))
		}
	}
	if len(cav) > 0 && (a.Target != nil || a.SLO != nil || len(a.Settings) > 0 || a.Saturation.Found) {
		add(rankKey, "Caveat: "+sentence(strings.Join(cav, "; ")))
	}
	if k := a.Efficient; k.Found {
		add(rankDetail, efficientSentence(k))
	}
	if m := a.Model; m != nil {
		add(rankDetail, modelSentence(a))
	}
	return append(out, checkParas(curve, a)...)
}

// modelNotices are the notices about fits and the points they want: a
// curve over offered loads is read for its loads, not fitted (loadParas).
var modelNotices = []littleslaw.NoticeKind{littleslaw.NoticeNoModelFits, littleslaw.NoticeFitBelow, littleslaw.NoticeFewPoints, littleslaw.NoticeTwoPoints, littleslaw.NoticeSettingsDeep}

// efficientSentence names the best IOPS per latency.
func efficientSentence(k littleslaw.Knee) string {
	s := fmt.Sprintf("Best IOPS per latency at QD %s (%s IOPS at %s mean", FormatQD(k.QD), FormatIOPS(k.IOPS), FormatLatency(k.LatNsMean))
	if n := kneeNote(k); n != "" {
		s += "; " + n
	}
	return s + ")."
}

// modelSentence states a's fitted model (a.Model is not nil).
func modelSentence(a *littleslaw.Analysis) string {
	m := a.Model
	s := "Fitted " + modelName(m.Name) + " model"
	if m.Name == "bound" {
		s += " min(N/R0, Xmax)"
	}
	var facts []string
	// Without saturation a fit's ceiling and knee sit at (or are
	// guessed beyond) the deepest step: stating them beside "no
	// saturation" would contradict it.
	sat := a.Saturation.Found
	if m.XRoof > 0 && sat {
		facts = append(facts, "ceiling "+FormatIOPS(m.XRoof)+" IOPS")
	}
	if a.BaseLatencyNs > 0 {
		facts = append(facts, "R0 "+FormatLatency(a.BaseLatencyNs))
	}
	switch {
	case !sat:
		facts = append(facts, "no ceiling within the sweep")
	case m.NMax > 0:
		facts = append(facts, "peak at QD "+FormatQD(m.NMax))
	case m.KneeQD > 0:
		facts = append(facts, "knee N* ≈ "+FormatQD(m.KneeQD))
	}
	facts = append(facts, fmt.Sprintf("error %.1f%%", m.RelRMS*100))
	return s + ": " + strings.Join(facts, ", ") + "."
}

// checkParas are a curve's flagged Little's-Law checks and its notices.
func checkParas(curve string, a *littleslaw.Analysis, skip ...littleslaw.NoticeKind) []para {
	var out []para
	add := func(rank int, text string) { out = append(out, para{Curve: curve, Text: text, Rank: rank}) }
	for _, c := range a.Checks {
		if !c.Flagged {
			continue
		}
		s := fmt.Sprintf("Little's-Law check at QD %s: IOPS × latency = %.1f in flight (fill %.0f%%)",
			FormatQD(c.QD), c.EffectiveInflight, c.Fill*100)
		if c.MeasuredInflight > 0 {
			s += fmt.Sprintf(", measured %.1f", c.MeasuredInflight)
		}
		if n := checkNote(c); n != "" {
			s += ": " + n
		}
		add(rankDetail, s+".")
	}
	for _, n := range a.Notices {
		if n.Kind != littleslaw.NoticeCheck && !slices.Contains(skip, n.Kind) { // the check's own sentence says it
			add(rankDetail, "Warning: "+sentence(noticeText(n, a)))
		}
	}
	return out
}

// saturationSentence says where the curve saturates and what the next step costs.
func saturationSentence(a *littleslaw.Analysis) string {
	k := a.Saturation
	if !k.Found && a.EarlyStopped {
		return fmt.Sprintf("No saturation confirmed: the most was %s IOPS at QD %s, and the sweep stopped early after flat steps; --full measures the skipped ones.",
			FormatIOPS(a.MaxIOPS), FormatQD(a.MaxIOPSQD))
	}
	if !k.Found && a.SetAside > 0 {
		return "No saturation " + setAsideWords(a) + "."
	}
	if !k.Found {
		return fmt.Sprintf("No saturation within the sweep: IOPS still rising at QD %s (%s IOPS); %s.",
			FormatQD(a.MaxIOPSQD), FormatIOPS(a.MaxIOPS), sweepDeeperHint(k))
	}
	s := fmt.Sprintf("Saturates at %s IOPS from QD %s", FormatIOPS(k.IOPS), FormatQD(k.QD))
	next, ok := nextPoint(a.Points, k.QD)
	if k.NextQD > 0 {
		next, ok = nextPoint(a.Points, math.Nextafter(k.NextQD, 0))
	}
	if ok && k.IOPS > 0 && k.LatNsMean > 0 {
		gain := next.IOPS/k.IOPS - 1
		change := fmt.Sprintf("adds %.0f%% IOPS", gain*100)
		switch {
		case math.Abs(gain) < 0.005:
			change = "adds no IOPS"
		case gain < 0:
			change = fmt.Sprintf("loses %.0f%% IOPS", -gain*100)
		}
		s += fmt.Sprintf("; QD %s %s %s", FormatQD(next.QD), change, latencyPhrase(next.LatMeanNs/k.LatNsMean))
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
	case "usl":
		return "USL"
	}
	return n
}

// targetSentence answers "what QD for T IOPS", with the depth Little's
// Law alone gives from the base latency r0 (ns) beside the curve's depth.
func targetSentence(t *littleslaw.TargetResult, r0 float64) string {
	naive := ""
	if t.NaiveQD > 0 {
		naive = "Little's Law at R0"
		if r0 > 0 {
			naive += " = " + FormatLatency(r0)
		}
		naive += " alone says " + fmtOneDecimal(t.NaiveQD)
	}
	if t.Reachable {
		s := fmt.Sprintf("%s IOPS needs ~%s in flight", FormatCount(t.TargetIOPS), FormatQD(t.QD))
		if t.LatencyNs > 0 {
			// The triple a reader can check: target × latency = in flight;
			// the split covers it in whole I/Os.
			s = fmt.Sprintf("%s IOPS needs %s in flight at %s", FormatCount(t.TargetIOPS),
				fmtNeed(*t), FormatLatency(t.LatencyNs))
		}
		if naive != "" {
			s += " (" + naive + ")"
		}
		if t.Split.IODepth > 0 {
			s += fmt.Sprintf(": iodepth %d × numjobs %d", t.Split.IODepth, t.Split.NumJobs)
			if t.Split.Hosts > 1 {
				s += fmt.Sprintf(" on each of %d hosts", t.Split.Hosts)
			}
			var alts []string
			for _, a := range t.AltSplits {
				w := fmt.Sprintf("%d × %d", a.IODepth, a.NumJobs)
				if a.Total() != t.Split.Total() {
					w += fmt.Sprintf(" = %d", a.Total())
				}
				alts = append(alts, w)
			}
			if len(alts) > 0 {
				s += " (or " + strings.Join(alts, ", ") + ")"
			}
		}
		switch {
		case t.MaxIOPS > 0 && t.TargetIOPS > t.MaxIOPS:
			s += fmt.Sprintf(". Reachable only within measurement noise: the most measured was %s IOPS at QD %s, %.1f%% under it; no headroom.",
				FormatIOPS(t.MaxIOPS), FormatQD(t.MaxIOPSQD), 100*(1-t.MaxIOPS/t.TargetIOPS))
		case t.NoHeadroom:
			s += fmt.Sprintf(". Reachable, with no headroom: the most measured was %s IOPS at QD %s.", FormatIOPS(t.MaxIOPS), FormatQD(t.MaxIOPSQD))
		default:
			s += ". Reachable."
		}
		if r := targetResponseWords(*t); r != "" {
			s += " " + sentence(capitalize(strings.TrimPrefix(r, "; ")))
		}
		if t.OverLimit {
			s += " " + sentence(capitalize(splitLimitWarning(*t)))
		}
		if t.Sustained {
			s += fmt.Sprintf(" That is what the device sustains (%s IOPS), below what earlier steps measured: no headroom.", FormatIOPS(t.MaxIOPS))
		}
		if c := sloConflictNote(*t); c != "" {
			s += " " + sentence(capitalize(strings.TrimPrefix(c, "; ")))
		}
		return s
	}
	if t.Reason != littleslaw.TargetSaturated || t.Sustained {
		// Not reached without saturating: the note says how to go on.
		s := fmt.Sprintf("For %s IOPS: %s", FormatCount(t.TargetIOPS), sentence(targetNote(*t)))
		if naive != "" {
			s += " " + naive + " in flight."
		}
		return s
	}
	s := fmt.Sprintf("For %s IOPS: not reachable here; this device saturates at about %s IOPS", FormatCount(t.TargetIOPS), FormatIOPS(t.ReachableIOPS))
	if naive != "" {
		s += " (" + strings.Replace(naive, " says ", " would ask for ", 1) + " in flight)"
	}
	s += ". The limit is the device or the VM, not the queue depth."
	return s
}

// sloSentence answers the latency objective.
func sloSentence(r *littleslaw.SLOResult) string {
	obj := fmt.Sprintf("%s ≤ %s", r.Stat, FormatLatency(r.LimitNs))
	var s string
	if r.Met {
		s = fmt.Sprintf("Deepest QD meeting %s: QD %s (%s IOPS, %s %s).", obj, FormatQD(r.QD), FormatIOPS(r.IOPS), r.Stat, FormatLatency(r.LatNs))
	} else {
		s = fmt.Sprintf("No measured QD meets %s.", obj)
		if r.Reason == littleslaw.SLONotMet && r.Breaks != nil {
			return fmt.Sprintf("No measured QD meets %s: %s", obj, sentence(sloNotMetDetail(*r)))
		}
	}
	if n := sloNote(*r); n != "" {
		s += " " + sentence(capitalize(n))
	}
	return s
}

// findingPara renders one diagnosis finding: its rule, its verdict, the
// facts behind it and the next step. The curve is shown once beside it
// (curve; a finding across block sizes names its rw when the caller gives
// none). Facts about a target that contradict the curve's own target
// answer a (nil when unknown) are left out.
func findingPara(f diagnosis.Finding, curve string, a *littleslaw.Analysis) para {
	if curve == "" && a == nil {
		curve = findingCurve(f)
	}
	p := para{Curve: curve, Text: fmt.Sprintf("Diagnosis (%s): %s", f.Rule, sentence(findingVerdict(f))), Rank: rankFinding}
	for _, x := range f.Facts {
		if !contradictsTarget(x, a) {
			p.Evidence = append(p.Evidence, factText(x))
		}
	}
	if n := FindingNext(f); n != "" {
		p.Next = sentence(n)
	}
	return p
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
