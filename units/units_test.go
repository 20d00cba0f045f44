package units_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/units"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"0", 0},
		{"1", 1},
		{"4096", 4096},
		{"512b", 512},
		{"4k", 4 << 10},
		{"4K", 4 << 10},
		{"4kb", 4 << 10},
		{"4KiB", 4 << 10},
		{"4kib", 4 << 10},
		{"1m", 1 << 20},
		{"1M", 1 << 20},
		{"16MiB", 16 << 20},
		{"16mb", 16 << 20},
		{"1g", 1 << 30},
		{"2GiB", 2 << 30},
		{"1t", 1 << 40},
		{"1TiB", 1 << 40},
		{"1p", 1 << 50},
		{"1.5g", 3 << 29},
		{"0.5k", 512},
		{"1.25m", 5 << 18},
		{".5m", 1 << 19},
		{"  64k  ", 64 << 10},
		{"4 k", 4 << 10},
		{"9223372036854775807", math.MaxInt64},
		{"8191p", 8191 << 50},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := units.ParseSize(tt.in)
			if err != nil {
				t.Fatalf("ParseSize(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("ParseSize(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseSizeRejects(t *testing.T) {
	bad := []string{
		"", "   ", "k", "MiB", "-1", "-4k", "+4k", "4x", "4kk", "4 kilobytes", "1e3",
		"0x10", "1.2.3", ".", "..k", "4k4", "9223372036854775808", "8192p", "8388608t",
		"99999999999999999999g", "1" + strings.Repeat("0", 400) + ".0", "NaN", "inf", "4,096", "4_096",
	}
	for _, in := range bad {
		t.Run(in, func(t *testing.T) {
			got, err := units.ParseSize(in)
			if err == nil {
				t.Fatalf("ParseSize(%q) = %d, want an error", in, got)
			}
			if !errors.Is(err, units.ErrBadSize) {
				t.Errorf("ParseSize(%q) error %v does not wrap ErrBadSize", in, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseSize(%q) error is not one line: %q", in, err)
			}
		})
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"0", 0},
		{"30", 30 * time.Second},
		{"1.5", 1500 * time.Millisecond},
		{"0.25", 250 * time.Millisecond},
		{" 10 ", 10 * time.Second},
		{"30s", 30 * time.Second},
		{"2m", 2 * time.Minute},
		{"1h", time.Hour},
		{"500ms", 500 * time.Millisecond},
		{"100us", 100 * time.Microsecond},
		{"100µs", 100 * time.Microsecond},
		{"250ns", 250},
		{"1m30s", 90 * time.Second},
		{"1.5h", 90 * time.Minute},
		{"9223372036", 9223372036 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := units.ParseDuration(tt.in)
			if err != nil {
				t.Fatalf("ParseDuration(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("ParseDuration(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseDurationRejects(t *testing.T) {
	bad := []string{
		"", " ", "s", "ms", "-1", "-1s", "-0.5", "abc", "10 seconds", "1d", "5x",
		"NaN", "inf", "+Inf", "1e400", "9223372037", "9223372036.854776", "1e10",
		"3000000h", "1h-5m", "1..5s",
	}
	for _, in := range bad {
		t.Run(in, func(t *testing.T) {
			got, err := units.ParseDuration(in)
			if err == nil {
				t.Fatalf("ParseDuration(%q) = %v, want an error", in, got)
			}
			if !errors.Is(err, units.ErrBadDuration) {
				t.Errorf("ParseDuration(%q) error %v does not wrap ErrBadDuration", in, err)
			}
		})
	}
}

// FuzzParseSize checks that ParseSize never panics, never returns a negative
// size, reports errors wrapping ErrBadSize, and that a parsed plain byte
// count round-trips.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"4k", "1.5g", "16MiB", "0", "-1", "9223372036854775807", "8192p",
		"1e3", ".", "4 k", "0.0000001t", "NaN", "1" + strings.Repeat("9", 30) + "k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := units.ParseSize(s)
		if err != nil {
			if !errors.Is(err, units.ErrBadSize) {
				t.Fatalf("ParseSize(%q): error %v does not wrap ErrBadSize", s, err)
			}
			return
		}
		if v < 0 {
			t.Fatalf("ParseSize(%q) = %d, negative", s, v)
		}
		// The decimal spelling of the result must parse back to itself.
		back, err := units.ParseSize(strconv.FormatInt(v, 10))
		if err != nil || back != v {
			t.Fatalf("ParseSize(%q) = %d, but ParseSize(%q) = %d, %v", s, v, strconv.FormatInt(v, 10), back, err)
		}
	})
}

// FuzzParseDuration checks that ParseDuration never panics, never returns a
// negative duration and reports errors wrapping ErrBadDuration.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"30", "1.5", "500ms", "1m30s", "100µs", "-1", "9223372036.854776",
		"1e10", "NaN", "inf", "2562047h", "0x1p-2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := units.ParseDuration(s)
		if err != nil {
			if !errors.Is(err, units.ErrBadDuration) {
				t.Fatalf("ParseDuration(%q): error %v does not wrap ErrBadDuration", s, err)
			}
			return
		}
		if d < 0 {
			t.Fatalf("ParseDuration(%q) = %v, negative", s, d)
		}
		// Go's own spelling of the result must parse back to itself.
		back, err := units.ParseDuration(d.String())
		if err != nil || back != d {
			t.Fatalf("ParseDuration(%q) = %v, but ParseDuration(%q) = %v, %v", s, d, d.String(), back, err)
		}
	})
}
