package report

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"math"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// The words of an analysis's parts: knees, Little's-Law checks, SLO and
// target answers, caveats and application settings, one function each.
// These are the texts results.json carries (Annotate) and advise prints;
// the terminal and Markdown sentences built on them are in sentences.go.

// kneeRule is the rule of a knee kind in words.
func kneeRule(k littleslaw.KneeKind) string {
	switch k {
	case littleslaw.KneeSaturation:
		return fmt.Sprintf("saturation: smallest measured QD within %.0f%% of the highest IOPS, confirmed by the next deeper step adding < %.0f%% IOPS while mean latency grows ≥ %.1f× per doubling",
			littleslaw.SaturationWithin*100, littleslaw.SaturationGain*100, littleslaw.SaturationLatGrowth)
	case littleslaw.KneeEfficient:
		return "efficient: measured QD with the highest power, IOPS / mean latency (Kleinrock)"
	case littleslaw.KneeModel:
		return "model knee: N* from the fit chosen by AICc (bound: measured Xmax × measured R0; USL: N_max when retrograde, else X_roof × R0)"
	case littleslaw.KneeKneedle:
		return "kneedle: Kneedle (Satopää et al. 2011) on log2(QD) vs IOPS; a diagnostic only"
	}
	return string(k)
}

// kneeNote is what to know about a knee, in words ("" when nothing).
func kneeNote(k littleslaw.Knee) string {
	switch k.Reason {
	case littleslaw.KneeConfirmed:
		change := fmt.Sprintf("adds %.1f%% IOPS", 100*k.NextGain)
		switch g := 100 * k.NextGain; {
		case math.Abs(g) < 0.05:
			change = "adds no IOPS"
		case g < 0:
			change = fmt.Sprintf("loses %.1f%% IOPS", -g)
		}
		return fmt.Sprintf("QD %g %s at %.2f× the latency", k.NextQD, change, k.NextLatRatio)
	case littleslaw.KneeNoPoints:
		return "no measured points"
	case littleslaw.KneeNotSaturated:
		return fmt.Sprintf("no saturation within the sweep (deepest QD %g, %s IOPS); %s", k.DeepestQD, FormatCount(k.DeepestIOPS), sweepDeeperHint(k))
	case littleslaw.KneeOnePoint:
		return "one point cannot show saturation; sweep at least two depths, e.g. QD 1 to 256 in powers of two"
	case littleslaw.KneeStillRising:
		return "power still rising at the deepest QD; sweep deeper"
	case littleslaw.KneeNoModel:
		return "no model fitted"
	case littleslaw.KneeLinear:
		return "the fit shows no knee (throughput still linear in QD)"
	case littleslaw.KneeExtrapolated:
		return fmt.Sprintf("beyond the deepest measured QD %g: extrapolated", k.DeepestQD)
	case littleslaw.KneeTooFewPoints:
		return "needs at least 3 points"
	case littleslaw.KneeFlat:
		return "flat curve: no knee"
	case littleslaw.KneeNoneAboveLine:
		return "no point above the chord: no knee"
	}
	return ""
}

// setAsideWords says, after "no saturation", where a curve stands that
// did not saturate among the steps its analysis kept when it set measured
// steps aside (Analysis.SetAside): the rise is the kept steps' only, and
// the steps set aside may have read more, so the advice is to sweep
// again, not deeper.
func setAsideWords(a *littleslaw.Analysis) string {
	n := len(a.Points)
	return fmt.Sprintf("among the %d step%s analysed of %d measured (the diagnosis says why %d %s set aside): the most of those was %s IOPS at QD %s; sweep again, with longer steps, before sweeping deeper",
		n, plural(n), n+a.SetAside, a.SetAside, map[bool]string{true: "was", false: "were"}[a.SetAside == 1], FormatIOPS(a.MaxIOPS), FormatQD(a.MaxIOPSQD))
}

// setAsideCount is, for a notice that counts n points of an analysis that
// set measured steps aside (Analysis.SetAside), " analysed of m
// measured"; "" when it set none aside.
func setAsideCount(a *littleslaw.Analysis, n int) string {
	if a == nil || a.SetAside == 0 {
		return ""
	}
	return fmt.Sprintf(" analysed of %d measured", n+a.SetAside)
}

// sweepDeeperHint tells how deep to sweep next after a curve that did not
// saturate: "sweep deeper, e.g. to QD 1024".
func sweepDeeperHint(k littleslaw.Knee) string {
	if k.SuggestQD > 0 {
		return fmt.Sprintf("sweep deeper, e.g. to QD %g", k.SuggestQD)
	}
	return "sweep deeper"
}

// checkNote is why a Little's-Law check is flagged, in words.
func checkNote(c littleslaw.StepCheck) string {
	switch c.Reason {
	case littleslaw.CheckNotFull:
		return fmt.Sprintf("only %.1f of %g I/Os in flight (IOPS × latency): the engine or application is not keeping the queue full (iostat's aqu-sz ≪ iodepth)",
			c.EffectiveInflight, c.QD)
	case littleslaw.CheckMismatch:
		if c.MeasuredInflight > c.EffectiveInflight {
			// More in flight than the completions account for: I/Os that
			// were still waiting when the window closed (behind a throttle,
			// or a queue still growing) are in the count but not in the mean.
			return fmt.Sprintf("measured in-flight %.1f is more than IOPS × latency %.1f (by over %.0f%%): I/Os were still waiting when the window closed, behind a throttle or a queue still growing, so the completions' mean latency understates the wait; run longer steps (%s)",
				c.MeasuredInflight, c.EffectiveInflight, 100*littleslaw.MismatchFlag, fio.Flag(fio.OptRuntime))
		}
		return fmt.Sprintf("measured in-flight %.1f is less than IOPS × latency %.1f (by over %.0f%%): the latencies count time the I/Os were not in flight, a measuring error",
			c.MeasuredInflight, c.EffectiveInflight, 100*littleslaw.MismatchFlag)
	}
	return ""
}

// noticeText is one caveat of an analysis a in words.
func noticeText(n littleslaw.Notice, a *littleslaw.Analysis) string {
	switch n.Kind {
	case littleslaw.NoticeDropped:
		return fmt.Sprintf("%d point(s) without a positive QD, IOPS and mean latency were left out", n.Count)
	case littleslaw.NoticeNoPoints:
		return "no usable points: nothing can be told"
	case littleslaw.NoticeCheck:
		for _, c := range a.Checks {
			if c.QD == n.QD && c.Flagged {
				return fmt.Sprintf("QD %g: %s", c.QD, checkNote(c))
			}
		}
		return fmt.Sprintf("QD %g: the Little's-Law check failed", n.QD)
	case littleslaw.NoticeOnePoint:
		if a != nil && a.SetAside > 0 {
			return fmt.Sprintf("one point analysed of %d measured (the diagnosis says why the rest were set aside): no curve, so no fit, no knee and no saturation can be told; sweep again, with longer steps", 1+a.SetAside)
		}
		return "one point: no curve, so no fit, no knee and no saturation can be told; sweep at least two depths"
	case littleslaw.NoticeTwoPoints:
		return "two points" + setAsideCount(a, 2) + ": only the bound model can be fitted (USL needs 3) and saturation is told only if the second step is already flat"
	case littleslaw.NoticeFewPoints:
		if a != nil && a.SetAside > 0 && n.Count+a.SetAside >= n.Min {
			return fmt.Sprintf("only %d points%s: fits are rough", n.Count, setAsideCount(a, n.Count))
		}
		return fmt.Sprintf("only %d points%s: fits are rough; sweep at least %d depths", n.Count, setAsideCount(a, n.Count), n.Min)
	case littleslaw.NoticeFitBelow:
		return fmt.Sprintf("the %s fit's ceiling of %s IOPS lies below the %s IOPS measured at QD %g: it is a smooth trend through noisy points, not a limit; the measured figures rule",
			modelName(n.Model), FormatIOPS(n.XRoof), FormatIOPS(n.IOPS), n.QD)
	case littleslaw.NoticeNoModelFits:
		return fmt.Sprintf("no model fits: the best, %s, missed the points by %.0f%% (over %.0f%%), so no fitted ceiling, peak or knee is quoted or drawn",
			modelName(n.Model), n.Error*100, littleslaw.MaxModelError*100)
	case littleslaw.NoticeSettingsDeep:
		return fmt.Sprintf("settings use the deepest measured QD %g as the useful parallelism because the curve did not saturate", n.QD)
	}
	return string(n.Kind)
}

// sloNote is the caveat of an SLO answer in words ("" when none).
func sloNote(r littleslaw.SLOResult) string {
	step := func(s littleslaw.SLOStep) string {
		if s.OfferedIOPS > 0 && s.Behind {
			return fmt.Sprintf("%s IOPS offered (behind: %s achieved)", FormatIOPS(s.OfferedIOPS), FormatIOPS(s.IOPS))
		}
		if s.OfferedIOPS > 0 {
			return fmt.Sprintf("%s IOPS offered (%s %s)", FormatIOPS(s.OfferedIOPS), r.Stat, FormatLatency(s.LatNs))
		}
		return fmt.Sprintf("QD %g (%s %s)", s.QD, r.Stat, FormatLatency(s.LatNs))
	}
	var parts []string
	switch r.Reason {
	case littleslaw.SLONotMeasured:
		return r.Stat + " latency was not measured"
	case littleslaw.SLONotMet:
		if r.Breaks == nil {
			return "not met"
		}
		return "not met: " + sloNotMetDetail(r)
	case littleslaw.SLOBrokenDeeper:
		if r.Breaks != nil {
			parts = append(parts, step(*r.Breaks)+" breaks it")
		}
	case littleslaw.SLOMetEverywhere:
		parts = append(parts, "met at every measured QD; the limit may lie deeper")
	case littleslaw.SLOMetAtDeepest:
		parts = append(parts, "met at the deepest measured QD; the limit may lie deeper")
	}
	if len(r.Noisy) > 0 {
		var ws []string
		for _, s := range r.Noisy {
			ws = append(ws, step(s))
		}
		parts = append(parts, fmt.Sprintf("shallower %s broke it although QD %g meets it: a noisy step, worth measuring again", joinAnd(ws), r.QD))
	}
	return strings.Join(parts, "; ")
}

// sloNotMetDetail says how far the shallowest step misses an objective
// no step meets.
func sloNotMetDetail(r littleslaw.SLOResult) string {
	if r.Breaks.OfferedIOPS > 0 {
		return loadBreakWords(*r.Breaks, r.Stat, "even the lowest load, ")
	}
	return fmt.Sprintf("even QD %g has %s %s > %s", r.Breaks.QD, r.Stat, FormatLatency(r.Breaks.LatNs), FormatLatency(r.LimitNs))
}

// targetResponseWords says, for a target answered on an open-loop curve
// with response times, the response time an application offering it
// sees: the latency of the answer's triple runs from issue.
func targetResponseWords(t littleslaw.TargetResult) string {
	if t.ResponseNs <= 0 {
		return ""
	}
	return fmt.Sprintf("; that latency runs from issue: offered %s IOPS, an application sees a mean response time of %s (its wait to be issued included)",
		FormatCount(t.TargetIOPS), FormatLatency(t.ResponseNs))
}

// targetNote is a target answer in one line of words.
func targetNote(t littleslaw.TargetResult) string {
	switch t.Reason {
	case littleslaw.TargetLittle:
		return fmt.Sprintf("%s IOPS at %s per I/O needs %.1f I/Os in flight (Little's Law: QD = IOPS × latency)",
			FormatCount(t.TargetIOPS), FormatLatency(t.LatencyNs), t.NaiveQD) + splitLimitNote(t)
	case littleslaw.TargetNoPoints:
		return "no measured points"
	case littleslaw.TargetSaturated:
		if t.Sustained {
			return fmt.Sprintf("%s IOPS is not reachable: the device sustains %s IOPS (steps that ran faster did not last); the limit is the device or the volume, not the queue depth",
				FormatCount(t.TargetIOPS), FormatIOPS(t.ReachableIOPS)) + sloConflictNote(t)
		}
		// The figures of the rows they name: the saturation QD, and the most
		// measured at its own QD (a deeper step may add a little).
		return fmt.Sprintf("%s IOPS is not reachable: it saturates from QD %g, and the most measured is %s IOPS (at QD %g); the limit is the device or the VM, not the queue depth",
			FormatCount(t.TargetIOPS), t.QD, FormatIOPS(t.ReachableIOPS), t.MaxIOPSQD) + sloConflictNote(t)
	case littleslaw.TargetNotReached:
		if t.Sustained {
			return fmt.Sprintf("%s IOPS is not reachable: the device sustains %s IOPS (steps that ran faster did not last)",
				FormatCount(t.TargetIOPS), FormatIOPS(t.ReachableIOPS)) + sloConflictNote(t)
		}
		s := fmt.Sprintf("%s IOPS was not reached: the most measured was %s IOPS at QD %g, without saturating; more than QD %g is needed: sweep deeper",
			FormatCount(t.TargetIOPS), FormatIOPS(t.MaxIOPS), t.MaxIOPSQD, t.MaxIOPSQD)
		if t.ModelName != "" {
			s += fmt.Sprintf(" (the %s fit suggests about QD %.0f)", t.ModelName, t.ModelQD)
		}
		return s
	case littleslaw.TargetReachable:
		// The triple a reader can check: target × latency = in flight.
		s := fmt.Sprintf("%s IOPS needs %s in flight at %s (the naive T × R0 says %s)",
			FormatCount(t.TargetIOPS), fmtNeed(t), FormatLatency(t.LatencyNs), fmtOneDecimal(t.NaiveQD)) + splitLimitNote(t) + targetResponseWords(t)
		if t.NoHeadroom {
			s += "; " + noHeadroomNote(t)
		}
		if t.Sustained {
			s += fmt.Sprintf("; that is what the device sustains (%s IOPS): no headroom", FormatIOPS(t.MaxIOPS))
		}
		return s + sloConflictNote(t)
	}
	return ""
}

// sloConflictNote says, after a "; ", that a target needs more depth than
// the latency objective allows ("" when it does not).
func sloConflictNote(t littleslaw.TargetResult) string {
	switch {
	case !t.SLOConflict:
		return ""
	case t.SLOQD > 0:
		return fmt.Sprintf("; the latency objective holds only up to QD %g: the target and the objective conflict (settings, when asked for, keep to QD %g)", t.SLOQD, t.SLOQD)
	}
	return "; no measured depth meets the latency objective: the target and the objective conflict"
}

// noHeadroomNote says a reachable target is the most measured.
func noHeadroomNote(t littleslaw.TargetResult) string {
	return fmt.Sprintf("that is the most measured (%s IOPS at QD %g): no headroom", FormatIOPS(t.MaxIOPS), t.MaxIOPSQD)
}

// splitLimitNote warns, after a "; ", when a target's split needs more jobs
// than the job limit ("" when it does not).
func splitLimitNote(t littleslaw.TargetResult) string {
	if !t.OverLimit {
		return ""
	}
	return "; " + splitLimitWarning(t)
}

// splitLimitWarning says a split needs more jobs than the job limit.
func splitLimitWarning(t littleslaw.TargetResult) string {
	return fmt.Sprintf("%d jobs of iodepth ≤ %d are more than the job limit allows (raise --max-jobs or spread over volumes)",
		t.Split.NumJobs, t.MaxIODepth)
}

// settingValue is s's value, or the expression it follows when a figure
// it needs is unknown.
func settingValue(s littleslaw.Setting) string {
	if s.Value == "" && s.Rule == littleslaw.SettingPool {
		return fmt.Sprintf("cores × 2 + %d", s.SaturationQD)
	}
	return s.Value
}

// settingFormula is the rule a setting follows, in words, quoting the
// saturation QD, or the deepest measured QD when the curve did not saturate.
func settingFormula(s littleslaw.Setting) string {
	qd := "saturation QD"
	switch {
	case s.DepthFrom == littleslaw.DepthSLO && s.SLO != nil:
		qd = fmt.Sprintf("%s ≤ %s QD", s.SLO.Stat, FormatLatency(s.SLO.LimitNs))
	case s.LowerBound:
		qd = "deepest measured QD"
	}
	return settingRuleText(s, qd)
}

// settingRuleText is the rule a setting follows, in words, naming the depth
// it quotes qd.
func settingRuleText(s littleslaw.Setting, qd string) string {
	n := s.SaturationQD
	switch s.Rule {
	case littleslaw.SettingPool:
		if s.CPUs > 0 {
			return fmt.Sprintf("HikariCP: cores × 2 + effective spindles = %d × 2 + %d, spindles = %s; more connections add queueing only", s.CPUs, n, qd)
		}
		return fmt.Sprintf("HikariCP: cores × 2 + effective spindles, spindles = %s %d (CPU count unknown)", qd, n)
	case littleslaw.SettingWorkers:
		return fmt.Sprintf("a worker doing one synchronous I/O at a time keeps one in flight (Little's Law), so workers = %s = %d; more add latency only; divide by the fraction of each request spent waiting on disk when requests also compute", qd, n)
	case littleslaw.SettingPGIOConcurrency:
		return fmt.Sprintf("the I/Os one session keeps in flight: %s %d (allowed 0–%d)", qd, n, s.Max)
	case littleslaw.SettingPGMaintenance:
		return fmt.Sprintf("the same depth for maintenance work: %s %d; lower it when many autovacuum workers run at once", qd, n)
	case littleslaw.SettingPGIOUring:
		return fmt.Sprintf("PostgreSQL 18+: io_workers can keep at most %d I/Os in flight, below the %s %d; io_uring has no such cap", s.Max, qd, n)
	case littleslaw.SettingPGWorker:
		return fmt.Sprintf("PostgreSQL 18+: the default worker method suffices when io_workers covers the %s %d", qd, n)
	case littleslaw.SettingPGIOWorkers:
		return fmt.Sprintf("each I/O worker performs one I/O at a time: %s %d (default 3, allowed 1–%d)", qd, n, s.Max)
	case littleslaw.SettingMySQLIOCapacity:
		return fmt.Sprintf("about the IOPS the system can perform, kept as low as practical: half the measured %s IOPS, leaving the rest to foreground reads", FormatCount(s.IOPS))
	case littleslaw.SettingMySQLIOCapacityMax:
		return fmt.Sprintf("the measured ceiling, %s IOPS", FormatCount(s.IOPS))
	case littleslaw.SettingMySQLIOThreads:
		return fmt.Sprintf("⌈%s %d / %d pending per thread⌉, within %d–%d", qd, n, s.PerThread, s.Min, s.Max)
	}
	return string(s.Rule)
}

// explainTargetNote says an explained job's split needs more jobs than
// the job limit ("" when it does not).
func explainTargetNote(t littleslaw.ExplainTarget) string {
	if !t.OverLimit {
		return ""
	}
	return fmt.Sprintf("%d jobs keep iodepth within the per-job limit of %d, more than the job limit allows (raise --max-jobs or spread over volumes)",
		t.Split.NumJobs, t.MaxIODepth)
}

// PresetExcessText says a target exceeds one of p's per-volume limits.
func PresetExcessText(p littleslaw.Preset, e littleslaw.PresetExcess) string {
	if e.Limit == "bw" {
		return fmt.Sprintf("%s MiB/s exceeds one %s volume's limit (%s MiB/s); spread the load over several volumes",
			FormatCount(e.Want/(1<<20)), p.Title, FormatCount(e.Max/(1<<20)))
	}
	return fmt.Sprintf("%s IOPS exceeds what one %s volume can be provisioned for (%s IOPS); spread the load over several volumes",
		FormatCount(e.Want), p.Title, FormatCount(e.Max))
}

// joinAnd joins words as "a", "a and b", "a, b and c".
func joinAnd(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}
