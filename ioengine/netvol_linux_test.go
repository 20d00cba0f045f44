//go:build linux && !386 && !arm && !mips && !mipsle

package ioengine_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/netvoltest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestWindowCountsWhatTheDeviceCompleted: a run's window counts the I/Os
// the device completed inside it, on a device whose submissions block.
// The device is an emulated network volume capped at 400 IOPS under a
// loop device that holds 16 requests (nr_requests): at iodepth 256 every
// io_submit waits for one of them to complete (io_uring hands those to
// its io-wq workers, which wait). Each engine, libaio and io_uring, runs
// it. The volume counts its own
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
// it answered 700-704). io_uring counted 394-401 where the volume
// answered 359-441 before its waits were bounded (maxReapDelay) and
// after: it never counted late at these windows; shorter ones did
// (TestShortWindowCountsWhatTheDeviceCompleted).
func TestWindowCountsWhatTheDeviceCompleted(t *testing.T) {
	for _, name := range []string{"libaio", "io_uring"} {
		t.Run(name, func(t *testing.T) { windowCounts(t, name) })
	}
}

// windowCounts runs TestWindowCountsWhatTheDeviceCompleted with engine name.
func windowCounts(t *testing.T, name string) {
	const capIOPS, edge = 400, 50 * time.Millisecond
	dev, v := netvoltest.Start(t, netvoltest.Config{Size: 64 << 20, Delay: 5 * time.Millisecond, IOPS: capIOPS})
	holdRequests(t, dev, 16)
	eng, fallback, err := ioengine.New(name)
	if err != nil || fallback != "" {
		t.Skipf("no %s here: %v %s", name, err, fallback)
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

// TestShortWindowCountsWhatTheDeviceCompleted: a window shorter than the
// device takes to complete half of the queue counts what the device
// completed in it. The device is an emulated network volume capped at 400
// IOPS (20 ms a read) under a loop device of 128 requests, at iodepth 256:
// io_uring hands the requests the device has no room for to one io-wq
// worker. Of three 0.25 s windows the median's count must be within 20
// I/Os (50 ms) of the volume's answers over the window's length, taken
// back from its end or on from its start (the job's edges follow the
// run's by its thread's wake-up), and the median window must not last
// twice as long as asked.
//
// It held io_uring's waits for half of its ring (waitFor, one worker) to
// maxReapDelay: unbounded, one wait took 128 completions (320 ms), each
// counted up to that late, and the window closed only at a reap: two runs
// of three counted 200-305 I/Os where the volume answered ~100, or windows
// of 0.47-2.2 s.
func TestShortWindowCountsWhatTheDeviceCompleted(t *testing.T) {
	for _, name := range []string{"libaio", "io_uring"} {
		t.Run(name, func(t *testing.T) { shortWindowCounts(t, name) })
	}
}

// shortWindowCounts runs TestShortWindowCountsWhatTheDeviceCompleted with
// engine name.
func shortWindowCounts(t *testing.T, name string) {
	const capIOPS, slack, window = 400, 20, 250 * time.Millisecond
	dev, v := netvoltest.Start(t, netvoltest.Config{Size: 64 << 20, Delay: 20 * time.Millisecond, IOPS: capIOPS})
	holdRequests(t, dev, 128)
	eng, fallback, err := ioengine.New(name)
	if err != nil || fallback != "" {
		t.Skipf("no %s here: %v %s", name, err, fallback)
	}
	v.Record()
	var off []int64 // each window's count less the nearer of the volume's
	var lens []time.Duration
	var runs []string
	for i := range 3 {
		var from, to time.Time
		st, err := eng.Run(context.Background(),
			ioengine.Workload{Filename: dev, Direct: true, RW: ioengine.RandRead, BS: 4096, IODepth: 256, NumJobs: 1, RandSeed: uint64(i + 1)},
			ioengine.Control{Ramp: 500 * time.Millisecond, Runtime: window,
				OnWindowStart: func() { from = time.Now() }, OnWindowEnd: func() { to = time.Now() }})
		if err != nil {
			t.Fatal(err)
		}
		got := st.All.TotalIOs
		back := got - int64(v.AnsweredIn(to.Add(-st.Runtime), to))
		on := got - int64(v.AnsweredIn(from, from.Add(st.Runtime)))
		d := back
		if abs(on) < abs(back) {
			d = on
		}
		off = append(off, abs(d))
		lens = append(lens, st.Runtime)
		runs = append(runs, fmt.Sprintf("%d I/Os in %v (%+d, %+d)", got, st.Runtime.Round(time.Millisecond), back, on))
	}
	t.Logf("three windows, count less the volume's answers back from the end and on from the start: %v", runs)
	if slices.Sort(off); off[1] > slack {
		t.Errorf("the median window counted %d I/Os off what the volume answered in it: %v", off[1], runs)
	}
	if slices.Sort(lens); lens[1] > 2*window {
		t.Errorf("the median window lasted %v where %v was asked: %v", lens[1], window, runs)
	}
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
