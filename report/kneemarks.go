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
	if sok && eok && s.QD == e.QD {
		return []mark{{X: sx, Y: sy, Color: col, Label: sat + " = efficient QD " + FormatQD(s.QD), Short: "QD " + FormatQD(s.QD),
			Shapes: []draw.GlyphDrawer{saturationGlyph, efficientGlyph}}}
	}
	if sok {
		out = append(out, mark{X: sx, Y: sy, Color: col, Label: sat + " QD " + FormatQD(s.QD), Short: "QD " + FormatQD(s.QD), Shapes: []draw.GlyphDrawer{saturationGlyph}})
	}
	if eok {
		out = append(out, mark{X: ex, Y: ey, Color: col, Label: "efficient QD " + FormatQD(e.QD), Short: "QD " + FormatQD(e.QD), Shapes: []draw.GlyphDrawer{efficientGlyph}})
	}
	return out
}
