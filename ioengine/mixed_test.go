//go:build linux

package ioengine_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestMixedPercentiles runs randrw and checks that the figures of all I/Os
// come from both directions' latencies merged, not from one direction: the
// minimum and maximum are the lower and higher of the two, each percentile
// is the merged histograms' and the mean is their mean weighted by I/O
// count.
func TestMixedPercentiles(t *testing.T) {
	for place, dir := range places(t) {
		path := filepath.Join(dir, "mixed")
		if err := os.WriteFile(path, make([]byte, 16<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, eng := range engines {
			t.Run(place+"/"+eng, func(t *testing.T) {
				w := ioengine.Workload{Filename: path, RW: ioengine.RandRW, RWMixRead: 70, BS: 4096, IODepth: depthFor(eng, 8), NumJobs: 2, Direct: true, RandSeed: 5, Permit: guard.Permit{AllowWrite: true}}
				st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: 200 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				r, wr, all := st.Read, st.Write, st.All
				if r == nil || wr == nil || r.TotalIOs == 0 || wr.TotalIOs == 0 {
					t.Fatalf("read %+v, write %+v: want both directions", r, wr)
				}
				t.Logf("all p50/p99/max %d/%d/%d ns, read %d/%d/%d, write %d/%d/%d",
					all.Lat.P50Ns, all.Lat.P99Ns, all.Lat.MaxNs, r.Lat.P50Ns, r.Lat.P99Ns, r.Lat.MaxNs, wr.Lat.P50Ns, wr.Lat.P99Ns, wr.Lat.MaxNs)
				if all.TotalIOs != r.TotalIOs+wr.TotalIOs {
					t.Errorf("all %d I/Os, read %d + write %d", all.TotalIOs, r.TotalIOs, wr.TotalIOs)
				}
				if all.Lat.MinNs != min(r.Lat.MinNs, wr.Lat.MinNs) || all.Lat.MaxNs != max(r.Lat.MaxNs, wr.Lat.MaxNs) {
					t.Errorf("all min/max %d/%d, read %d/%d, write %d/%d", all.Lat.MinNs, all.Lat.MaxNs, r.Lat.MinNs, r.Lat.MaxNs, wr.Lat.MinNs, wr.Lat.MaxNs)
				}
				// The percentiles of all I/Os are those of the two
				// directions' histograms merged.
				if r.Hist == nil || wr.Hist == nil {
					t.Fatalf("no per-direction histograms")
				}
				merged := hdrhistogram.New(r.Hist.LowestTrackableValue(), r.Hist.HighestTrackableValue(), int(r.Hist.SignificantFigures()))
				merged.Merge(r.Hist)
				merged.Merge(wr.Hist)
				for _, q := range []struct {
					name string
					pct  float64 // percent
					got  int64
				}{
					{"p50", 50, all.Lat.P50Ns}, {"p90", 90, all.Lat.P90Ns}, {"p99", 99, all.Lat.P99Ns}, {"p999", 99.9, all.Lat.P999Ns},
				} {
					if want := merged.ValueAtQuantile(q.pct); q.got != want {
						t.Errorf("%s of all I/Os %d ns, the merged directions' %d ns", q.name, q.got, want)
					}
				}
				mean := (r.Lat.MeanNs*float64(r.TotalIOs) + wr.Lat.MeanNs*float64(wr.TotalIOs)) / float64(all.TotalIOs)
				if math.Abs(all.Lat.MeanNs-mean) > 1e-6*mean {
					t.Errorf("all mean %.1f ns, weighted mean of the directions %.1f", all.Lat.MeanNs, mean)
				}
			})
		}
	}
}
