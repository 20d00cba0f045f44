package report

import (
	"fmt"
	"image/color"
	"math"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// How far a fitted model must earn its place on a chart: a model through
// few points, or far from them, draws a smooth line the data do not show.
const (
	fitMinPoints = 5    // measured points for a model drawn as a band
	fitMaxErr    = 0.10 // its largest RMS relative error
	fitDashedMin = 4    // fewer points than this: not drawn
	fitDashedErr = 0.25 // a larger error than this: not drawn
)

// fitGrade says how a curve's fitted model is drawn.
type fitGrade int

const (
	fitHidden fitGrade = iota // not drawn
	fitDashed                 // a thin dashed line, its error in the legend
	fitBand                   // the wide translucent band, with Xmax
)

// fitDepths are the queue depths s's fitted model rests on: its
// analysis's points (the steps a level that did not last, a burst or an
// unknown depth left out are not among them), else its measured steps.
// The fit is graded, drawn and counted over these alone, as the text
// counts them ("only 4 points").
func fitDepths(s series) []float64 {
	var qds []float64
	if a := s.Analysis; a != nil && len(a.Points) > 0 {
		for _, p := range a.Points {
			qds = append(qds, p.QD)
		}
		return qds
	}
	for _, st := range s.measuredSteps() {
		qds = append(qds, float64(st.QD))
	}
	return qds
}

// fitGradeOf grades s's fitted model by its point count and error.
func fitGradeOf(s series) fitGrade {
	a := s.Analysis
	if !s.Primary || a == nil || a.Model == nil {
		return fitHidden
	}
	n, e := len(fitDepths(s)), a.Model.RelRMS
	switch {
	case math.IsNaN(e):
		return fitHidden
	case n >= fitMinPoints && e <= fitMaxErr:
		return fitBand
	case n >= fitDashedMin && e <= fitDashedErr:
		return fitDashed
	}
	return fitHidden
}

// throughputFigure is throughput (IOPS or MiB/s) against total queue depth
// on a log2 axis: measured points joined by a thin line, the fitted model
// where it earns it, the saturation and efficient knees outlined, the
// fitted ceiling Xmax and the target. With split, one panel per block size.
func throughputFigure(in chartInput, mt metric, split bool) (*figure, error) {
	f := &figure{Title: mt.Title + " vs queue depth", Subtitle: in.Subtitle, Simulated: in.Simulated}
	l := newKeyedLegend()
	keys := &styleKeys{}
	groups := [][]int{}
	if split {
		idx := map[int64]int{}
		for i, s := range in.Series {
			g, ok := idx[s.BS]
			if !ok {
				g = len(groups)
				idx[s.BS] = g
				groups = append(groups, nil)
			}
			groups[g] = append(groups[g], i)
		}
	} else {
		all := make([]int, len(in.Series))
		for i := range all {
			all[i] = i
		}
		groups = [][]int{all}
	}
	for _, g := range groups {
		p, m, err := throughputPanel(in, mt, g, &l, keys)
		if err != nil {
			return nil, err
		}
		if p == nil {
			continue
		}
		if split {
			p.Title.Text = "block size " + fmtBS(in.Series[g[0]].BS)
			p.Title.TextStyle = textStyle(labelSize, true, bgBlack)
			p.Title.TextStyle.XAlign, p.Title.TextStyle.YAlign = draw.XCenter, draw.YTop
		}
		f.Panels = append(f.Panels, p)
		f.Marks = append(f.Marks, m)
	}
	if len(f.Panels) == 0 {
		return nil, ErrNoSteps
	}
	keys.add(&l)
	f.Legend, f.Keys = l.Legend, l.Names
	if len(f.Panels) == 1 {
		f.Plot, f.Panels = f.Panels[0], nil
	}
	return f, nil
}

// styleKeys records which line styles and marks a chart drew, so that its
// legend explains those and nothing else.
type styleKeys struct {
	band, roof, sat, eff bool
	refined              bool   // some step was measured by the refine pass
	sustained            bool   // some step is read at its sustained level
	leftOut              bool   // some step is left out of the analysis
	target               string // legend text of the target line, "" for none
}

// add appends the legend entries of the styles drawn.
func (k *styleKeys) add(l *keyedLegend) {
	if k.band {
		l.Add("fitted model", thumbOf(fitStyle(guideGrey)))
	}
	if k.roof {
		l.Add("Xmax (fitted ceiling)", lineThumb(guideGrey, dashXmax, 1.2))
	}
	if k.sat {
		l.Add("saturation QD", glyphThumb(guideGrey, saturationGlyph))
	}
	if k.eff {
		l.Add("efficient QD (max IOPS/latency)", glyphThumb(guideGrey, efficientGlyph))
	}
	if k.refined {
		l.Add("refined step (between grid steps)", glyphThumb(guideGrey, draw.RingGlyph{}))
	}
	if k.sustained {
		l.Add("sustained level (the analysis uses it)", glyphThumb(guideGrey, sustainedGlyph))
	}
	if k.leftOut {
		l.Add("left out: a level that did not last", glyphThumb(guideGrey, leftOutGlyph))
	}
	if k.target != "" {
		l.Add(k.target, lineThumb(targetRed, dashTarget, 2))
	}
}

// sustainedGlyph marks a step's sustained level where the analysis reads
// the step at it rather than at its mean.
var sustainedGlyph = draw.PyramidGlyph{}

// sustainedMarks marks the sustained levels of s's steps that the analysis
// uses in place of their means, at xy(step, level); nil when none. The
// knee marks then sit on a drawn point.
func sustainedMarks(s series, xy func(sweep.Step, diagnosis.Sustained) (float64, float64), col color.Color) (*plotter.Scatter, plotter.XYs, error) {
	var pts plotter.XYs
	for _, st := range s.measuredSteps() {
		if v, ok := st.SustainedLevel(); ok {
			if x, y := xy(st, v); !math.IsNaN(x+y) && !math.IsInf(x+y, 0) {
				pts = append(pts, plotter.XY{X: x, Y: y})
			}
		}
	}
	if len(pts) == 0 {
		return nil, nil, nil
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, nil, err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: sustainedGlyph}
	return sc, pts, nil
}

// addSustained adds s's sustained-level marks (sustainedMarks) to p and
// its legend key to keys, and returns the points for the axis ranges.
func addSustained(p *plot.Plot, s series, xy func(sweep.Step, diagnosis.Sustained) (float64, float64), at func(sweep.Step) (float64, float64), col color.Color, keys *styleKeys) (plotter.XYs, error) {
	if err := addLeftOut(p, s, at, col, keys); err != nil {
		return nil, err
	}
	sus, pts, err := sustainedMarks(s, xy, col)
	if err != nil || sus == nil {
		return nil, err
	}
	p.Add(sus)
	keys.sustained = true
	return pts, nil
}

// leftOutGlyph crosses out a step the analysis leaves out: it ran on burst
// credits, or above a level that did not last.
var leftOutGlyph = draw.CrossGlyph{}

// addLeftOut crosses out, at at(step), the steps of s the analysis leaves
// out, and notes the legend key.
func addLeftOut(p *plot.Plot, s series, at func(sweep.Step) (float64, float64), col color.Color, keys *styleKeys) error {
	var pts plotter.XYs
	for _, st := range s.measuredSteps() {
		if why := st.SetAsideWhy(); why != sweep.AsideCredits && why != sweep.AsideAboveLevel {
			continue
		}
		if x, y := at(st); !math.IsNaN(x+y) && !math.IsInf(x+y, 0) {
			pts = append(pts, plotter.XY{X: x, Y: y})
		}
	}
	if len(pts) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(9), Shape: leftOutGlyph} // arms reach past the step's dot
	p.Add(sc)
	keys.leftOut = true
	return nil
}

// refinedMarks rings the steps of s that the refine pass measured, at
// (log2 QD, y(step)); nil when there are none. Steps y puts at NaN or ±Inf
// (nothing to show on a log axis) are left out.
func refinedMarks(s series, y func(sweep.Step) float64, col color.Color) (*plotter.Scatter, error) {
	var pts plotter.XYs
	for _, st := range s.measuredSteps() {
		if v := y(st); st.Refined != "" && st.QD > 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
			pts = append(pts, plotter.XY{X: math.Log2(float64(st.QD)), Y: v})
		}
	}
	if len(pts) == 0 {
		return nil, nil
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(6), Shape: draw.RingGlyph{}}
	return sc, nil
}

// addFit draws s's fitted curve over the depths it rests on (fitDepths) as
// its fit grade says, and a band's ceiling when it lies within 3× yMax.
// It returns the grade drawn (hidden when the fit has under two points),
// the highest y drawn and the ceiling's y (0: none).
func addFit(p *plot.Plot, m *marks, s series, per float64, col color.Color, yMax float64) (fitGrade, float64, float64, error) {
	grade := fitGradeOf(s)
	if grade == fitHidden {
		return grade, 0, 0, nil
	}
	a := s.Analysis
	top := 0.0
	var on plotter.XYs
	for _, q := range fitDepths(s) {
		on = append(on, plotter.XY{X: q})
	}
	fit := logX(fitXYs(on, func(q float64) float64 { return a.Model.IOPSAt(q) * per }))
	if len(fit) < 2 {
		return fitHidden, 0, 0, nil
	}
	ln, err := plotter.NewLine(fit)
	if err != nil {
		return grade, 0, 0, err
	}
	ln.LineStyle = fitStyle(col)
	if grade == fitDashed {
		ln.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1), Dashes: dashFit}
	}
	p.Add(ln)
	m.Lines = append(m.Lines, polyline(fit))
	for _, q := range fit {
		top = math.Max(top, q.Y)
	}
	x := a.Model.XRoof * per
	if grade != fitBand || x <= 0 || x >= 3*math.Max(yMax, top) {
		return grade, top, 0, nil
	}
	p.Add(hline(x, col, dashXmax, vg.Points(1.2)))
	return grade, math.Max(top, x), x, nil
}

// noteKnees records in k which knee glyphs the marks km carry.
func (k *styleKeys) noteKnees(km []mark) {
	for _, m := range km {
		for _, sh := range m.Shapes {
			k.sat = k.sat || sh == saturationGlyph
			k.eff = k.eff || sh == efficientGlyph
		}
	}
}

// throughputPanel draws the series of in numbered idx into one plot and
// adds their legend entries to l; nil when none has a measured point.
func throughputPanel(in chartInput, mt metric, idx []int, l *keyedLegend, keys *styleKeys) (*plot.Plot, *marks, error) {
	p := newPlot("queue depth (iodepth × numjobs, log2)", mt.Name)
	p.X.Tick.Marker = log2Ticks{}
	p.Y.Tick.Marker = mt.Ticks
	p.Add(plotter.NewGrid())
	m := &marks{}
	qdMin, qdMax, yMax := math.Inf(1), math.Inf(-1), 0.0
	var roofs []float64
	bs := in.Series[idx[0]].BS
	for _, i := range idx {
		s := in.Series[i]
		col := seriesColor(i)
		per := mt.Per(s.BS)
		if s.BS != bs {
			bs = 0
		}
		raw := xyOf(s, func(x xyStep) (float64, float64) { return x.QD, x.IOPS * per })
		pts := logX(append(plotter.XYs{}, raw...))
		if len(pts) == 0 {
			continue
		}
		for _, q := range pts {
			qdMin, qdMax, yMax = math.Min(qdMin, q.X), math.Max(qdMax, q.X), math.Max(yMax, q.Y)
			m.Obstacles = append(m.Obstacles, [2]float64{q.X, q.Y})
		}
		m.Lines = append(m.Lines, polyline(pts))
		a := s.Analysis
		grade, fitMax, roof, err := addFit(p, m, s, per, col, yMax)
		if err != nil {
			return nil, nil, err
		}
		yMax = math.Max(yMax, fitMax)
		if roof > 0 {
			roofs = append(roofs, roof)
			keys.roof = true
		}
		ln, sc, err := lineScatter(pts, col, nil, measuredWidth)
		if err != nil {
			return nil, nil, err
		}
		p.Add(ln, sc)
		l.Add(s.Name, ln, sc)
		sMax, err := addThroughputMarks(p, s, per, col, keys)
		if err != nil {
			return nil, nil, err
		}
		yMax = math.Max(yMax, sMax)
		switch grade {
		case fitBand:
			keys.band = true
		case fitDashed:
			l.Add(fmt.Sprintf("fit of %d points, error %.0f%%", len(fitDepths(s)), 100*a.Model.RelRMS),
				lineThumb(col, dashFit, 1))
		}
		if !s.Primary || a == nil {
			continue
		}
		km := kneeMarks(a, col, "saturation", func(k littleslaw.Knee) (float64, float64, bool) {
			return math.Log2(k.QD), k.IOPS * per, k.QD > 0 && k.IOPS > 0
		})
		m.Marks = append(m.Marks, km...)
		keys.noteKnees(km)
	}
	if math.IsInf(qdMax, -1) {
		return nil, nil, nil
	}
	if y, ok := addTargetLine(p, in.TargetIOPS, mt, bs, keys); ok {
		roofs = append(roofs, y)
		yMax = math.Max(yMax, y)
	}
	setLog2Range(&p.X, qdMin, qdMax)
	for _, y := range roofs {
		m.Lines = append(m.Lines, [][2]float64{{p.X.Min, y}, {p.X.Max, y}})
	}
	p.Add(m)
	p.Y.Min, p.Y.Max = 0, yMax*1.1
	return p, m, nil
}

// addThroughputMarks adds a series' refined steps and its sustained
// levels to p; it returns the highest sustained value drawn (0: none).
func addThroughputMarks(p *plot.Plot, s series, per float64, col color.Color, keys *styleKeys) (float64, error) {
	rs, err := refinedMarks(s, func(st sweep.Step) float64 {
		if st.IOPS <= 0 {
			return math.NaN()
		}
		return st.IOPS * per
	}, col)
	if err != nil {
		return 0, err
	}
	if rs != nil {
		p.Add(rs)
		keys.refined = true
	}
	spts, err := addSustained(p, s, func(st sweep.Step, v diagnosis.Sustained) (float64, float64) {
		return math.Log2(float64(st.QD)), v.IOPS * per
	}, func(st sweep.Step) (float64, float64) { return math.Log2(float64(st.QD)), st.IOPS * per }, col, keys)
	if err != nil {
		return 0, err
	}
	yMax := 0.0
	for _, q := range spts {
		yMax = math.Max(yMax, q.Y)
	}
	return yMax, nil
}

// addTargetLine draws the target IOPS (in the panel's metric) across p
// when there is one and the panel's series share a block size or count
// IOPS; it returns the line's height.
func addTargetLine(p *plot.Plot, t float64, mt metric, bs int64, keys *styleKeys) (float64, bool) {
	if t <= 0 || (bs <= 0 && mt.Name != iopsMetric.Name) {
		return 0, false
	}
	y := t * mt.Per(bs)
	p.Add(hline(y, targetRed, dashTarget, vg.Points(2)))
	keys.target = "target " + FormatIOPS(t) + " IOPS"
	if mt.Name != iopsMetric.Name {
		keys.target += " = " + mt.Fmt(y)
	}
	return y, true
}

// polyline converts chart points into a polyline for label placement.
func polyline(pts plotter.XYs) [][2]float64 {
	out := make([][2]float64, len(pts))
	for i, q := range pts {
		out[i] = [2]float64{q.X, q.Y}
	}
	return out
}

// setLog2Range sets a log2(QD) axis to whole octaves around [lo, hi]
// (given as log2 values), with a little room for glyphs at both ends.
func setLog2Range(ax *plot.Axis, lo, hi float64) {
	ax.Min, ax.Max = math.Floor(lo), math.Ceil(hi)
	if ax.Max <= ax.Min {
		ax.Max = ax.Min + 1
	}
	pad := (ax.Max - ax.Min) * 0.03
	ax.Min, ax.Max = ax.Min-pad, ax.Max+pad
}
