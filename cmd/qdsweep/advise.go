package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/urfave/cli/v2"
)

func adviseCommand() *cli.Command {
	return &cli.Command{
		Name:  "advise",
		Usage: "size queue depth and iodepth × numjobs with Little's Law (QD = IOPS × latency), from numbers or from a sweep",
		Description: "Without data: qdsweep advise --target-iops 160000 --latency 2ms (→ QD 320)\n" +
			"   throughput: qdsweep advise --target-bw 1200MiB --bs 16k --latency 2ms\n" +
			"   cloud:      qdsweep advise --cloud gcp-hyperdisk-balanced --target-iops 100000\n" +
			"   table:      qdsweep advise --table\n" +
			"From data:     qdsweep advise --from results.json|DIR|points.csv [--target-iops T] [--latency-slo p99=5ms] [--for postgres]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "target-iops", Usage: "target I/Os per second, e.g. 160000 or 160k"},
			&cli.StringFlag{Name: "target-bw", Usage: "target throughput per second, e.g. 1200MiB (converted at --bs)"},
			&cli.StringFlag{Name: "bs", Usage: "block size for --target-bw and to pick a curve from --from (default 4k)"},
			&cli.StringFlag{Name: "rw", Usage: "pick the curve of this rw from --from"},
			&cli.StringFlag{Name: "latency", Usage: "mean latency per I/O with a unit, e.g. 2ms or 800us"},
			&cli.StringFlag{Name: "cloud", Usage: "cloud volume preset: " + strings.Join(littleslaw.PresetNames(), ", ")},
			&cli.BoolFlag{Name: "table", Usage: "print GCP's Hyperdisk queue-depth table, regenerated from Little's Law"},
			&cli.StringFlag{Name: "from", Usage: "measured data: results.json, a results directory, or a points CSV (iodepth,numjobs,iops,lat_mean_us)"},
			&cli.StringFlag{Name: "latency-slo", Usage: "latency objective, e.g. p99=5ms (mean, p50, p90, p99, p999); needs --from"},
			&cli.StringFlag{Name: "for", Usage: "settings for postgres, mysql or workers; needs --from"},
			&cli.IntFlag{Name: "max-iodepth", Value: littleslaw.DefaultMaxIODepth, Usage: "deepest queue per job (NVMe queues hold 256)"},
			&cli.IntFlag{Name: "max-jobs", Usage: "most jobs in a split (default: CPUs)"},
			&cli.IntFlag{Name: "cpus", Usage: "CPUs of the machine that will run the load (default: this one's)"},
			&cli.StringFlag{Name: "output-format", Value: formatNormal, Usage: "normal or json"},
		},
		Action: adviseAction,
	}
}

// adviseOut is the JSON document `advise --output-format=json` writes.
type adviseOut struct {
	QueueDepth    float64                  `json:"queue_depth"`
	IODepth       int                      `json:"iodepth"`
	NumJobs       int                      `json:"numjobs"`
	AltSplits     []littleslaw.Split       `json:"alt_splits,omitempty"`
	JobsBy        string                   `json:"jobs_by,omitempty"` // which limit chose numjobs: one-job, max-iodepth, max-jobs
	LatencyNs     float64                  `json:"latency_ns"`
	TargetIOPS    float64                  `json:"target_iops"`
	TargetBW      float64                  `json:"target_bw_bytes,omitempty"`
	BS            int64                    `json:"bs,omitempty"`
	Reachable     bool                     `json:"reachable"`
	ReachableIOPS float64                  `json:"reachable_iops,omitempty"`
	NaiveQD       float64                  `json:"naive_qd,omitempty"`
	Note          string                   `json:"note,omitempty"`
	Cloud         *littleslaw.Preset       `json:"cloud,omitempty"`
	Table         []littleslaw.TableRow    `json:"table,omitempty"`
	Source        string                   `json:"source,omitempty"`
	Analysis      *littleslaw.Analysis     `json:"analysis,omitempty"`
	Curves        []sweep.CurveAnalysis    `json:"curves,omitempty"`
	Warnings      []string                 `json:"warnings,omitempty"`
	Settings      []littleslaw.Setting     `json:"settings,omitempty"`
	SLO           *littleslaw.SLOResult    `json:"slo,omitempty"`
	Target        *littleslaw.TargetResult `json:"target,omitempty"`
}

// adviseFlags are advise's parsed, validated flags.
type adviseFlags struct {
	targetIOPS, targetBW float64
	bs                   int64
	bsSet                bool
	rw                   string
	latNs                float64
	preset               *littleslaw.Preset
	table                bool
	from                 string
	slo                  *littleslaw.SLO
	forWhat              string
	opts                 littleslaw.Options
	json                 bool
}

func adviseAction(c *cli.Context) error {
	f, err := parseAdviseFlags(c)
	if err != nil {
		return err
	}
	var out adviseOut
	switch {
	case f.table:
		out.Table = littleslaw.GCPQueueDepthTable()
		out.BS, out.LatencyNs = littleslaw.GCPTableBS, littleslaw.GCPTableLatNs
		out.Note = "GCP Hyperdisk queue-depth guidance (16 KiB I/O, 2 ms), regenerated as QD = IOPS × latency"
	case f.from != "":
		if err := adviseFromData(f, &out); err != nil {
			return err
		}
	default:
		if err := adviseFromNumbers(f, &out); err != nil {
			return err
		}
	}
	if f.json && out.Table != nil {
		// The table is its own document: no single queue depth answers it.
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		doc := struct {
			BS        int64                 `json:"bs"`
			LatencyNs float64               `json:"latency_ns"`
			Note      string                `json:"note"`
			Table     []littleslaw.TableRow `json:"table"`
		}{out.BS, out.LatencyNs, out.Note, out.Table}
		if err := enc.Encode(doc); err != nil {
			return fmt.Errorf("advise: write json: %w", err)
		}
		return nil
	}
	if f.json {
		for _, w := range out.Warnings {
			fmt.Fprintln(c.App.ErrWriter, "qdsweep advise: warning: "+w)
		}
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fmt.Errorf("advise: write json: %w", err)
		}
		return nil
	}
	printAdvice(c.App.Writer, f, &out)
	return nil
}

// parseAdviseFlags validates every flag; all failures are usage errors.
func parseAdviseFlags(c *cli.Context) (adviseFlags, error) {
	var f adviseFlags
	if c.NArg() > 0 {
		return f, usagef("advise takes no arguments (got %q); use --from FILE for data", c.Args().First())
	}
	switch c.String("output-format") {
	case formatNormal:
	case formatJSON:
		f.json = true
	default:
		return f, usagef("--output-format: unknown format %q; use normal or json", c.String("output-format"))
	}
	var err error
	if s := c.String("target-iops"); s != "" {
		if f.targetIOPS, err = parseIOPS(s); err != nil {
			return f, usagef("--target-iops: %v", err)
		}
	}
	f.bs = 4096
	if s := c.String("bs"); s != "" {
		if f.bs, err = ioengine.ParseSize(s); err != nil || f.bs <= 0 {
			return f, usagef("--bs %q: use a positive size such as 4k or 16k", s)
		}
		f.bsSet = true
	}
	if s := c.String("target-bw"); s != "" {
		bw, err := ioengine.ParseSize(strings.TrimSuffix(strings.TrimSuffix(s, "/s"), "ps"))
		if err != nil || bw <= 0 {
			return f, usagef("--target-bw %q: use a positive throughput such as 1200MiB or 500m (per second)", s)
		}
		if f.targetIOPS > 0 {
			return f, usagef("--target-bw and --target-iops: give one target, not both")
		}
		f.targetBW = float64(bw)
		f.targetIOPS = littleslaw.ThroughputIOPS(f.targetBW, f.bs)
	}
	if s := c.String("latency"); s != "" {
		if f.latNs, err = parseLatency(s); err != nil {
			return f, usagef("--latency: %v", err)
		}
	}
	if s := c.String("cloud"); s != "" {
		p, err := littleslaw.LookupPreset(s)
		if err != nil {
			return f, usagef("--cloud: %v", err)
		}
		f.preset = &p
	}
	if s := c.String("latency-slo"); s != "" {
		slo, err := littleslaw.ParseSLO(s)
		if err != nil {
			return f, usagef("--latency-slo: %v", err)
		}
		f.slo = &slo
	}
	switch f.forWhat = c.String("for"); f.forWhat {
	case "", "postgres", "mysql", "workers":
	default:
		return f, usagef("--for %q: use postgres, mysql or workers", f.forWhat)
	}
	f.table, f.from, f.rw = c.Bool("table"), c.String("from"), c.String("rw")
	if err := checkAdviseConflicts(c, f); err != nil {
		return f, err
	}
	cpus := c.Int("cpus")
	if cpus < 0 || c.Int("max-iodepth") <= 0 || c.Int("max-jobs") < 0 {
		return f, usagef("--cpus, --max-iodepth and --max-jobs must be positive")
	}
	if cpus == 0 {
		cpus = runtime.NumCPU()
	}
	f.opts = littleslaw.Options{TargetIOPS: f.targetIOPS, SLO: f.slo, For: f.forWhat,
		MaxIODepth: c.Int("max-iodepth"), MaxJobs: c.Int("max-jobs"), CPUs: cpus, BS: f.bs}
	if f.from == "" && !f.table {
		if f.slo != nil || f.forWhat != "" {
			return f, usagef("--latency-slo and --for need measured data: add --from results.json or --from points.csv")
		}
		if f.targetIOPS == 0 && f.preset == nil {
			return f, usagef("advise needs a target: --target-iops 160000 or --target-bw 1200MiB (or --cloud, --table or --from)")
		}
		if f.latNs == 0 && f.preset == nil {
			return f, usagef("advise needs --latency with a unit, e.g. --latency 2ms (or --cloud for a typical latency)")
		}
	}
	return f, nil
}

// checkAdviseConflicts refuses flags that do not go together or would be
// silently ignored: --table answers alone, --rw picks a curve of --from.
func checkAdviseConflicts(c *cli.Context, f adviseFlags) error {
	if c.IsSet("rw") {
		switch ioengine.RW(f.rw) {
		case ioengine.Read, ioengine.Write, ioengine.RandRead, ioengine.RandWrite, ioengine.ReadWrite, ioengine.RandRW:
		default:
			return usagef("--rw: unknown pattern %q; use read, write, randread, randwrite, rw or randrw", f.rw)
		}
		if f.from == "" {
			return usagef("--rw picks a curve of measured data: add --from results.json, or drop --rw")
		}
	}
	if f.table {
		for _, other := range []string{"from", "target-iops", "target-bw", "latency", "cloud", "latency-slo", "for", "rw", "bs"} {
			if c.IsSet(other) {
				return usagef("--table prints the fixed GCP table (16 KiB at 2 ms) and takes no --%s; drop one of them", other)
			}
		}
	}
	return nil
}

// parseIOPS reads a positive number of I/Os per second, allowing k and m
// (decimal: 160k = 160000).
func parseIOPS(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	switch {
	case strings.HasSuffix(t, "k"):
		mult, t = 1e3, strings.TrimSuffix(t, "k")
	case strings.HasSuffix(t, "m"):
		mult, t = 1e6, strings.TrimSuffix(t, "m")
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(t, ",", ""), 64)
	if err != nil || v <= 0 || v != v || v*mult > 1e12 {
		return 0, fmt.Errorf("%q is not a positive number of IOPS; use e.g. 160000 or 160k", s)
	}
	return v * mult, nil
}

// parseLatency reads a positive latency that carries a unit.
func parseLatency(s string) (float64, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), "µ", "u")
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return 0, fmt.Errorf("%q has no unit; use e.g. 2ms or 800us", s)
	}
	d, err := time.ParseDuration(t)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a positive latency; use e.g. 2ms or 800us", s)
	}
	return float64(d), nil
}

// adviseFromNumbers is pure Little's Law: no device, no data.
func adviseFromNumbers(f adviseFlags, out *adviseOut) error {
	if f.preset != nil {
		out.Cloud = f.preset
		if f.latNs == 0 {
			f.latNs = f.preset.TypicalLatNs
			out.Warnings = append(out.Warnings, fmt.Sprintf("using %s's typical latency %s; pass --latency to use yours",
				f.preset.Title, report.FormatLatency(f.latNs)))
		}
		if f.targetIOPS == 0 {
			f.targetIOPS = f.preset.MaxIOPS
			out.Warnings = append(out.Warnings, fmt.Sprintf("no target given: sizing for %s's per-volume maximum, %s IOPS", f.preset.Title, report.FormatCount(f.targetIOPS)))
		}
		bw := f.targetBW
		if bw == 0 {
			bw = f.targetIOPS * float64(f.bs)
		}
		for _, e := range littleslaw.PresetCheck(*f.preset, f.targetIOPS, bw) {
			out.Warnings = append(out.Warnings, report.PresetExcessText(*f.preset, e))
		}
	}
	o := f.opts
	o.TargetIOPS = f.targetIOPS
	t := littleslaw.AdviseTarget(f.targetIOPS, f.latNs, o)
	report.AnnotateTarget(&t)
	fillTop(out, t)
	out.TargetBW = f.targetBW
	if f.targetBW > 0 || f.preset != nil {
		out.BS = f.bs
	}
	return nil
}

// adviseFromData analyses measured points (a results file/dir or a CSV).
func adviseFromData(f adviseFlags, out *adviseOut) error {
	out.Source = f.from
	if f.latNs > 0 {
		out.Warnings = append(out.Warnings, "--latency is ignored with --from: the measured curve gives the latency at each load")
	}
	var curves []sweep.CurveAnalysis
	if strings.EqualFold(filepath.Ext(f.from), ".csv") {
		pts, err := sweep.ReadPointsCSV(f.from)
		if err != nil {
			// Malformed (ErrPointsCSV), missing or unreadable: the user's to fix.
			return usagef("--from %s: %v", f.from, oneLine(err))
		}
		a, err := littleslaw.Analyze(pts, f.opts)
		if err != nil {
			return usagef("--from %s: %v (a fit needs at least two rows at different queue depths)", f.from, err)
		}
		report.AnnotateAnalysis(&a)
		curves = []sweep.CurveAnalysis{{BS: f.opts.BS, Analysis: a}}
	} else {
		r, err := sweep.Read(f.from)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return usagef("--from %s: no such file or directory; give results.json, a results directory or a points .csv", f.from)
			}
			// Any file that does not read as a result is the user's to fix.
			return usagef("--from %s: %v; give results.json, a results directory or a points .csv", f.from, oneLine(err))
		}
		if f.opts.CPUs == 0 {
			f.opts.CPUs = r.Meta.CPUs
		}
		if err := r.Analyze(f.opts); err != nil {
			return usagef("--from %s: %v", f.from, err)
		}
		report.Annotate(r)
		for _, ca := range r.Analysis {
			if (f.rw == "" || ca.RW == f.rw) && (!f.bsSet || ca.BS == f.bs) {
				curves = append(curves, ca)
			}
		}
		if len(curves) == 0 {
			return usagef("--from %s: no curve matches --rw %q --bs %d; the file has %s", f.from, f.rw, f.bs, curveList(r.Analysis))
		}
		if len(curves[0].Analysis.Points) < 2 {
			return usagef("--from %s: the %s curve has %d measured point(s); a fit needs at least two", f.from, curveName(curves[0]), len(curves[0].Analysis.Points))
		}
	}
	a := curves[0].Analysis
	if f.targetBW > 0 && !f.bsSet && curves[0].BS > 0 && curves[0].BS != f.bs {
		// Convert the throughput target at the measured curve's block size.
		f.bs = curves[0].BS
		t := a.TargetFor(littleslaw.ThroughputIOPS(f.targetBW, f.bs), f.opts)
		report.AnnotateTarget(&t)
		a.Target = &t
	}
	out.Analysis = &a
	if len(curves) > 1 {
		out.Curves = curves
		out.Warnings = append(out.Warnings, fmt.Sprintf("%d curves in %s; advice is for the first (%s); pick one with --rw and --bs",
			len(curves), f.from, curveName(curves[0])))
	}
	out.Warnings = append(out.Warnings, a.Warnings...)
	out.Settings, out.SLO, out.Target = a.Settings, a.SLO, a.Target
	if a.Target != nil {
		fillTop(out, *a.Target)
		if f.targetBW > 0 {
			out.TargetBW, out.BS = f.targetBW, f.bs
		}
		return nil
	}
	// No target: recommend the saturation QD (or the deepest measured one).
	k := a.Saturation
	if !k.Found {
		last := a.Points[len(a.Points)-1]
		k = littleslaw.Knee{QD: last.QD, IOPS: last.IOPS, LatNsMean: last.LatMeanNs}
	}
	md, mj := f.opts.Limits()
	sa := littleslaw.SplitFor(littleslaw.CeilQD(k.QD), md, mj)
	out.QueueDepth, out.IODepth, out.NumJobs, out.AltSplits, out.JobsBy = k.QD, sa.Best.IODepth, sa.Best.NumJobs, sa.Alts, sa.JobsBy
	out.LatencyNs, out.TargetIOPS, out.Reachable = k.LatNsMean, k.IOPS, true
	return nil
}

// fillTop copies a target answer into the top-level JSON fields.
func fillTop(out *adviseOut, t littleslaw.TargetResult) {
	out.QueueDepth, out.IODepth, out.NumJobs = t.QD, t.Split.IODepth, t.Split.NumJobs
	out.AltSplits, out.LatencyNs, out.TargetIOPS, out.JobsBy = t.AltSplits, t.LatencyNs, t.TargetIOPS, t.JobsBy
	out.Reachable, out.ReachableIOPS, out.NaiveQD, out.Note = t.Reachable, t.ReachableIOPS, t.NaiveQD, t.Note
}

func curveName(c sweep.CurveAnalysis) string {
	if c.RW == "" {
		return "points"
	}
	return fmt.Sprintf("%s %s", c.RW, sweep.FormatSize(c.BS))
}

func curveList(cs []sweep.CurveAnalysis) string {
	var names []string
	for _, c := range cs {
		names = append(names, fmt.Sprintf("--rw %s --bs %s", c.RW, sweep.FormatSize(c.BS)))
	}
	if len(names) == 0 {
		return "no curves"
	}
	return strings.Join(names, "; ")
}

// printAdvice writes the human answer: a few plain sentences within 80 columns.
func printAdvice(w io.Writer, f adviseFlags, out *adviseOut) {
	if out.Table != nil {
		fmt.Fprintf(w, "GCP Hyperdisk queue depth for %s I/O at %s (QD = IOPS × latency):\n",
			sweep.FormatSize(out.BS), time.Duration(out.LatencyNs))
		fmt.Fprintf(w, "  %-14s %6s\n", "target", "QD")
		for _, r := range out.Table {
			t := report.FormatCount(r.IOPS) + " IOPS"
			if r.IsBandwidth {
				t = report.FormatCount(r.BWBytes/(1<<20)) + " MiB/s"
			}
			fmt.Fprintf(w, "  %-14s %6d\n", t, r.QueueDepth)
		}
		fmt.Fprintln(w, "Each NVMe queue holds 256 entries: past that, spread the depth over jobs.")
		return
	}
	if out.Cloud != nil {
		p := out.Cloud
		say(w, "%s: up to %s IOPS and %s MiB/s per volume (%s).",
			p.Title, report.FormatCount(p.MaxIOPS), report.FormatCount(p.MaxBWBytes/(1<<20)), p.Doc)
	}
	if a := out.Analysis; a != nil {
		printAnalysis(w, a)
	}
	switch {
	case out.Analysis == nil || out.Analysis.Target != nil:
		if out.TargetBW > 0 {
			say(w, "%s MiB/s at %s per I/O is %s IOPS.",
				report.FormatCount(out.TargetBW/(1<<20)), sweep.FormatSize(out.BS), report.FormatCount(out.TargetIOPS))
		}
		if out.Analysis == nil {
			say(w, "%s IOPS at %s per I/O needs %s I/Os in flight (QD = IOPS × latency).",
				report.FormatCount(out.TargetIOPS), report.FormatLatency(out.LatencyNs), report.FormatCount(out.QueueDepth))
		} else {
			say(w, "%s", sentence(out.Note))
		}
		if out.Reachable {
			say(w, "Use %s.", splitText(out))
		} else {
			say(w, "The most it delivers, %s IOPS, needs %s.", report.FormatCount(out.ReachableIOPS), splitText(out))
		}
	default:
		say(w, "Keep about %s I/Os in flight: %s.", report.FormatCount(out.QueueDepth), splitText(out))
	}
	for _, s := range out.Settings {
		fmt.Fprintf(w, "  %s = %s\n", s.Name, s.Value)
		sayIndent(w, "      ", s.Formula)
		fmt.Fprintf(w, "      %s\n", s.Doc)
	}
	for _, wr := range out.Warnings {
		say(w, "%s", "Note: "+sentence(wr))
	}
}

// printAnalysis summarises one curve's analysis.
func printAnalysis(w io.Writer, a *littleslaw.Analysis) {
	pts := a.Points
	if len(pts) == 0 {
		return
	}
	say(w, "%d points, QD %g to %g. Base latency %s at QD %g; highest %s IOPS at QD %g.",
		len(pts), pts[0].QD, pts[len(pts)-1].QD, report.FormatLatency(a.BaseLatencyNs), pts[0].QD, report.FormatCount(a.MaxIOPS), a.MaxIOPSQD)
	if s := a.Saturation; s.Found {
		say(w, "Saturates at %s IOPS from QD %g (%s).", report.FormatCount(s.IOPS), s.QD, s.Note)
	} else {
		say(w, "%s", sentence(s.Note))
	}
	if e := a.Efficient; e.Found {
		say(w, "Best IOPS per unit of latency at QD %g: %s IOPS at %s.", e.QD, report.FormatCount(e.IOPS), report.FormatLatency(e.LatNsMean))
	}
	if m := a.Model; m != nil {
		line := fmt.Sprintf("Best fit: %s model (%.1f%% RMS error)", m.Name, 100*m.RelRMS)
		switch {
		case m.NMax > 0:
			line += fmt.Sprintf(", peak %s IOPS at QD %.0f, falling beyond", report.FormatCount(m.IOPSAt(m.NMax)), m.NMax)
		case a.ModelKnee.Found:
			line += fmt.Sprintf(", knee at QD %.0f", a.ModelKnee.QD)
			if m.XRoof > 0 {
				line += fmt.Sprintf(", ceiling %s IOPS", report.FormatCount(m.XRoof))
			}
		}
		say(w, "%s.", line)
	}
	if s := a.SLO; s != nil {
		if s.Met {
			say(w, "%s ≤ %s holds up to QD %g: %s IOPS at %s %s.",
				s.Stat, report.FormatLatency(s.LimitNs), s.QD, report.FormatCount(s.IOPS), s.Stat, report.FormatLatency(s.LatNs))
		} else {
			say(w, "%s ≤ %s: %s", s.Stat, report.FormatLatency(s.LimitNs), sentence(s.Note))
		}
	}
}

// say prints a sentence wrapped at 80 columns.
func say(w io.Writer, format string, a ...any) {
	sayIndent(w, "", fmt.Sprintf(format, a...))
}

// sayIndent prints text wrapped at 80 columns, every line after indent;
// continuation lines get two more spaces. Words are never split.
func sayIndent(w io.Writer, indent, text string) {
	fmt.Fprint(w, wrapHanging(text, 80, indent, indent+"  "))
}

// splitText words the iodepth × numjobs split and its alternatives.
func splitText(out *adviseOut) string {
	s := fmt.Sprintf("iodepth %d × numjobs %d", out.IODepth, out.NumJobs)
	var alts []string
	for i, a := range out.AltSplits {
		if i == 3 {
			break
		}
		alts = append(alts, fmt.Sprintf("%d × %d", a.IODepth, a.NumJobs))
	}
	if len(alts) > 0 {
		s += " (or " + strings.Join(alts, ", ") + ")"
	}
	return s
}

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// oneLine folds a multi-line error message onto one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
