package report

import (
	"bytes"
	"fmt"

	"github.com/qdsweep/qdsweep/sweep"
	"gonum.org/v1/plot/vg/draw"
)

// Chart file base names, without extension.
const (
	ChartIOPS      = "iops-vs-qd"
	ChartLatency   = "latency-vs-qd"
	ChartHockey    = "latency-vs-iops"
	ChartDashboard = "dashboard"
	// SummaryFile is the Markdown report WriteAll writes.
	SummaryFile = "summary.md"
)

// WriteAll writes every chart (iops-vs-qd, latency-vs-qd, latency-vs-iops
// and dashboard, as o.ChartFormat) and summary.md for r into dir, creating
// dir, and returns the paths written. Everything is rendered before the
// first file is written; each file goes to a temporary name and is renamed.
// A result with a single measured step gets summary.md without charts; one
// with none is an error wrapping ErrNoSteps and writes nothing.
func WriteAll(dir string, r *sweep.Result, o Options) ([]string, error) {
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
	return writeFiles(dir, files)
}

// renderCharts renders the three charts and the dashboard in memory.
func renderCharts(in chartInput, format string, panel []panelLine, tl *timelineFigure) ([]namedFile, error) {
	build := []struct {
		name string
		f    func(chartInput) (*figure, error)
	}{{ChartIOPS, iopsFigure}, {ChartLatency, latencyFigure}, {ChartHockey, hockeyFigure}}
	var figs []*figure
	var out []namedFile
	for _, b := range build {
		fig, err := b.f(in)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", b.name, err)
		}
		data, err := fig.render(format, chartWpx, chartHpx)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", b.name, err)
		}
		figs = append(figs, fig)
		out = append(out, namedFile{Name: b.name + "." + format, Data: data})
	}
	if tl != nil {
		data, err := tl.render(format, timelineWpx, chartHpx)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", ChartTimeline, err)
		}
		out = append(out, namedFile{Name: ChartTimeline + "." + format, Data: data})
	}
	data, err := renderCanvas(format, dashWpx, dashHpx+timelineDashHpx(tl), func(c draw.Canvas) {
		dashboard(withTimelineRow(c, tl), figs, panel)
	})
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", ChartDashboard, err)
	}
	return append(out, namedFile{Name: ChartDashboard + "." + format, Data: data}), nil
}
