package report

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// xyStep is a measured step's figures as chart coordinates; latencies in ns.
type xyStep struct {
	QD, IOPS, Mean, P50, P99, P999 float64
	Offered                        float64 // the load offered (open loop; 0: none)
}

// xyOf maps the measured steps of s through f, dropping points that f
// returns as non-positive (log axes cannot show them).
func xyOf(s series, f func(xyStep) (float64, float64)) plotter.XYs {
	var out plotter.XYs
	for _, st := range s.measuredSteps() {
		x, y := f(xyStep{
			QD: float64(st.QD), Offered: st.OfferedIOPS, IOPS: st.IOPS, Mean: st.Lat.MeanNs,
			P50: float64(st.Lat.P50Ns), P99: float64(st.Lat.P99Ns), P999: float64(st.Lat.P999Ns),
		})
		if x > 0 && y > 0 && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			out = append(out, plotter.XY{X: x, Y: y})
		}
	}
	return out
}

// logX replaces each X by log2(X), in place, and returns pts.
func logX(pts plotter.XYs) plotter.XYs {
	for i := range pts {
		pts[i].X = math.Log2(pts[i].X)
	}
	return pts
}

// logY replaces each Y by log10(Y), in place, and returns pts.
func logY(pts plotter.XYs) plotter.XYs {
	for i := range pts {
		pts[i].Y = math.Log10(pts[i].Y)
	}
	return pts
}

// fitXYs samples f at 96 log-spaced queue depths across the x range of pts.
func fitXYs(pts plotter.XYs, f func(qd float64) float64) plotter.XYs {
	lo, hi := math.Inf(1), 0.0
	for _, p := range pts {
		lo, hi = math.Min(lo, p.X), math.Max(hi, p.X)
	}
	if !(hi > lo) {
		return nil
	}
	const n = 96
	out := make(plotter.XYs, 0, n)
	for i := 0; i < n; i++ {
		q := lo * math.Pow(hi/lo, float64(i)/(n-1))
		y := f(q)
		if y > 0 && !math.IsNaN(y) && !math.IsInf(y, 0) {
			out = append(out, plotter.XY{X: q, Y: y})
		}
	}
	return out
}

// hLine is a horizontal line at Y across the data area, or across its
// right part from the fraction From (0: the whole width) of its width.
type hLine struct {
	Y     float64
	Style draw.LineStyle
	From  float64
}

// hline returns a horizontal line at y in colour col with dashes, width w.
func hline(y float64, col color.Color, dashes []vg.Length, w vg.Length) *hLine {
	return &hLine{Y: y, Style: draw.LineStyle{Color: col, Width: w, Dashes: dashes}}
}

// Plot implements plot.Plotter.
func (h *hLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(h.Y)
	if y < c.Min.Y || y > c.Max.Y {
		return
	}
	x0 := c.Min.X + (c.Max.X-c.Min.X)*vg.Length(h.From)
	c.StrokeLine2(h.Style, x0, y, c.Max.X, y)
}

// Thumbnail implements plot.Thumbnailer.
func (h *hLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(h.Style, c.Min.X, y, c.Max.X, y)
}

// thumb is a legend sample drawn by a function.
type thumb func(c *draw.Canvas)

// Thumbnail implements plot.Thumbnailer.
func (t thumb) Thumbnail(c *draw.Canvas) { t(c) }

// lineThumb is a legend sample of a line style.
func lineThumb(col color.Color, dashes []vg.Length, width float64) plot.Thumbnailer {
	return hline(0, col, dashes, vg.Points(width))
}

// thumbOf is a legend sample of any line style.
func thumbOf(sty draw.LineStyle) plot.Thumbnailer {
	return &hLine{Style: sty}
}

// glyphThumb is a legend sample of a mark's glyph.
func glyphThumb(col color.Color, shape draw.GlyphDrawer) plot.Thumbnailer {
	return thumb(func(c *draw.Canvas) {
		c.DrawGlyphNoClip(draw.GlyphStyle{Color: col, Radius: vg.Points(4.5), Shape: shape}, c.Center())
	})
}

// vLine is a vertical line across the whole data area at X.
type vLine struct {
	X     float64
	Style draw.LineStyle
}

// Plot implements plot.Plotter.
func (v *vLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(v.X)
	if x < c.Min.X || x > c.Max.X {
		return
	}
	c.StrokeLine2(v.Style, x, c.Min.Y, x, c.Max.Y)
}
