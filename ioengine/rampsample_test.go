//go:build linux

package ioengine_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
)

// TestRampEndsWhenOnRampSampleSays runs each native engine on a real file
// with a 5 s ramp that OnRampSample ends at its third sample: the ramp's
// samples count its completions (never fewer than before, their latency
// summed alongside), the queue's I/Os in flight are at most the depth, and
// the window opens at once, measures and ends well before the 5 s ramp
// could have.
func TestRampEndsWhenOnRampSampleSays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ramp")
	if err := ioengine.CreateScratch(context.Background(), path, 16<<20); err != nil {
		t.Fatal(err)
	}
	for _, eng := range engines {
		t.Run(eng, func(t *testing.T) {
			depth := depthFor(eng, 4)
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: depth, NumJobs: 2, Direct: true}
			var got []ioengine.Sample
			var opened bool
			ctl := ioengine.Control{Ramp: 5 * time.Second, Runtime: 300 * time.Millisecond, SeriesInterval: 50 * time.Millisecond,
				RampSampleInterval: 20 * time.Millisecond,
				OnRampSample: func(s ioengine.Sample) bool {
					if opened {
						t.Errorf("a ramp sample after the window opened: %+v", s)
					}
					got = append(got, s)
					return len(got) == 3
				},
				OnWindowStart: func() { opened = true },
			}
			t0 := time.Now()
			st, err := mustEngine(t, eng).Run(context.Background(), w, ctl)
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(t0); took >= 5*time.Second {
				t.Fatalf("the run took %v: the ramp ran its whole length", took)
			}
			if len(got) != 3 || !opened {
				t.Fatalf("%d ramp samples, window opened %v", len(got), opened)
			}
			for i, s := range got {
				if s.Inflight < 0 || s.Inflight > int64(w.QD()) || s.IOs < 0 || s.LatSumNs < 0 {
					t.Errorf("sample %d: %+v with QD %d", i, s, w.QD())
				}
				if i > 0 && (s.IOs < got[i-1].IOs || s.LatSumNs < got[i-1].LatSumNs || s.Elapsed <= got[i-1].Elapsed) {
					t.Errorf("sample %d went back: %+v after %+v", i, s, got[i-1])
				}
			}
			if st.All.TotalIOs == 0 || st.Runtime <= 0 {
				t.Fatalf("the window measured nothing: %+v", st.All)
			}
			var rampIOs int64
			for _, iv := range st.Ramp {
				rampIOs += iv.IOs
			}
			if rampIOs < got[len(got)-1].IOs {
				t.Errorf("the ramp's slices count %d I/Os, its last sample %d", rampIOs, got[len(got)-1].IOs)
			}
		})
	}
}
