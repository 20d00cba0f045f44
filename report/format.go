package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// FormatIOPS formats a rate in I/Os per second: "950", "24.6k", "1.25M"
// (littleslaw.FormatIOPS).
func FormatIOPS(v float64) string { return littleslaw.FormatIOPS(v) }

// FormatCount formats an exact count with comma separators: "160,000"
// (littleslaw.FormatCount).
func FormatCount(v float64) string { return littleslaw.FormatCount(v) }

// FormatLatency formats a latency given in nanoseconds: "152 µs", "1.3 ms";
// unknown (≤ 0) gives "-" (littleslaw.FormatLatency).
func FormatLatency(ns float64) string { return littleslaw.FormatLatency(ns) }

// FormatMiBps formats a bandwidth given in bytes per second as the number
// of MiB/s without the unit: "621", "57.8" (littleslaw.FormatMiBps).
func FormatMiBps(bytesPerSec float64) string { return littleslaw.FormatMiBps(bytesPerSec) }

// FormatQD formats a queue depth: "64", "7.6", "208" (littleslaw.FormatQD).
func FormatQD(qd float64) string { return littleslaw.FormatQD(qd) }

// fmtBS formats a block size in bytes with fio's suffixes (4k, 128k, 1m);
// an unknown size (≤ 0) gives "?".
func fmtBS(b int64) string {
	if b <= 0 {
		return "?"
	}
	return sweep.FormatSize(b)
}

// sig3 writes v with three significant digits (at most two decimals) and
// drops trailing zeros: 1.30 → "1.3", 24.55 → "24.6", 158.9 → "159".
func sig3(v float64) string {
	a := math.Abs(v)
	prec := 0
	switch {
	case a < 10:
		prec = 2
	case a < 100:
		prec = 1
	}
	return trimZeros(strconv.FormatFloat(v, 'f', prec, 64))
}

// trimZeros removes trailing zeros after a decimal point ("1.50" → "1.5").
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// fmtPct formats a fraction (0.05) as a signed percent ("+5.0%").
func fmtPct(frac float64) string {
	if math.IsNaN(frac) || math.IsInf(frac, 0) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", frac*100)
}

// ratioWords describes a ratio ≥ 1 in words: "doubles", "triples", "rises 1.4×".
func ratioWords(r float64) string {
	switch {
	case r >= 1.9 && r < 2.15:
		return "doubles"
	case r >= 2.85 && r < 3.2:
		return "triples"
	case r >= 1.05:
		return fmt.Sprintf("rises %.1f×", r)
	case r > 0.95:
		return "barely changes"
	default:
		return fmt.Sprintf("falls to %.2f×", r)
	}
}
