package report

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestLatLogTicksLabelEnough checks that a latency axis always has at
// least four labelled ticks, in increasing order, and that 1-2-5 steps are
// kept for ranges of two decades or more.
func TestLatLogTicksLabelEnough(t *testing.T) {
	tests := []struct {
		name     string
		lo, hi   float64 // ns
		want125  bool    // only 1, 2, 5 × 10ⁿ labels
		wantSome string  // a label that must be present ("" for none)
	}{
		{"sim 1.3–6.4 ms", 1.2e6, 7e6, false, "1.5 ms"},
		{"one decade 1–10 ms", 1e6, 1e7, false, "1.5 ms"},
		{"two decades 50 µs–5 ms", 5e4, 5e6, true, "200 µs"},
		{"narrow 1.30–1.46 ms", 1.3e6, 1.46e6, false, ""},
		{"very narrow 1.30–1.31 ms", 1.3e6, 1.31e6, false, ""},
		{"six decades", 1e3, 1e9, false, "1 ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var labels []string
			last := math.Inf(-1)
			for _, tk := range (latLogTicks{}).Ticks(math.Log10(tc.lo), math.Log10(tc.hi)) {
				if tk.Label == "" {
					continue
				}
				if tk.Value <= last {
					t.Errorf("labels out of order at %s", tk.Label)
				}
				last = tk.Value
				labels = append(labels, tk.Label)
			}
			if len(labels) < minLatLabels {
				t.Errorf("%d labels %q, want at least %d", len(labels), labels, minLatLabels)
			}
			all := strings.Join(labels, ",")
			if tc.wantSome != "" && !strings.Contains(","+all+",", ","+tc.wantSome+",") {
				t.Errorf("labels %s lack %s", all, tc.wantSome)
			}
			if tc.want125 {
				for _, l := range labels {
					if d := l[0]; d != '1' && d != '2' && d != '5' {
						t.Errorf("label %s is not a 1-2-5 step (%s)", l, all)
					}
				}
			}
		})
	}
}

// TestLatLogRange checks that the latency range widens to a labelled tick
// below the data when one is close, and never cuts data off.
func TestLatLogRange(t *testing.T) {
	tests := []struct{ lo, hi, wantLo float64 }{
		{math.Log10(1.3e6), math.Log10(6.6e6), 6},              // 1.3 ms: down to 1 ms
		{math.Log10(61e3), math.Log10(5.2e6), math.Log10(5e4)}, // 61 µs: down to 50 µs
	}
	for _, tc := range tests {
		lo, hi := latLogRange(tc.lo, tc.hi)
		if lo > tc.lo || hi < tc.hi {
			t.Errorf("range %.3f–%.3f cuts data %.3f–%.3f", lo, hi, tc.lo, tc.hi)
		}
		if math.Abs(lo-tc.wantLo) > 1e-9 {
			t.Errorf("range from %.3f starts at %.3f, want %.3f", tc.lo, lo, tc.wantLo)
		}
	}
}

func TestSegmentHitsRect(t *testing.T) {
	r := vg.Rectangle{Min: vg.Point{X: 10, Y: 10}, Max: vg.Point{X: 20, Y: 20}}
	tests := []struct {
		name string
		a, b vg.Point
		want bool
	}{
		{"through", vg.Point{X: 0, Y: 15}, vg.Point{X: 30, Y: 15}, true},
		{"diagonal through", vg.Point{X: 0, Y: 0}, vg.Point{X: 30, Y: 30}, true},
		{"inside", vg.Point{X: 12, Y: 12}, vg.Point{X: 14, Y: 18}, true},
		{"above", vg.Point{X: 0, Y: 25}, vg.Point{X: 30, Y: 25}, false},
		{"stops short", vg.Point{X: 0, Y: 15}, vg.Point{X: 9, Y: 15}, false},
		{"diagonal past a corner", vg.Point{X: 0, Y: 25}, vg.Point{X: 25, Y: 40}, false},
		{"vertical through", vg.Point{X: 15, Y: 0}, vg.Point{X: 15, Y: 30}, true},
	}
	for _, tc := range tests {
		if got := segmentHitsRect(tc.a, tc.b, r); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestWrapKeepsUnits checks that a number and its unit stay on one line.
func TestWrapKeepsUnits(t *testing.T) {
	text := "saturates at 17.6k IOPS from QD 16, mean latency 909 µs (R0 96 µs), knee N* ≈ 1.1, 1176 MiB/s"
	for width := 20; width <= 60; width++ {
		out := WrapHanging(text, width, "  - ", "    ")
		for _, l := range strings.Split(out, "\n") {
			f := strings.Fields(l)
			if len(f) == 0 {
				t.Fatalf("width %d: empty line in %q", width, out)
			}
			if first := strings.TrimRight(f[0], ".,;:)"); first == "µs" || first == "ms" || first == "IOPS" || first == "MiB/s" || first == "≈" {
				t.Errorf("width %d: line starts with a unit: %q", width, l)
			}
		}
		if strings.Join(strings.Fields(out), " ") != "- "+text {
			t.Errorf("width %d: words changed: %q", width, out)
		}
	}
}

// TestFitPanelKeepsKeyLines checks that the dashboard panel never leaves
// out a rank-0 line, whatever the room, and leaves out evidence first.
func TestFitPanelKeepsKeyLines(t *testing.T) {
	var lines []panelLine
	lines = append(lines, panelLine{Value: "Recommendation", Heading: true})
	for i := 0; i < 6; i++ {
		lines = append(lines,
			panelLine{Value: "Saturates at 160k IOPS from QD 256; QD 512 adds no IOPS and doubles latency.", Rank: rankKey},
			panelLine{Value: "Diagnosis (device-cap): IOPS flat at 160k from QD 256.", Rank: rankFinding},
			panelLine{Value: "QD 256 → 1024: IOPS 160.0k → 160.0k (+0.0%), 625 MiB/s → 625 MiB/s", Bullet: true, Rank: rankEvidence})
	}
	for _, hpt := range []float64{60, 200, 400, 2000} {
		kept, _, cut := fitPanel(lines, vg.Points(500), vg.Points(hpt))
		keys, evidence, findings := 0, 0, 0
		for _, l := range kept {
			switch l.Rank {
			case rankKey:
				keys++
			case rankFinding:
				findings++
			case rankEvidence:
				evidence++
			}
		}
		if keys != 7 {
			t.Errorf("height %.0f pt: %d rank-0 lines kept, want 7", hpt, keys)
		}
		if evidence > 0 && findings < 6 {
			t.Errorf("height %.0f pt: evidence kept while %d of 6 findings were left out", hpt, 6-findings)
		}
		if cut != (len(kept) < len(lines)) {
			t.Errorf("height %.0f pt: cut = %v with %d of %d lines", hpt, cut, len(kept), len(lines))
		}
	}
}
