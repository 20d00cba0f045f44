package report

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"math"
	"strings"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/sweep"
)

// Sentences about time inside the steps: what each step's series showed
// (burst credits, periodic throttling, warm-up or cache fill, noisy
// neighbours), how long steps must run, and why each step was or was not
// steady.

// curveTime returns the time summary of the curve rw × bs in r, or nil.
func curveTime(r *sweep.Result, rw string, bs int64) *diagnosis.CurveTime {
	for i := range r.Analysis {
		if a := &r.Analysis[i]; a.RW == rw && a.BS == bs {
			return a.Time
		}
	}
	return nil
}

// fmtSec words seconds: "1.0 s", "12 s", "250 ms".
func fmtSec(s float64) string {
	switch {
	case s < 1:
		return fmt.Sprintf("%.0f ms", s*1e3)
	case s < 10:
		return fmt.Sprintf("%.1f s", s)
	}
	return fmt.Sprintf("%.0f s", s)
}

// runtimeFlag words a runtime to ask for, rounded up to whole seconds.
func runtimeFlag(s float64) string {
	return fio.FlagSet(fio.OptRuntime, fmt.Sprintf("%.0fs", math.Ceil(s)))
}

// qdList words queue depths: "QD 4", "QD 1 and 4", "QD 1, 4 and 16".
func qdList(qds []float64) string {
	ws := make([]string, len(qds))
	for i, q := range qds {
		ws[i] = FormatQD(q)
	}
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return "QD " + ws[0]
	}
	return "QD " + strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// timeKeyParas are the caveats that travel with a curve's saturation,
// target and SLO answers (rankKey): the burst and the steps left out.
func timeKeyParas(curve string, ct *diagnosis.CurveTime) []para {
	if ct == nil {
		return nil
	}
	var out []para
	add := func(rank int, text string) { out = append(out, para{Curve: curve, Text: text, Rank: rank}) }
	if b := ct.Burst; b != nil {
		add(rankKey, fmt.Sprintf("Saturation, targets and SLOs here use the sustained %s IOPS, not the %s IOPS burst of the first %s (burst-credits below).",
			FormatIOPS(b.SustainedIOPS), FormatIOPS(b.BurstIOPS), fmtSec(b.BurstSec)))
		if len(b.OnCredits) > 0 {
			var qds []float64
			longest := 0.0
			for _, s := range b.OnCredits {
				qds = append(qds, s.QD)
				longest = math.Max(longest, s.Sec)
			}
			add(rankKey, fmt.Sprintf("%s ran above the sustained %s IOPS without falling: measured on burst credits (about %s I/Os of them), so left out of the analysis; "+
				"at their rates the credits last up to %s.",
				qdList(qds), FormatIOPS(b.SustainedIOPS), FormatCount(b.CreditsIOs), fmtSec(longest)))
		}
	}
	return out
}

// timeDetailParas word the other patterns and the runtime guidance.
func timeDetailParas(curve string, r *sweep.Result, rw string, bs int64, ct *diagnosis.CurveTime) []para {
	var out []para
	add := func(rank int, text string) { out = append(out, para{Curve: curve, Text: text, Rank: rank}) }
	if ct != nil {
		if ct.RuntimeSec > ct.RanSec+0.05 {
			why := "to see the sustained level"
			if ct.ThrottlePeriodSec > 0 && ct.Burst == nil {
				why = fmt.Sprintf("to hold %d whole throttle periods of %s", diagnosis.ThrottlePeriods, fmtSec(ct.ThrottlePeriodSec))
			}
			add(rankKey, fmt.Sprintf("Steps ran up to %s; each needs at least %s %s: sweep again with %s.",
				fmtSec(ct.RanSec), fmtSec(ct.RuntimeSec), why, runtimeFlag(ct.RuntimeSec)))
		}
	}
	for _, s := range r.Steps {
		if s.RW != rw || s.BS != bs || s.Time == nil || s.Time.Steady == nil {
			continue
		}
		// Only where the series explains more than the steady column does.
		w := s.Time.Steady
		if w.Cause == "" && !(w.Attained && w.CV > diagnosis.NoisyCV) {
			continue
		}
		if w := steadySentence(stepName(diagnosis.Fact{QD: float64(s.QD), OfferedIOPS: s.OfferedIOPS}), w); w != "" {
			add(rankDetail, w)
		}
	}
	return out
}

// steadySentence says why a step (named as stepName does) was or was not
// steady.
func steadySentence(step string, w *diagnosis.SteadyWhy) string {
	slope := fmt.Sprintf("%+.1f%%/s", w.SlopePerSec*100)
	limit := fmt.Sprintf("%.1f%%/s", w.Limit*100)
	if w.Attained {
		s := fmt.Sprintf("%s steady after %s: IOPS drifted %s over the last %s (limit %s)",
			step, fmtSec(w.RanSec), slope, fmtSec(w.WindowSec), limit)
		if w.CV > diagnosis.NoisyCV {
			s += fmt.Sprintf(", but swung by σ %.0f%% of its mean inside that window: the flat slope may be where the window fell; a longer %s judges better", w.CV*100, fio.Flag(fio.OptSSDur))
		}
		return s + "."
	}
	s := fmt.Sprintf("%s not steady after %s: IOPS drifted %s over the last %s (limit %s)",
		step, fmtSec(w.RanSec), slope, fmtSec(w.WindowSec), limit)
	switch w.Cause {
	case diagnosis.TimeBurst:
		s += "; burst credits ran out inside that window"
	case diagnosis.TimeThrottle:
		s += fmt.Sprintf("; the window spans %.1f throttle periods, so the slope sees part of a cycle", w.WholePeriods)
	case diagnosis.TimeWarmup, diagnosis.TimeCacheFill:
		s += "; latency was still settling to its plateau"
	case diagnosis.TimeNoisy:
		s += "; IOPS varied without a pattern"
	default:
		if w.Samples < 2 {
			s += "; the step was shorter than the window"
		}
	}
	return s + "."
}

// TimeCaveats are the caveats a recommendation built on curve ca carries
// when its steps' series showed a burst, steps on credits or a throttle:
// one clause each, without a final period.
func TimeCaveats(ca sweep.CurveAnalysis) []string {
	ct := ca.Time
	if ct == nil {
		return nil
	}
	var out []string
	if b := ct.Burst; b != nil {
		out = append(out, fmt.Sprintf("these figures are the sustained level: burst credits gave %s IOPS for the first %s at QD %s before it fell to %s IOPS",
			FormatIOPS(b.BurstIOPS), fmtSec(b.BurstSec), FormatQD(b.QD), FormatIOPS(b.SustainedIOPS)))
		if len(b.OnCredits) > 0 {
			var qds []float64
			for _, s := range b.OnCredits {
				qds = append(qds, s.QD)
			}
			out = append(out, fmt.Sprintf("%s ran on burst credits throughout (left out of the analysis)", qdList(qds)))
		}
	}
	if ct.ThrottlePeriodSec > 0 {
		out = append(out, fmt.Sprintf("IOPS is throttled in %s periods (at QD %s): averages hold over whole periods only",
			fmtSec(ct.ThrottlePeriodSec), FormatQD(ct.ThrottleQD)))
	}
	if ct.RuntimeSec > ct.RanSec+0.05 {
		out = append(out, fmt.Sprintf("steps ran up to %s but need %s to show the sustained level (%s)",
			fmtSec(ct.RanSec), fmtSec(ct.RuntimeSec), runtimeFlag(ct.RuntimeSec)))
	}
	return out
}
