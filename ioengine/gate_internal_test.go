//go:build linux

package ioengine

import (
	"math"
	"testing"
	"time"
)

// TestPoissonGaps draws a poisson pacer's gaps (fio's rate_process=poisson)
// and checks they are exponential around the rate: the mean within 3 % of
// 1/rate and a coefficient of variation near 1, where the linear pacer's
// gaps are all the interval.
func TestPoissonGaps(t *testing.T) {
	const rate, n = 500.0, 40000
	p := newPoissonPacer([2]float64{rate, 0}, 7, 3)
	var sum, sq float64
	for range n {
		g := float64(p.gap(dirRead))
		if g < 0 {
			t.Fatalf("negative gap %v", g)
		}
		sum += g
		sq += g * g
	}
	mean := sum / n
	cv := math.Sqrt(sq/n-mean*mean) / mean
	want := 1e9 / rate
	t.Logf("mean gap %.0f ns (1/rate %.0f), CV %.3f", mean, want, cv)
	if math.Abs(mean-want) > 0.03*want {
		t.Errorf("mean gap %.0f ns, want %.0f within 3%%", mean, want)
	}
	if cv < 0.95 || cv > 1.05 {
		t.Errorf("coefficient of variation %.3f, want 1 within 5%% (exponential gaps)", cv)
	}
	lin := newPacer([2]float64{rate, 0})
	if g := lin.gap(dirRead); g != int64(want) {
		t.Errorf("linear gap %d ns, want %d", g, int64(want))
	}
}

// TestLatencyTargetSearch follows fio's lat_target_* on windows that meet
// the target up to a depth and miss it above: the depths the search
// visits, and where it ends.
func TestLatencyTargetSearch(t *testing.T) {
	for _, tc := range []struct {
		iodepth, meets int
		visits         []int
		ends           int
	}{
		// 1, 2, 4 meet; 8 fails: bisect to 6 (fails), 5 meets and
		// settles; one more window at 5, then the job ends.
		{16, 5, []int{1, 2, 4, 8, 6, 5, 5}, 5},
		// Every window meets: double to iodepth, settle there.
		{8, 100, []int{1, 2, 4, 8, 8}, 8},
		// Depth 1 misses: nowhere to go, the search stays at 1 and goes on.
		{8, 0, []int{1, 1, 1, 1, 1, 1, 1, 1}, 1},
	} {
		w := &Workload{LatTarget: LatencyTarget{Target: time.Millisecond, Window: time.Second, Percentile: 99}}
		g := newGate(w, tc.iodepth)
		m := &meter{measuring: true}
		g.begin(0)
		now := int64(0)
		var visits []int
		for i := 0; i < len(tc.visits) && !g.ended; i++ {
			visits = append(visits, g.qd)
			lat := int64(10 * time.Microsecond)
			if g.qd > tc.meets {
				lat = int64(10 * time.Millisecond)
			}
			for range 100 {
				g.done(dirRead, lat, 4096)
			}
			now += int64(time.Second)
			g.allow(m, now, 0)
			if g.quiesce {
				g.quiesce = false
				g.newWindow(now)
			}
		}
		if !equalInts(visits, tc.visits) || g.qd != tc.ends {
			t.Errorf("iodepth %d, met up to %d: visited %v, ended at %d; want %v, %d", tc.iodepth, tc.meets, visits, g.qd, tc.visits, tc.ends)
		}
		if tc.meets > 0 && !g.ended {
			t.Errorf("iodepth %d: the search did not end", tc.iodepth)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
