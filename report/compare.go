package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

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

// compareChartInput prepares the overlay charts of several results.
func compareChartInput(ins []Input, o Options) chartInput {
	// The names only: engines and targets are in the dashboard panel and
	// compare.md, and the figure wraps the subtitle to its width.
	var parts []string
	sim := false
	for _, in := range ins {
		parts = append(parts, in.Name)
		sim = sim || in.Result.Meta.Simulated
	}
	c := chartInput{
		Subtitle:   "compare: " + strings.Join(parts, " vs "),
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
	for _, t := range compareTables(ins) {
		fmt.Fprintln(bw, t.Title)
		writeTextTable(bw, t.Head, t.Rows)
		fmt.Fprintln(bw)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("compare table: %w", err)
	}
	return nil
}

// WriteCompare writes the overlay charts of ins (iops-vs-qd,
// latency-vs-qd, latency-vs-iops, dashboard) and compare.md into dir,
// creating it, and returns the paths written. Everything is rendered
// before the first file is written; each file is replaced atomically.
func WriteCompare(dir string, ins []Input, o Options) ([]string, error) {
	if err := checkInputs(ins); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	if o.ChartFormat != "png" && o.ChartFormat != "svg" {
		return nil, fmt.Errorf("chart format %q: %w", o.ChartFormat, ErrChartFormat)
	}
	tables := compareTables(ins)
	panel := []panelLine{{Value: "Compared results", Heading: true}}
	for _, in := range ins {
		panel = append(panel, panelLine{Key: in.Name, Value: headline(in.Result)})
	}
	panel = append(panel, panelLine{Value: "Saturation", Heading: true})
	for _, row := range tables[0].Rows {
		panel = append(panel, panelLine{Value: saturationWords(row)})
	}
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
	return writeFiles(dir, files)
}

// writeCompareMarkdown writes compare.md: the inputs, the tables and the charts.
func writeCompareMarkdown(w io.Writer, ins []Input, tables []textTable, charts []string) {
	var names []string
	for _, in := range ins {
		names = append(names, in.Name)
	}
	fmt.Fprintf(w, "# Comparison: %s\n\n", mdEscape(strings.Join(names, " vs ")))
	fmt.Fprint(w, "| Result | Run |\n|---|---|\n")
	for _, in := range ins {
		fmt.Fprintf(w, "| %s | %s |\n", mdEscape(in.Name), mdEscape(headline(in.Result)))
	}
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
		if len(t.Rows) == 0 {
			fmt.Fprintln(w, "\nNo queue depth was measured by both.")
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

// saturationWords states one row of the saturation table in words.
func saturationWords(row []string) string {
	s := row[0] + ": "
	switch row[1] {
	case "-":
		return s + "no analysis"
	case "none":
		s += "no saturation (max " + row[3] + ")"
	default:
		s += "saturates at " + row[2] + " IOPS from QD " + row[1]
	}
	if row[4] != "-" {
		s += "; best IOPS per latency at QD " + row[4]
	}
	return s
}
