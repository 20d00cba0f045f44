package report

import (
	"bytes"
	"fmt"
	"sync"

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
		timeline := func() (*timelineFigure, error) {
			tl, err := timelineOf(r, in)
			if err != nil {
				return nil, fmt.Errorf("chart %s: %w", ChartTimeline, err)
			}
			return tl, nil
		}
		charts, err := renderCharts(in, o.ChartFormat, panelLines(r, o), timeline)
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

// renderCharts renders every chart in's result gets, the timeline (nil
// timeline: none; it builds the timeline anew for each file that draws it)
// and the dashboard in memory, each file on its own goroutine: drawing a
// plot adjusts its axes, so no figure is shared between files, and every
// file is built from in as it would be alone. Painting and PNG encoding are
// nearly all of a report's time; on several CPUs the files render side by
// side. The files come back in the order a sequential rendering gave.
func renderCharts(in chartInput, format string, panel []panelLine, timeline func() (*timelineFigure, error)) ([]namedFile, error) {
	var kinds []chartKind
	for _, k := range chartKinds {
		if k.When == nil || k.When(in) {
			kinds = append(kinds, k)
		}
	}
	if timeline == nil {
		timeline = func() (*timelineFigure, error) { return nil, nil }
	}
	jobs := make([]func() (namedFile, bool, error), 0, len(kinds)+2)
	for _, k := range kinds {
		jobs = append(jobs, func() (namedFile, bool, error) {
			fig, err := k.Build(in)
			if err != nil {
				return namedFile{}, false, fmt.Errorf("chart %s: %w", k.Name, err)
			}
			data, err := fig.render(format, chartWpx, chartHpx)
			if err != nil {
				return namedFile{}, false, fmt.Errorf("chart %s: %w", k.Name, err)
			}
			return namedFile{Name: k.Name + "." + format, Data: data}, true, nil
		})
	}
	jobs = append(jobs, func() (namedFile, bool, error) {
		tl, err := timeline()
		if err != nil || tl == nil {
			return namedFile{}, false, err
		}
		data, err := tl.render(format, timelineWpx, chartHpx)
		if err != nil {
			return namedFile{}, false, fmt.Errorf("chart %s: %w", ChartTimeline, err)
		}
		return namedFile{Name: ChartTimeline + "." + format, Data: data}, true, nil
	}, func() (namedFile, bool, error) {
		data, err := renderDashboard(in, format, panel, kinds, timeline)
		return namedFile{Name: ChartDashboard + "." + format, Data: data}, err == nil, err
	})
	return renderAll(jobs)
}

// renderAll runs every job at once and returns the files they made, in the
// jobs' order, or the first job's error in that order.
func renderAll(jobs []func() (namedFile, bool, error)) ([]namedFile, error) {
	type done struct {
		f   namedFile
		ok  bool
		err error
	}
	res := make([]done, len(jobs))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, ok, err := job()
			res[i] = done{f, ok, err}
		}()
	}
	wg.Wait()
	var out []namedFile
	for _, d := range res {
		if d.err != nil {
			return nil, d.err
		}
		if d.ok {
			out = append(out, d.f)
		}
	}
	return out, nil
}

// renderDashboard builds its own figures of kinds (those the dashboard
// shows) and its own timeline, and draws them with the text panel.
func renderDashboard(in chartInput, format string, panel []panelLine, kinds []chartKind, timeline func() (*timelineFigure, error)) ([]byte, error) {
	var dash []*figure
	for _, k := range kinds {
		if k.OnDashboard == nil || !k.OnDashboard(in) {
			continue
		}
		fig, err := k.Build(in)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", k.Name, err)
		}
		dash = append(dash, fig)
	}
	tl, err := timeline()
	if err != nil {
		return nil, err
	}
	w, h := dashboardSize(len(dash))
	data, err := renderCanvas(format, w, h+timelineDashHpx(tl), func(c draw.Canvas) {
		dashboard(withTimelineRow(c, tl), dash, panel)
	})
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", ChartDashboard, err)
	}
	return data, nil
}
