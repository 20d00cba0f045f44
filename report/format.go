package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// fmtIOPS formats an I/O rate compactly: 950, 14.8k, 159k, 1.25M.
func fmtIOPS(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case a < 1000:
		return trimZeros(strconv.FormatFloat(v, 'f', precFor(a), 64))
	case a < 1e6:
		return trimZeros(strconv.FormatFloat(v/1e3, 'f', precFor(a/1e3), 64)) + "k"
	default:
		return trimZeros(strconv.FormatFloat(v/1e6, 'f', precFor(a/1e6), 64)) + "M"
	}
}

// precFor returns the decimals that give three significant digits.
func precFor(a float64) int {
	switch {
	case a < 10:
		return 2
	case a < 100:
		return 1
	default:
		return 0
	}
}

// trimZeros removes trailing zeros after a decimal point ("1.50" → "1.5").
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// fmtCount formats an integer-valued quantity with thousands separators: 160,000.
func fmtCount(v float64) string {
	n := int64(math.Round(v))
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtLat formats a latency given in nanoseconds as ns, µs, ms or s with
// three significant digits: "67 µs", "1.61 ms".
func fmtLat(ns float64) string {
	if math.IsNaN(ns) || math.IsInf(ns, 0) || ns <= 0 {
		return "-"
	}
	var v float64
	var unit string
	switch {
	case ns < 1e3:
		v, unit = ns, "ns"
	case ns < 1e6:
		v, unit = ns/1e3, "µs"
	case ns < 1e9:
		v, unit = ns/1e6, "ms"
	default:
		v, unit = ns/1e9, "s"
	}
	s := trimZeros(strconv.FormatFloat(v, 'f', precFor(v), 64))
	// 999.6 µs rounds to "1000 µs": move up a unit instead.
	if s == "1000" && unit != "s" {
		return fmtLat(roundUpUnit(ns))
	}
	return s + " " + unit
}

// roundUpUnit nudges a latency just below a unit boundary onto it.
func roundUpUnit(ns float64) float64 {
	for _, b := range []float64{1e3, 1e6, 1e9} {
		if ns < b {
			return b
		}
	}
	return ns
}

// fmtMiBps formats a bandwidth in bytes per second as MiB/s.
func fmtMiBps(bytesPerSec float64) string {
	v := bytesPerSec / (1 << 20)
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// fmtBS formats a block size in bytes with binary suffixes: 4k, 128k, 1m.
func fmtBS(b int64) string {
	switch {
	case b <= 0:
		return "?"
	case b%(1<<30) == 0:
		return strconv.FormatInt(b>>30, 10) + "g"
	case b%(1<<20) == 0:
		return strconv.FormatInt(b>>20, 10) + "m"
	case b%(1<<10) == 0:
		return strconv.FormatInt(b>>10, 10) + "k"
	default:
		return strconv.FormatInt(b, 10)
	}
}

// fmtQD formats a queue depth; fractional (model) depths keep one decimal.
func fmtQD(qd float64) string {
	if qd == math.Trunc(qd) {
		return strconv.FormatFloat(qd, 'f', 0, 64)
	}
	if qd >= 100 {
		return strconv.FormatFloat(qd, 'f', 0, 64)
	}
	return strconv.FormatFloat(qd, 'f', 1, 64)
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
