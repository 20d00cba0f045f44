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
	add(rankDetail, keptUpRuleNote)
	if responded(a.Load) {
		add(rankDetail, ResponseTimeNote)
	} else {
		add(rankDetail, NoResponseTimeNote)
	}
	return out
}

// keptUpRuleNote says when a load counts as kept up (littleslaw.KeptUp).
var keptUpRuleNote = fmt.Sprintf("A load counts as kept up where at least %.0f%% of it was achieved (less only within "+
	"%d standard deviations of a small Poisson count) and, where response times were measured, its arrivals waited "+
	"to be issued no longer than their latency from issue, or than a queue of arrivals growing at %.0f%% would make "+
	"them wait over the step: a longer wait is a queue growing with the run.",
	100*(1-littleslaw.LoadSlack), littleslaw.LoadSigmas, 100*littleslaw.LoadSlack)

// ResponseTimeNote says which of an open-loop sweep's latencies is which.
const ResponseTimeNote = "Latency runs from each I/O's issue to its completion, as fio's clat and lat; response time from its scheduled arrival, its wait to be issued included (results.json: arrival_lat_ns), as an application sees it; a latency objective is judged on response time."

// NoResponseTimeNote says an open-loop sweep without response times (run
// through fio, or imported from it) judges its objective on the latency
// from issue: fio's lat leaves out each I/O's wait from its scheduled
// arrival (fio 3.33, 200k IOPS of Poisson arrivals offered to a device
// serving 4k: lat mean 234 us over 1 s, 290 us over 3 s, where the wait
// grows to seconds).
const NoResponseTimeNote = "No response times were measured (fio, for one, times each I/O from its issue, not from its scheduled arrival), so a latency objective is judged on latency from issue, which leaves out the wait of the arrivals a load fell behind with."

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

// stepRange names the steps a fact spans: "QD 1 → 64", or for loads
// offered (open loop) "offered 10k → 20k IOPS (1.6 → 4.6 in flight)".
func stepRange(x diagnosis.Fact) string {
	if x.OfferedIOPS > 0 && x.ToOfferedIOPS > 0 {
		return fmt.Sprintf("offered %s → %s IOPS (%s → %s in flight)",
			FormatIOPS(x.OfferedIOPS), FormatIOPS(x.ToOfferedIOPS), fmtInflight(x.QD), fmtInflight(x.ToQD))
	}
	return "QD " + FormatQD(x.QD) + " → " + FormatQD(x.ToQD)
}

// depthOf names what a fact's in-flight count is measured against: "QD 4",
// or for an offered load "3.6 in flight".
func depthOf(x diagnosis.Fact) string {
	if x.OfferedIOPS > 0 {
		return fmtInflight(x.QD) + " in flight"
	}
	return "QD " + FormatQD(x.QD)
}

// openLoopVerdict is the verdict of a finding about a step offered a load
// (open loop), where its closed-loop words would call the I/Os it kept in
// flight a queue depth; ok is false for other findings and the verdicts
// that read the same in both.
func openLoopVerdict(f diagnosis.Finding) (string, bool) {
	g := f.Figures
	if g.OfferedIOPS <= 0 {
		return "", false
	}
	at := FormatIOPS(g.OfferedIOPS) + " IOPS offered"
	switch f.Reason {
	case diagnosis.ReasonSubmitterCPU:
		if g.HostBusy {
			return "the host's busy CPUs held I/Os back from the device, so far fewer of the I/Os in flight reached its queue", true
		}
		return "the submitter is CPU-bound and cannot hand the device the I/Os in flight", true
	case diagnosis.ReasonSubmitterCPUCores:
		return "the submitters are CPU-bound and cannot hand the device the I/Os in flight", true
	case diagnosis.ReasonOneJob:
		return fmt.Sprintf("the submitter did not hand the device the I/Os in flight: one job at iodepth %d is too few jobs", g.IODepth), true
	case diagnosis.ReasonManyJobs, diagnosis.ReasonSubmitter:
		return "the submitter did not hand the device the I/Os in flight", true
	case diagnosis.ReasonJobsLimited:
		return "some jobs could not start (a system limit refused them), so fewer I/Os could be in flight than iodepth × numjobs", true
	case diagnosis.ReasonBelowTarget, diagnosis.ReasonRising:
		return fmt.Sprintf("latency stays near R0 and IOPS still grow with the load offered; the device was not saturated by %s (%s in flight)", at, fmtInflight(g.QD)), true
	case diagnosis.ReasonPlateau:
		level := FormatIOPS(g.ToIOPS)
		if lo := FormatIOPS(g.IOPS); lo != level {
			level = lo + "–" + level
		}
		return fmt.Sprintf("IOPS flat at %s (up to %s) from %s (%s in flight) while latency grows in proportion to the I/Os in flight",
			level, fmtMiBpsUnit(g.BWBytes), at, fmtInflight(g.QD)), true
	case diagnosis.ReasonSaturated:
		s := fmt.Sprintf("the device saturates at %s (%s in flight) with the queue full at %s", at, fmtInflight(g.QD), inflightWhere(g.AtDevice))
		if f.Rule == diagnosis.RuleContended {
			s += ", but other I/O shared the device during the sweep, so the ceiling and latencies are not this workload's alone"
		}
		return s, true
	case diagnosis.ReasonSaturatedUnclear:
		return fmt.Sprintf("the curve saturates (at %s IOPS from %s, %s in flight) but no rule tells which limit it met: device, volume or VM", FormatIOPS(g.IOPS), at, fmtInflight(g.QD)), true
	}
	return "", false
}

// openLoopNext is the next step of a finding about a step offered a load,
// where its closed-loop words would name a queue depth; ok as
// openLoopVerdict's.
func openLoopNext(f diagnosis.Finding) (string, bool) {
	g := f.Figures
	if g.OfferedIOPS <= 0 {
		return "", false
	}
	at := FormatIOPS(g.OfferedIOPS) + " IOPS"
	switch f.Reason {
	case diagnosis.ReasonSubmitterCPU:
		if g.HostBusy {
			return "run on a quieter host: other work held the CPUs", true
		}
		return "spread the load over more jobs (numjobs up to the CPU count)", true
	case diagnosis.ReasonBelowTarget:
		return fmt.Sprintf("offer the target: by Little's Law it keeps target × latency = %s × %s ≈ %s I/Os in flight, so give it iodepth × numjobs of at least that (iodepth %d × numjobs %d)",
			FormatIOPS(g.TargetIOPS), FormatLatency(g.LatNs), FormatQD(g.ToQD), g.IODepth, g.NumJobs), true
	case diagnosis.ReasonRising:
		return fmt.Sprintf("offer loads above %s to find where the device falls behind", at), true
	case diagnosis.ReasonPlateau:
		return fmt.Sprintf("compare %s IOPS and %s with the volume's provisioned IOPS/throughput and the VM's per-instance disk limits; "+
			"offering more than %s only adds latency and, once it falls behind, a queue of arrivals", FormatIOPS(g.ToIOPS), fmtMiBpsUnit(g.BWBytes), at), true
	case diagnosis.ReasonSaturated:
		return fmt.Sprintf("size from this curve: %s in flight (%s offered) is where more load stops paying (see advise for a target or SLO)", fmtInflight(g.QD), at), true
	case diagnosis.ReasonNotFlat:
		return fmt.Sprintf("near the knee but not flat: offer loads above %s", at), true
	case diagnosis.ReasonEarlyStopped:
		return "rerun with --full to measure the loads the early stop skipped", true
	}
	return "", false
}
