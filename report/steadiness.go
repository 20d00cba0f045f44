package report

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// steadyCell is a step's "steady" table cell: "yes", or why not: "short"
// (measured for less than the steady window), "drift" (IOPS still
// drifting), "off" (detection turned off); "no" when the result does not
// say why (older results, fio imports).
func steadyCell(st sweep.Step) string {
	if st.Steady {
		return "yes"
	}
	switch st.NotSteady {
	case sweep.NotSteadyShort, sweep.NotSteadyDrift, sweep.NotSteadyOff:
		return st.NotSteady
	}
	return "no"
}

// steadyNote explains the "steady" cells other than yes and no that r's
// steps show, as one sentence ("" when there is none to explain).
func steadyNote(r *sweep.Result) string {
	seen := map[string]bool{}
	var shortest int64
	for _, st := range r.Steps {
		if !measured(st) || st.Steady {
			continue
		}
		seen[st.NotSteady] = true
		if st.NotSteady == sweep.NotSteadyShort && (shortest == 0 || st.RuntimeNs < shortest) {
			shortest = st.RuntimeNs
		}
	}
	window, limit := "the steady window", "the limit"
	if r.Meta.SteadyWindowNs > 0 {
		window = "the " + FormatLatency(float64(r.Meta.SteadyWindowNs)) + " steady window"
	}
	if r.Meta.SteadyLimit > 0 {
		limit = strconv.FormatFloat(r.Meta.SteadyLimit*100, 'g', 3, 64) + "%"
	}
	var parts []string
	if seen[sweep.NotSteadyShort] {
		p := "short = the step measured for less than " + window + " (" + fio.Flag(fio.OptSSDur) + "), so steadiness was not judged"
		if shortest > 0 {
			ran := FormatLatency(float64(shortest))
			if r.Meta.SteadyWindowNs > 0 && ran == FormatLatency(float64(r.Meta.SteadyWindowNs)) {
				// Rounded alike: say by how much it fell short.
				ran = strconv.FormatFloat(float64(shortest)/1e9, 'f', 3, 64) + " s"
				window = "the " + strconv.FormatFloat(float64(r.Meta.SteadyWindowNs)/1e9, 'f', 3, 64) + " s steady window"
			}
			p = "short = the step measured " + ran + ", less than " + window +
				" (" + fio.Flag(fio.OptSSDur) + "), so steadiness was not judged (raise " + fio.Flag(fio.OptRuntime) + ")"
		}
		parts = append(parts, p)
	}
	if seen[sweep.NotSteadyDrift] {
		parts = append(parts, "drift = IOPS still moved by more than "+limit+" of its mean per second ("+fio.Flag(fio.OptSS)+") when "+fio.Flag(fio.OptRuntime)+" ran out")
	}
	if seen[sweep.NotSteadyOff] {
		parts = append(parts, "off = steady-state detection was turned off ("+fio.FlagSet(fio.OptSS, "0")+")")
	}
	if len(parts) == 0 {
		return ""
	}
	return "steady: " + strings.Join(parts, ". ") + "."
}

// SteadyWords says in a few words whether step st reached steady state
// and, when not, why: "steady", "not steady: too short" (measured for less
// than the steady window), "not steady: drifting", "not steady: off", or
// "not steady" when the step does not record why.
func SteadyWords(st sweep.Step) string {
	if st.Steady {
		return "steady"
	}
	switch st.NotSteady {
	case sweep.NotSteadyShort:
		return "not steady: too short"
	case sweep.NotSteadyDrift:
		return "not steady: drifting"
	case sweep.NotSteadyOff:
		return "not steady: off"
	}
	return "not steady"
}

// SettleWords says how a steady step settled (littleslaw.Settle), for its
// progress line: the clause of the knee's decision that settled it
// ("IOPS +99.0% ±1.4% over QD 2, clear of 5% at 95%"), or "mean known to
// ±1.8%" when its precision did; for a control step, its change against
// the first measurement and its band; for a step ended undecided, the gain
// that would not have settled by its window cap; "" when the step records
// none of these.
func SettleWords(r *sweep.Result, st sweep.Step) string {
	s := st.Settle
	if s == nil || !s.Settled {
		return ""
	}
	at := fmt.Sprintf(" at %.0f%%", s.Confidence*100)
	switch {
	case s.By == littleslaw.SettledByUndecidable && s.PrevQD == 0:
		return fmt.Sprintf("undecided: mean known to ±%.1f%% would not reach ±%.1f%% within the %d intervals of its window cap", s.IOPSErr*100, s.Precision*100, s.CapN)
	case s.By == littleslaw.SettledByUndecidable:
		return fmt.Sprintf("undecided: IOPS %s ±%.1f%% would not settle%s within the %d intervals of its window cap", fmtPct(s.Gain), s.T*s.GainErr*100, at, s.CapN)
	case s.By != littleslaw.SettledByDecision:
		return fmt.Sprintf("mean known to ±%.1f%%", s.IOPSErr*100)
	case s.Band > 0:
		return fmt.Sprintf("IOPS %s ±%.1f%% of the first measurement, %s its %.0f%% band%s", fmtPct(s.Gain), s.T*s.GainErr*100,
			side(math.Abs(s.Gain) > s.Band, "outside", "inside"), s.Band*100, at)
	}
	prev, prevs := fmt.Sprintf("QD %g", s.PrevQD), fmt.Sprintf("QD %g's", s.PrevQD)
	if p, ok := curveStep(r, st, s.PrevQD); ok && s.PrevIOPS > 0 && p.IOPS != s.PrevIOPS {
		// The step before was measured again after this one was judged
		// against it: its row shows the second measurement.
		prev = fmt.Sprintf("QD %g as first measured (%s IOPS)", s.PrevQD, FormatIOPS(s.PrevIOPS))
		prevs = fmt.Sprintf("QD %g's as first measured", s.PrevQD)
	}
	gain := fmt.Sprintf("IOPS %s ±%.1f%% over %s, %s %.0f%%", fmtPct(s.Gain), s.T*s.GainErr*100, prev,
		side(s.Gain >= s.GainLimit, "clear of", "under"), s.GainLimit*100)
	lat := fmt.Sprintf("latency ×%.2f %s, %s ×%.2f", s.LatRatio, prevs, side(s.LatRatio >= s.LatNeed, "at or over", "under"), s.LatNeed)
	switch {
	case s.GainClear && s.Gain >= s.GainLimit:
		return gain + at
	case s.LatClear && s.LatRatio < s.LatNeed:
		return lat + at
	}
	return gain + "; " + lat + at
}

// againPrefix opens AgainWords.
const againPrefix = "measured again: "

// AgainWords says, for a step measured again (Settle.FirstIOPS), what its
// first measurement gave over how long and why the sweep measured it
// again; "" for any other step. r is the sweep the step is one of (nil:
// none), where the deeper step whose figure called for it is looked up.
func AgainWords(r *sweep.Result, st sweep.Step) string {
	s := st.Settle
	if s == nil || s.FirstIOPS <= 0 {
		return ""
	}
	first := fmt.Sprintf(againPrefix+"the first %.1f s gave %s IOPS", time.Duration(s.FirstNs).Seconds(), FormatIOPS(s.FirstIOPS))
	switch s.Again {
	case littleslaw.AgainFell:
		return fmt.Sprintf("%s, over %s by more than %.0f%% at %.0f%%: a burst that ran out", first,
			fellFigure(r, st), littleslaw.SaturationGain*100, s.Confidence*100)
	case littleslaw.AgainLead:
		return first + ", its first slices above its level by more than its decisions allow: a start-up burst"
	case littleslaw.AgainTop:
		return fmt.Sprintf("%s, the curve's top, more than %.0f%% over its last step, %s: the top measured again as the curve ended", first,
			littleslaw.SaturationGain*100, fellFigure(r, st))
	case littleslaw.AgainBefore:
		return first + " with a start-up burst, judged against the step before as that was first measured"
	}
	return first
}

// fellFigure names the deeper step's figure that called for st to be
// measured again (Settle.FellQD, FellIOPS, FellOf) so that a reader finds
// it: its mean is its row's IOPS; a level is named as one; and when that
// step was itself measured again later, its row shows the second
// measurement, so the words say the figure is its first's.
func fellFigure(r *sweep.Result, st sweep.Step) string {
	s := st.Settle
	d, ok := curveStep(r, st, s.FellQD)
	now := !ok || d.Settle == nil || d.Settle.FirstIOPS == 0
	if ok && !now {
		switch s.FellOf {
		case littleslaw.FellLevel:
			now = d.Settle.Level == s.FellIOPS
		case littleslaw.FellSustained:
			now = d.Time != nil && d.Time.Sustained != nil && d.Time.Sustained.IOPS == s.FellIOPS
		default:
			now = d.IOPS == s.FellIOPS
		}
	}
	fig, qd := FormatIOPS(s.FellIOPS), fmt.Sprintf("QD %g", s.FellQD)
	switch {
	case now && s.FellOf == littleslaw.FellLevel:
		return fmt.Sprintf("%s (%s's level after its start-up burst)", fig, qd)
	case now && s.FellOf == littleslaw.FellSustained:
		return fmt.Sprintf("%s (%s's sustained level)", fig, qd)
	case now:
		return fmt.Sprintf("%s's %s", qd, fig)
	case s.FellOf == littleslaw.FellLevel:
		return fmt.Sprintf("%s (the level after the start-up burst of %s's first measurement)", fig, qd)
	case s.FellOf == littleslaw.FellSustained:
		return fmt.Sprintf("%s (the sustained level of %s's first measurement)", fig, qd)
	}
	return fmt.Sprintf("%s (%s's first measurement)", fig, qd)
}

// curveStep is the closed-loop step of st's curve (its rw and bs) at
// queue depth qd in r, the last such that ran; false when r has none.
func curveStep(r *sweep.Result, st sweep.Step, qd float64) (sweep.Step, bool) {
	if r == nil {
		return sweep.Step{}, false
	}
	for j := len(r.Steps) - 1; j >= 0; j-- {
		p := r.Steps[j]
		if p.RW == st.RW && p.BS == st.BS && p.OfferedIOPS == 0 && float64(p.QD) == qd && p.Skipped == "" && p.Failed == "" {
			return p, true
		}
	}
	return sweep.Step{}, false
}

// againNote lists, under the table, the steps measured again and what
// their first measurement gave (AgainWords): a row shows only the
// measurement kept, and the I/Os and time of the first are spent all the
// same ("" when no step was measured again).
func againNote(r *sweep.Result) string {
	var parts []string
	for _, st := range r.Steps {
		if w := AgainWords(r, st); w != "" {
			parts = append(parts, fmt.Sprintf("QD %d: %s", st.QD, strings.TrimPrefix(w, againPrefix)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "measured again (the row shows the second measurement): " + strings.Join(parts, "; ") + "."
}

// side picks the words for which side of a threshold a figure lies.
func side(above bool, over, under string) string {
	if above {
		return over
	}
	return under
}
