package report

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// iopsFigure is IOPS against total queue depth on a log2 axis: measured
// points, the fitted model, the saturation and efficient knees, the fitted
// ceiling Xmax and the target IOPS.
func iopsFigure(in chartInput) (*figure, error) {
	p := newPlot("queue depth (iodepth × numjobs, log2)", "IOPS")
	p.X.Tick.Marker = log2Ticks{}
	p.Y.Tick.Marker = iopsTicks{}
	p.Add(plotter.NewGrid())
	l := newLegend()
	m := &marks{}
	var anyFit, anyRoof, anyKnee bool
	qdMin, qdMax, yMax := math.Inf(1), math.Inf(-1), 0.0
	for i, s := range in.Series {
		col := seriesColor(i)
		raw := xyOf(s, func(x xyStep) (float64, float64) { return x.QD, x.IOPS })
		pts := logX(append(plotter.XYs{}, raw...))
		if len(pts) == 0 {
			continue
		}
		for _, q := range pts {
			qdMin, qdMax, yMax = math.Min(qdMin, q.X), math.Max(qdMax, q.X), math.Max(yMax, q.Y)
			m.Obstacles = append(m.Obstacles, [2]float64{q.X, q.Y})
		}
		a := s.Analysis
		fitted := s.Primary && a != nil && a.Model != nil
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		thumbs := []plot.Thumbnailer{sc}
		if fitted {
			thumbs = append(thumbs, lineThumb(col, dashFit, 2))
		} else {
			ln, err := plotter.NewLine(pts)
			if err != nil {
				return nil, err
			}
			ln.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.5)}
			p.Add(ln)
			thumbs = append(thumbs, ln)
		}
		p.Add(sc)
		l.Add(s.Name, thumbs...)
		if !s.Primary || a == nil {
			continue
		}
		if fitted {
			fit := fitXYs(raw, func(q float64) float64 { return a.Model.IOPSAt(q) })
			if logX(fit); len(fit) > 1 {
				ln, err := plotter.NewLine(fit)
				if err != nil {
					return nil, err
				}
				ln.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(2), Dashes: dashFit}
				p.Add(ln)
				anyFit = true
			}
			if x := a.Model.XRoof; x > 0 && x < 3*yMax {
				h := hline(x, col, dashXmax, vg.Points(1.2))
				p.Add(h)
				yMax = math.Max(yMax, x)
				anyRoof = true
			}
		}
		if k := a.Saturation; k.Found && k.IOPS > 0 {
			m.Marks = append(m.Marks, mark{X: math.Log2(k.QD), Y: k.IOPS, Label: "saturation QD " + fmtQD(k.QD), Color: col, Shape: draw.PyramidGlyph{}})
			anyKnee = true
		}
		if k := a.Efficient; k.Found && k.IOPS > 0 && !(a.Saturation.Found && k.QD == a.Saturation.QD) {
			m.Marks = append(m.Marks, mark{X: math.Log2(k.QD), Y: k.IOPS, Label: "efficient QD " + fmtQD(k.QD), Color: col, Shape: draw.BoxGlyph{}})
			anyKnee = true
		}
	}
	if math.IsInf(qdMax, -1) {
		return nil, ErrNoSteps
	}
	if in.TargetIOPS > 0 {
		p.Add(hline(in.TargetIOPS, targetRed, dashTarget, vg.Points(2)))
		yMax = math.Max(yMax, in.TargetIOPS)
	}
	p.Add(m)
	addStyleKeys(&l, anyFit, anyRoof, anyKnee, in.TargetIOPS)
	setLog2Range(&p.X, qdMin, qdMax)
	p.Y.Min, p.Y.Max = 0, yMax*1.1
	return &figure{Title: "IOPS vs queue depth", Subtitle: in.Subtitle, Simulated: in.Simulated, Plot: p, Legend: l}, nil
}

// addStyleKeys adds the grey legend entries that explain line styles and marks.
func addStyleKeys(l *plot.Legend, fit, roof, knee bool, target float64) {
	if fit {
		l.Add("fitted model", lineThumb(guideGrey, dashFit, 2))
	}
	if roof {
		l.Add("Xmax (fitted ceiling)", lineThumb(guideGrey, dashXmax, 1.2))
	}
	if knee {
		l.Add("saturation QD", glyphThumb(guideGrey, draw.PyramidGlyph{}))
		l.Add("efficient QD (max IOPS/latency)", glyphThumb(guideGrey, draw.BoxGlyph{}))
	}
	if target > 0 {
		l.Add("target "+fmtIOPS(target)+" IOPS", lineThumb(targetRed, dashTarget, 2))
	}
}

// setLog2Range sets a log2(QD) axis to whole octaves around [lo, hi]
// (given as log2 values), with a little room for glyphs at both ends.
func setLog2Range(ax *plot.Axis, lo, hi float64) {
	ax.Min, ax.Max = math.Floor(lo), math.Ceil(hi)
	if ax.Max <= ax.Min {
		ax.Max = ax.Min + 1
	}
	pad := (ax.Max - ax.Min) * 0.02
	ax.Min, ax.Max = ax.Min-pad, ax.Max+pad
}
