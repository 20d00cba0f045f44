package report

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/qdsweep/qdsweep/sweep"
)

// chartTitles names each chart file for the Markdown image links.
var chartTitles = map[string]string{
	"iops-vs-qd":           "IOPS vs queue depth",
	"latency-vs-qd":        "Latency vs queue depth",
	"latency-vs-iops":      "Latency vs IOPS",
	"bandwidth-vs-qd":      "Bandwidth vs queue depth",
	"latency-vs-bandwidth": "Latency vs bandwidth",
	"dashboard":            "Dashboard",
	ChartLoadIOPS:          "Achieved vs offered load",
	ChartLoad:              "Latency vs offered load",
	ChartLoadInflight:      "In flight vs offered load",
}

// Markdown writes the report of r as Markdown, ready for a design doc: the
// facts of the run, the step table, the analysis and links to charts
// (file names relative to the Markdown file).
func Markdown(w io.Writer, r *sweep.Result, o Options, charts []string) error {
	if r == nil {
		return fmt.Errorf("report markdown: %w", ErrNoSteps)
	}
	o = o.withDefaults()
	bw := bufio.NewWriter(w)
	title := "Queue-depth sweep: " + workloadWords(r)
	if r.Plan.OpenLoop() {
		title = "Open-loop sweep over offered loads: " + workloadWords(r)
	}
	if r.Meta.Target != "" {
		title += " on " + mdEscape(r.Meta.Target)
	}
	fmt.Fprintf(bw, "# %s\n\n", title)
	if r.Meta.Simulated {
		fmt.Fprintf(bw, "> **SIMULATED**: these figures come from the simulator (%s), not a device.\n\n", mdEscape(simSpec(r.Meta.Workload.Sim)))
	}
	if r.Interrupted {
		fmt.Fprint(bw, "> The sweep was interrupted before its last step.\n\n")
	}
	fmt.Fprint(bw, "| | |\n|---|---|\n")
	for _, l := range panelLines(r, o) {
		if l.Key != "" {
			fmt.Fprintf(bw, "| %s | %s |\n", l.Key, mdEscape(l.Value))
		}
	}
	fmt.Fprint(bw, "\n## Steps\n")
	ss := seriesOf(r)
	for _, s := range ss {
		if len(ss) > 1 {
			fmt.Fprintf(bw, "\n### %s\n", s.Name)
		}
		fmt.Fprintln(bw)
		writeMarkdownSteps(bw, s.Steps, o, steadyKnown(r))
	}
	if n := steadyNote(r); n != "" {
		fmt.Fprintf(bw, "\n%s\n", mdEscape(n))
	}
	if n := sustainedNote(r); n != "" {
		fmt.Fprintf(bw, "\n%s\n", mdEscape(n))
	}
	if n := controlNote(r); n != "" {
		fmt.Fprintf(bw, "\n%s\n", mdEscape(n))
	}
	if n := againNote(r); n != "" {
		fmt.Fprintf(bw, "\n%s\n", mdEscape(n))
	}
	if n := rampNote(r); n != "" {
		fmt.Fprintf(bw, "\n%s\n", mdEscape(n))
	}
	fmt.Fprint(bw, "\n## Analysis\n")
	writeMarkdownAnalysis(bw, analysisParas(r, o))
	if len(charts) > 0 {
		fmt.Fprint(bw, "\n## Charts\n")
		for _, c := range charts {
			base := filepath.Base(c)
			name := strings.TrimSuffix(base, filepath.Ext(base))
			t := chartTitles[name]
			if t == "" {
				t = name
			}
			fmt.Fprintf(bw, "\n![%s](%s)\n", t, base)
		}
	} else if n := countMeasured(r); n < 2 {
		fmt.Fprintf(bw, "\nNo charts: %d measured step(s); a curve needs at least two.\n", n)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report markdown: %w", err)
	}
	return nil
}

// writeMarkdownAnalysis writes the analysis as bullets, under a heading
// per curve when there are several; a finding's evidence and next step
// are nested bullets.
func writeMarkdownAnalysis(w io.Writer, ps []para) {
	last := "\x00"
	for _, p := range ps {
		if p.Curve != last {
			if p.Curve != "" {
				fmt.Fprintf(w, "\n### %s\n", mdEscape(p.Curve))
			}
			fmt.Fprintln(w)
			last = p.Curve
		}
		fmt.Fprintf(w, "- %s\n", mdEscape(p.Text))
		for _, e := range p.Evidence {
			fmt.Fprintf(w, "  - %s\n", mdEscape(e))
		}
		if p.Next != "" {
			fmt.Fprintf(w, "  - Next: %s\n", mdEscape(p.Next))
		}
	}
}

// writeMarkdownSteps writes the step table of one curve.
func writeMarkdownSteps(w io.Writer, steps []sweep.Step, o Options, steadyKnown bool) {
	fleet := isFleet(steps)
	head := []string{"QD", "iodepth×jobs", "IOPS", "MiB/s", "lat mean", "p99", "in-flight", "Little", "steady"}
	if fleet {
		head[1] = "hosts×iodepth×jobs"
	}
	if openLoop(steps) {
		head[0] = "offered" // the load offered, I/Os per second; QD is the depth×jobs cap
	}
	if o.DeviceStats {
		for _, c := range devCols {
			head = append(head, c.head)
		}
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("--:|", len(head)))
	for _, st := range steps {
		qd := fmt.Sprint(st.QD)
		if st.OfferedIOPS > 0 {
			qd = FormatIOPS(st.OfferedIOPS)
		}
		if _, ok := st.SustainedLevel(); ok {
			qd += sustainedMark
		}
		cells := []string{qd, stepShape(st, fleet)}
		if !measured(st) {
			why := "no I/O completed"
			if st.Skipped != "" {
				why = "skipped: " + st.Skipped
			} else if st.Failed != "" {
				why = "failed: " + st.Failed
			}
			cells = append(cells, mdEscape(why))
			for len(cells) < len(head) {
				cells = append(cells, "")
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
			continue
		}
		steady := steadyCell(st)
		if !steadyKnown && !st.Steady {
			steady = "-" // a fio import: fio judged no steady state
		}
		infl, little := fmt.Sprintf("%.1f", st.InflightMean), fmtPct(st.LittleError)
		if st.InflightMean == 0 {
			infl, little = "-", "-"
		}
		cells = append(cells, FormatIOPS(st.IOPS), FormatMiBps(st.BWBytes), FormatLatency(st.Lat.MeanNs),
			FormatLatency(float64(st.Lat.P99Ns)), infl, little, steady)
		if o.DeviceStats {
			for _, c := range deviceCells(st.Device) {
				cells = append(cells, strings.TrimSpace(c))
			}
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}

// mdEscape keeps s from breaking a Markdown table or emphasis.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;")
	return r.Replace(s)
}

// countMeasured counts r's steps with figures.
func countMeasured(r *sweep.Result) int {
	n := 0
	for _, st := range r.Steps {
		if measured(st) {
			n++
		}
	}
	return n
}
