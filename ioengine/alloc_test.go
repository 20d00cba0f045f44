//go:build linux

package ioengine_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestNoAllocationsPerIO checks that the I/O loops allocate nothing per
// I/O: heap allocations over a whole run stay a tiny fraction of its I/Os.
// What scales with time, not I/Os (the sampler's few allocations per
// sample, which a machine busy with other tests makes more of), is allowed
// for: one allocation per I/O would still be caught many times over.
func TestNoAllocationsPerIO(t *testing.T) {
	path := fastFile(t, "alloc", 8<<20)
	for _, eng := range engines {
		t.Run(eng, func(t *testing.T) {
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRW, RWMixRead: 50, BS: 4096, IODepth: depthFor(eng, 16), NumJobs: 1, Direct: true, Permit: guard.Permit{AllowWrite: true}}
			e := mustEngine(t, eng)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			samples := 0
			ctl := ioengine.Control{Runtime: 3 * time.Second, SampleInterval: 10 * time.Millisecond,
				OnSample: func(s ioengine.Sample) bool { samples++; return s.IOs >= 20000 }}
			st, err := e.Run(context.Background(), w, ctl)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			allocs := after.Mallocs - before.Mallocs
			t.Logf("%d allocations for %d I/Os over %d samples", allocs, st.All.TotalIOs, samples)
			if st.All.TotalIOs < 1000 || float64(allocs) > 0.01*float64(st.All.TotalIOs)+1000+4*float64(samples) {
				t.Fatalf("%d allocations for %d I/Os over %d samples", allocs, st.All.TotalIOs, samples)
			}
		})
	}
}
