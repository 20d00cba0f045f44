package report

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// mark is a labelled point drawn on a chart, e.g. a knee.
type mark struct {
	X, Y  float64 // data coordinates
	Label string
	Color color.Color
	Shape draw.GlyphDrawer
}

// marks draws labelled points, placing each label at the first position
// around its point that stays inside the data area and overlaps neither an
// earlier label nor any obstacle (the measured points).
type marks struct {
	Marks     []mark
	Obstacles [][2]float64 // data coordinates of points to keep clear
}

var _ plot.Plotter = (*marks)(nil)

// glyphRadius is the size of a mark's glyph.
const glyphRadius = vg.Length(5.5)

// Plot implements plot.Plotter.
func (m *marks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var placed []vg.Rectangle
	for _, o := range m.Obstacles {
		pt := vg.Point{X: trX(o[0]), Y: trY(o[1])}
		placed = append(placed, square(pt, 4))
	}
	for _, k := range m.Marks {
		pt := vg.Point{X: trX(k.X), Y: trY(k.Y)}
		placed = append(placed, square(pt, glyphRadius+1))
	}
	ts := textStyle(tickSize, true, bgBlack)
	gap := glyphRadius + vg.Points(3)
	for _, k := range m.Marks {
		pt := vg.Point{X: trX(k.X), Y: trY(k.Y)}
		c.DrawGlyphNoClip(draw.GlyphStyle{Color: k.Color, Radius: glyphRadius, Shape: k.Shape}, pt)
		if k.Label == "" {
			continue
		}
		w, h := ts.Width(k.Label), ts.Height(k.Label)
		var best vg.Rectangle
		found := false
		for _, step := range []vg.Length{1, 2.2, 3.4, 4.6} {
			for _, off := range labelOffsets(w, h, gap*step) {
				r := vg.Rectangle{Min: vg.Point{X: pt.X + off.X, Y: pt.Y + off.Y}}
				r.Max = vg.Point{X: r.Min.X + w, Y: r.Min.Y + h}
				if !inside(r, c.Rectangle) || overlapsAny(r, placed) {
					continue
				}
				best, found = r, true
				break
			}
			if found {
				break
			}
		}
		if !found { // crowded: keep it readable above the point, inside the area
			best = vg.Rectangle{Min: vg.Point{X: pt.X - w/2, Y: pt.Y + gap}}
			best.Max = vg.Point{X: best.Min.X + w, Y: best.Min.Y + h}
			best = clampInto(best, c.Rectangle)
		}
		placed = append(placed, best)
		halo := best
		halo.Min.X -= 2
		halo.Max.X += 2
		c.SetColor(color.NRGBA{0xFF, 0xFF, 0xFF, 0xD8})
		c.Fill(halo.Path())
		lab := ts
		lab.Color = k.Color
		c.FillText(lab, best.Min, k.Label)
	}
}

// labelOffsets lists where a w × h label may go relative to its point, in
// order of preference: above-right, below-right, above-left, below-left,
// above, below.
func labelOffsets(w, h, gap vg.Length) []vg.Point {
	return []vg.Point{
		{X: gap * 0.8, Y: gap * 0.8},
		{X: gap * 0.8, Y: -gap*0.8 - h},
		{X: -gap*0.8 - w, Y: gap * 0.8},
		{X: -gap*0.8 - w, Y: -gap*0.8 - h},
		{X: -w / 2, Y: gap},
		{X: -w / 2, Y: -gap - h},
	}
}

// square returns the square of half-side r around pt.
func square(pt vg.Point, r vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: pt.X - r, Y: pt.Y - r}, Max: vg.Point{X: pt.X + r, Y: pt.Y + r}}
}

// inside reports whether r lies within bounds.
func inside(r, bounds vg.Rectangle) bool {
	return r.Min.X >= bounds.Min.X && r.Min.Y >= bounds.Min.Y && r.Max.X <= bounds.Max.X && r.Max.Y <= bounds.Max.Y
}

// overlapsAny reports whether r intersects any of rs.
func overlapsAny(r vg.Rectangle, rs []vg.Rectangle) bool {
	for _, o := range rs {
		if r.Min.X < o.Max.X && o.Min.X < r.Max.X && r.Min.Y < o.Max.Y && o.Min.Y < r.Max.Y {
			return true
		}
	}
	return false
}

// clampInto shifts r to lie inside bounds where it fits.
func clampInto(r, b vg.Rectangle) vg.Rectangle {
	if d := b.Max.X - r.Max.X; d < 0 {
		r.Min.X += d
		r.Max.X += d
	}
	if d := b.Min.X - r.Min.X; d > 0 {
		r.Min.X += d
		r.Max.X += d
	}
	if d := b.Max.Y - r.Max.Y; d < 0 {
		r.Min.Y += d
		r.Max.Y += d
	}
	if d := b.Min.Y - r.Min.Y; d > 0 {
		r.Min.Y += d
		r.Max.Y += d
	}
	return r
}
