package report

import (
	"math"
	"strings"
	"testing"
)

func TestFormatters(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"lat ns", FormatLatency(850), "850 ns"},
		{"lat long", FormatLatency(1500e9), "1500 s"},
		{"lat negative", FormatLatency(-1), "-"},
		{"count NaN", FormatCount(math.NaN()), "-"},
		{"iops 1k", FormatIOPS(1190), "1.19k"},
		{"iops 10k", FormatIOPS(24_530), "24.5k"},
		{"iops Inf", FormatIOPS(math.Inf(1)), "-"},
		{"MiB/s small", FormatMiBps(57.8 * (1 << 20)), "57.8"},
		{"MiB/s unit", fmtMiBpsUnit(620.7 * (1 << 20)), "621 MiB/s"},
		{"one job", CountNoun(1, "job", "jobs"), "1 job"},
		{"jobs", CountNoun(4, "job", "jobs"), "4 jobs"},
		{"lat µs", FormatLatency(67_400), "67.4 µs"},
		{"lat ms", FormatLatency(1_612_000), "1.61 ms"},
		{"lat rounds up a unit", FormatLatency(999_700), "1 ms"},
		{"lat s", FormatLatency(2.5e9), "2.5 s"},
		{"lat unknown", FormatLatency(0), "-"},
		{"iops small", FormatIOPS(950), "950"},
		{"iops k", FormatIOPS(14_800), "14.8k"},
		{"iops k round", FormatIOPS(158_900), "159k"},
		{"iops M", FormatIOPS(1_250_000), "1.25M"},
		{"count", FormatCount(160000), "160,000"},
		{"count small fraction", FormatCount(2.6), "2.6"},
		{"count rounds", FormatCount(150999.6), "151,000"},
		{"count negative", FormatCount(-1234), "-1,234"},
		{"lat 1.3 ms", FormatLatency(1.3e6), "1.3 ms"},
		{"iops whole k", FormatIOPS(40_000), "40k"},
		{"qd deep model", FormatQD(207.6), "208"},
		{"bs unknown", fmtBS(0), "?"},
		{"inflight", fmtInflight(31.62), "31.6"},
		{"bs 4k", fmtBS(4096), "4k"},
		{"bs 1m", fmtBS(1 << 20), "1m"},
		{"bs odd", fmtBS(1000), "1000"},
		{"qd whole", FormatQD(64), "64"},
		{"qd model", FormatQD(7.62), "7.6"},
		{"pct", fmtPct(0.012), "+1.2%"},
		{"MiB/s", FormatMiBps(620.7 * (1 << 20)), "621"},
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
	text := "Saturates at 94k IOPS from QD 64; QD 128 adds 1% IOPS and doubles latency. Best IOPS per latency at QD 16."
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

// TestFmtNeed: the I/Os a target needs in flight keep their fraction,
// to one decimal (200.1 beside iodepth 201, not "200"); floating-point
// noise is forgiven.
func TestFmtNeed(t *testing.T) {
	for v, want := range map[float64]string{200.1: "200.1", 208.00000001: "208", 320: "320", 200.96: "201.0", 8.72: "8.7", 1.5: "1.5", 12345.6: "12346"} {
		if got := fmtOneDecimal(v); got != want {
			t.Errorf("fmtOneDecimal(%v) = %q, want %q", v, got, want)
		}
	}
}
