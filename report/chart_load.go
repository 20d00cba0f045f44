package report

import (
	"image/color"
	"math"
	"slices"
	"sort"

	"github.com/qdsweep/qdsweep/littleslaw"
	"gonum.org/v1/plot"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ChartLoad is the chart of an open-loop sweep: latency against the load
// offered.
const ChartLoad = "latency-vs-offered-load"

// openLoopInput reports whether in's steps were offered loads.
func openLoopInput(in chartInput) bool {
	for _, s := range in.Series {
		if openLoop(s.Steps) {
			return true
		}
	}
	return false
}

// loadFigure is mean and p99 latency (log y) against the load offered
// (IOPS, linear x), one colour per curve; a load the device fell behind
// of (littleslaw.KeptUp) is drawn as a cross, and the SLO as a line.
// Where the loads' response times were measured it draws those (from
// each I/O's scheduled arrival: what the SLO is judged on), else the
// latency from issue, and its axis and legend say which.
func loadFigure(in chartInput) (*figure, error) {
	resp := loadResponses(in)
	yName, meanName, p99Name := "latency from issue (log scale)", "mean", "p99"
	if resp {
		yName, meanName, p99Name = "response time, from arrival (log scale)", "response mean", "response p99"
	}
	p := newPlot("offered load (arrivals, IOPS)", yName)
	p.X.Tick.Marker, p.Y.Tick.Marker = iopsTicks{}, latLogTicks{}
	p.Add(plotter.NewGrid())
	l := newKeyedLegend()
	ext := &loadExtent{yMin: math.Inf(1)}
	for i, s := range in.Series {
		if s.Analysis == nil || s.Analysis.Load == nil {
			continue
		}
		if err := addLoadLines(p, &l, seriesColor(i), s, resp, ext); err != nil {
			return nil, err
		}
	}
	xMax, yMin, yMax, behind := ext.xMax, ext.yMin, ext.yMax, ext.behind
	if xMax == 0 {
		return nil, ErrNoSteps
	}
	l.Add(meanName, lineThumb(guideGrey, nil, 2))
	l.Add(p99Name, lineThumb(guideGrey, dashP99, 2))
	if behind {
		l.Add("fell behind the load offered", glyphThumb(targetRed, draw.CrossGlyph{}))
	}
	if in.SLO != nil && in.SLO.LimitNs > 0 {
		y := math.Log10(in.SLO.LimitNs)
		p.Add(hline(y, targetRed, dashTarget, vg.Points(2)))
		yMin, yMax = math.Min(yMin, y), math.Max(yMax, y)
		l.Add("SLO "+statName(in.SLO.Stat)+" ≤ "+FormatLatency(in.SLO.LimitNs), lineThumb(targetRed, dashTarget, 2))
	}
	p.X.Min, p.X.Max = 0, xMax*1.05
	p.Y.Min, p.Y.Max = latLogRange(yMin, yMax)
	return &figure{Title: "Latency vs offered load (open loop)", Subtitle: in.Subtitle, Simulated: in.Simulated, Plot: p, Legend: l.Legend, Keys: l.Names}, nil
}

// loadExtent is what the load chart's lines reach: the highest load, the
// latencies' range (log10 ns) and whether a load fell behind.
type loadExtent struct {
	xMax, yMin, yMax float64
	behind           bool
}

// loadResponses reports whether any load of in has its response times.
func loadResponses(in chartInput) bool {
	for _, s := range in.Series {
		if s.Analysis == nil || s.Analysis.Load == nil {
			continue
		}
		for _, st := range s.Analysis.Load.Steps {
			if st.Response != nil {
				return true
			}
		}
	}
	return false
}

// addLoadLines draws series s's mean and p99 against the load offered in
// col (response times when resp, a load without them left out; else the
// latency from issue), a cross on each load it fell behind of, and widens
// ext.
func addLoadLines(p *plot.Plot, l *keyedLegend, col color.Color, s series, resp bool, ext *loadExtent) error {
	steps := slices.Clone(s.Analysis.Load.Steps)
	sort.SliceStable(steps, func(a, b int) bool { return steps[a].OfferedIOPS < steps[b].OfferedIOPS })
	mean := func(k int) float64 { return steps[k].LatMeanNs }
	p99 := func(k int) float64 { return steps[k].P99Ns }
	if resp {
		mean = func(k int) float64 { return responseOf(steps[k]).MeanNs }
		p99 = func(k int) float64 { return responseOf(steps[k]).P99Ns }
	}
	for _, st := range []struct {
		name   string
		dashes []vg.Length
		get    func(int) float64
	}{
		{"mean", nil, mean},
		{"p99", dashP99, p99},
	} {
		var pts, late plotter.XYs
		for k := range steps {
			y := st.get(k)
			if y <= 0 {
				continue
			}
			xy := plotter.XY{X: steps[k].OfferedIOPS, Y: math.Log10(y)}
			pts = append(pts, xy)
			if !steps[k].KeptUp {
				late = append(late, xy)
			}
			ext.xMax, ext.yMin, ext.yMax = math.Max(ext.xMax, xy.X), math.Min(ext.yMin, xy.Y), math.Max(ext.yMax, xy.Y)
		}
		if len(pts) == 0 {
			continue
		}
		ln, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		ln.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(2), Dashes: st.dashes}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		p.Add(ln, sc)
		if st.name == "mean" {
			l.Add(s.Name, ln, sc)
		}
		if len(late) > 0 {
			x, err := plotter.NewScatter(late)
			if err != nil {
				return err
			}
			x.GlyphStyle = draw.GlyphStyle{Color: targetRed, Radius: vg.Points(6), Shape: draw.CrossGlyph{}}
			p.Add(x)
			ext.behind = true
		}
	}
	return nil
}

// responseOf is st's response times (zero where not measured: not drawn).
func responseOf(st littleslaw.LoadStep) littleslaw.Response {
	if st.Response == nil {
		return littleslaw.Response{}
	}
	return *st.Response
}
