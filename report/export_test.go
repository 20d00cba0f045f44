package report

import (
	"bytes"
	"fmt"
	"image/png"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Palette exposes the series colours to the black-box tests.
var Palette = palette

// LabelClash is a label of a rendered chart that touches a line, a point
// or another label.
type LabelClash struct {
	Chart, Label string
	Ink          int    // inked pixels under the label with labels hidden
	First        string // the first such pixel: position in the box and colour
	Overlap      bool
}

// CheckLabelLayout renders every chart of ins (one result, or a
// comparison of several) and the dashboard twice: as written, recording
// where each label went, and with the labels hidden. It reports each label
// whose box (in pixels) covers ink of the chart beneath it or overlaps
// another label, and how many labels were placed and left out.
func CheckLabelLayout(ins []Input, o Options) (clashes []LabelClash, placed, dropped int, err error) {
	var in chartInput
	var panel []panelLine
	if len(ins) == 1 {
		in, panel = chartInputOf(ins[0].Result, o), panelLines(ins[0].Result, o)
	} else {
		in = compareChartInput(ins, o)
	}
	var dash []*figure
	for _, k := range chartKinds {
		if k.When != nil && !k.When(in) {
			continue
		}
		fig, err := k.Build(in)
		if err != nil {
			return nil, 0, 0, err
		}
		c, p, d, err := checkLayout(k.Name, fig.Marks, chartWpx, chartHpx, fig.draw)
		if err != nil {
			return nil, 0, 0, err
		}
		clashes, placed, dropped = append(clashes, c...), placed+p, dropped+d
		if k.OnDashboard != nil && k.OnDashboard(in) {
			dash = append(dash, fig)
		}
	}
	var ms []*marks
	for _, f := range dash {
		ms = append(ms, f.Marks...)
	}
	w, h := dashboardSize(len(dash))
	c, p, d, err := checkLayout(ChartDashboard, ms, w, h, func(cv draw.Canvas) { dashboard(cv, dash, panel) })
	return append(clashes, c...), placed + p, dropped + d, err
}

// checkLayout renders paint on a w × h pixel PNG with and without the
// labels of ms and checks each placed label against the second image.
func checkLayout(name string, ms []*marks, w, h int, paint func(draw.Canvas)) ([]LabelClash, int, int, error) {
	if _, err := renderCanvas("png", w, h, paint); err != nil {
		return nil, 0, 0, err
	}
	type box struct {
		label string
		r     vg.Rectangle
	}
	var boxes []box
	dropped := 0
	for _, m := range ms {
		for i, k := range m.Marks {
			if r := m.Placed[i]; k.Label != "" && r.Max.X > r.Min.X {
				boxes = append(boxes, box{k.Label, r})
			}
		}
		dropped += len(m.Dropped)
		m.hideLabels = true
	}
	data, err := renderCanvas("png", w, h, paint)
	for _, m := range ms {
		m.hideLabels = false
	}
	if err != nil {
		return nil, 0, 0, err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, err
	}
	var out []LabelClash
	toPx := func(l vg.Length) float64 { return float64(l) / 72 * chartDPI }
	for i, b := range boxes {
		c := LabelClash{Chart: name, Label: b.label}
		x0, x1 := int(math.Ceil(toPx(b.r.Min.X)))+1, int(math.Floor(toPx(b.r.Max.X)))-1
		y0, y1 := h-int(math.Floor(toPx(b.r.Max.Y)))+1, h-int(math.Ceil(toPx(b.r.Min.Y)))-1
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				// Ink is colour or dark grey; the grid's light grey (darker
				// where two grid lines cross) is not.
				lo, hi := min(r, g, bl), max(r, g, bl)
				if lo < 0xD000 && (hi-lo > 0x1000 || lo < 0xA000) {
					if c.Ink == 0 {
						c.First = fmt.Sprintf("(%d,%d) of %d×%d px: #%02x%02x%02x", x-x0, y-y0, x1-x0+1, y1-y0+1, r>>8, g>>8, bl>>8)
					}
					c.Ink++
				}
			}
		}
		for j := range boxes[:i] {
			c.Overlap = c.Overlap || overlaps(b.r, boxes[j].r)
		}
		if c.Ink > 0 || c.Overlap {
			out = append(out, c)
		}
	}
	return out, len(boxes), dropped, nil
}
