package report

import (
	"fmt"
	"strings"

	"github.com/qdsweep/qdsweep/sweep"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// dashboard draws the three charts and a text panel on one 2 × 2 page.
func dashboard(c draw.Canvas, figs []*figure, panel []panelLine) {
	c.SetColor(bgWhite)
	c.Fill(c.Rectangle.Path())
	tiles := draw.Tiles{Rows: 2, Cols: 2, PadX: vg.Points(6), PadY: vg.Points(6),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	for i, f := range figs {
		if i >= 3 {
			break
		}
		f.draw(tiles.At(c, i%2, i/2))
	}
	drawPanel(tiles.At(c, 1, 1), panel)
}

// panelLine is one line of the dashboard's text panel: a bold key and its
// value, or a heading when Key is empty and Heading is set.
type panelLine struct {
	Key, Value string
	Heading    bool
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
	eng := m.Engine
	if m.EngineFallbackReason != "" {
		eng += " (" + m.EngineFallbackReason + ")"
	}
	if m.Simulated {
		eng += " · SIMULATED " + m.Workload.Sim
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
	ls = append(ls, panelLine{Value: "Recommendation", Heading: true})
	for _, s := range analysisLines(r, o) {
		for _, part := range strings.Split(s, "\n") {
			ls = append(ls, panelLine{Value: strings.TrimSpace(part)})
		}
	}
	return ls
}

// drawPanel writes the panel lines into c, wrapping values to its width
// and ending with "…" when they do not fit.
func drawPanel(c draw.Canvas, lines []panelLine) {
	pad := vg.Points(14)
	c = draw.Crop(c, pad, -pad, pad, -pad)
	key := textStyle(tickSize+1, true, bgBlack)
	val := textStyle(tickSize+1, false, bgBlack)
	head := textStyle(titleSize, true, bgBlack)
	keyW := vg.Length(0)
	for _, l := range lines {
		if l.Key != "" {
			keyW = max(keyW, key.Width(l.Key+"  "))
		}
	}
	y := c.Max.Y
	lineH := val.Height("Mg") * 1.25
	for i, l := range lines {
		if l.Heading {
			if i > 0 {
				y -= lineH * 0.6
			}
			y -= head.Height(l.Value) * 1.2
			c.FillText(head, vg.Point{X: c.Min.X, Y: y}, l.Value)
			continue
		}
		x := c.Min.X
		if l.Key != "" {
			y -= lineH
			c.FillText(key, vg.Point{X: x, Y: y}, l.Key)
			x += keyW
			y += lineH
		}
		for _, w := range wrapText(val, l.Value, c.Max.X-x) {
			y -= lineH
			if y < c.Min.Y+lineH {
				c.FillText(val, vg.Point{X: x, Y: y}, "…")
				return
			}
			c.FillText(val, vg.Point{X: x, Y: y}, w)
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
