//go:build linux && !386 && !arm && !mips && !mipsle

package ioengine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/netvoltest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestWindowCountsWhatTheDeviceCompleted: a run's window counts the I/Os
// the device completed inside it, on a device whose submissions block.
// The device is an emulated network volume capped at 400 IOPS under a
// loop device that holds 16 requests (nr_requests): at iodepth 256 every
// io_submit waits for one of them to complete. The volume counts its own
// answers; of three 1 s windows, the median count must lie between the
// answers inside the window shrunk and grown by 50 ms at each edge (20
// I/Os at the cap): a job thread that waits for a CPU at one edge and not
// at the other moves its count by what completed meanwhile (one window of
// six at load 40 counted 59 fewer), either way, so one window may miss.
//
// It held the libaio loop to its reaps: it counted a reap's completions
// one by one, each after the blocking submission of the one before's
// replacement, so the last of a reap were counted up to 240 submissions
// late and, when the window had closed meanwhile, all inside it: 478-483
// I/Os in every one of six 1 s windows where the volume answered 400-401
// (and, at 1,400 IOPS with 128 requests, 743-779 in 0.5 s windows where
// it answered 700-704).
func TestWindowCountsWhatTheDeviceCompleted(t *testing.T) {
	const capIOPS, edge = 400, 50 * time.Millisecond
	dev, v := netvoltest.Start(t, netvoltest.Config{Size: 64 << 20, Delay: 5 * time.Millisecond, IOPS: capIOPS})
	// The loop device keeps its queue settings once detached, for the
	// next test that attaches it: its own are put back first (cleanups
	// run last-registered first, the detach was registered before).
	nr := filepath.Join("/sys/block", filepath.Base(dev), "queue", "nr_requests")
	was, err := os.ReadFile(nr)
	if err != nil {
		t.Skipf("cannot read the loop device's nr_requests: %v", err)
	}
	if err := os.WriteFile(nr, []byte("16"), 0o644); err != nil {
		t.Skipf("cannot hold the loop device to 16 requests: %v", err)
	}
	t.Cleanup(func() {
		if err := os.WriteFile(nr, was, 0o644); err != nil {
			t.Errorf("putting the loop device's nr_requests back to %s: %v", strings.TrimSpace(string(was)), err)
		}
	})
	eng, fallback, err := ioengine.New("libaio")
	if err != nil || fallback != "" {
		t.Skipf("no libaio here: %v %s", err, fallback)
	}
	v.Record()
	var off []int64 // each window's count less the volume's inner and outer counts
	var runs []string
	for i := range 3 {
		var from, to time.Time
		st, err := eng.Run(context.Background(),
			ioengine.Workload{Filename: dev, Direct: true, RW: ioengine.RandRead, BS: 4096, IODepth: 256, NumJobs: 1, RandSeed: uint64(i + 1)},
			ioengine.Control{Ramp: 500 * time.Millisecond, Runtime: time.Second,
				OnWindowStart: func() { from = time.Now() }, OnWindowEnd: func() { to = time.Now() }})
		if err != nil {
			t.Fatal(err)
		}
		// The window (st.Runtime long) lies within [from, to].
		inner := int64(v.AnsweredIn(to.Add(-st.Runtime+edge), from.Add(st.Runtime-edge)))
		outer := int64(v.AnsweredIn(from.Add(-edge), to.Add(edge)))
		got := st.All.TotalIOs
		switch {
		case got < inner:
			off = append(off, got-inner)
		case got > outer:
			off = append(off, got-outer)
		default:
			off = append(off, 0)
		}
		runs = append(runs, fmt.Sprintf("%d I/Os in %v (the volume answered %d-%d)", got, st.Runtime.Round(time.Millisecond), inner, outer))
	}
	t.Logf("three windows: %v", runs)
	if slices.Sort(off); off[1] != 0 {
		t.Errorf("the median window counted %+d I/Os beyond what the volume answered in it ± %v: %v", off[1], edge, runs)
	}
}
