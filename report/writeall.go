package report

import (
	"bytes"
	"fmt"

	"github.com/qdsweep/qdsweep/guard"

	"github.com/qdsweep/qdsweep/sweep"
	"gonum.org/v1/plot/vg/draw"
)

// Chart file base names, without extension.
const (
	ChartIOPS      = "iops-vs-qd"
	ChartLatency   = "latency-vs-qd"
	ChartHockey    = "latency-vs-iops"
	ChartBandwidth = "bandwidth-vs-qd"      // when throughputJudged
	ChartHockeyBW  = "latency-vs-bandwidth" // when throughputJudged
	ChartDashboard = "dashboard"
	// SummaryFile is the Markdown report WriteAll writes.
	SummaryFile = "summary.md"
)

// WriteAll writes every chart (iops-vs-qd, latency-vs-qd, latency-vs-iops
// and dashboard, as o.ChartFormat; an open-loop sweep's against the load
// offered in place of the QD's) and summary.md for r into dir, creating
// dir, and returns the paths written. Everything is rendered before the
// first file is written; each file goes to a temporary name and is renamed.
// A result with a single measured step gets summary.md without charts; one
// with none is an error wrapping ErrNoSteps and writes nothing.
func WriteAll(out *guard.Out, r *sweep.Result, o Options) ([]string, error) {
	o = o.withDefaults()
	if o.ChartFormat != "png" && o.ChartFormat != "svg" {
		return nil, fmt.Errorf("chart format %q: %w", o.ChartFormat, ErrChartFormat)
	}
	if r == nil || countMeasured(r) == 0 {
		return nil, fmt.Errorf("report: %w", ErrNoSteps)
	}
	var files []namedFile
	if countMeasured(r) >= 2 {
		in := chartInputOf(r, o)
		tl, err := timelineOf(r, in)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", ChartTimeline, err)
		}
		charts, err := renderCharts(in, o.ChartFormat, panelLines(r, o), tl)
		if err != nil {
			return nil, err
		}
		files = charts
	} else if hasTimeline(r) {
		// One step draws no curve, but its series still has a timeline.
		tl, err := timelineOf(r, chartInputOf(r, o))
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", ChartTimeline, err)
		}
		data, err := tl.render(o.ChartFormat, timelineWpx, chartHpx)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", ChartTimeline, err)
		}
		files = append(files, namedFile{Name: ChartTimeline + "." + o.ChartFormat, Data: data})
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	var md bytes.Buffer
	if err := Markdown(&md, r, o, names); err != nil {
		return nil, err
	}
	files = append(files, namedFile{Name: SummaryFile, Data: md.Bytes()})
	return writeFiles(out, files)
}

// chartKind is one chart file: how to build it, whether a result gets it,
// and whether the dashboard shows it. A new chart is one more entry in
// chartKinds; the dashboard lays out however many it is given.
type chartKind struct {
	Name  string // file base name
	Build func(chartInput) (*figure, error)
	// When reports whether in gets this chart (nil: always).
	When func(chartInput) bool
	// OnDashboard reports whether the dashboard shows it (nil: never).
	OnDashboard func(chartInput) bool
}

func always(chartInput) bool { return true }

func notThroughput(in chartInput) bool { return !in.throughputJudged() }

func throughput(in chartInput) bool { return in.throughputJudged() }

// chartKinds are the charts, in the order the dashboard shows them: the
// throughput-vs-QD view that fits the workload (IOPS, or MiB/s for mixed
// or large blocks), latency vs QD, then the hockey stick in the same unit.
// An open-loop sweep, whose depth was not swept, gets no QD axis: achieved
// IOPS, latency and in flight against the load offered, then the hockey
// stick.
var chartKinds = []chartKind{
	{Name: ChartIOPS, Build: iopsFigure, When: closedLoopInput, OnDashboard: notThroughput},
	{Name: ChartBandwidth, Build: bandwidthFigure, When: closedThroughput, OnDashboard: throughput},
	{Name: ChartLatency, Build: latencyFigure, When: closedLoopInput, OnDashboard: always},
	{Name: ChartLoadIOPS, Build: loadIOPSFigure, When: openLoopInput, OnDashboard: openLoopInput},
	{Name: ChartLoad, Build: loadFigure, When: openLoopInput, OnDashboard: openLoopInput},
	{Name: ChartLoadInflight, Build: loadInflightFigure, When: openLoopInput, OnDashboard: openLoopInput},
	{Name: ChartHockey, Build: hockeyFigure, OnDashboard: notThroughput},
	{Name: ChartHockeyBW, Build: hockeyBWFigure, When: throughput, OnDashboard: throughput},
}

// renderCharts renders every chart in's result gets, the timeline tl
// (nil: none) and the dashboard in memory.
func renderCharts(in chartInput, format string, panel []panelLine, tl *timelineFigure) ([]namedFile, error) {
	var dash []*figure
	var out []namedFile
	for _, k := range chartKinds {
		if k.When != nil && !k.When(in) {
			continue
		}
		fig, err := k.Build(in)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", k.Name, err)
		}
		data, err := fig.render(format, chartWpx, chartHpx)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", k.Name, err)
		}
		if k.OnDashboard != nil && k.OnDashboard(in) {
			dash = append(dash, fig)
		}
		out = append(out, namedFile{Name: k.Name + "." + format, Data: data})
	}
	if tl != nil {
		data, err := tl.render(format, timelineWpx, chartHpx)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", ChartTimeline, err)
		}
		out = append(out, namedFile{Name: ChartTimeline + "." + format, Data: data})
	}
	w, h := dashboardSize(len(dash))
	data, err := renderCanvas(format, w, h+timelineDashHpx(tl), func(c draw.Canvas) {
		dashboard(withTimelineRow(c, tl), dash, panel)
	})
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", ChartDashboard, err)
	}
	return append(out, namedFile{Name: ChartDashboard + "." + format, Data: data}), nil
}
