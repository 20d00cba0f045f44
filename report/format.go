package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/units"
)

// FormatCount formats an exact count, such as a target in I/Os per second
// or a number of I/Os in flight, as a whole number with comma separators:
// 160000 → "160,000". Values below 10 that are not whole keep one decimal
// (2.6 → "2.6"). NaN and ±Inf give "-".
func FormatCount(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case math.Abs(v) < 10 && v != math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	s := strconv.FormatInt(int64(math.Round(math.Abs(v))), 10)
	var b strings.Builder
	if v <= -0.5 {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// FormatIOPS formats a rate in I/Os per second with three significant
// digits and a k (10³) or M (10⁶) suffix: 950 → "950", 24600 → "24.6k",
// 158900 → "159k", 1250000 → "1.25M". NaN and ±Inf give "-".
func FormatIOPS(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case a < 1e3:
		return sig3(v)
	case a < 1e6:
		return sig3(v/1e3) + "k"
	}
	return sig3(v/1e6) + "M"
}

// FormatLatency formats a latency given in nanoseconds as ns, µs, ms or s
// with three significant digits and trailing zeros dropped: 850 → "850 ns",
// 152000 → "152 µs", 1300000 → "1.3 ms", 1612000 → "1.61 ms". A value that
// rounds to 1000 of a unit moves up to the next ("1 ms" for 999.7 µs).
// Zero, negative, NaN and ±Inf latencies are unknown and give "-".
func FormatLatency(ns float64) string {
	if math.IsNaN(ns) || math.IsInf(ns, 0) || ns <= 0 {
		return "-"
	}
	units := []struct {
		name  string
		scale float64
	}{{"ns", 1}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}}
	i := 0
	for i < len(units)-1 && ns >= units[i+1].scale {
		i++
	}
	s := sig3(ns / units[i].scale)
	if s == "1000" && i < len(units)-1 {
		return "1 " + units[i+1].name
	}
	return s + " " + units[i].name
}

// FormatMiBps formats a bandwidth given in bytes per second as the number
// of MiB/s (2²⁰ bytes per second), without the unit: whole MiB/s from 100
// up, one decimal below: 650_853_171 → "621", 60_607_693 → "57.8".
func FormatMiBps(bytesPerSec float64) string {
	v := bytesPerSec / (1 << 20)
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// FormatQD formats a queue depth (I/Os in flight): whole depths without a
// fraction ("64"), fractional model depths below 100 with one decimal
// ("7.6"), larger ones rounded ("208").
func FormatQD(qd float64) string {
	if qd == math.Trunc(qd) || math.Abs(qd) >= 100 {
		return strconv.FormatFloat(qd, 'f', 0, 64)
	}
	return strconv.FormatFloat(qd, 'f', 1, 64)
}

// fmtBS formats a block size in bytes with fio's suffixes (4k, 128k, 1m);
// an unknown size (≤ 0) gives "?".
func fmtBS(b int64) string {
	if b <= 0 {
		return "?"
	}
	return units.FioSize(b)
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

// fmtNeed formats the I/Os target t needs in flight (target × latency,
// littleslaw's Inflight) with its fraction (200.1, not 200), so the whole
// I/Os a split gives for it (201) follow from the figure.
func fmtNeed(t littleslaw.TargetResult) string {
	v := t.Inflight
	if v <= 0 { // a result written before Inflight was recorded
		v = littleslaw.QueueDepth(t.TargetIOPS, t.LatencyNs)
	}
	if v <= 0 {
		v = t.QD
	}
	return fmtOneDecimal(v)
}

// fmtOneDecimal is fmtNeed's rounding: a whole number when v is one (within
// floating-point noise) or large, else v to one decimal (8.72 → 8.7), so
// the fraction the split rounds up stays in sight.
func fmtOneDecimal(v float64) string {
	c := float64(littleslaw.CeilQD(v))
	if c-v < 1e-9*c || v >= 10000 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64) // whole (floating-point noise forgiven)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// simSpec is a stored simulator setting in the form --sim takes
// (latency=1.3ms,jitter=0.05,iops=160000,bw=2400m), or as stored when it
// does not read as one.
func simSpec(stored string) string {
	if c, err := ioengine.ParseSimConfig(stored); err == nil {
		return c.Spec()
	}
	return stored
}
