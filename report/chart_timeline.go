package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/sweep"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ChartTimeline is the base name of the time-series chart.
const ChartTimeline = "timeline"

// Shading of alternate steps and the mark of a burst's end.
var (
	stepShade = color.RGBA{0xEE, 0xF2, 0xF7, 0xFF}
	burstMark = color.RGBA{0xB0, 0x00, 0x20, 0xFF}
)

// timelineFigure is IOPS (top) and latency (bottom, log scale) against
// measured time across the whole sweep, steps laid end to end, each step
// shaded and labelled by its QD.
type timelineFigure struct {
	Title, Subtitle string
	Simulated       bool
	IOPS, Lat       *plot.Plot
	Legend          plot.Legend
}

// timelineStep is one step's place on the time axis.
type timelineStep struct {
	from, to float64 // seconds since the first window, steps end to end
	step     sweep.Step
	control  bool // the control step, measured again at the end
}

// timelineSteps lays the steps that have a series end to end.
func timelineSteps(r *sweep.Result) []timelineStep {
	var out []timelineStep
	base := 0.0
	for _, s := range r.Steps {
		if s.Series == nil || len(s.Series.Points) == 0 || s.Skipped != "" || s.Failed != "" {
			continue
		}
		last := s.Series.Points[len(s.Series.Points)-1]
		end := float64(last.StartNs+last.DurNs) / 1e9
		out = append(out, timelineStep{from: base, to: base + end, step: s})
		base += end
	}
	if c := r.Control; c != nil && c.Series != nil && len(c.Series.Points) > 0 && len(out) > 0 {
		last := c.Series.Points[len(c.Series.Points)-1]
		out = append(out, timelineStep{from: base, to: base + float64(last.StartNs+last.DurNs)/1e9, step: c.Step, control: true})
	}
	return out
}

// hasTimeline reports whether r has series enough for a timeline.
func hasTimeline(r *sweep.Result) bool { return len(timelineSteps(r)) > 0 }

// timelineOf builds the timeline of r; nil when no step has a series.
func timelineOf(r *sweep.Result, in chartInput) (*timelineFigure, error) {
	steps := timelineSteps(r)
	if len(steps) == 0 {
		return nil, nil
	}
	top := newPlot("", "IOPS")
	top.Y.Tick.Marker = iopsTicks{}
	bot := newPlot("measured time, s (steps end to end; ramps left out)", "latency (log)")
	bot.Y.Tick.Marker = latLogTicks{}
	sc := timelineScaleOf(steps)
	multi, yMax, yTop, loLat, hiLat := sc.multi, sc.yMax, sc.yTop, sc.loLat, sc.hiLat
	iopsLines, meanLines, p99Lines, bursts := sc.iops, sc.mean, sc.p99, sc.bursts

	total := steps[len(steps)-1].to
	lx, lt, err := shadeSteps(top, bot, steps, multi, yMax, yTop, loLat, hiLat)
	if err != nil {
		return nil, err
	}
	top.Add(plotter.NewGrid())
	bot.Add(plotter.NewGrid())
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: lx, Labels: lt})
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i] = textStyle(tickSize, false, guideGrey)
	}

	l := newLegend()
	col := seriesColor(0)
	ioLn, err := addLines(top, iopsLines, draw.LineStyle{Color: col, Width: vg.Points(1.6)})
	if err != nil {
		return nil, err
	}
	meanLn, err := addLines(bot, meanLines, draw.LineStyle{Color: seriesColor(1), Width: vg.Points(1.6)})
	if err != nil {
		return nil, err
	}
	p99Ln, err := addLines(bot, p99Lines, draw.LineStyle{Color: seriesColor(1), Width: vg.Points(1.2), Dashes: dashP99})
	if err != nil {
		return nil, err
	}
	top.Add(labels)
	if ioLn != nil {
		l.Add("IOPS", ioLn)
	}
	if meanLn != nil {
		l.Add("mean latency", meanLn)
	}
	if p99Ln != nil {
		l.Add("p99 latency", p99Ln)
	}
	burstLn, err := burstMarks(top, bot, bursts, yTop, loLat, hiLat)
	if err != nil {
		return nil, err
	}
	if burstLn != nil {
		l.Add("burst credits run out", burstLn)
	}
	for _, pl := range []*plot.Plot{top, bot} {
		pl.X.Min, pl.X.Max = 0, total
	}
	top.Y.Min, top.Y.Max = 0, yTop
	bot.Y.Min, bot.Y.Max = loLat, hiLat
	bot.X.Tick.Marker = secondTicks{}
	top.X.Tick.Label.Font.Size = 0 // the bottom plot carries the time ticks
	top.X.Tick.Marker = plot.ConstantTicks(nil)

	sub := in.Subtitle
	if len(bursts) > 0 {
		sub = fmt.Sprintf("%s · dashed red: burst credits run out", sub)
	}
	f := &timelineFigure{Title: "IOPS and latency over time, step by step", Subtitle: sub, Simulated: in.Simulated,
		IOPS: top, Lat: bot, Legend: l}
	return f, nil
}

// timelineScale is what the timeline draws and the ranges its plots
// span: each step's IOPS, mean and p99 lines, the times burst credits ran
// out, the highest IOPS with room above it, and the latencies' log range.
type timelineScale struct {
	multi                    bool // steps of several curves (rw or bs)
	iops, mean, p99          []plotter.XYs
	bursts                   []float64
	yMax, yTop, loLat, hiLat float64
}

// timelineScaleOf reads the timeline's lines and ranges from its steps.
func timelineScaleOf(steps []timelineStep) timelineScale {
	var sc timelineScale
	for _, ts := range steps {
		if ts.step.RW != steps[0].step.RW || ts.step.BS != steps[0].step.BS {
			sc.multi = true
		}
	}
	yMax, latMin, latMax := 0.0, math.Inf(1), math.Inf(-1)
	for _, ts := range steps {
		io, mean, p99 := stepLines(ts, &yMax, &latMin, &latMax)
		sc.iops, sc.mean, sc.p99 = append(sc.iops, io), append(sc.mean, mean), append(sc.p99, p99)
		if b := ts.step.Time.Find(diagnosis.TimeBurst); b != nil {
			sc.bursts = append(sc.bursts, ts.from+b.BurstSec)
		}
	}
	if yMax <= 0 {
		yMax = 1
	}
	if math.IsInf(latMin, 1) {
		latMin, latMax = 1e3, 1e6
	}
	sc.yMax, sc.yTop = yMax, yMax*1.18 // room for the QD labels
	if sc.multi {
		sc.yTop = yMax * 1.3 // and a row for the curve names
	}
	sc.loLat, sc.hiLat = math.Log10(latMin)-0.15, math.Log10(latMax)+0.15
	return sc
}

// addLines adds each non-empty line of lines to pl in style; it returns
// the last one added (nil when none), for the legend.
func addLines(pl *plot.Plot, lines []plotter.XYs, style draw.LineStyle) (*plotter.Line, error) {
	var last *plotter.Line
	for _, xy := range lines {
		if len(xy) == 0 {
			continue
		}
		ln, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		ln.LineStyle = style
		pl.Add(ln)
		last = ln
	}
	return last, nil
}

// burstMarks draws a dashed vertical line across both plots at each time
// burst credits ran out; it returns the last one drawn (nil when none),
// for the legend.
func burstMarks(top, bot *plot.Plot, bursts []float64, yTop, loLat, hiLat float64) (*plotter.Line, error) {
	var burstLn *plotter.Line
	for _, x := range bursts {
		for _, pl := range []*plot.Plot{top, bot} {
			lo, hi := 0.0, yTop
			if pl == bot {
				lo, hi = loLat, hiLat
			}
			ln, err := plotter.NewLine(plotter.XYs{{X: x, Y: lo}, {X: x, Y: hi}})
			if err != nil {
				return nil, err
			}
			ln.LineStyle = draw.LineStyle{Color: burstMark, Width: vg.Points(1.2), Dashes: dashXmax}
			pl.Add(ln)
			burstLn = ln
		}
	}
	return burstLn, nil
}

// stepLines draws one step's IOPS, mean and p99 latency (log) as levels,
// widening the IOPS and latency ranges seen so far.
func stepLines(ts timelineStep, yMax, latMin, latMax *float64) (io, mean, p99 plotter.XYs) {
	// Each slice's figures hold for its whole interval: drawn as a
	// level from its start to its end, so a step of one slice still
	// shows.
	for _, p := range ts.step.Series.Points {
		x0 := ts.from + float64(p.StartNs)/1e9
		x1 := ts.from + float64(p.StartNs+p.DurNs)/1e9
		io = append(io, plotter.XY{X: x0, Y: p.IOPS()}, plotter.XY{X: x1, Y: p.IOPS()})
		*yMax = math.Max(*yMax, p.IOPS())
		if p.LatMeanNs > 0 {
			y := math.Log10(p.LatMeanNs)
			mean = append(mean, plotter.XY{X: x0, Y: y}, plotter.XY{X: x1, Y: y})
			*latMin, *latMax = math.Min(*latMin, p.LatMeanNs), math.Max(*latMax, p.LatMeanNs)
		}
		if p.LatP99Ns > 0 {
			y := math.Log10(float64(p.LatP99Ns))
			p99 = append(p99, plotter.XY{X: x0, Y: y}, plotter.XY{X: x1, Y: y})
			*latMax = math.Max(*latMax, float64(p.LatP99Ns))
		}
	}
	return io, mean, p99
}

// shadeSteps shades alternate steps of the timeline and returns the labels
// above them: each step by QD where there is room (the control step always,
// named so), and each new curve's name where several are drawn.
func shadeSteps(top, bot *plot.Plot, steps []timelineStep, multi bool, yMax, yTop, loLat, hiLat float64) ([]plotter.XY, []string, error) {
	every := max(1, int(math.Ceil(float64(len(steps))*70/float64(dashWpx-200))))
	var lx []plotter.XY
	var lt []string
	for i, ts := range steps {
		if i%2 == 0 {
			for _, pl := range []*plot.Plot{top, bot} {
				lo, hi := 0.0, yTop
				if pl == bot {
					lo, hi = loLat, hiLat
				}
				poly, err := plotter.NewPolygon(plotter.XYs{{X: ts.from, Y: lo}, {X: ts.to, Y: lo}, {X: ts.to, Y: hi}, {X: ts.from, Y: hi}})
				if err != nil {
					return nil, nil, err
				}
				poly.Color = stepShade
				poly.LineStyle.Width = 0
				pl.Add(poly)
			}
		}
		if i%every == 0 || ts.control {
			lx = append(lx, plotter.XY{X: ts.from + (ts.to-ts.from)*0.04, Y: yMax * 1.06})
			label := "QD " + FormatQD(float64(ts.step.QD))
			if ts.step.OfferedIOPS > 0 {
				label = FormatIOPS(ts.step.OfferedIOPS) + " offered"
			}
			if ts.control {
				label = "control " + label
			}
			lt = append(lt, label)
		}
		if multi && (i == 0 || ts.step.RW != steps[i-1].step.RW || ts.step.BS != steps[i-1].step.BS) {
			lx = append(lx, plotter.XY{X: ts.from + (ts.to-ts.from)*0.04, Y: yMax * 1.18})
			lt = append(lt, curveName(ts.step.RW, ts.step.BS)+" →")
		}
	}
	return lx, lt, nil
}

// draw renders the timeline into c: title, subtitle, the IOPS plot above
// the latency plot (sharing the time axis), legend on the right.
func (f *timelineFigure) draw(c draw.Canvas) {
	c = drawHeader(c, f.Title, f.Subtitle, f.Simulated)
	lr := f.Legend.Rectangle(c)
	if lw := lr.Max.X - lr.Min.X; lw > 0 {
		lc := c
		lc.Min.X = c.Max.X - lw
		lc.Max.Y -= vg.Points(4)
		f.Legend.Draw(lc)
		c.Max.X -= lw + vg.Points(12)
	}
	// Both plots share the time axis: aligned data areas, one above the other.
	cs := plot.Align([][]*plot.Plot{{f.IOPS}, {f.Lat}}, draw.Tiles{Rows: 2, Cols: 1, PadY: vg.Points(4)}, c)
	f.IOPS.Draw(cs[0][0])
	f.Lat.Draw(cs[1][0])
}

// render draws the timeline alone on a w × h pixel image.
func (f *timelineFigure) render(format string, wpx, hpx int) ([]byte, error) {
	return renderCanvas(format, wpx, hpx, f.draw)
}

// Timeline geometry: the chart alone is wider than the others; on the
// dashboard it is a full-width row below the 2 × 2 tiles.
const (
	timelineWpx    = 1400
	timelineDashPx = 560
)

// timelineDashHpx is the height the dashboard grows by for tl (0: none).
func timelineDashHpx(tl *timelineFigure) int {
	if tl == nil {
		return 0
	}
	return timelineDashPx
}

// withTimelineRow draws tl across the bottom of c and returns the canvas
// above it for the rest of the dashboard (c itself when tl is nil).
func withTimelineRow(c draw.Canvas, tl *timelineFigure) draw.Canvas {
	if tl == nil {
		return c
	}
	c.SetColor(bgWhite)
	c.Fill(c.Rectangle.Path())
	row := c
	row.Max.Y = c.Min.Y + px(timelineDashPx)
	tl.draw(draw.Crop(row, vg.Points(4), -vg.Points(4), vg.Points(4), 0))
	rest := c
	rest.Min.Y = row.Max.Y
	return rest
}

// secondTicks labels a time axis in plain seconds ("0", "25", "1.5").
type secondTicks struct{}

// Ticks returns plot's default ticks relabelled without trailing zeros.
func (secondTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 4, 64)
		}
	}
	return ts
}
