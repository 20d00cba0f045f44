package littleslaw

import (
	"math"
	"testing"
)

// TestFioSteadyCheck holds fio's arithmetic: a line's slope is its step,
// a percent slope is of the integer mean, a deviation is the largest
// distance from the mean, and the limit is strict.
func TestFioSteadyCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      FioSteady
		window []uint64
		crit   float64
		ok     bool
	}{
		{"slope of a line", FioSteady{Slope: true, Limit: 11, Dur: 4}, []uint64{100, 110, 120, 130}, 10, true},
		{"falling slope, strict limit", FioSteady{Slope: true, Limit: 10, Dur: 4}, []uint64{130, 120, 110, 100}, -10, false},
		// slope 10.3; the mean 115.25 is 115 in fio's integers
		{"slope percent of the integer mean", FioSteady{Slope: true, Pct: true, Limit: 9, Dur: 4}, []uint64{100, 110, 120, 131}, 100 * 10.3 / 115, true},
		{"deviation", FioSteady{Limit: 16, Dur: 3}, []uint64{100, 100, 130}, 20, false},
		{"deviation percent of the exact mean", FioSteady{Pct: true, Limit: 20, Dur: 3}, []uint64{100, 100, 131}, 100 * (131 - 331.0/3) / (331.0 / 3), true},
		{"a constant", FioSteady{Pct: true, Limit: 0.01, Dur: 5}, []uint64{7, 7, 7, 7, 7}, 0, true},
		{"a short window is not judged", FioSteady{Limit: 100, Dur: 5}, []uint64{7, 7}, 0, false},
	} {
		c := tc.s.Check(tc.window)
		if math.Abs(c.Criterion-tc.crit) > 1e-9 || c.Attained != tc.ok {
			t.Errorf("%s: criterion %v attained %v, want %v %v", tc.name, c.Criterion, c.Attained, tc.crit, tc.ok)
		}
	}
	if got := FioSteadyRate(1500, 999); got != 1501 {
		t.Errorf("FioSteadyRate(1500, 999) = %d, want fio's 1000×1500/999 = 1501", got)
	}
}
