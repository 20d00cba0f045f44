package report

import (
	"image/color"

	"golang.org/x/image/font"
	"gonum.org/v1/plot"
	pfont "gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Chart geometry. Images are rendered at chartDPI so that a point of font
// size is 4/3 pixel: 11 pt text is about 15 px high at 100% zoom.
const (
	chartDPI   = 96
	chartWpx   = 1000 // single chart width, pixels
	chartHpx   = 640  // single chart height, pixels
	dashWpx    = 1600 // dashboard width, pixels
	dashHpx    = 1200 // dashboard height, pixels
	titleSize  = 15   // points
	labelSize  = 12   // axis labels, points
	tickSize   = 11   // tick labels, legend and notes, points
	legendSize = 11
)

// px converts pixels at chartDPI into a vg length.
func px(n int) vg.Length { return vg.Length(n) * vg.Inch / chartDPI }

// palette holds the series colours (Okabe–Ito, colour-blind safe), in order.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x33, 0x33, 0x33, 0xFF}, // near black
	{0x99, 0x66, 0x33, 0xFF}, // brown
}

// seriesColor returns the colour of the i-th series.
func seriesColor(i int) color.RGBA { return palette[i%len(palette)] }

var (
	guideGrey   = color.RGBA{0x55, 0x55, 0x55, 0xFF} // legend samples of styles
	targetRed   = color.RGBA{0xB0, 0x00, 0x20, 0xFF} // target and SLO lines
	simulatedFg = color.RGBA{0xB0, 0x00, 0x20, 0xFF}
)

// Line widths, in points.
const (
	measuredWidth = 1.2 // the thin line joining measured points
	bandWidth     = 6   // fitted model and 2 × R0: wide translucent bands
)

// bandStyle is the wide translucent line of a value derived by the
// analysis (the fitted model, 2 × R0), distinct from any measured line.
func bandStyle(c color.Color) draw.LineStyle {
	r, g, b, _ := c.RGBA()
	return draw.LineStyle{Color: color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0x48}, Width: vg.Points(bandWidth)}
}

// fitStyle is the style of a fitted-model curve.
func fitStyle(c color.Color) draw.LineStyle { return bandStyle(c) }

// Line dashes, in points.
var (
	dashXmax   = []vg.Length{vg.Points(7), vg.Points(4)}
	dashFit    = []vg.Length{vg.Points(3), vg.Points(3)}
	dashTarget = []vg.Length{vg.Points(10), vg.Points(3), vg.Points(2), vg.Points(3)}
	dashP50    = []vg.Length{vg.Points(5), vg.Points(3)}
	dashP99    = []vg.Length{vg.Points(2), vg.Points(2)}
	dashP999   = []vg.Length{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}
)

// sansFont returns Liberation Sans (bold when bold) at size points.
func sansFont(size float64, bold bool) pfont.Font {
	f := pfont.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Length(size)}
	if bold {
		f.Weight = font.WeightBold
	}
	return f
}

// textStyle returns a plain-text style in sans at size points.
func textStyle(size float64, bold bool, c color.Color) text.Style {
	return text.Style{Color: c, Font: sansFont(size, bold), Handler: plot.DefaultTextHandler,
		XAlign: draw.XLeft, YAlign: draw.YBottom}
}

// newPlot returns a plot styled for the reports: sans fonts, readable
// sizes, light grid, no title (figures draw their own).
func newPlot(xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = sansFont(labelSize, false)
		ax.Tick.Label.Font = sansFont(tickSize, false)
		ax.Padding = vg.Points(2)
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	return p
}

// newLegend returns a legend styled for the reports.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = sansFont(legendSize, false)
	l.Left = true
	l.Top = true
	l.ThumbnailWidth = vg.Points(26)
	l.Padding = vg.Points(3)
	return l
}

var (
	bgWhite = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	bgBlack = color.RGBA{0x00, 0x00, 0x00, 0xFF}
)
