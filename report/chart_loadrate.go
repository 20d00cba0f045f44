package report

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The charts of an open-loop sweep besides latency: what each offered load
// achieved, and the I/Os in flight it kept. Their x axis is the load
// offered, the swept variable; no queue-depth axis is drawn for a sweep
// whose depth was not swept.
const (
	ChartLoadIOPS     = "iops-vs-offered-load"
	ChartLoadInflight = "inflight-vs-offered-load"
)

// closedLoopInput reports whether in's steps were depths, not loads.
func closedLoopInput(in chartInput) bool { return !openLoopInput(in) }

// closedThroughput is throughput for a sweep over depths.
func closedThroughput(in chartInput) bool { return closedLoopInput(in) && throughput(in) }

// loadValue is what a load chart draws against the load offered.
type loadValue struct {
	title, yName string
	get          func(littleslaw.LoadStep) float64
	ticks        plot.Ticker
}

// loadIOPSFigure is the IOPS each load achieved against the load offered,
// with the line where achieved equals offered: a load under it fell
// behind.
func loadIOPSFigure(in chartInput) (*figure, error) {
	v := loadValue{title: "Achieved vs offered load (open loop)", yName: "achieved IOPS",
		get: func(s littleslaw.LoadStep) float64 { return s.IOPS }, ticks: iopsTicks{}}
	return loadValueFigure(in, v, func(p *plot.Plot, l *keyedLegend, xMax float64) float64 {
		diag, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: xMax * 1.05, Y: xMax * 1.05}})
		diag.LineStyle = draw.LineStyle{Color: guideGrey, Width: vg.Points(1.5), Dashes: dashTarget}
		p.Add(diag)
		l.Add("achieved = offered", lineThumb(guideGrey, dashTarget, 1.5))
		return xMax
	})
}

// loadInflightFigure is the I/Os in flight each load kept (Little's Law:
// achieved IOPS × mean latency) against the load offered, under the most
// the jobs allow (iodepth × numjobs).
func loadInflightFigure(in chartInput) (*figure, error) {
	v := loadValue{title: "In flight vs offered load (open loop)", yName: "in flight (achieved IOPS × mean latency)",
		get: func(s littleslaw.LoadStep) float64 { return s.Inflight }, ticks: mibTicks{}}
	return loadValueFigure(in, v, func(p *plot.Plot, l *keyedLegend, _ float64) float64 {
		// One line per cap the curves ran under (several when compared).
		var caps []int
		for _, s := range in.Series {
			for _, st := range s.measuredSteps() {
				if c := st.IODepth * max(st.NumJobs, 1); c > 0 && !slices.Contains(caps, c) {
					caps = append(caps, c)
				}
			}
		}
		if len(caps) == 0 {
			return 0
		}
		slices.Sort(caps)
		var words []string
		for _, c := range caps {
			p.Add(hline(float64(c), guideGrey, dashTarget, vg.Points(2)))
			words = append(words, FormatCount(float64(c)))
		}
		l.Add("most in flight: iodepth × numjobs = "+strings.Join(words, ", "), lineThumb(guideGrey, dashTarget, 2))
		return float64(caps[len(caps)-1])
	})
}

// loadValueFigure draws v against the load offered, one colour per curve,
// a cross on each load the device fell behind of; guide adds the chart's
// reference line and returns the height it reaches.
func loadValueFigure(in chartInput, v loadValue, guide func(p *plot.Plot, l *keyedLegend, xMax float64) float64) (*figure, error) {
	p := newPlot("offered load (arrivals, IOPS)", v.yName)
	p.X.Tick.Marker, p.Y.Tick.Marker = iopsTicks{}, v.ticks
	p.Add(plotter.NewGrid())
	l := newKeyedLegend()
	xMax, yMax, behind := 0.0, 0.0, false
	for i, s := range in.Series {
		if s.Analysis == nil || s.Analysis.Load == nil {
			continue
		}
		steps := slices.Clone(s.Analysis.Load.Steps)
		sort.SliceStable(steps, func(a, b int) bool { return steps[a].OfferedIOPS < steps[b].OfferedIOPS })
		var pts, late plotter.XYs
		for _, st := range steps {
			xy := plotter.XY{X: st.OfferedIOPS, Y: v.get(st)}
			pts = append(pts, xy)
			if !st.KeptUp {
				late = append(late, xy)
			}
			xMax, yMax = math.Max(xMax, xy.X), math.Max(yMax, xy.Y)
		}
		if len(pts) == 0 {
			continue
		}
		ln, sc, err := lineScatter(pts, seriesColor(i), nil, 2)
		if err != nil {
			return nil, err
		}
		p.Add(ln, sc)
		l.Add(s.Name, ln, sc)
		if len(late) > 0 {
			x, err := plotter.NewScatter(late)
			if err != nil {
				return nil, err
			}
			x.GlyphStyle = draw.GlyphStyle{Color: targetRed, Radius: vg.Points(6), Shape: draw.CrossGlyph{}}
			p.Add(x)
			behind = true
		}
	}
	if xMax == 0 {
		return nil, ErrNoSteps
	}
	yMax = math.Max(yMax, guide(p, &l, xMax))
	if behind {
		l.Add("fell behind the load offered", glyphThumb(targetRed, draw.CrossGlyph{}))
	}
	p.X.Min, p.X.Max = 0, xMax*1.05
	p.Y.Min, p.Y.Max = 0, yMax*1.08
	return &figure{Title: v.title, Subtitle: in.Subtitle, Simulated: in.Simulated, Plot: p, Legend: l.Legend, Keys: l.Names}, nil
}
