package report

import (
	"math"

	"github.com/qdsweep/qdsweep/littleslaw"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// iopsFigure is IOPS against total queue depth on a log2 axis: measured
// points joined by a thin line, the fitted model as a wide translucent
// band, the saturation and efficient knees outlined, the fitted ceiling
// Xmax and the target IOPS.
func iopsFigure(in chartInput) (*figure, error) {
	p := newPlot("queue depth (iodepth × numjobs, log2)", "IOPS")
	p.X.Tick.Marker = log2Ticks{}
	p.Y.Tick.Marker = iopsTicks{}
	p.Add(plotter.NewGrid())
	l := newLegend()
	m := &marks{}
	var anyFit, anyRoof, anyKnee bool
	qdMin, qdMax, yMax := math.Inf(1), math.Inf(-1), 0.0
	var roofs []float64
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
		m.Lines = append(m.Lines, polyline(pts))
		a := s.Analysis
		if s.Primary && a != nil && a.Model != nil {
			fit := fitXYs(raw, func(q float64) float64 { return a.Model.IOPSAt(q) })
			if logX(fit); len(fit) > 1 {
				ln, err := plotter.NewLine(fit)
				if err != nil {
					return nil, err
				}
				ln.LineStyle = fitStyle(col)
				p.Add(ln)
				m.Lines = append(m.Lines, polyline(fit))
				anyFit = true
			}
			if x := a.Model.XRoof; x > 0 && x < 3*yMax {
				p.Add(hline(x, col, dashXmax, vg.Points(1.2)))
				roofs = append(roofs, x)
				yMax = math.Max(yMax, x)
				anyRoof = true
			}
		}
		ln, sc, err := lineScatter(pts, col, nil, measuredWidth)
		if err != nil {
			return nil, err
		}
		p.Add(ln, sc)
		l.Add(s.Name, ln, sc)
		if !s.Primary || a == nil {
			continue
		}
		km := kneeMarks(a, col, "saturation", func(k littleslaw.Knee) (float64, float64, bool) {
			return math.Log2(k.QD), k.IOPS, k.QD > 0 && k.IOPS > 0
		})
		m.Marks = append(m.Marks, km...)
		anyKnee = anyKnee || len(km) > 0
	}
	if math.IsInf(qdMax, -1) {
		return nil, ErrNoSteps
	}
	if in.TargetIOPS > 0 {
		p.Add(hline(in.TargetIOPS, targetRed, dashTarget, vg.Points(2)))
		roofs = append(roofs, in.TargetIOPS)
		yMax = math.Max(yMax, in.TargetIOPS)
	}
	setLog2Range(&p.X, qdMin, qdMax)
	for _, y := range roofs {
		m.Lines = append(m.Lines, [][2]float64{{p.X.Min, y}, {p.X.Max, y}})
	}
	p.Add(m)
	addStyleKeys(&l, anyFit, anyRoof, anyKnee, in.TargetIOPS)
	p.Y.Min, p.Y.Max = 0, yMax*1.1
	return &figure{Title: "IOPS vs queue depth", Subtitle: in.Subtitle, Simulated: in.Simulated, Plot: p, Legend: l}, nil
}

// polyline converts chart points into a polyline for label placement.
func polyline(pts plotter.XYs) [][2]float64 {
	out := make([][2]float64, len(pts))
	for i, q := range pts {
		out[i] = [2]float64{q.X, q.Y}
	}
	return out
}

// addStyleKeys adds the grey legend entries that explain line styles and marks.
func addStyleKeys(l *plot.Legend, fit, roof, knee bool, target float64) {
	if fit {
		l.Add("fitted model", thumbOf(fitStyle(guideGrey)))
	}
	if roof {
		l.Add("Xmax (fitted ceiling)", lineThumb(guideGrey, dashXmax, 1.2))
	}
	if knee {
		l.Add("saturation QD", glyphThumb(guideGrey, saturationGlyph))
		l.Add("efficient QD (max IOPS/latency)", glyphThumb(guideGrey, efficientGlyph))
	}
	if target > 0 {
		l.Add("target "+FormatIOPS(target)+" IOPS", lineThumb(targetRed, dashTarget, 2))
	}
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
