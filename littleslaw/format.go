package littleslaw

import (
	"math"
	"strconv"
	"strings"
)

// The number formats of the notes, messages and diagnosis sentences this
// package writes: one function per kind of quantity. They follow the same
// rules as the report package's exported formatters (three significant
// digits, trailing zeros dropped) so a number reads the same wherever it is
// printed; this package cannot import report, which imports it.

// fmtCount formats an exact count such as a target IOPS rounded to a whole
// number with comma separators: 151000 → "151,000".
func fmtCount(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
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

// fmtIOPS formats a measured rate in I/Os per second with three significant
// digits and a k or M suffix: 950, 1.19k, 24.5k, 159k, 1.25M.
func fmtIOPS(v float64) string {
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

// fmtLat formats a latency given in nanoseconds as ns, µs, ms or s with
// three significant digits: "850 ns", "67.4 µs", "1.3 ms", "2.5 s". A value
// that rounds to 1000 of a unit moves up to the next one ("1 ms").
func fmtLat(ns float64) string {
	if math.IsNaN(ns) || math.IsInf(ns, 0) || ns < 0 {
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

// fmtMiBps formats a bandwidth given in bytes per second as MiB/s with its
// unit: whole MiB/s from 100 up, one decimal below ("357 MiB/s", "57.8 MiB/s").
func fmtMiBps(bytesPerSec float64) string {
	mib := bytesPerSec / (1 << 20)
	if mib >= 100 {
		return strconv.FormatFloat(mib, 'f', 0, 64) + " MiB/s"
	}
	return strconv.FormatFloat(mib, 'f', 1, 64) + " MiB/s"
}

// fmtQD formats a queue depth: whole depths without a fraction, fractional
// (model) depths below 100 with one decimal: "64", "7.6", "208".
func fmtQD(qd float64) string {
	if qd == math.Trunc(qd) || math.Abs(qd) >= 100 {
		return strconv.FormatFloat(qd, 'f', 0, 64)
	}
	return strconv.FormatFloat(qd, 'f', 1, 64)
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
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}
