//go:build linux

package ioengine_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestSeriesBins: with SeriesBins each slice's latency buckets count, per
// direction, every read and every write of the run once, each in a
// bucket that holds a latency the run saw (between its min and max), and
// each direction's mean latency, weighted by its completions, is the
// slice's; with SeriesPerJob each job's own series counts its I/Os and
// together they count the run's; Coarsen keeps the time, the I/Os and the buckets.
func TestSeriesBins(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bins")
	if err := ioengine.CreateScratch(context.Background(), path, 16<<20); err != nil {
		t.Fatal(err)
	}
	w := ioengine.Workload{Filename: path, RW: ioengine.RandRW, RWMixRead: 50, BS: 4096, IODepth: 1, NumJobs: 2, Permit: guard.Permit{AllowWrite: true}}
	ctl := ioengine.Control{Runtime: 300 * time.Millisecond, SeriesInterval: 50 * time.Millisecond, SeriesBins: true, SeriesPerJob: true}
	st, err := mustEngine(t, "psync").Run(context.Background(), w, ctl)
	if err != nil {
		t.Fatal(err)
	}
	count := func(series []ioengine.Interval) (ios int64, dirs [2]int64, dur int64) {
		for _, iv := range series {
			ios += iv.IOs
			dur += iv.DurNs
			var n [2]int64
			for d, bs := range iv.Bins {
				for _, b := range bs {
					n[d] += b.Count
				}
			}
			if iv.IOs > 0 && math.Abs(iv.DirLatMeanNs[0]*float64(n[0])+iv.DirLatMeanNs[1]*float64(n[1])-iv.LatMeanNs*float64(iv.IOs)) > 1e-6*iv.LatMeanNs*float64(iv.IOs) {
				t.Errorf("slice at %d ns: reads' mean %.0f ns × %d and writes' %.0f × %d are not the slice's %.0f × %d", iv.StartNs, iv.DirLatMeanNs[0], n[0], iv.DirLatMeanNs[1], n[1], iv.LatMeanNs, iv.IOs)
			}
			for d, bs := range iv.Bins {
				for _, b := range bs {
					dirs[d] += b.Count
					if b.Count <= 0 || b.HiNs <= st.All.Lat.MinNs || b.LoNs > st.All.Lat.MaxNs {
						t.Errorf("bucket [%d, %d) of %d, the run's latencies %d..%d ns", b.LoNs, b.HiNs, b.Count, st.All.Lat.MinNs, st.All.Lat.MaxNs)
					}
				}
			}
		}
		return ios, dirs, dur
	}
	ios, dirs, dur := count(st.Series)
	if st.Read == nil || st.Write == nil || dirs != [2]int64{st.Read.TotalIOs, st.Write.TotalIOs} || ios != st.All.TotalIOs {
		t.Fatalf("buckets count %v reads and writes of %d I/Os; the run %d", dirs, ios, st.All.TotalIOs)
	}
	if len(st.JobSeries) != 2 {
		t.Fatalf("%d job series, want 2", len(st.JobSeries))
	}
	var jobs int64
	for i, s := range st.JobSeries {
		n, d, _ := count(s)
		if n != d[0]+d[1] || n == 0 {
			t.Errorf("job %d: %d I/Os, buckets %v", i, n, d)
		}
		jobs += n
	}
	if jobs != st.All.TotalIOs {
		t.Errorf("the jobs' series count %d I/Os, the run %d", jobs, st.All.TotalIOs)
	}
	c := ioengine.Coarsen(st.Series, 4)
	if cios, cdirs, cdur := count(c); len(c) != (len(st.Series)+3)/4 || cios != ios || cdirs != dirs || cdur != dur {
		t.Errorf("coarsened by 4: %d slices, %d I/Os %v over %d ns; was %d, %d %v over %d", len(c), cios, cdirs, cdur, len(st.Series), ios, dirs, dur)
	}
}
