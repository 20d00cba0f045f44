// Package units reads and writes sizes and durations as fio spells them:
// "4k", "1.5g", "16MiB", "500ms", "30" (seconds).
package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ErrBadSize is wrapped by ParseSize for any malformed size.
var ErrBadSize = errors.New("bad size")

// ErrBadDuration is wrapped by ParseDuration for any malformed duration.
var ErrBadDuration = errors.New("bad duration")

// sizeUnits maps fio's size suffixes (lower-cased) to their multiplier in bytes.
// Like fio (kb_base=1024), k, m, g and t are binary; the explicit KiB/MiB forms
// are too. "kb"/"mb" are also taken as binary, as fio does by default.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40,
	"p": 1 << 50, "pb": 1 << 50, "pib": 1 << 50,
}

// ParseSize parses a size in bytes with fio's suffixes: "4096", "4k", "4K",
// "1m", "16MiB", "1g", "1.5g". The result is in bytes. Negative sizes and
// unknown suffixes are errors wrapping ErrBadSize.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("%w: empty", ErrBadSize)
	}
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	if num == "" {
		return 0, fmt.Errorf("%w: %q has no number (examples: 4k, 1m, 1g)", ErrBadSize, s)
	}
	mult, ok := sizeUnits[unit]
	if !ok && unit == "z" {
		return 0, fmt.Errorf("%w: %q is in zones (z), which only a zoned block device has: qdsweep does not run zoned devices; give bytes", ErrBadSize, s)
	}
	if !ok {
		return 0, fmt.Errorf("%w: %q has unknown unit %q (use k, m, g, t or KiB, MiB, GiB)", ErrBadSize, s, t[i:])
	}
	if !strings.Contains(num, ".") {
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%w: %q", ErrBadSize, s)
		}
		if v > math.MaxInt64/mult {
			return 0, fmt.Errorf("%w: %q is too large", ErrBadSize, s)
		}
		return v * mult, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%w: %q", ErrBadSize, s)
	}
	v := f * float64(mult)
	if v >= math.MaxInt64 {
		return 0, fmt.Errorf("%w: %q is too large", ErrBadSize, s)
	}
	return int64(v), nil
}

// ParseDuration parses a Go duration ("250ms", "1m30s") or fio's plain
// seconds ("30"), also with fio's suffixes "30s", "2m", "1h", "500ms", "100us".
// Negative durations are errors wrapping ErrBadDuration.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("%w: empty", ErrBadDuration)
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil {
		// Compare in float64 after scaling: float64(MaxInt64) rounds up to
		// 2^63, which does not fit in an int64.
		ns := f * float64(time.Second)
		if f < 0 || math.IsNaN(f) || ns >= float64(math.MaxInt64) {
			return 0, fmt.Errorf("%w: %q (use e.g. 30, 30s, 500ms)", ErrBadDuration, s)
		}
		return time.Duration(ns), nil
	}
	d, err := time.ParseDuration(strings.ReplaceAll(t, "µ", "u"))
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%w: %q (use e.g. 30, 30s, 500ms, 2m)", ErrBadDuration, s)
	}
	return d, nil
}

// FormatBytes formats a byte count with binary units for people: "512 B",
// "4 KiB", "1.5 GiB" (at most one decimal, none when exact).
func FormatBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(n)
	i := 0
	for (v >= 1024 || v <= -1024) && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f %s", v, units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// FioSize writes a byte count the way fio's bs is usually written:
// "512", "4k", "64k", "1m", "1g" when exact, else plain bytes.
func FioSize(b int64) string {
	units := []struct {
		suffix string
		size   int64
	}{{"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}}
	for _, u := range units {
		if b >= u.size && b%u.size == 0 {
			return strconv.FormatInt(b/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(b, 10)
}
