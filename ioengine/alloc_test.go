//go:build linux

package ioengine_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestNoAllocationsPerIO checks that the I/O loops allocate nothing per
// I/O: heap allocations over a whole run stay a tiny fraction of its I/Os.
func TestNoAllocationsPerIO(t *testing.T) {
	dir := places(t)["tmpfs"]
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, "alloc")
	if err := os.WriteFile(path, make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, eng := range engines {
		t.Run(eng, func(t *testing.T) {
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRW, RWMixRead: 50, BS: 4096, IODepth: depthFor(eng, 16), NumJobs: 1, Direct: true, Permit: guard.Permit{AllowWrite: true}}
			e := mustEngine(t, eng)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			ctl := ioengine.Control{Runtime: 3 * time.Second, SampleInterval: 10 * time.Millisecond,
				OnSample: func(s ioengine.Sample) bool { return s.IOs >= 20000 }}
			st, err := e.Run(context.Background(), w, ctl)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			allocs := after.Mallocs - before.Mallocs
			t.Logf("%d allocations for %d I/Os", allocs, st.All.TotalIOs)
			if st.All.TotalIOs < 1000 || float64(allocs) > 0.01*float64(st.All.TotalIOs)+500 {
				t.Fatalf("%d allocations for %d I/Os", allocs, st.All.TotalIOs)
			}
		})
	}
}
