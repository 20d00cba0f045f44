package littleslaw

import (
	"math"
	"testing"
)

// TestFormatters pins the sentence formats; they follow the report
// package's exported formatters, so the same value reads the same in notes,
// diagnoses, tables and charts.
func TestFormatters(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"count", fmtCount(160000), "160,000"},
		{"count rounds", fmtCount(150999.6), "151,000"},
		{"count negative", fmtCount(-1234), "-1,234"},
		{"count NaN", fmtCount(math.NaN()), "-"},
		{"iops small", fmtIOPS(950), "950"},
		{"iops 1k", fmtIOPS(1190), "1.19k"},
		{"iops 10k", fmtIOPS(24_530), "24.5k"},
		{"iops whole k", fmtIOPS(40_000), "40k"},
		{"iops 100k", fmtIOPS(158_900), "159k"},
		{"iops M", fmtIOPS(1_250_000), "1.25M"},
		{"iops Inf", fmtIOPS(math.Inf(1)), "-"},
		{"lat ns", fmtLat(850), "850 ns"},
		{"lat zero is unknown", fmtLat(0), "-"},
		{"lat µs", fmtLat(67_400), "67.4 µs"},
		{"lat ms", fmtLat(1.3e6), "1.3 ms"},
		{"lat ms 3 digits", fmtLat(1_612_000), "1.61 ms"},
		{"lat rounds up a unit", fmtLat(999_700), "1 ms"},
		{"lat s", fmtLat(2.5e9), "2.5 s"},
		{"lat long", fmtLat(1500e9), "1500 s"},
		{"lat negative", fmtLat(-1), "-"},
		{"MiB/s", fmtMiBps(620.7 * (1 << 20)), "621 MiB/s"},
		{"MiB/s small", fmtMiBps(57.8 * (1 << 20)), "57.8 MiB/s"},
		{"qd whole", fmtQD(64), "64"},
		{"qd model", fmtQD(7.62), "7.6"},
		{"qd deep model", fmtQD(207.6), "208"},
		{"bs KiB", fmtBS(4096), "4KiB"},
		{"bs MiB", fmtBS(1 << 20), "1MiB"},
		{"bs odd", fmtBS(1000), "1000B"},
		{"one job", countNoun(1, "job", "jobs"), "1 job"},
		{"jobs", countNoun(4, "job", "jobs"), "4 jobs"},
		{"cores", countNoun(2, "core", "cores"), "2 cores"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
