package report

import (
	"strings"
	"testing"
)

func TestFormatters(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"lat ns", fmtLat(850), "850 ns"},
		{"lat µs", fmtLat(67_400), "67.4 µs"},
		{"lat ms", fmtLat(1_612_000), "1.61 ms"},
		{"lat rounds up a unit", fmtLat(999_700), "1 ms"},
		{"lat s", fmtLat(2.5e9), "2.5 s"},
		{"lat unknown", fmtLat(0), "-"},
		{"iops small", fmtIOPS(950), "950"},
		{"iops k", fmtIOPS(14_800), "14.8k"},
		{"iops k round", fmtIOPS(158_900), "159k"},
		{"iops M", fmtIOPS(1_250_000), "1.25M"},
		{"count", fmtCount(160000), "160,000"},
		{"bs 4k", fmtBS(4096), "4k"},
		{"bs 1m", fmtBS(1 << 20), "1m"},
		{"bs odd", fmtBS(1000), "1000"},
		{"qd whole", fmtQD(64), "64"},
		{"qd model", fmtQD(7.62), "7.6"},
		{"pct", fmtPct(0.012), "+1.2%"},
		{"MiB/s", fmtMiBps(620.7 * (1 << 20)), "621"},
		{"qd label", qdLabel(16384), "16k"},
		{"doubles", ratioWords(2.02), "doubles"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestWrap(t *testing.T) {
	text := "Saturates at 94k IOPS from QD 64; QD 128 adds 1% IOPS and doubles latency. Best latency per IOPS at QD 16."
	for _, width := range []int{30, 50, 80} {
		out := wrap(text, width)
		for _, l := range strings.Split(out, "\n") {
			if len([]rune(l)) > width {
				t.Errorf("width %d: line %q too long", width, l)
			}
		}
		if strings.Join(strings.Fields(out), " ") != text {
			t.Errorf("width %d: words changed: %q", width, out)
		}
	}
}

func TestTickers(t *testing.T) {
	var labels []string
	for _, tk := range (log2Ticks{}).Ticks(0, 8) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, ","); got != "1,2,4,8,16,32,64,128,256" {
		t.Errorf("log2 ticks over QD 1…256 = %s", got)
	}
	labels = nil
	for _, tk := range (latLogTicks{}).Ticks(4, 6) { // 10 µs … 1 ms
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, ","); got != "10 µs,20 µs,50 µs,100 µs,200 µs,500 µs,1 ms" {
		t.Errorf("latency ticks over 10 µs…1 ms = %s", got)
	}
	labels = nil
	for _, tk := range (iopsTicks{}).Ticks(0, 100000) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, ","); got != "0,20k,40k,60k,80k,100k" {
		t.Errorf("IOPS ticks over 0…100k = %s", got)
	}
}
