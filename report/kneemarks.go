package report

import (
	"image/color"

	"github.com/qdsweep/qdsweep/littleslaw"
	"gonum.org/v1/plot/vg/draw"
)

// kneeMarks returns the marks of a curve's saturation and efficient knees
// at the chart coordinates pos gives (ok false skips a knee). When both
// knees sit at one queue depth they share one mark with both outlines and
// one label. sat names the saturation knee ("saturation" or "knee").
func kneeMarks(a *littleslaw.Analysis, col color.Color, sat string, pos func(littleslaw.Knee) (x, y float64, ok bool)) []mark {
	var out []mark
	s, e := a.Saturation, a.Efficient
	sx, sy, sok := pos(s)
	sok = sok && s.Found
	ex, ey, eok := pos(e)
	eok = eok && e.Found
	depth, eff := func(qd float64) string { return "QD " + FormatQD(qd) }, " efficient"
	if a.Load != nil {
		// Open loop: a knee's QD is the I/Os its load kept in flight.
		depth, eff = func(qd float64) string { return FormatQD(qd) + " in flight" }, " efficient,"
	}
	if sok && eok && s.QD == e.QD {
		return []mark{{X: sx, Y: sy, Color: col, Label: sat + " =" + eff + " " + depth(s.QD), Short: depth(s.QD),
			Shapes: []draw.GlyphDrawer{saturationGlyph, efficientGlyph}}}
	}
	sep := " "
	if a.Load != nil {
		sep = ", "
	}
	if sok {
		out = append(out, mark{X: sx, Y: sy, Color: col, Label: sat + sep + depth(s.QD), Short: depth(s.QD), Shapes: []draw.GlyphDrawer{saturationGlyph}})
	}
	if eok {
		out = append(out, mark{X: ex, Y: ey, Color: col, Label: "efficient" + sep + depth(e.QD), Short: depth(e.QD), Shapes: []draw.GlyphDrawer{efficientGlyph}})
	}
	return out
}
