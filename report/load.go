package report

import (
	"fmt"
	"strings"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// The words of an open-loop curve (littleslaw.LoadCurve): latency against
// the load offered, and the depth Little's Law reads off each load.

// loadParas states an open-loop curve's analysis: what it kept up with,
// the latency objective's answer as a load, and each load's depth.
func loadParas(curve string, a *littleslaw.Analysis) []para {
	var out []para
	add := func(rank int, text string) { out = append(out, para{Curve: curve, Text: text, Rank: rank}) }
	add(rankKey, loadSentence(a.Load))
	if slo := a.SLO; slo != nil {
		add(rankKey, loadSLOSentence(slo, a.Load))
	}
	if t := a.Target; t != nil {
		add(rankKey, targetSentence(t, a.BaseLatencyNs))
	}
	var cav []string
	for _, k := range a.Caveats {
		if k != littleslaw.CaveatUnsaturated { // a load curve is not read for saturation
			cav = append(cav, CaveatText(k))
		}
	}
	if len(cav) > 0 {
		add(rankKey, "Caveat: "+sentence(strings.Join(cav, "; ")))
	}
	add(rankDetail, loadDepthsSentence(a.Load))
	if responded(a.Load) {
		add(rankDetail, ResponseTimeNote)
	}
	return out
}

// ResponseTimeNote says which of an open-loop sweep's latencies is which.
const ResponseTimeNote = "Latency runs from each I/O's issue to its completion, as fio's clat and lat; response time from its scheduled arrival, its wait to be issued included (results.json: arrival_lat_ns), as an application sees it; a latency objective is judged on response time."

// responded reports whether c's loads measured response times.
func responded(c *littleslaw.LoadCurve) bool {
	for _, s := range c.Steps {
		if s.Response != nil {
			return true
		}
	}
	return false
}

// loadStepWords is one load's figures: "23.2k IOPS offered (23.4k
// achieved, 1.05 ms mean: 24.5 in flight)".
func loadStepWords(s littleslaw.LoadStep) string {
	resp := ""
	if s.Response != nil {
		resp = fmt.Sprintf(", response %s mean", FormatLatency(s.Response.MeanNs))
	}
	return fmt.Sprintf("%s IOPS offered (%s achieved, %s mean: %.1f in flight%s)",
		FormatIOPS(s.OfferedIOPS), FormatIOPS(s.IOPS), FormatLatency(s.LatMeanNs), s.Inflight, resp)
}

// loadAt is the step of c offered load offered (false: none).
func loadAt(c *littleslaw.LoadCurve, offered float64) (littleslaw.LoadStep, bool) {
	for _, s := range c.Steps {
		if s.OfferedIOPS == offered {
			return s, true
		}
	}
	return littleslaw.LoadStep{}, false
}

// loadSentence says up to which offered load the device kept up, and
// which loads it fell behind.
func loadSentence(c *littleslaw.LoadCurve) string {
	s := "Open loop (arrivals at a rate, whatever completes): "
	if kept, ok := loadAt(c, c.MaxKeptUp); ok {
		s += "kept up to " + loadStepWords(kept)
	} else {
		s += "kept up with no load offered"
	}
	var behind []string
	for _, st := range c.Steps {
		if !st.KeptUp {
			behind = append(behind, fmt.Sprintf("%s (%s achieved)", FormatIOPS(st.OfferedIOPS), FormatIOPS(st.IOPS)))
		}
	}
	if len(behind) > 0 {
		s += "; fell behind, its arrivals queueing for a free slot, at " + joinAnd(behind) + " IOPS offered"
	}
	return s + "."
}

// loadDepthsSentence lists the depth each load needs by Little's Law.
func loadDepthsSentence(c *littleslaw.LoadCurve) string {
	var parts []string
	for _, s := range c.Steps {
		w := fmt.Sprintf("%s → %.1f", FormatIOPS(s.OfferedIOPS), s.Inflight)
		if !s.KeptUp {
			w += " (behind)"
		}
		parts = append(parts, w)
	}
	return "In flight each offered load keeps (Little's Law: achieved IOPS × mean latency): " + strings.Join(parts, ", ") + "."
}

// loadSLOSentence is the latency objective's answer on a load curve: the
// highest offered load meeting it and the depth that load needs.
func loadSLOSentence(r *littleslaw.SLOResult, c *littleslaw.LoadCurve) string {
	obj := fmt.Sprintf("%s ≤ %s", r.Stat, FormatLatency(r.LimitNs))
	if !r.Met {
		s := fmt.Sprintf("No offered load meets %s", obj)
		if r.Breaks != nil {
			s += ": " + loadBreakWords(*r.Breaks, r.Stat, "even the lowest, ")
		}
		return s + "."
	}
	st, ok := loadAt(c, r.OfferedIOPS)
	kind := ""
	if ok && st.Response != nil {
		kind = " response time"
	}
	s := fmt.Sprintf("Highest offered load meeting %s: %s IOPS (%s achieved, %s%s %s)",
		obj, FormatIOPS(r.OfferedIOPS), FormatIOPS(r.IOPS), r.Stat, kind, FormatLatency(r.LatNs))
	if ok {
		s += fmt.Sprintf("; it keeps %.1f I/Os in flight (%s IOPS × %s mean): a queue depth of at least %d",
			st.Inflight, FormatIOPS(st.IOPS), FormatLatency(st.LatMeanNs), st.Depth)
	}
	if r.Reason == littleslaw.SLOBrokenDeeper && r.Breaks != nil {
		s += "; " + loadBreakWords(*r.Breaks, r.Stat, "the next, ")
	}
	if r.Reason == littleslaw.SLOMetEverywhere || r.Reason == littleslaw.SLOMetAtDeepest {
		s += "; met at the highest load offered: the limit may lie higher"
	}
	return s + "."
}

// loadBreakWords says how a load breaks an objective: over the limit, or
// behind the load offered.
func loadBreakWords(b littleslaw.SLOStep, stat, which string) string {
	if b.Behind {
		return fmt.Sprintf("%s%s IOPS offered, fell behind (%s achieved)", which, FormatIOPS(b.OfferedIOPS), FormatIOPS(b.IOPS))
	}
	if b.Response {
		stat += " response time"
	}
	return fmt.Sprintf("%s%s IOPS offered, has %s %s", which, FormatIOPS(b.OfferedIOPS), stat, FormatLatency(b.LatNs))
}

// stepAt names the step a fact is about: "QD 4", or for a step offered a
// load (open loop), whose QD is the I/Os it kept in flight, "2M IOPS
// offered (3.6 in flight)".
func stepAt(x diagnosis.Fact) string {
	if x.OfferedIOPS > 0 {
		return fmt.Sprintf("%s IOPS offered (%s in flight)", FormatIOPS(x.OfferedIOPS), fmtInflight(x.QD))
	}
	return "QD " + FormatQD(x.QD)
}

// stepSplit is stepAt with the step's iodepth × numjobs split: "QD 16
// (iodepth 16 × numjobs 1)", "2M IOPS offered (iodepth 4 × numjobs 1,
// 3.75 in flight)".
func stepSplit(x diagnosis.Fact, split string) string {
	if x.OfferedIOPS > 0 {
		return fmt.Sprintf("%s IOPS offered (%s, %s in flight)", FormatIOPS(x.OfferedIOPS), split, fmtInflight(x.QD))
	}
	return "QD " + FormatQD(x.QD) + " (" + split + ")"
}

// depthOf names what a fact's in-flight count is measured against: "QD 4",
// or for an offered load "3.6 in flight".
func depthOf(x diagnosis.Fact) string {
	if x.OfferedIOPS > 0 {
		return fmtInflight(x.QD) + " in flight"
	}
	return "QD " + FormatQD(x.QD)
}
