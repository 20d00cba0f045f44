package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

// ErrNoSteps is returned when a result has no measured step to report.
var ErrNoSteps = errors.New("result has no measured steps")

// Table writes the terminal table of r's steps, one block per curve,
// followed by the analysis in plain sentences. Latencies are shown in µs or
// ms as fits, bandwidth in MiB/s. It fits o.Width columns (default 80)
// unless o.DeviceStats adds the device columns.
func Table(w io.Writer, r *sweep.Result, o Options) error {
	if r == nil {
		return fmt.Errorf("report table: %w", ErrNoSteps)
	}
	o = o.withDefaults()
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, wrap(headline(r), o.Width))
	ss := seriesOf(r)
	if len(ss) == 0 {
		fmt.Fprintln(bw, "No steps in this result.")
	}
	for _, s := range ss {
		if len(ss) > 1 {
			fmt.Fprintln(bw)
			fmt.Fprintln(bw, s.Name)
		}
		writeStepRows(bw, s.Steps, o, r.Meta.Simulated, steadyKnown(r))
	}
	if n := steadyNote(r); n != "" {
		fmt.Fprintln(bw, wrap(n, o.Width))
	}
	if n := refinedNote(r); n != "" {
		fmt.Fprintln(bw, wrap(n, o.Width))
	}
	if n := sustainedNote(r); n != "" {
		fmt.Fprintln(bw, wrap(n, o.Width))
	}
	if n := controlNote(r); n != "" {
		fmt.Fprintln(bw, wrap(n, o.Width))
	}
	if n := againNote(r); n != "" {
		fmt.Fprintln(bw, wrap(n, o.Width))
	}
	if n := rampNote(r); n != "" {
		fmt.Fprintln(bw, wrap(n, o.Width))
	}
	if r.Interrupted {
		fmt.Fprintln(bw, "Interrupted: the sweep stopped before its last step.")
	}
	fmt.Fprintln(bw)
	writeAnalysis(bw, analysisParas(r, o), o.Width)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report table: %w", err)
	}
	return nil
}

// headline is the one-line description of a result: tool, target, engine,
// workload, and SIMULATED when it was.
func headline(r *sweep.Result) string {
	parts := []string{}
	if r.Meta.Simulated {
		parts = append(parts, "SIMULATED")
	}
	if r.Meta.Target != "" {
		parts = append(parts, r.Meta.Target)
	}
	if d := r.Meta.Device; d != nil && d.Name != "" {
		dev := d.Name
		if d.Model != "" {
			dev += " (" + strings.TrimSpace(d.Model) + ")"
		}
		parts = append(parts, dev)
	}
	if r.Meta.Engine != "" {
		parts = append(parts, "engine "+engineWords(r.Meta))
	}
	parts = append(parts, workloadWords(r))
	return strings.Join(parts, " · ")
}

// engineWords names the engine and, in brackets, the io_uring options it
// ran with as the sweep recorded them (Meta.Workload.IOUring).
func engineWords(m sweep.Meta) string {
	if m.Workload.IOUring == "" {
		return m.Engine
	}
	return m.Engine + " (" + m.Workload.IOUring + ")"
}

// workloadWords describes the sweep's workload: "randread 4k, direct, 5s per step" (or "up to 5s per step" when steps may end sooner).
func workloadWords(r *sweep.Result) string {
	var ws []string
	seen := map[string]bool{}
	for _, s := range seriesOf(r) {
		n := curveName(s.RW, s.BS)
		if !seen[n] {
			seen[n] = true
			ws = append(ws, n)
		}
	}
	out := strings.Join(ws, ", ")
	if out == "" {
		out = "no steps"
	}
	if r.Meta.Workload.RWMixRead > 0 && hasMixed(r) {
		out += fmt.Sprintf(", %d%% reads", r.Meta.Workload.RWMixRead)
	}
	if s := r.Meta.Workload.Shape; s != "" {
		out += ", " + s
	}
	if r.Meta.Workload.Direct {
		out += ", direct"
	}
	if r.Meta.Workload.RuntimeNs > 0 {
		out += ", " + upTo(r) + FormatLatency(float64(r.Meta.Workload.RuntimeNs)) + " per step"
	}
	return out
}

// upTo is "up to " where a step may end before its runtime (the settling
// rule judged it: a step may end once what it decides is settled), so
// that "3 s per step" is never read beside steps that ran 0.3 s.
func upTo(r *sweep.Result) string {
	for _, s := range r.Steps {
		if s.Settle != nil {
			return "up to "
		}
	}
	return ""
}

// stepCols are the table's columns: header and width; right-aligned.
var stepCols = []struct {
	head  string
	width int
}{
	{"QD", 5}, {"depth×jobs", 10}, {"IOPS", 8}, {"MiB/s", 8}, {"lat mean", 9},
	{"p99", 9}, {"in-flight", 9}, {"Little", 7}, {"steady", 6},
}

// devCols are the extra device columns shown with Options.DeviceStats.
var devCols = []struct {
	head  string
	width int
}{
	{"r/s", 8}, {"w/s", 8}, {"aqu-sz", 7}, {"%util", 6}, {"r_await", 8}, {"w_await", 8},
}

// writeStepRows writes the header and one row per step.
func writeStepRows(w io.Writer, steps []sweep.Step, o Options, simulated, steadyKnown bool) {
	var h []string
	fleet := isFleet(steps)
	cols := slices.Clone(stepCols)
	if openLoop(steps) {
		cols[0].head, cols[0].width = "offered", 7 // the load offered, I/Os per second; QD is the depth×jobs cap
	}
	for i, c := range cols {
		if i == 1 && fleet {
			c.head = "hosts×d×j" // QD is the fleet's: hosts × iodepth × numjobs
		}
		h = append(h, pad(c.head, c.width))
	}
	if o.DeviceStats {
		for _, c := range devCols {
			h = append(h, pad(c.head, c.width))
		}
	}
	fmt.Fprintln(w, strings.Join(h, " "))
	for _, st := range steps {
		qd := fmt.Sprint(st.QD)
		if st.OfferedIOPS > 0 {
			qd = FormatIOPS(st.OfferedIOPS)
		}
		if st.Refined != "" {
			qd += refinedMark
		}
		if _, ok := st.SustainedLevel(); ok {
			qd += sustainedMark
		}
		cells := []string{qd, stepShape(st, fleet)}
		if !measured(st) {
			why := "no I/O completed"
			switch {
			case st.Skipped != "":
				why = "skipped: " + st.Skipped
			case st.Failed != "":
				why = "failed: " + st.Failed
			}
			line := pad(cells[0], cols[0].width) + " " + pad(cells[1], cols[1].width) + "  " + why
			fmt.Fprintln(w, truncate(line, o.Width))
			continue
		}
		steady := steadyCell(st)
		if !steadyKnown && !st.Steady {
			steady = "-" // a fio import: fio judged no steady state
		}
		cells = append(cells,
			FormatIOPS(st.IOPS),
			FormatMiBps(st.BWBytes),
			FormatLatency(st.Lat.MeanNs),
			FormatLatency(float64(st.Lat.P99Ns)),
			fmt.Sprintf("%.1f", st.InflightMean),
			fmtPct(st.LittleError),
			steady,
		)
		if st.InflightMean == 0 {
			cells[6], cells[7] = "-", "-"
		}
		for i := range cells {
			cells[i] = pad(cells[i], cols[i].width)
		}
		if o.DeviceStats {
			cells = append(cells, deviceCells(st.Device)...)
		}
		fmt.Fprintln(w, strings.Join(cells, " "))
	}
}

// openLoop reports whether steps were offered loads (an open-loop sweep).
func openLoop(steps []sweep.Step) bool {
	for _, s := range steps {
		if s.OfferedIOPS > 0 {
			return true
		}
	}
	return false
}

// deviceCells formats a step's device figures, "-" when absent.
func deviceCells(d *sweep.DeviceStats) []string {
	out := make([]string, len(devCols))
	if d == nil {
		for i := range out {
			out[i] = pad("-", devCols[i].width)
		}
		return out
	}
	vals := []string{
		FormatIOPS(d.ReadsPerSec), FormatIOPS(d.WritesPerSec),
		fmt.Sprintf("%.1f", d.AquSz), fmt.Sprintf("%.0f", d.UtilPct),
		fmt.Sprintf("%.2f", d.ReadAwaitMs), fmt.Sprintf("%.2f", d.WriteAwaitMs),
	}
	for i := range vals {
		out[i] = pad(vals[i], devCols[i].width)
	}
	return out
}

// pad right-aligns s in width runes.
func pad(s string, width int) string {
	n := len([]rune(s))
	if n >= width {
		return s
	}
	return strings.Repeat(" ", width-n) + s
}

// truncate cuts s to width runes, ending in "…" when cut.
func truncate(s string, width int) string {
	r := []rune(s)
	if width <= 1 || len(r) <= width {
		return s
	}
	return string(r[:width-1]) + "…"
}

// writeAnalysis writes the analysis paragraphs wrapped to width columns.
// With several curves each curve's paragraphs follow its name, indented;
// continuation lines hang under the paragraph's first word.
func writeAnalysis(w io.Writer, ps []para, width int) {
	last := "\x00"
	for _, p := range ps {
		ind := ""
		if p.Curve != "" {
			ind = "  "
		}
		if p.Curve != last {
			if p.Curve != "" {
				if last != "\x00" {
					fmt.Fprintln(w)
				}
				fmt.Fprintln(w, p.Curve+":")
			} else if last != "\x00" {
				fmt.Fprintln(w)
			}
			last = p.Curve
		}
		fmt.Fprintln(w, WrapHanging(p.Text, width, ind, ind+"  "))
		for _, e := range p.Evidence {
			fmt.Fprintln(w, WrapHanging(e, width, ind+"  - ", ind+"    "))
		}
		if p.Next != "" {
			fmt.Fprintln(w, WrapHanging(p.Next, width, ind+"  Next: ", ind+"    "))
		}
	}
}

// wrap breaks text into lines of at most width runes at spaces, keeping
// existing newlines; continuation lines of a bulleted line are indented.
func wrap(text string, width int) string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		first, rest := "", ""
		switch {
		case strings.HasPrefix(para, "  - "):
			first, rest, para = "  - ", "    ", para[4:]
		case strings.HasPrefix(para, "  Next: "):
			first, rest, para = "  Next: ", "    ", para[8:]
		case strings.HasPrefix(para, "- "):
			first, rest, para = "- ", "  ", para[2:]
		case strings.HasPrefix(para, "  "):
			first, rest = "  ", "  "
		}
		out = append(out, WrapHanging(para, width, first, rest))
	}
	return strings.Join(out, "\n")
}

// hasMixed reports whether any step mixes reads and writes (rw, randrw,
// readwrite, randreadwrite), the only case where rwmixread matters.
func hasMixed(r *sweep.Result) bool {
	for _, st := range r.Steps {
		if name, _ := fio.RWValue(st.RW); ioengine.RW(name).Mixed() {
			return true
		}
	}
	return false
}

// refinedMark follows the QD of a step the refine pass measured between
// two grid steps.
const refinedMark = "*"

// refinedNote explains refinedMark when r holds refined steps.
func refinedNote(r *sweep.Result) string {
	for _, st := range r.Steps {
		if st.Refined != "" {
			return refinedMark + " refined: a depth measured between two grid steps, so the recommended depth is measured rather than read off the grid."
		}
	}
	return ""
}

// sustainedMark follows the QD of a step whose analysis point is its
// sustained level rather than its mean (sustainedNote lists them).
const sustainedMark = "‡"

// sustainedNote lists, under the table, the steps the analysis reads at
// their sustained level rather than at their row's mean, with that level:
// every figure a sentence quotes is then on the page ("" when none).
func sustainedNote(r *sweep.Result) string {
	var parts []string
	for _, st := range r.Steps {
		if v, ok := st.SustainedLevel(); ok {
			parts = append(parts, fmt.Sprintf("QD %d %s IOPS at %s mean (from %s on)", st.QD, FormatIOPS(v.IOPS), FormatLatency(v.LatMeanNs), fmtSec(v.FromSec)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return sustainedMark + " sustained level, which the analysis and its sentences use in place of the row's whole-step mean: " + strings.Join(parts, "; ") + "."
}

// rampNote says, under the table, where a curve's level fell during a
// step's ramp and which steps ran above what lasted ("" when none did).
func rampNote(r *sweep.Result) string {
	var parts []string
	for _, f := range r.RampFalls() {
		p := fmt.Sprintf("ramp: QD %d's ramp ran at up to %s IOPS, then fell to the %s IOPS its window measured, before the step was measured",
			f.QD, FormatIOPS(f.PeakIOPS), FormatIOPS(f.IOPS))
		var left []string
		for _, st := range r.Steps {
			if st.RW == f.RW && st.BS == f.BS && st.SetAsideWhy() == sweep.AsideAboveLevel {
				left = append(left, fmt.Sprint(st.QD))
			}
		}
		if len(left) > 0 {
			p += "; QD " + strings.Join(left, ", ") + " ran above what lasted and are left out of the analysis"
		}
		parts = append(parts, p+".")
	}
	return strings.Join(parts, " ")
}

// controlNote is the control step in one line under the table: the step
// measured again at the end, its figures then and now, and whether the
// device held still ("" when there is none).
func controlNote(r *sweep.Result) string {
	c := r.Control
	if c == nil {
		return ""
	}
	at := fmt.Sprintf("QD %d", c.QD)
	if c.OfferedIOPS > 0 {
		at = FormatIOPS(c.OfferedIOPS) + " IOPS offered"
	}
	s := fmt.Sprintf("control: %s (%s) measured again at the end: %s IOPS at %s mean, %s in flight; it gave %s IOPS at %s first (%s)",
		at, stepShape(c.Step, len(c.Hosts) > 1), FormatIOPS(c.IOPS), FormatLatency(c.Lat.MeanNs), fmtInflight(c.InflightMean),
		FormatIOPS(c.WasIOPS), FormatLatency(c.WasLatNs), relDelta(c.WasIOPS, c.IOPS))
	if c.WasLevel > 0 && c.Level > 0 {
		was, now := c.Levels()
		s += fmt.Sprintf("; after a start-up burst, their levels (the IOPS of the slices after it), which the verdict compares: %s then %s (%s)",
			FormatIOPS(was), FormatIOPS(now), relDelta(was, now))
	}
	switch c.Change {
	case sweep.ControlFell, sweep.ControlRose:
		var left []string
		for _, st := range r.Steps {
			if st.SetAsideWhy() == sweep.AsideAboveLevel {
				left = append(left, fmt.Sprint(st.QD))
			}
		}
		s += fmt.Sprintf(": beyond the ±%.0f%% noise band, so the curve did not hold still", c.Band*100)
		if len(left) > 0 {
			s += "; QD " + strings.Join(left, ", ") + " ran above what lasted and are left out of the analysis"
		}
		return s + "."
	}
	return s + fmt.Sprintf(": within ±%.0f%%, the device held still.", c.Band*100)
}

// isFleet reports whether any step ran on several hosts at once.
func isFleet(steps []sweep.Step) bool {
	for _, st := range steps {
		if len(st.Hosts) > 1 {
			return true
		}
	}
	return false
}

// stepShape is a step's split as its QD counts it: iodepth × numjobs, with
// the host count first in a fleet (QD = hosts × iodepth × numjobs).
func stepShape(st sweep.Step, fleet bool) string {
	if fleet {
		return fmt.Sprintf("%d×%d×%d", max(len(st.Hosts), 1), st.IODepth, st.NumJobs)
	}
	return fmt.Sprintf("%d×%d", st.IODepth, st.NumJobs)
}
