package report

import (
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Knee glyphs are outlines drawn around a measured point, so the point
// itself stays visible under them.
var (
	saturationGlyph draw.GlyphDrawer = outlineGlyph{sides: 3}
	efficientGlyph  draw.GlyphDrawer = outlineGlyph{sides: 4}
)

// outlineWidth is the stroke width of knee outlines.
var outlineWidth = vg.Points(1.8)

// outlineGlyph is an unfilled triangle (sides 3, pointing up) or square
// (sides 4) of the glyph style's radius and colour.
type outlineGlyph struct{ sides int }

// DrawGlyph implements draw.GlyphDrawer.
func (g outlineGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var p vg.Path
	switch g.sides {
	case 3:
		r *= 1.3 // a triangle around a point needs more room than a square
		h := r * 0.866
		p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
		p.Line(vg.Point{X: pt.X + h, Y: pt.Y - r/2})
		p.Line(vg.Point{X: pt.X - h, Y: pt.Y - r/2})
	default:
		p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
		p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
		p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
		p.Line(vg.Point{X: pt.X - r, Y: pt.Y + r})
	}
	p.Close()
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: outlineWidth})
	c.Stroke(p)
}
