package ioengine_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// heapPeak runs e once for runtime and returns the largest live heap seen
// during the run (sampled every 50 ms) and the I/Os it did.
func heapPeak(t *testing.T, e ioengine.Engine, w ioengine.Workload, runtime_ time.Duration) (peak uint64, ios int64) {
	t.Helper()
	var ms runtime.MemStats
	ctl := ioengine.Control{Runtime: runtime_, SampleInterval: 50 * time.Millisecond,
		OnSample: func(ioengine.Sample) bool {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			return false
		}}
	st, err := e.Run(context.Background(), w, ctl)
	if err != nil {
		t.Fatal(err)
	}
	return peak, st.All.TotalIOs
}

// liveHeap is the heap in use after a full collection, bytes.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// countEntries counts the lines of /proc/self/maps (mappings) or the
// entries of /proc/self/fd (open files).
func countEntries(t *testing.T) (maps, fds int) {
	t.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps: %v", err)
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return strings.Count(string(b), "\n"), len(ents)
}

// TestMemoryBounded checks that memory does not grow with the number of
// I/Os: the live heap of a long run stays within a small constant of a
// short one's, and many short runs leak no heap, mappings (I/O buffers,
// rings) or file descriptors.
func TestMemoryBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mem")
	if err := os.WriteFile(path, make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	const slack = 2 << 20 // bytes: sampling noise, never per-I/O growth
	for _, name := range []string{ioengine.EngineIOUring, ioengine.EngineLibaio, ioengine.EnginePsync} {
		t.Run(name, func(t *testing.T) {
			e, _, err := ioengine.New(name)
			if err != nil {
				t.Skipf("engine %s: %v", name, err)
			}
			depth := 16
			if name == ioengine.EnginePsync {
				depth = 1
			}
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRW, RWMixRead: 70, BS: 4096, IODepth: depth, NumJobs: 2, Direct: true, Permit: guard.Permit{AllowWrite: true}}

			shortPeak, shortIOs := heapPeak(t, e, w, 200*time.Millisecond)
			longPeak, longIOs := heapPeak(t, e, w, time.Second)
			t.Logf("peak live heap: %d KiB over %d I/Os, %d KiB over %d I/Os", shortPeak>>10, shortIOs, longPeak>>10, longIOs)
			if longIOs < 2*shortIOs {
				t.Skipf("the long run did too few I/Os (%d vs %d) to tell", longIOs, shortIOs)
			}
			if longPeak > shortPeak+slack {
				t.Errorf("heap grows with I/Os: %d KiB peak for %d I/Os vs %d KiB for %d", longPeak>>10, longIOs, shortPeak>>10, shortIOs)
			}

			// Many short runs, as a sweep does: nothing accumulates.
			ctl := ioengine.Control{Runtime: 20 * time.Millisecond}
			for i := 0; i < 3; i++ { // warm up pools and caches
				if _, err := e.Run(context.Background(), w, ctl); err != nil {
					t.Fatal(err)
				}
			}
			heap0 := liveHeap()
			maps0, fds0 := countEntries(t)
			for i := 0; i < 15; i++ {
				if _, err := e.Run(context.Background(), w, ctl); err != nil {
					t.Fatal(err)
				}
			}
			heap1 := liveHeap()
			maps1, fds1 := countEntries(t)
			t.Logf("15 runs: live heap %d → %d KiB, mappings %d → %d, fds %d → %d", heap0>>10, heap1>>10, maps0, maps1, fds0, fds1)
			if heap1 > heap0+slack {
				t.Errorf("live heap grew by %d KiB over 15 runs", (heap1-heap0)>>10)
			}
			if maps1 > maps0+8 {
				t.Errorf("mappings grew from %d to %d over 15 runs (buffers or rings not unmapped)", maps0, maps1)
			}
			if fds1 > fds0 {
				t.Errorf("open files grew from %d to %d over 15 runs", fds0, fds1)
			}
		})
	}
}
