//go:build linux

package fioadapt_test

import (
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestDiskWatch reads a loop device's counters around a real run of direct
// reads: fio's disk_util counts them, and a file on no block device has none.
func TestDiskWatch(t *testing.T) {
	looptest.RequireRootTools(t)
	diskWatch(t, looptest.AttachLoop(t, looptest.MakeImage(t, 8<<20), false))
	if got := fioadapt.NewDiskWatch([]string{"/dev/shm"}).Utils(); got != nil {
		t.Errorf("a tmpfs path: %+v, want none", got)
	}
}

// TestDiskWatchZram: the same on a zram device, whose driver keeps its
// /sys/block counters itself.
func TestDiskWatchZram(t *testing.T) {
	diskWatch(t, looptest.Zram(t, 8<<20))
}

func diskWatch(t *testing.T, dev string) {
	t.Helper()
	dw := fioadapt.NewDiskWatch([]string{dev})
	eng, _, err := ioengine.New(ioengine.EnginePsync)
	if err != nil {
		t.Fatal(err)
	}
	st, err := eng.Run(t.Context(), ioengine.Workload{Filename: dev, RW: ioengine.RandRead, BS: 4096, IODepth: 1, NumJobs: 1, Direct: true},
		ioengine.Control{Runtime: 200 * time.Millisecond, OnWindowStart: dw.Start, OnWindowEnd: dw.End})
	if err != nil {
		t.Fatal(err)
	}
	us := dw.Utils()
	if len(us) != 1 || us[0].ReadIOs < st.All.TotalIOs/2 || us[0].ReadIOs > st.All.TotalIOs+8 {
		t.Fatalf("%s: disk_util %+v for %d reads", dev, us, st.All.TotalIOs)
	}
}
