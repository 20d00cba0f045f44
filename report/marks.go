package report

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// mark is a labelled point drawn on a chart, e.g. a knee. Its glyphs are
// outlines drawn around the point, so the measured marker stays visible.
type mark struct {
	X, Y   float64 // data coordinates
	Label  string
	Color  color.Color
	Shapes []draw.GlyphDrawer // outlines drawn at the point; none for a bare label
	Small  bool               // a secondary label (e.g. "QD 1"): smaller, placed close
	// Short is the label to try when Label finds no room (e.g. "QD 8" for
	// "efficient QD 8": the glyph and the legend say which knee it is).
	Short string
}

// marks draws labelled points. Each label goes to the free position
// around its point nearest to it: clear of earlier labels, the glyphs, the
// measured points and every drawn line (with a margin for line width). A
// label set further away gets a thin leader line to its point. A label
// for which no free position exists is left out (Dropped) rather than
// drawn over a line: the legend and the text report still carry it.
type marks struct {
	Marks     []mark
	Obstacles [][2]float64   // data coordinates of points to keep clear
	Lines     [][][2]float64 // polylines (data coordinates) labels must not cross

	// Filled in by Plot, for the layout tests.
	Placed  []vg.Rectangle // canvas rectangle of each mark's label (zero: none drawn)
	Dropped []string       // labels left out for want of room
	// hideLabels draws glyphs only (no labels, halos or leaders): the
	// layout test renders a chart without them to see what lies beneath.
	hideLabels bool
}

var _ plot.Plotter = (*marks)(nil)

// glyphRadius is the size of a mark's glyph.
const glyphRadius = vg.Length(7)

// lineClearance is how far a label keeps from a line's centre: half the
// widest line (the 6 pt fitted band) and a little air.
var lineClearance = vg.Points(4)

// Plot implements plot.Plotter.
func (m *marks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var pts []vg.Rectangle
	for _, o := range m.Obstacles {
		pts = append(pts, square(vg.Point{X: trX(o[0]), Y: trY(o[1])}, 5)) // a 3 pt marker and air
	}
	var segs [][2]vg.Point
	for _, l := range m.Lines {
		for i := 1; i < len(l); i++ {
			segs = append(segs, [2]vg.Point{{X: trX(l[i-1][0]), Y: trY(l[i-1][1])}, {X: trX(l[i][0]), Y: trY(l[i][1])}})
		}
	}
	var labels []vg.Rectangle
	for _, k := range m.Marks {
		if len(k.Shapes) > 0 {
			// the triangle reaches 1.3 radii from the point, plus its stroke
			labels = append(labels, square(vg.Point{X: trX(k.X), Y: trY(k.Y)}, glyphRadius*1.3+outlineWidth))
		}
	}
	m.Placed, m.Dropped = make([]vg.Rectangle, len(m.Marks)), nil
	for i, k := range m.Marks {
		pt := vg.Point{X: trX(k.X), Y: trY(k.Y)}
		for _, sh := range k.Shapes {
			c.DrawGlyphNoClip(draw.GlyphStyle{Color: k.Color, Radius: glyphRadius, Shape: sh}, pt)
		}
		if k.Label == "" {
			continue
		}
		best, ts, label, far, found := placeLabel(k, pt, c.Rectangle, labels, pts, segs)
		if !found {
			m.Dropped = append(m.Dropped, k.Label)
			continue
		}
		labels = append(labels, best)
		m.Placed[i] = best
		if m.hideLabels {
			continue
		}
		if far {
			to := nearestOn(best, pt)
			c.StrokeLine2(draw.LineStyle{Color: k.Color, Width: vg.Points(0.8)}, pt.X, pt.Y, to.X, to.Y)
		}
		halo := best
		halo.Min.X -= 2
		halo.Max.X += 2
		c.SetColor(color.NRGBA{0xFF, 0xFF, 0xFF, 0xD8})
		c.Fill(halo.Path())
		c.FillText(ts, best.Min, label)
	}
}

// placeLabel finds where mark k's label, at pt, fits inside area without
// touching the labels placed, the points or the lines: the label as given,
// then its short form, then that in small type, each ever farther out; far
// says it sits away from its point (a leader line joins them).
func placeLabel(k mark, pt vg.Point, area vg.Rectangle, labels, pts []vg.Rectangle, segs [][2]vg.Point) (best vg.Rectangle, ts text.Style, label string, far, found bool) {
	// The label as given, then its short form, then that in small type.
	type try struct {
		text string
		ts   text.Style
		gap  vg.Length
	}
	tries := []try{{k.Label, textStyle(tickSize, true, k.Color), glyphRadius + vg.Points(3)}}
	if k.Small {
		tries = []try{{k.Label, textStyle(tickSize-1, false, k.Color), vg.Points(5)}}
	}
	if k.Short != "" {
		tries = append(tries, try{k.Short, tries[0].ts, tries[0].gap}, try{k.Short, textStyle(tickSize-1, false, k.Color), tries[0].gap})
	}
	label = k.Label
search:
	for _, tr := range tries {
		w, h := tr.ts.Width(tr.text), tr.ts.Height(tr.text)
		for si, step := range []vg.Length{1, 1.6, 2.4, 3.4, 4.6, 6, 8} {
			for _, off := range labelOffsets(w, h, tr.gap*step) {
				r := vg.Rectangle{Min: vg.Point{X: pt.X + off.X, Y: pt.Y + off.Y}}
				r.Max = vg.Point{X: r.Min.X + w, Y: r.Min.Y + h}
				if !inside(r, area) {
					continue
				}
				clear := grow(r, lineClearance)
				if countOverlaps(grow(r, 2), labels) > 0 || countOverlaps(r, pts) > 0 || countCrossings(clear, segs) > 0 {
					continue
				}
				best, found, far, ts, label = r, true, si > 0, tr.ts, tr.text
				break search
			}
		}
	}
	return best, ts, label, far, found
}

// grow returns r widened by d on every side.
func grow(r vg.Rectangle, d vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: r.Min.X - d, Y: r.Min.Y - d}, Max: vg.Point{X: r.Max.X + d, Y: r.Max.Y + d}}
}

// labelOffsets lists where a w × h label may go relative to its point, in
// order of preference: right, left, above-right, below-right, above-left,
// below-left, above, below, then the rest of a 16-way compass.
func labelOffsets(w, h, gap vg.Length) []vg.Point {
	d := gap * 0.75
	out := []vg.Point{
		{X: gap, Y: -h / 2},
		{X: -gap - w, Y: -h / 2},
		{X: d, Y: d},
		{X: d, Y: -d - h},
		{X: -d - w, Y: d},
		{X: -d - w, Y: -d - h},
		{X: -w / 2, Y: gap},
		{X: -w / 2, Y: -gap - h},
	}
	for i := 0; i < 16; i++ {
		a := float64(i)*math.Pi/8 + math.Pi/16
		dx, dy := vg.Length(math.Cos(a))*gap, vg.Length(math.Sin(a))*gap
		// anchor the box's nearest corner or edge midpoint at (dx, dy)
		x := dx - w/2 + vg.Length(math.Copysign(1, float64(dx)))*w/2
		y := dy - h/2 + vg.Length(math.Copysign(1, float64(dy)))*h/2
		out = append(out, vg.Point{X: x, Y: y})
	}
	return out
}

// square returns the square of half-side r around pt.
func square(pt vg.Point, r vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: pt.X - r, Y: pt.Y - r}, Max: vg.Point{X: pt.X + r, Y: pt.Y + r}}
}

// inside reports whether r lies within bounds.
func inside(r, bounds vg.Rectangle) bool {
	return r.Min.X >= bounds.Min.X && r.Min.Y >= bounds.Min.Y && r.Max.X <= bounds.Max.X && r.Max.Y <= bounds.Max.Y
}

// overlaps reports whether rectangles a and b intersect.
func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// countOverlaps counts the rectangles of rs that r intersects.
func countOverlaps(r vg.Rectangle, rs []vg.Rectangle) int {
	n := 0
	for _, o := range rs {
		if overlaps(r, o) {
			n++
		}
	}
	return n
}

// countCrossings counts the segments that pass through r.
func countCrossings(r vg.Rectangle, segs [][2]vg.Point) int {
	n := 0
	for _, s := range segs {
		if segmentHitsRect(s[0], s[1], r) {
			n++
		}
	}
	return n
}

// segmentHitsRect reports whether the segment a–b passes through r,
// clipping it to r's slab in x and then in y (Liang–Barsky).
func segmentHitsRect(a, b vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	clip := func(p, q float64) bool { // p·t ≤ q
		if p == 0 {
			return q >= 0
		}
		t := q / p
		if p < 0 {
			if t > t1 {
				return false
			}
			t0 = math.Max(t0, t)
		} else {
			if t < t0 {
				return false
			}
			t1 = math.Min(t1, t)
		}
		return true
	}
	return clip(-dx, float64(a.X-r.Min.X)) && clip(dx, float64(r.Max.X-a.X)) &&
		clip(-dy, float64(a.Y-r.Min.Y)) && clip(dy, float64(r.Max.Y-a.Y)) && t0 <= t1
}

// nearestOn returns the point of r closest to pt.
func nearestOn(r vg.Rectangle, pt vg.Point) vg.Point {
	return vg.Point{X: max(r.Min.X, min(pt.X, r.Max.X)), Y: max(r.Min.Y, min(pt.Y, r.Max.Y))}
}
