package report

import (
	"image/color"
	"math"

	"github.com/qdsweep/qdsweep/sweep"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// latStat is one latency statistic drawn on the latency chart.
type latStat struct {
	name   string
	get    func(xyStep) float64
	dashes []vg.Length
	width  float64
	marker bool
}

var latStats = []latStat{
	{"mean", func(x xyStep) float64 { return x.Mean }, nil, 2, true},
	{"p50", func(x xyStep) float64 { return x.P50 }, dashP50, 1.3, false},
	{"p99", func(x xyStep) float64 { return x.P99 }, dashP99, 1.6, false},
	{"p99.9", func(x xyStep) float64 { return x.P999 }, dashP999, 1.3, false},
}

// latStatLines draws series s's line of each statistic in stats in col
// (log2 x, log y), the marked one (mean) with its points and legend entry,
// and notes each statistic drawn in statDrawn. It returns every point
// drawn and whether the marked line was.
func latStatLines(p *plot.Plot, l *keyedLegend, s series, col color.Color, stats []latStat, statDrawn map[string]bool) (plotter.XYs, bool, error) {
	var all plotter.XYs
	drawn := false
	for _, st := range stats {
		get := st.get
		pts := logY(logX(xyOf(s, func(x xyStep) (float64, float64) { return x.QD, get(x) })))
		if len(pts) == 0 {
			continue
		}
		statDrawn[st.name] = true
		all = append(all, pts...)
		ln, err := plotter.NewLine(pts)
		if err != nil {
			return nil, false, err
		}
		ln.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(st.width), Dashes: st.dashes}
		p.Add(ln)
		if !st.marker {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, false, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		l.Add(s.Name, ln, sc)
		drawn = true
	}
	return all, drawn, nil
}

// latencyFigure is mean, p50, p99 and p99.9 latency against queue depth
// (log2 x, log y), with each curve's 2×R0 line and the SLO line. Colour
// names the curve, the dash pattern the statistic. With more than two
// curves only mean and p99 are drawn.
func latencyFigure(in chartInput) (*figure, error) {
	p := newPlot("queue depth (iodepth × numjobs, log2)", "latency (log scale)")
	p.X.Tick.Marker, p.Y.Tick.Marker = log2Ticks{}, latLogTicks{}
	p.Add(plotter.NewGrid())
	l := newKeyedLegend()
	qdMin, qdMax := math.Inf(1), math.Inf(-1)
	yMin, yMax := math.Inf(1), 0.0
	var r0s []r0Key // the 2 × R0 lines drawn, for the legend
	stats := latStats
	if len(in.Series) > 2 { // 4 lines per curve would be unreadable: keep mean and p99
		stats = []latStat{latStats[0], latStats[2]}
	}
	// Over two curves, full-width 2 × R0 bands of near-equal latencies
	// blur into one: each becomes a short tick at the right edge.
	nR0 := 0
	for _, s := range in.Series {
		if a := s.Analysis; s.Primary && a != nil && a.BaseLatencyNs > 0 {
			nR0++
		}
	}
	r0Style := func(col color.Color) (draw.LineStyle, float64) {
		if nR0 > 2 {
			return draw.LineStyle{Color: col, Width: vg.Points(3)}, 0.94
		}
		return bandStyle(col), 0
	}
	statDrawn := map[string]bool{}
	refined := false
	for i, s := range in.Series {
		col := seriesColor(i)
		pts, drawn, err := latStatLines(p, &l, s, col, stats, statDrawn)
		if err != nil {
			return nil, err
		}
		for _, q := range pts {
			qdMin, qdMax = math.Min(qdMin, q.X), math.Max(qdMax, q.X)
			yMin, yMax = math.Min(yMin, q.Y), math.Max(yMax, q.Y)
		}
		if !drawn {
			continue
		}
		// Rings on the mean line at the steps the refine pass measured
		// between grid steps, as on the IOPS chart.
		rs, err := refinedMarks(s, func(st sweep.Step) float64 { return math.Log10(st.Lat.MeanNs) }, col)
		if err != nil {
			return nil, err
		}
		if rs != nil {
			p.Add(rs)
			refined = true
		}
		if a := s.Analysis; s.Primary && a != nil && a.BaseLatencyNs > 0 {
			y := math.Log10(2 * a.BaseLatencyNs)
			sty, from := r0Style(col)
			p.Add(&hLine{Y: y, Style: sty, From: from})
			yMin, yMax = math.Min(yMin, y), math.Max(yMax, y)
			r0s = append(r0s, r0Key{"2 × R0 = " + FormatLatency(2*a.BaseLatencyNs), col})
		}
	}
	if math.IsInf(qdMax, -1) {
		return nil, ErrNoSteps
	}
	latencyKeys(&l, stats, statDrawn, refined, r0s, r0Style)
	if in.SLO != nil && in.SLO.LimitNs > 0 {
		y := math.Log10(in.SLO.LimitNs)
		p.Add(hline(y, targetRed, dashTarget, vg.Points(2)))
		yMin, yMax = math.Min(yMin, y), math.Max(yMax, y)
		l.Add("SLO "+statName(in.SLO.Stat)+" ≤ "+FormatLatency(in.SLO.LimitNs), lineThumb(targetRed, dashTarget, 2))
	}
	setLog2Range(&p.X, qdMin, qdMax)
	f := &figure{Title: "Latency vs queue depth", Subtitle: in.Subtitle, Simulated: in.Simulated, Plot: p, Legend: l.Legend, Keys: l.Names}
	p.Y.Min, p.Y.Max = latLogRange(yMin, yMax)
	return f, nil
}

// r0Key is a 2 × R0 line drawn, for the legend: its words and colour.
type r0Key struct {
	label string
	col   color.Color
}

// latencyKeys adds the latency chart's keys to l: the statistics drawn,
// the refined steps, the statistics hidden and the 2 × R0 lines.
func latencyKeys(l *keyedLegend, stats []latStat, statDrawn map[string]bool, refined bool, r0s []r0Key, r0Style func(color.Color) (draw.LineStyle, float64)) {
	for _, st := range stats {
		if statDrawn[st.name] {
			l.Add(st.name, lineThumb(guideGrey, st.dashes, st.width))
		}
	}
	if refined {
		l.Add("refined step (between grid steps)", glyphThumb(guideGrey, draw.RingGlyph{}))
	}
	if len(stats) < len(latStats) {
		l.Add("(p50, p99.9 hidden: over 2 curves)", thumb(func(*draw.Canvas) {}))
	}
	// The 2 × R0 values go in the legend, in their curve's colour: a label
	// at the line's end would sit among the curves' first points.
	switch {
	case len(r0s) == 1:
		l.Add(r0s[0].label+" (twice base latency)", thumbOf(bandStyle(r0s[0].col)))
	case len(r0s) == 2:
		l.Add("2 × R0 (twice base latency):", thumb(func(*draw.Canvas) {}))
		for _, k := range r0s {
			l.Add(k.label, thumbOf(bandStyle(k.col)))
		}
	case len(r0s) > 2:
		sty, _ := r0Style(guideGrey)
		l.Add("2 × R0 (ticks at the right edge)", thumbOf(sty))
	}
}

// statName spells a latency statistic for people: "p999" → "p99.9".
func statName(s string) string {
	if s == "p999" {
		return "p99.9"
	}
	return s
}
