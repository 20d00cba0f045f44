//go:build linux

package ioengine_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestSyncEvery writes with fio's fdatasync=N / fsync=N on a file on the
// disk: one sync after every N writes, timed on its own (Stats.Sync), the
// write latency without it, Little's Law closing on the writes, and the
// time spent syncing named as the in-flight shortfall's cause.
//
// Two jobs, each with its own figures (Control.PerJob): a job counts the
// writes and syncs it finished in its own view of the window, from its
// first I/O to its first completion after the end, and one job's writes
// and syncs, one at a time, fit in that view exactly. The run's window
// (the coordinator's) does not bound them: a sync under way when it
// closes still counts, and on a loaded machine it ran up to 82 ms past it
// (a 99 ms fdatasync; the writes and syncs then took 358 ms of a 307 ms
// window).
func TestSyncEvery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wal")
	if err := os.WriteFile(path, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		every int
		data  bool
	}{{1, true}, {4, false}} {
		w := ioengine.Workload{Filename: path, RW: ioengine.Write, BS: 4096, IODepth: 1, NumJobs: 2, SyncEvery: c.every, SyncData: c.data,
			Invalidate: true, Permit: guard.Permit{AllowWrite: true}}
		st, err := mustEngine(t, "psync").Run(context.Background(), w, ioengine.Control{Runtime: 300 * time.Millisecond, PerJob: true})
		if err != nil {
			t.Fatal(err)
		}
		if st.Sync == nil || st.Write == nil || st.Write.TotalIOs == 0 || len(st.PerJob) != w.NumJobs {
			t.Fatalf("every %d: no sync or write figures, or not one set per job: %+v", c.every, st)
		}
		t.Logf("every %d (fdatasync %v): %d writes at %.1f µs, %d syncs at %.1f µs mean (max %.1f ms), in flight %.3f, shortfall %+v",
			c.every, c.data, st.Write.TotalIOs, st.Write.Lat.MeanNs/1e3, st.Sync.TotalIOs, st.Sync.Lat.MeanNs/1e3, float64(st.Sync.Lat.MaxNs)/1e6, st.InflightMean, st.Shortfall)
		for i, js := range st.PerJob {
			if js.Sync == nil || js.Write == nil || js.Write.TotalIOs == 0 {
				t.Fatalf("every %d, job %d: no sync or write figures: %+v", c.every, i, js)
			}
			writes, syncs := js.Write.TotalIOs, js.Sync.TotalIOs
			if want := writes / int64(c.every); syncs < want-1 || syncs > want+1 {
				t.Errorf("every %d, job %d: %d syncs for %d writes, want %d ± 1", c.every, i, syncs, writes, want)
			}
			// The syncs took the rest of the job's window: its writes and
			// syncs together cannot take more than it (the sync is no
			// write's latency).
			busy := float64(writes)*js.Write.Lat.MeanNs + float64(syncs)*js.Sync.Lat.MeanNs
			if busy > float64(js.Runtime) {
				t.Errorf("every %d, job %d: writes and syncs took %.3f ms of its %.3f ms window: a sync was counted twice", c.every, i, busy/1e6, float64(js.Runtime)/1e6)
			}
		}
		if st.Sync.Lat.MeanNs <= 0 || st.Sync.Lat.P99Ns <= 0 || st.Sync.IOPS <= 0 {
			t.Errorf("sync latency not measured: %+v", st.Sync.Lat)
		}
		if little := st.InflightMean - st.All.IOPS*st.All.Lat.MeanNs/1e9; math.Abs(little) > 0.02*st.InflightMean {
			t.Errorf("Little's Law open on the writes: in flight %.4f, IOPS × mean latency %.4f", st.InflightMean, st.All.IOPS*st.All.Lat.MeanNs/1e9)
		}
		if sf := st.Shortfall; sf != nil && sf.Cause != ioengine.ShortfallSync {
			t.Errorf("shortfall %+v, want cause sync", sf)
		}
	}
}

// TestSyncNeedsPsync: fio's async engines queue syncs among the writes;
// qdsweep syncs only with psync and says so before anything runs.
func TestSyncNeedsPsync(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, eng := range []string{"io_uring", "libaio"} {
		w := ioengine.Workload{Filename: path, RW: ioengine.Write, BS: 4096, IODepth: 4, NumJobs: 1, SyncEvery: 1, Permit: guard.Permit{AllowWrite: true}}
		_, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: 50 * time.Millisecond})
		if !errors.Is(err, ioengine.ErrBadWorkload) {
			t.Errorf("%s with fsync: err %v, want a bad-workload error", eng, err)
		}
	}
}
