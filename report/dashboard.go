package report

import (
	"fmt"
	"strings"

	"github.com/qdsweep/qdsweep/sweep"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// dashboard draws figs and the text panel on one page, two tiles a row in
// the order given, the panel in the tile after the last figure (three
// figures and the panel make the usual 2 × 2 page).
func dashboard(c draw.Canvas, figs []*figure, panel []panelLine) {
	c.SetColor(bgWhite)
	c.Fill(c.Rectangle.Path())
	n := len(figs) + 1
	tiles := draw.Tiles{Rows: (n + 1) / 2, Cols: 2, PadX: vg.Points(6), PadY: vg.Points(6),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	for i, f := range figs {
		f.draw(tiles.At(c, i%2, i/2))
	}
	drawPanel(tiles.At(c, len(figs)%2, len(figs)/2), panel)
}

// dashboardSize is the dashboard's size in pixels for n figures: dashWpx
// wide, dashHpx for the first two rows and half of it for each further row.
func dashboardSize(n int) (int, int) {
	rows := (n + 2) / 2
	return dashWpx, dashHpx * max(rows, 2) / 2
}

// panelLine is one paragraph of the dashboard's text panel: a bold key
// and its value, a heading (Heading), a bold sub-heading (Sub) or an
// indented bullet (Bullet). When the panel is too small, paragraphs of the
// highest Rank are left out first; rank 0 is always shown.
type panelLine struct {
	Key, Value string
	Heading    bool
	Sub        bool
	Bullet     bool
	Rank       int
}

// panelLines describes r for the dashboard: workload, device, engine,
// kernel, date, tool version and the recommendation.
func panelLines(r *sweep.Result, o Options) []panelLine {
	m := r.Meta
	ls := []panelLine{{Value: "About this sweep", Heading: true}}
	add := func(k, v string) {
		if strings.TrimSpace(v) != "" {
			ls = append(ls, panelLine{Key: k, Value: v})
		}
	}
	add("Workload", workloadWords(r))
	add("Target", m.Target)
	if d := m.Device; d != nil {
		dev := d.Name
		if d.Model != "" {
			dev += " · " + strings.TrimSpace(d.Model)
		}
		if d.Scheduler != "" {
			dev += " · scheduler " + d.Scheduler
		}
		if d.NrRequests > 0 {
			dev += fmt.Sprintf(" · nr_requests %d", d.NrRequests)
		}
		add("Device", dev)
	}
	eng := engineWords(m)
	if m.EngineFallbackReason != "" {
		eng += " (" + m.EngineFallbackReason + ")"
	}
	if m.Simulated {
		eng += " · SIMULATED " + simSpec(m.Workload.Sim)
	}
	add("Engine", eng)
	host := m.Kernel
	if m.Hostname != "" {
		host += " · " + m.Hostname
	}
	if m.CPUs > 0 {
		host += fmt.Sprintf(" · %d CPUs", m.CPUs)
	}
	add("Kernel", host)
	if !m.Start.IsZero() {
		add("Date", m.Start.UTC().Format("2006-01-02 15:04:05 MST"))
	}
	tool := m.Tool
	if tool == "" {
		tool = "qdsweep"
	}
	add("Tool", strings.TrimSpace(tool+" "+m.Version))
	ls[len(ls)-1].Rank = rankDetail // the tool version goes first when room is short
	ls = append(ls, panelLine{Value: "Recommendation", Heading: true})
	return append(ls, recommendationLines(analysisParas(r, o))...)
}

// recommendationLines lays the analysis out for the panel: each curve's
// name once as a sub-heading, then its paragraphs; a finding's evidence
// and next step as bullets ranked below everything else.
func recommendationLines(ps []para) []panelLine {
	var ls []panelLine
	last := ""
	for _, p := range ps {
		if p.Curve != "" && p.Curve != last {
			ls = append(ls, panelLine{Value: p.Curve, Sub: true})
		}
		last = p.Curve
		ls = append(ls, panelLine{Value: p.Text, Rank: p.Rank})
		for _, e := range p.Evidence {
			ls = append(ls, panelLine{Value: e, Bullet: true, Rank: rankEvidence})
		}
		if p.Next != "" {
			ls = append(ls, panelLine{Value: "Next: " + p.Next, Bullet: true, Rank: rankEvidence})
		}
	}
	return ls
}

// panelStyle is the text styles and spacing of the panel at one size.
type panelStyle struct {
	key, val, sub, head text.Style
	lineH, keyW         vg.Length
}

// newPanelStyle returns the panel's styles at body size pt points.
func newPanelStyle(pt float64, lines []panelLine) panelStyle {
	st := panelStyle{
		key:  textStyle(pt, true, bgBlack),
		val:  textStyle(pt, false, bgBlack),
		sub:  textStyle(pt, true, bgBlack),
		head: textStyle(pt+3, true, bgBlack),
	}
	st.lineH = st.val.Height("Mg") * 1.12
	for _, l := range lines {
		if l.Key != "" {
			st.keyW = max(st.keyW, st.key.Width(l.Key+"  "))
		}
	}
	return st
}

// bulletIndent is how far bullets sit in from the panel's left edge.
var bulletIndent = vg.Points(12)

// layout returns the wrapped text of each line for a panel width w and
// the height all of them take.
func (st panelStyle) layout(lines []panelLine, w vg.Length) ([][]string, vg.Length) {
	out := make([][]string, len(lines))
	var h vg.Length
	for i, l := range lines {
		switch {
		case l.Heading:
			out[i] = []string{l.Value}
			h += st.head.Height(l.Value) * 1.2
			if i > 0 {
				h += st.lineH * 0.6
			}
		case l.Sub:
			out[i] = []string{l.Value}
			h += st.lineH * 1.25
		default:
			x := vg.Length(0)
			if l.Key != "" {
				x = st.keyW
			} else if l.Bullet {
				x = bulletIndent
			}
			out[i] = wrapText(st.val, l.Value, w-x)
			h += st.lineH * vg.Length(len(out[i]))
		}
	}
	return out, h
}

// fitPanel chooses what the panel shows in a w × h area. Rank 0 lines
// always show; lines of each following rank are added in order while they
// fit, the first that does not ending the additions. Of the normal and a
// slightly smaller text size it takes the one that shows more; when rank 0
// alone does not fit, the text is made smaller still. It reports whether
// lines were left out.
func fitPanel(lines []panelLine, w, h vg.Length) ([]panelLine, panelStyle, bool) {
	kept, st, ok := fitPanelAt(lines, w, h, tickSize+1)
	if k2, st2, ok2 := fitPanelAt(lines, w, h, tickSize); ok2 && (!ok || len(k2) > len(kept)) {
		kept, st, ok = k2, st2, true
	}
	for _, pt := range []float64{tickSize - 1, tickSize - 2} {
		if ok {
			break
		}
		kept, st, ok = fitPanelAt(lines, w, h, pt)
	}
	return kept, st, len(kept) < len(lines)
}

// fitPanelAt is fitPanel at one text size of pt points; ok is false when
// rank 0 alone does not fit.
func fitPanelAt(lines []panelLine, w, h vg.Length, pt float64) ([]panelLine, panelStyle, bool) {
	keep := make([]bool, len(lines))
	for i, l := range lines {
		keep[i] = l.Rank == rankKey
	}
	fits := func() bool {
		kept, st := keptLines(lines, keep, pt)
		_, need := st.layout(kept, w)
		return need <= h
	}
	if !fits() {
		kept, st := keptLines(lines, keep, pt)
		return kept, st, false
	}
ranks:
	for rank := rankKey + 1; rank <= rankEvidence; rank++ {
		for i, l := range lines {
			if l.Rank != rank {
				continue
			}
			if keep[i] = true; !fits() {
				keep[i] = false
				break ranks
			}
		}
	}
	kept, st := keptLines(lines, keep, pt)
	return kept, st, true
}

// keptLines returns the lines marked in keep, dropping sub-headings left
// without lines under them, and the panel style for them at pt points.
func keptLines(lines []panelLine, keep []bool, pt float64) ([]panelLine, panelStyle) {
	var out []panelLine
	for i, l := range lines {
		if !keep[i] && !l.Sub {
			continue
		}
		if l.Sub && (i+1 >= len(lines) || !keep[i+1]) {
			continue
		}
		out = append(out, l)
	}
	return out, newPanelStyle(pt, out)
}

// drawPanel writes the panel lines into c, wrapped to its width; when they
// do not all fit, the least important are left out and a last line says
// that the full text is in the Markdown report.
func drawPanel(c draw.Canvas, lines []panelLine) {
	pad := vg.Points(14)
	c = draw.Crop(c, pad, -pad, pad, -pad)
	w, h := c.Max.X-c.Min.X, c.Max.Y-c.Min.Y
	note := panelLine{Value: "More in the Markdown report.", Bullet: false}
	kept, st, cut := fitPanel(lines, w, h-newPanelStyle(tickSize, nil).lineH*1.5)
	if cut {
		kept = append(kept, note)
	}
	wrapped, _ := st.layout(kept, w)
	y := c.Max.Y
	for i, l := range kept {
		switch {
		case l.Heading:
			if i > 0 {
				y -= st.lineH * 0.6
			}
			y -= st.head.Height(l.Value) * 1.2
			c.FillText(st.head, vg.Point{X: c.Min.X, Y: y}, l.Value)
			continue
		case l.Sub:
			y -= st.lineH * 1.25
			c.FillText(st.sub, vg.Point{X: c.Min.X, Y: y}, l.Value)
			continue
		}
		x := c.Min.X
		val := st.val
		if l.Key != "" {
			c.FillText(st.key, vg.Point{X: x, Y: y - st.lineH}, l.Key)
			x += st.keyW
		} else if l.Bullet {
			c.FillText(val, vg.Point{X: x + bulletIndent/3, Y: y - st.lineH}, "·")
			x += bulletIndent
		}
		if l == note {
			val.Color = guideGrey
		}
		for _, line := range wrapped[i] {
			y -= st.lineH
			c.FillText(val, vg.Point{X: x, Y: y}, line)
		}
	}
}

// wrapText breaks s into lines no wider than width in style sty.
func wrapText(sty text.Style, s string, width vg.Length) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if line != "" && sty.Width(try) > width {
			out = append(out, line)
			line = w
			continue
		}
		line = try
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
