package report

import (
	"bytes"
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// figure is one chart: a title and subtitle across the top, the plot (or
// several panels side by side, each with its own axes), and its legend in
// a column on the right so it never covers data.
type figure struct {
	Title     string
	Subtitle  string
	Simulated bool
	Plot      *plot.Plot   // the single plot, or nil when Panels are set
	Panels    []*plot.Plot // small multiples sharing the legend
	Legend    plot.Legend
	// Marks are the label layers of the plots, kept for the layout tests.
	Marks []*marks
	// Keys are the legend's entries, in order, kept for the tests.
	Keys []string
}

// keyedLegend is a legend that remembers the names of its entries.
type keyedLegend struct {
	plot.Legend
	Names []string
}

// newKeyedLegend returns an empty legend styled for the reports.
func newKeyedLegend() keyedLegend { return keyedLegend{Legend: newLegend()} }

// Add adds an entry, as plot.Legend.Add does.
func (l *keyedLegend) Add(name string, thumbs ...plot.Thumbnailer) {
	l.Names = append(l.Names, name)
	l.Legend.Add(name, thumbs...)
}

// drawHeader fills c white and writes a chart's title, the SIMULATED mark
// and the subtitle lines at its top; it returns the canvas left below them,
// inside the page's padding.
func drawHeader(c draw.Canvas, title, subtitle string, simulated bool) draw.Canvas {
	c.SetColor(bgWhite)
	c.Fill(c.Rectangle.Path())
	pad := vg.Points(8)
	c = draw.Crop(c, pad, -pad, pad, -pad)

	ts := textStyle(titleSize, true, bgBlack)
	top := c.Max.Y - ts.Rectangle(title).Max.Y
	c.FillText(ts, vg.Point{X: c.Min.X, Y: top}, title)
	if simulated {
		ss := textStyle(titleSize, true, simulatedFg)
		ss.XAlign = draw.XRight
		c.FillText(ss, vg.Point{X: c.Max.X, Y: top}, "SIMULATED")
	}
	st := textStyle(tickSize, false, guideGrey)
	for _, line := range subtitleLines(st, subtitle, c.Max.X-c.Min.X) {
		top -= st.Rectangle(line).Max.Y + vg.Points(3)
		c.FillText(st, vg.Point{X: c.Min.X, Y: top}, line)
	}
	c.Max.Y = top - vg.Points(6)
	return c
}

// draw renders f into c.
func (f *figure) draw(c draw.Canvas) {
	c = drawHeader(c, f.Title, f.Subtitle, f.Simulated)

	lr := f.Legend.Rectangle(c)
	lw := lr.Max.X - lr.Min.X
	if lw > 0 {
		lc := c
		lc.Min.X = c.Max.X - lw
		lc.Max.Y -= vg.Points(4)
		f.Legend.Draw(lc)
		c.Max.X -= lw + vg.Points(12)
	}
	if f.Plot != nil {
		f.Plot.Draw(c)
		return
	}
	n := len(f.Panels)
	cols := min(n, 2)
	if n > 4 {
		cols = 3
	}
	tiles := draw.Tiles{Rows: (n + cols - 1) / cols, Cols: cols, PadX: vg.Points(14), PadY: vg.Points(10)}
	for i, p := range f.Panels {
		p.Draw(tiles.At(c, i%cols, i/cols))
	}
}

// subtitleLines wraps a subtitle to width: one line of text in at most two
// lines; text already in lines (inputs of a comparison, one per line)
// keeps one line each.
func subtitleLines(st text.Style, subtitle string, width vg.Length) []string {
	parts := strings.Split(subtitle, "\n")
	if len(parts) == 1 {
		return fitLines(st, subtitle, width, 2)
	}
	var out []string
	for _, p := range parts {
		out = append(out, fitLines(st, p, width, 1)...)
	}
	return out
}

// render draws f alone on a w × h pixel image of format "png" or "svg".
func (f *figure) render(format string, wpx, hpx int) ([]byte, error) {
	return renderCanvas(format, wpx, hpx, f.draw)
}

// renderCanvas creates a w × h pixel canvas of format "png" or "svg",
// lets paint draw on it and returns the encoded image.
func renderCanvas(format string, wpx, hpx int, paint func(draw.Canvas)) ([]byte, error) {
	w, h := px(wpx), px(hpx)
	var cw vg.CanvasWriterTo
	switch format {
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(chartDPI))}
	case "svg":
		cw = vgsvg.New(w, h)
	default:
		return nil, fmt.Errorf("chart format %q: %w", format, ErrChartFormat)
	}
	paint(draw.New(cw))
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("encode %s chart: %w", format, err)
	}
	return buf.Bytes(), nil
}

// fitLines wraps s to width in style sty and keeps at most n lines, the
// last one shortened with "…" when words were left over.
func fitLines(sty text.Style, s string, width vg.Length, n int) []string {
	lines := wrapText(sty, s, width)
	if len(lines) <= n {
		return lines
	}
	last := strings.Join(lines[n-1:], " ")
	r := []rune(last)
	for len(r) > 1 && sty.Width(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return append(lines[:n-1], strings.TrimRight(string(r), " ·,")+"…")
}
