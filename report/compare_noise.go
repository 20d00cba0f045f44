package report

import (
	"fmt"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// The noise of a comparison, in words (the statistics are littleslaw's,
// compare.go there). Two runs of one device differ for real only beyond
// both runs' noise, and each run's noise is what its own slices say: the
// standard error of a step's mean IOPS over its per-slice IOPS, with no
// floor and no cap. A step that recorded too few slices has no known noise,
// and no difference is called real against it; a step one run's analysis
// left out (it ran on burst credits, above the level that lasted, or
// without a known iodepth) is shown, marked, and not judged.

// noiseUnknownWhy says why n is not known, of input letter who: "A records
// no slices", "B has 2 slices", "A's 12 slices drift (worth 1.3
// independent)".
func noiseUnknownWhy(who string, n littleslaw.MeanNoise) string {
	switch {
	case n.Samples == 0:
		return who + " records no slices"
	case n.Samples < littleslaw.MinNoiseSamples:
		return fmt.Sprintf("%s has %d slice%s", who, n.Samples, plural(n.Samples))
	}
	return fmt.Sprintf("%s's %d slices drift (worth %.1f independent)", who, n.Samples, n.Independent)
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// leftOutWhy says why the analysis of st's run left it out ("" when it
// did not), in words (sweep.Step.SetAsideWhy).
func leftOutWhy(st sweep.Step) string {
	switch st.SetAsideWhy() {
	case sweep.AsideNoIODepth:
		return "did not say its iodepth"
	case sweep.AsideNoLatency:
		return "measured no latency"
	case sweep.AsideCredits:
		return "ran on burst credits"
	case sweep.AsideAboveLevel:
		return "ran above the level that lasted"
	}
	return ""
}

// verdict is a delta row's verdict.
type verdict int

const (
	verdictWithin  verdict = iota // within both runs' noise: ≈
	verdictReal                   // beyond it
	verdictUnknown                // a step's noise is unknown: not judged
	verdictLeftOut                // a step the run's analysis left out: not judged
)

// verdictCells are the verdict column's cells.
var verdictCells = map[verdict]string{
	verdictWithin: "≈", verdictReal: "real", verdictUnknown: "?", verdictLeftOut: "left out",
}

// leftOutMark follows the QD of a delta row whose step one run's analysis
// left out. (‡ is the sweep table's mark for a step read at its sustained
// level: another fact, so another mark.)
const leftOutMark = "†"

// deltaRow is one QD of a delta table (in open loop, one load offered to
// both: QD is then that load in whole IOPS and Open is set): both steps,
// their noise and the verdict on them.
type deltaRow struct {
	QD             int
	Open           bool
	A, B           sweep.Step
	NoiseA, NoiseB littleslaw.MeanNoise
	IOPS, Lat      littleslaw.Difference // B against A
	LeftA, LeftB   string                // leftOutWhy of each
	Verdict        verdict
}

// judge compares step b against step a at one QD: IOPS, and mean latency
// with the same relative noise (at one QD they are one fact, by Little's
// Law). A row is real when either differs beyond both runs' noise.
func judge(qd int, a, b sweep.Step) deltaRow {
	r := deltaRow{QD: qd, A: a, B: b, NoiseA: a.IOPSNoise(), NoiseB: b.IOPSNoise(), LeftA: leftOutWhy(a), LeftB: leftOutWhy(b)}
	r.IOPS = littleslaw.CompareMeans(a.IOPS, b.IOPS, r.NoiseA, r.NoiseB)
	r.Lat = littleslaw.CompareMeans(a.Lat.MeanNs, b.Lat.MeanNs, r.NoiseA, r.NoiseB)
	switch {
	case r.LeftA != "" || r.LeftB != "":
		r.Verdict = verdictLeftOut
	case !r.IOPS.Known:
		r.Verdict = verdictUnknown
	case r.IOPS.Real || r.Lat.Real:
		r.Verdict = verdictReal
	default:
		r.Verdict = verdictWithin
	}
	return r
}

// noiseCell is the noise column: the smallest IOPS difference called
// real, as a share of A's ("±12.6%"), or "?" when a step's noise is
// unknown.
func (r deltaRow) noiseCell() string {
	if !r.IOPS.Known {
		return "?"
	}
	return fmtBand(r.IOPS.Band)
}

// fmtBand formats a noise band (a fraction) as "±12.6%".
func fmtBand(frac float64) string { return "±" + strings.TrimPrefix(fmtPct(frac), "+") }

// qdCell is the QD with leftOutMark when either run's analysis left the
// step out.
func (r deltaRow) qdCell() string {
	k := fmt.Sprint(r.QD)
	if r.Open {
		k = FormatIOPS(float64(r.QD))
	}
	if r.LeftA != "" || r.LeftB != "" {
		return k + leftOutMark
	}
	return k
}

// named is the row's step in words: "QD 16", or "10k offered".
func (r deltaRow) named() string {
	if r.Open {
		return r.qdCell() + " offered"
	}
	return "QD " + r.qdCell()
}

// panelCell is the row in the dashboard's few words: "QD 16 ≈", "QD 1
// +17.2%", and a difference not judged in brackets: "QD 1 (+17.2%)?",
// "QD 128† (+5.0%)".
func (r deltaRow) panelCell() string {
	d := relDelta(r.A.IOPS, r.B.IOPS)
	switch r.Verdict {
	case verdictWithin:
		return r.named() + " ≈"
	case verdictReal:
		return r.named() + " " + d
	case verdictUnknown:
		return r.named() + " (" + d + ")?"
	}
	return r.named() + " (" + d + ")"
}

// deltaSummary sums up a delta table's rows: where B differs from A
// beyond both runs' noise, where within it, and where nothing is judged
// and why ("" for no rows).
func deltaSummary(rows []deltaRow) string {
	if len(rows) == 0 {
		return ""
	}
	var differ, within []string
	unknown := map[string][]string{}
	var unknownOrder []string
	addUnknown := func(why, qd string) {
		if _, ok := unknown[why]; !ok {
			unknownOrder = append(unknownOrder, why)
		}
		unknown[why] = append(unknown[why], qd)
	}
	for _, r := range rows {
		switch r.Verdict {
		case verdictReal:
			s := fmt.Sprintf("%s (%s IOPS, beyond %s)", r.qdCell(), relDelta(r.A.IOPS, r.B.IOPS), fmtBand(r.IOPS.Band))
			if !r.IOPS.Real {
				s = fmt.Sprintf("%s (mean latency %s, beyond its %s)", r.qdCell(), relDelta(r.A.Lat.MeanNs, r.B.Lat.MeanNs), fmtBand(r.Lat.Band))
			}
			differ = append(differ, s)
		case verdictWithin:
			within = append(within, r.qdCell())
		case verdictLeftOut:
			var why []string
			if r.LeftA != "" {
				why = append(why, "A "+r.LeftA)
			}
			if r.LeftB != "" {
				why = append(why, "B "+r.LeftB)
			}
			addUnknown("left out of the analysis: "+joinAnd(why), r.qdCell())
		default:
			var why []string
			if !r.NoiseA.Known() {
				why = append(why, noiseUnknownWhy("A", r.NoiseA))
			}
			if !r.NoiseB.Known() {
				why = append(why, noiseUnknownWhy("B", r.NoiseB))
			}
			if r.NoiseA.Samples == 0 && r.NoiseB.Samples == 0 {
				why = []string{"neither records slices"}
			}
			addUnknown("noise unknown: "+joinAnd(why), r.qdCell())
		}
	}
	at := func(l []string) string { return "QD " + joinAnd(l) }
	if rows[0].Open {
		at = func(l []string) string { return joinAnd(l) + " IOPS offered" }
	}
	var parts []string
	if len(differ) > 0 {
		parts = append(parts, "B differs from A beyond both runs' noise at "+at(differ))
	}
	if len(within) > 0 {
		parts = append(parts, "within it at "+at(within))
	}
	for _, why := range unknownOrder {
		parts = append(parts, "not judged at "+at(unknown[why])+" ("+why+")")
	}
	if len(differ) == 0 && len(within) > 0 {
		parts[0] = "B is within both runs' noise of A at " + at(within)
	}
	s := strings.Join(parts, "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}

// noiseNote says how the delta tables' rows are judged, under the tables;
// its mark follows the QD, or in an open-loop comparison (every input
// swept over loads) the load offered.
func noiseNote(tables []textTable) string {
	after := "the QD"
	if len(tables) > 0 && tables[0].Head[1] == satHeadOpen {
		after = "the load offered"
	}
	return noiseNoteHead + leftOutMark + " after " + after + ", left out: a step one run's analysis left out (it ran " +
		"on burst credits, above the level that lasted, or without a known iodepth), shown, not judged."
}

// noiseNoteHead is noiseNote up to its mark's sentence.
var noiseNoteHead = fmt.Sprintf("A difference is real only beyond both runs' noise: |B − A| > t·√(seA² + seB²) "+
	"(Welch's t-test, %.0f%% two-sided), where se is the standard error of a step's mean IOPS from its own slices "+
	"(their spread over the square root of their number, fewer from %d slices on when neighbours are alike; fio's "+
	"iops_samples count as slices) and t is Student's quantile at the Welch–Satterthwaite degrees of freedom "+
	"(%.2f at 2, %.2f at 10, %.2f with many). The noise column is that bound as a share of A's IOPS, with no "+
	"floor and no cap; mean latency is judged with the same relative noise (one fact with IOPS, by Little's Law), "+
	"p99 is shown, not judged. Verdict ≈: within the noise. ?: a step with fewer than %d slices (or slices "+
	"worth fewer than 2 independent ones) has no known noise, so the difference is shown, not judged. ",
	littleslaw.CompareConfidence*100, littleslaw.MinAutocorrSamples,
	littleslaw.StudentQuantile((1+littleslaw.CompareConfidence)/2, 2),
	littleslaw.StudentQuantile((1+littleslaw.CompareConfidence)/2, 10),
	littleslaw.StudentQuantile((1+littleslaw.CompareConfidence)/2, 1e9),
	littleslaw.MinNoiseSamples)
