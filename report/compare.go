package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/qdsweep/qdsweep/guard"

	"github.com/qdsweep/qdsweep/sweep"
)

// CompareFile is the Markdown report WriteCompare writes.
const CompareFile = "compare.md"

// Input is one result of a comparison, with the name that stands for it in
// legends and tables (usually its directory or file name).
type Input struct {
	Name   string
	Result *sweep.Result
}

// compareSeries returns the series of all inputs, each named
// "input · curve", with colours assigned in order.
func compareSeries(ins []Input) []series {
	var out []series
	for _, in := range ins {
		for _, s := range seriesOf(in.Result) {
			s.Name = in.Name + " · " + s.Name
			out = append(out, s)
		}
	}
	return out
}

// inputLetter is the letter that stands for the i-th input in tables: A, B, …
func inputLetter(i int) string { return string(rune('A' + i%26)) }

// inputFacts are what a reader must know of one compared result to trust a
// difference: when, with what engine, on what target, how many steps
// reached steady state, and the diagnosis's verdicts.
type inputFacts struct {
	Date, Engine, Target, Steady string
	Flags                        []string // diagnosis rules, SIMULATED, interrupted
}

// factsOf gathers the facts of r.
func factsOf(r *sweep.Result) inputFacts {
	m := r.Meta
	f := inputFacts{Date: "-", Engine: m.Engine, Target: m.Target}
	if !m.Start.IsZero() {
		f.Date = m.Start.UTC().Format("2006-01-02 15:04 MST")
	}
	if m.Source == sweep.SourceFioImport {
		f.Engine = "fio"
		if m.Engine != "" && m.Engine != "fio" {
			f.Engine += " (" + m.Engine + ")"
		}
	}
	if f.Engine == "" {
		f.Engine = "-"
	}
	if f.Target == "" {
		f.Target = "-"
	}
	n, steady := 0, 0
	for _, st := range r.Steps {
		if measured(st) {
			n++
			if st.Steady {
				steady++
			}
		}
	}
	f.Steady = fmt.Sprintf("%d of %d steps", steady, n)
	if !steadyKnown(r) {
		f.Steady = "not recorded"
	}
	if m.Simulated {
		f.Flags = append(f.Flags, "SIMULATED")
	}
	if r.Interrupted {
		f.Flags = append(f.Flags, "interrupted")
	}
	seen := map[string]bool{}
	for _, d := range r.Diagnosis {
		if d.Rule != "" && !seen[string(d.Rule)] {
			seen[string(d.Rule)] = true
			f.Flags = append(f.Flags, string(d.Rule))
		}
	}
	return f
}

// line states the facts in one line: "2026-11-30 04:13 UTC · io_uring ·
// qdsweep.scratch · steady 7 of 9 steps · device-cap".
func (f inputFacts) line() string {
	parts := []string{f.Date, f.Engine, f.Target, "steady " + f.Steady}
	if len(f.Flags) > 0 {
		parts = append(parts, strings.Join(f.Flags, ", "))
	}
	return strings.Join(parts, " · ")
}

// flagsCell is the flags for a table cell, "-" for none.
func (f inputFacts) flagsCell() string {
	if len(f.Flags) == 0 {
		return "-"
	}
	return strings.Join(f.Flags, ", ")
}

// compareChartInput prepares the overlay charts of several results: one
// subtitle line per input with its facts.
func compareChartInput(ins []Input, o Options) chartInput {
	var lines []string
	sim := false
	for i, in := range ins {
		lines = append(lines, inputLetter(i)+" = "+in.Name+": "+factsOf(in.Result).line())
		sim = sim || in.Result.Meta.Simulated
	}
	c := chartInput{
		Subtitle:   strings.Join(lines, "\n"),
		Simulated:  sim,
		Series:     compareSeries(ins),
		TargetIOPS: o.TargetIOPS,
		SLO:        o.SLO,
	}
	c.fillGoals()
	return c
}

// checkInputs rejects a comparison with fewer than two inputs or an input
// without measured steps.
func checkInputs(ins []Input) error {
	if len(ins) < 2 {
		return fmt.Errorf("compare needs at least two results, got %d", len(ins))
	}
	for _, in := range ins {
		if in.Result == nil || countMeasured(in.Result) == 0 {
			return fmt.Errorf("compare %s: %w", in.Name, ErrNoSteps)
		}
	}
	return nil
}

// CompareTable writes the comparison of ins to w: each input's saturation
// point, then for every input after the first the IOPS and latency deltas
// against the first at each queue depth both measured.
func CompareTable(w io.Writer, ins []Input, o Options) error {
	if err := checkInputs(ins); err != nil {
		return err
	}
	o = o.withDefaults()
	bw := bufio.NewWriter(w)
	for i, in := range ins {
		fmt.Fprintln(bw, WrapHanging(inputLetter(i)+" = "+in.Name+": "+factsOf(in.Result).line(), o.Width, "", "    "))
	}
	fmt.Fprintln(bw)
	tables := compareTables(ins)
	for _, t := range tables {
		fmt.Fprintln(bw, t.Title)
		writeTextTable(bw, t.Head, t.Rows)
		if t.Note != "" {
			fmt.Fprintln(bw, wrap(t.Note, o.Width))
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprintln(bw, wrap(noiseNote(tables), o.Width))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("compare table: %w", err)
	}
	return nil
}

// WriteCompare writes the overlay charts of ins (iops-vs-qd,
// latency-vs-qd, latency-vs-iops, dashboard) and compare.md into dir,
// creating it, and returns the paths written. Everything is rendered
// before the first file is written; each file is replaced atomically.
func WriteCompare(out *guard.Out, ins []Input, o Options) ([]string, error) {
	if err := checkInputs(ins); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	if o.ChartFormat != "png" && o.ChartFormat != "svg" {
		return nil, fmt.Errorf("chart format %q: %w", o.ChartFormat, ErrChartFormat)
	}
	tables := compareTables(ins)
	panel := []panelLine{{Value: "Compared results", Heading: true}}
	for i, in := range ins {
		panel = append(panel, panelLine{Key: inputLetter(i), Value: in.Name + " · " + workloadWords(in.Result)},
			panelLine{Value: factsOf(in.Result).line(), Bullet: true})
	}
	panel = append(panel, panelLine{Value: "Saturation", Heading: true})
	open := tables[0].Head[1] == satHeadOpen
	for _, row := range tables[0].Rows {
		panel = append(panel, panelLine{Value: saturationWords(row, open)})
	}
	by := "IOPS of B vs A by queue depth"
	if open {
		by = "IOPS of B vs A by load offered"
	}
	panel = append(panel, panelLine{Value: by, Heading: true})
	for _, t := range tables[1:] {
		panel = append(panel, panelLine{Value: t.Title, Sub: true, Rank: rankFinding})
		var cells []string
		for _, r := range t.deltas {
			cells = append(cells, r.panelCell())
		}
		if len(cells) == 0 {
			cells = []string{noCommonSteps(t.Head)}
		}
		panel = append(panel, panelLine{Value: strings.Join(cells, " · "), Rank: rankFinding})
	}
	panel = append(panel, panelLine{Value: "≈: within both runs' noise. In brackets, not judged: ? a step's noise unknown, " +
		leftOutMark + " left out of a run's analysis. compare.md says how.", Rank: rankFinding})
	files, err := renderCharts(compareChartInput(ins, o), o.ChartFormat, panel, nil)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	var md bytes.Buffer
	writeCompareMarkdown(&md, ins, tables, names)
	files = append(files, namedFile{Name: CompareFile, Data: md.Bytes()})
	return writeFiles(out, files)
}

// writeCompareMarkdown writes compare.md: the inputs, the tables and the charts.
func writeCompareMarkdown(w io.Writer, ins []Input, tables []textTable, charts []string) {
	var names []string
	for _, in := range ins {
		names = append(names, in.Name)
	}
	fmt.Fprintf(w, "# Comparison: %s\n\n", mdEscape(strings.Join(names, " vs ")))
	fmt.Fprint(w, "| | Result | Date | Engine | Target | Steady | Diagnosis |\n|---|---|---|---|---|---|---|\n")
	for i, in := range ins {
		f := factsOf(in.Result)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", inputLetter(i), mdEscape(in.Name), f.Date,
			mdEscape(f.Engine), mdEscape(f.Target), f.Steady, mdEscape(f.flagsCell()))
	}
	fmt.Fprint(w, "\n"+mdEscape(noiseNote(tables))+"\n")
	for _, t := range tables {
		fmt.Fprintf(w, "\n## %s\n\n", mdEscape(t.Title))
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(t.Head, " | "), strings.Repeat("--:|", len(t.Head)))
		for _, r := range t.Rows {
			esc := make([]string, len(r))
			for i, c := range r {
				esc[i] = mdEscape(c)
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(esc, " | "))
		}
		if t.Note != "" {
			fmt.Fprintf(w, "\n%s\n", mdEscape(t.Note))
		}
		if len(t.Rows) == 0 {
			s := noCommonSteps(t.Head)
			fmt.Fprintf(w, "\n%s.\n", strings.ToUpper(s[:1])+s[1:])
		}
	}
	if len(charts) > 0 {
		fmt.Fprint(w, "\n## Charts\n")
		for _, c := range charts {
			name := strings.TrimSuffix(c, c[strings.LastIndex(c, "."):])
			fmt.Fprintf(w, "\n![%s](%s)\n", chartTitles[name], c)
		}
	}
}

// saturationWords states one row of the saturation table in words; open
// when its curves were offered loads, whose knees are I/Os in flight.
func saturationWords(row []string, open bool) string {
	s := row[0] + ": "
	depth := func(v string) string { return "QD " + v }
	if open {
		depth = func(v string) string { return v + " in flight" }
	}
	switch row[1] {
	case "-":
		return s + "no analysis"
	case "none":
		s += "no saturation (max " + row[3] + ")"
	default:
		s += "saturates at " + row[2] + " IOPS from " + depth(row[1])
	}
	if row[4] != "-" {
		s += "; best IOPS per latency at " + depth(row[4])
	}
	return s
}
