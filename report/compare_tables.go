package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/qdsweep/qdsweep/sweep"
)

// textTable is a titled table of strings, rendered as text or Markdown.
type textTable struct {
	Title string
	Head  []string
	Rows  [][]string
	// Note is a sentence under the table ("" for none).
	Note string
	// deltas are a delta table's rows as judged.
	deltas []deltaRow
}

// compareTables builds the saturation table of all inputs' curves, then
// one delta table per later input's curve against the first input's
// matching curve (same rw and bs, else the curve in the same position).
func compareTables(ins []Input) []textTable {
	sat := textTable{
		Title: "Saturation points",
		Head:  []string{"curve", "sat. QD", "IOPS", "max IOPS", "eff. QD", "R0"},
	}
	if allOpenLoop(ins) {
		// Offered loads: a knee's QD is the I/Os its load kept in flight.
		sat.Head[1], sat.Head[4] = satHeadOpen, "eff. in flight"
	}
	for _, in := range ins {
		for _, s := range seriesOf(in.Result) {
			if !s.Primary {
				continue
			}
			row := []string{in.Name + " · " + curveName(s.RW, s.BS), "-", "-", "-", "-", "-"}
			if a := s.Analysis; a != nil {
				if a.Saturation.Found {
					row[1], row[2] = FormatQD(a.Saturation.QD), FormatIOPS(a.Saturation.IOPS)
				} else {
					row[1] = "none"
				}
				row[3] = FormatIOPS(a.MaxIOPS) + " @" + FormatQD(a.MaxIOPSQD)
				if a.Efficient.Found {
					row[4] = FormatQD(a.Efficient.QD)
				}
				row[5] = FormatLatency(a.BaseLatencyNs)
			}
			sat.Rows = append(sat.Rows, row)
		}
	}
	out := []textTable{sat}
	base := curvesByKey(ins[0].Result)
	for _, in := range ins[1:] {
		for i, c := range curvesOf(in.Result) {
			b, ok := base.byName[c.name]
			if !ok {
				if i >= len(base.list) {
					continue
				}
				b = base.list[i]
			}
			out = append(out, deltaTable(ins[0].Name, b, in.Name, c))
		}
	}
	return out
}

// satHeadOpen heads the saturation table's knee column when every input
// was offered loads.
const satHeadOpen = "sat. in flight"

// allOpenLoop reports whether every input's steps were offered loads.
func allOpenLoop(ins []Input) bool {
	for _, in := range ins {
		if !openLoop(in.Result.Steps) {
			return false
		}
	}
	return len(ins) > 0
}

// noCommonSteps says a delta table with head has no row: no depth (or, in
// open loop, no load) was measured by both.
func noCommonSteps(head []string) string {
	if len(head) > 0 && head[0] == "offered" {
		return "no load was offered to both"
	}
	return "no queue depth was measured by both"
}

// namedCurve is one rw × bs curve's measured steps by QD, or by the load
// offered (whole IOPS) in an open-loop sweep (open), whose steps share
// one QD.
type namedCurve struct {
	name    string
	open    bool
	byQD    map[int]sweep.Step
	qds     []int
	primary *series // the series carrying the curve's analysis
	// steadyKnown is false when the result does not record steady state.
	steadyKnown bool
}

// curveSet indexes a result's curves by name and position.
type curveSet struct {
	byName map[string]namedCurve
	list   []namedCurve
}

// curvesOf returns r's rw × bs curves; at a QD measured with several
// splits the step with the highest IOPS stands for it.
func curvesOf(r *sweep.Result) []namedCurve {
	var out []namedCurve
	idx := map[string]int{}
	for _, s := range seriesOf(r) {
		n := curveName(s.RW, s.BS)
		i, ok := idx[n]
		if !ok {
			i = len(out)
			idx[n] = i
			s := s
			out = append(out, namedCurve{name: n, open: openLoop(s.Steps), byQD: map[int]sweep.Step{}, primary: &s, steadyKnown: steadyKnown(r)})
		}
		for _, st := range s.measuredSteps() {
			k := st.QD
			if out[i].open {
				k = int(math.Round(st.OfferedIOPS))
			}
			old, seen := out[i].byQD[k]
			if !seen {
				out[i].qds = append(out[i].qds, k)
			}
			if !seen || st.IOPS > old.IOPS {
				out[i].byQD[k] = st
			}
		}
	}
	return out
}

// curvesByKey indexes curvesOf(r).
func curvesByKey(r *sweep.Result) curveSet {
	cs := curveSet{byName: map[string]namedCurve{}, list: curvesOf(r)}
	for _, c := range cs.list {
		cs.byName[c.name] = c
	}
	return cs
}

// deltaTable compares curve b of input bName against curve a of input aName
// at every QD both measured: each row judged against both steps' own noise
// (judge), the steady column saying which input's step did not reach
// steady state, and a sentence under the table summing up the verdicts.
func deltaTable(aName string, a namedCurve, bName string, b namedCurve) textTable {
	t := textTable{
		Title: fmt.Sprintf("B = %s · %s vs A = %s · %s", bName, b.name, aName, a.name),
		Head:  []string{"QD", "IOPS A", "IOPS B", "Δ IOPS", "mean A", "mean B", "Δ mean", "Δ p99", "steady A/B", "noise", "verdict"},
	}
	open := a.open && b.open
	if open {
		t.Head[0] = "offered"
	}
	for _, q := range a.qds {
		sb, ok := b.byQD[q]
		if !ok || a.open != b.open {
			continue // a load and a depth are not one step
		}
		sa := a.byQD[q]
		r := judge(q, sa, sb)
		r.Open = open
		t.deltas = append(t.deltas, r)
		t.Rows = append(t.Rows, []string{
			r.qdCell(), FormatIOPS(sa.IOPS), FormatIOPS(sb.IOPS), relDelta(sa.IOPS, sb.IOPS),
			FormatLatency(sa.Lat.MeanNs), FormatLatency(sb.Lat.MeanNs), relDelta(sa.Lat.MeanNs, sb.Lat.MeanNs),
			relDelta(float64(sa.Lat.P99Ns), float64(sb.Lat.P99Ns)),
			steadyPair(sa, sb, a.steadyKnown, b.steadyKnown), r.noiseCell(), verdictCells[r.Verdict],
		})
	}
	t.Note = deltaSummary(t.deltas)
	return t
}

// steadyPair is the steady cell of a delta row, A's then B's step: the
// sweep table's cell ("yes", "short", "drift", "off", "no"), or "?" for a
// result that does not record steady state.
func steadyPair(a, b sweep.Step, aKnown, bKnown bool) string {
	one := func(st sweep.Step, known bool) string {
		if !st.Steady && !known {
			return "?"
		}
		return steadyCell(st)
	}
	return one(a, aKnown) + "/" + one(b, bKnown)
}

// steadyKnown reports whether r records steady state: not a fio import
// whose steps all say "not steady" without a reason (fio reports steady
// state only with its ss option).
func steadyKnown(r *sweep.Result) bool {
	if r.Meta.Source != sweep.SourceFioImport {
		return true
	}
	for _, st := range r.Steps {
		if st.Steady || st.NotSteady != "" {
			return true
		}
	}
	return false
}

// relDelta formats (b − a) / a as a signed percent ("+12.5%", "-40.0%"),
// or as a factor from twice up ("×3.2"); "-" when either is unknown.
func relDelta(a, b float64) string {
	if a <= 0 || b <= 0 {
		return "-"
	}
	if b/a >= 2 {
		return fmt.Sprintf("×%.1f", b/a)
	}
	return fmtPct(b/a - 1)
}

// writeTextTable writes a right-aligned text table (first column left-aligned).
func writeTextTable(w io.Writer, head []string, rows [][]string) {
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = len([]rune(h))
	}
	for _, r := range rows {
		for i, c := range r {
			if n := len([]rune(c)); i < len(width) && n > width[i] {
				width[i] = n
			}
		}
	}
	line := func(cells []string) {
		out := make([]string, len(cells))
		for i, c := range cells {
			if i == 0 {
				out[i] = c + strings.Repeat(" ", width[i]-len([]rune(c)))
			} else {
				out[i] = pad(c, width[i])
			}
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(out, "  "), " "))
	}
	line(head)
	for _, r := range rows {
		line(r)
	}
	if len(rows) == 0 {
		fmt.Fprintln(w, "("+noCommonSteps(head)+")")
	}
}
