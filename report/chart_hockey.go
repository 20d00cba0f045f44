package report

import (
	"image/color"

	"github.com/qdsweep/qdsweep/sweep"

	"math"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// hockeyFigure is the hockey stick against IOPS.
func hockeyFigure(in chartInput) (*figure, error) { return hockeyOf(in, iopsMetric) }

// hockeyBWFigure is the hockey stick against MiB/s, where block sizes
// differ or are large (the dashboard's choice for those).
func hockeyBWFigure(in chartInput) (*figure, error) { return hockeyOf(in, mibMetric) }

// hockeyOf is the hockey stick: mean and p99 latency (log scale, so both
// stay readable when p99 runs far above the mean) against throughput in
// mt, with the saturation (knee) and efficient points marked on the mean
// curve.
//
// In an open-loop sweep its latency runs from issue, and its SLO, judged
// on response times (latency-vs-offered-load draws them), is not drawn
// over it.
func hockeyOf(in chartInput, mt metric) (*figure, error) {
	yName := "latency (log scale)"
	if openLoopInput(in) {
		yName = "latency from issue (log scale)"
	}
	p := newPlot(mt.Name, yName)
	p.X.Tick.Marker, p.Y.Tick.Marker = mt.Ticks, latLogTicks{}
	p.Add(plotter.NewGrid())
	h := &hockey{p: p, l: newKeyedLegend(), m: &marks{}, keys: &styleKeys{}, yMin: math.Inf(1), yMax: math.Inf(-1)}
	for i, s := range in.Series {
		if err := h.addSeries(in, mt, i, s); err != nil {
			return nil, err
		}
	}
	if h.xMax == 0 {
		return nil, ErrNoSteps
	}
	h.m.Marks = append(h.m.Marks, h.qdMarks...)
	p.Add(h.m)
	hockeyKeys(&h.l, h.keys, h.anyP99, openLoopInput(in))
	h.addLimits(in, mt)
	title := "Latency vs IOPS (hockey stick)"
	if mt.Name != iopsMetric.Name {
		title = "Latency vs bandwidth (hockey stick)"
	}
	return &figure{Title: title, Subtitle: in.Subtitle, Simulated: in.Simulated, Plot: p, Legend: h.l.Legend, Keys: h.l.Names, Marks: []*marks{h.m}}, nil
}

// hockey is the hockey chart under way: the plot, its legend and marks,
// and the extent of what it drew.
type hockey struct {
	p                *plot.Plot
	l                keyedLegend
	m                *marks
	keys             *styleKeys
	xMax, yMin, yMax float64
	anyP99           bool
	qdMarks          []mark // depth labels, placed after the knee labels
}

// extend widens the chart's extent to hold pts.
func (h *hockey) extend(pts plotter.XYs) {
	for _, q := range pts {
		h.xMax, h.yMin, h.yMax = math.Max(h.xMax, q.X), math.Min(h.yMin, q.Y), math.Max(h.yMax, q.Y)
	}
}

// addSeries draws series i: its mean and p99 curves, sustained levels,
// the first and last depths' labels and, on the primary series, the knees.
func (h *hockey) addSeries(in chartInput, mt metric, i int, s series) error {
	col := seriesColor(i)
	per := mt.Per(s.BS)
	mean := logY(xyOf(s, func(x xyStep) (float64, float64) { return x.IOPS * per, x.Mean }))
	p99 := logY(xyOf(s, func(x xyStep) (float64, float64) { return x.IOPS * per, x.P99 }))
	if len(mean) == 0 {
		return nil
	}
	h.extend(mean)
	h.extend(p99)
	for _, q := range mean {
		h.m.Obstacles = append(h.m.Obstacles, [2]float64{q.X, q.Y})
	}
	h.m.Lines = append(h.m.Lines, polyline(mean), polyline(p99))
	lm, sm, err := lineScatter(mean, col, nil, 2)
	if err != nil {
		return err
	}
	h.p.Add(lm, sm)
	h.l.Add(s.Name, lm, sm)
	if len(p99) > 0 {
		h.anyP99 = true
		lp, sp, err := lineScatter(p99, col, dashP99, 1.6)
		if err != nil {
			return err
		}
		sp.GlyphStyle.Shape = draw.RingGlyph{}
		h.p.Add(lp, sp)
	}
	spts, err := addSustained(h.p, s, func(_ sweep.Step, v diagnosis.Sustained) (float64, float64) {
		return v.IOPS * per, math.Log10(v.LatMeanNs)
	}, func(st sweep.Step) (float64, float64) { return st.IOPS * per, math.Log10(st.Lat.MeanNs) }, col, h.keys)
	if err != nil {
		return err
	}
	h.extend(spts)
	// The line joins the points in QD order, which zig-zags on noisy
	// data: name the first and last depths (in open loop, loads offered)
	// so the order can be followed.
	qds := xyOf(s, func(x xyStep) (float64, float64) { return x.QD, x.Mean })
	offered := xyOf(s, func(x xyStep) (float64, float64) { return math.Max(x.Offered, math.SmallestNonzeroFloat64), x.Mean })
	ends := []int{len(mean) - 1}
	if len(in.Series) <= 2 {
		ends = []int{0, len(mean) - 1}
	}
	a := s.Analysis
	for _, j := range ends {
		if s.Primary && a != nil && isKneeQD(a, qds[j].X) {
			continue // the knee's own label names this depth
		}
		label := "QD " + FormatQD(qds[j].X)
		if o := offered[j].X; o >= 1 {
			label = FormatIOPS(o) + " offered"
		}
		h.qdMarks = append(h.qdMarks, mark{X: mean[j].X, Y: mean[j].Y, Label: label, Color: col, Small: true})
	}
	if !s.Primary || a == nil {
		return nil
	}
	km := kneeMarks(a, col, "knee", func(k littleslaw.Knee) (float64, float64, bool) {
		if k.IOPS <= 0 || k.LatNsMean <= 0 {
			return 0, 0, false
		}
		return k.IOPS * per, math.Log10(k.LatNsMean), true
	})
	h.m.Marks = append(h.m.Marks, km...)
	h.keys.noteKnees(km)
	return nil
}

// addLimits draws the target's vertical line and the SLO's horizontal
// one, with their legend entries, and sets the axes' ranges.
func (h *hockey) addLimits(in chartInput, mt metric) {
	p := h.p
	target := 0.0 // x of the target line
	if t := in.TargetIOPS; t > 0 && (mt.Name == iopsMetric.Name || !in.mixedBS()) {
		target = t * mt.Per(in.Series[0].BS)
		p.Add(&vLine{X: target, Style: draw.LineStyle{Color: targetRed, Width: vg.Points(2), Dashes: dashTarget}})
		h.xMax = math.Max(h.xMax, target)
		name := "target " + FormatIOPS(t) + " IOPS"
		if mt.Name != iopsMetric.Name {
			name += " = " + mt.Fmt(target)
		}
		h.l.Add(name, lineThumb(targetRed, dashTarget, 2))
	}
	slo := in.SLO != nil && in.SLO.LimitNs > 0 && !(openLoopInput(in) && loadResponses(in))
	if slo && (in.SLO.Stat == "mean" || in.SLO.Stat == "p99") {
		y := math.Log10(in.SLO.LimitNs)
		p.Add(hline(y, targetRed, dashTarget, vg.Points(2)))
		h.yMin, h.yMax = math.Min(h.yMin, y), math.Max(h.yMax, y)
		h.l.Add("SLO "+statName(in.SLO.Stat)+" ≤ "+FormatLatency(in.SLO.LimitNs), lineThumb(targetRed, dashTarget, 2))
	}
	p.X.Min, p.X.Max = 0, h.xMax*1.08
	p.Y.Min, p.Y.Max = latLogRange(h.yMin, h.yMax)
	if target > 0 {
		h.m.Lines = append(h.m.Lines, [][2]float64{{target, p.Y.Min}, {target, p.Y.Max}})
	}
	if slo {
		y := math.Log10(in.SLO.LimitNs)
		h.m.Lines = append(h.m.Lines, [][2]float64{{p.X.Min, y}, {p.X.Max, y}})
	}
}

// lineScatter returns a line through pts and markers on them.
func lineScatter(pts plotter.XYs, col color.Color, dashes []vg.Length, width float64) (*plotter.Line, *plotter.Scatter, error) {
	ln, err := plotter.NewLine(pts)
	if err != nil {
		return nil, nil, err
	}
	ln.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(width), Dashes: dashes}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, nil, err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	return ln, sc, nil
}

// isKneeQD reports whether qd is a depth a's knee marks label.
func isKneeQD(a *littleslaw.Analysis, qd float64) bool {
	return (a.Saturation.Found && a.Saturation.QD == qd) || (a.Efficient.Found && a.Efficient.QD == qd)
}

// hockeyKeys adds the legend entries of the styles and marks the hockey
// chart drew.
func hockeyKeys(l *keyedLegend, keys *styleKeys, anyP99, open bool) {
	l.Add("mean", lineThumb(guideGrey, nil, 2))
	if anyP99 {
		l.Add("p99", lineThumb(guideGrey, dashP99, 1.6))
	}
	if keys.sat {
		l.Add("saturation knee", glyphThumb(guideGrey, saturationGlyph))
	}
	if keys.eff && open {
		l.Add("efficient (max IOPS/latency)", glyphThumb(guideGrey, efficientGlyph))
	} else if keys.eff {
		l.Add("efficient QD", glyphThumb(guideGrey, efficientGlyph))
	}
	if keys.sustained {
		l.Add("sustained level", glyphThumb(guideGrey, sustainedGlyph))
	}
	if keys.leftOut {
		l.Add("left out: did not last", glyphThumb(guideGrey, leftOutGlyph))
	}
}
