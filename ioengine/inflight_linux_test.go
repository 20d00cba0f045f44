//go:build linux && !386 && !arm && !mips && !mipsle

package ioengine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// holdRequests sets the loop device dev's nr_requests to n and puts the
// old value back when t ends (a loop device keeps it once detached, and
// the next test to attach it would run with n). It skips where it cannot.
func holdRequests(t *testing.T, dev string, n int) {
	t.Helper()
	nr := filepath.Join("/sys/block", filepath.Base(dev), "queue", "nr_requests")
	old, err := os.ReadFile(nr)
	if err != nil {
		t.Skipf("cannot read %s: %v", nr, err)
	}
	if err := os.WriteFile(nr, []byte(fmt.Sprint(n)), 0o644); err != nil {
		t.Skipf("cannot hold the loop device to %d requests: %v", n, err)
	}
	t.Cleanup(func() {
		if err := os.WriteFile(nr, []byte(strings.TrimSpace(string(old))), 0o644); err != nil {
			t.Errorf("putting back %s: %v", nr, err)
		}
	})
}

// TestLibaioKeepsItsDepthInFlight: a libaio job keeps about its iodepth
// in flight (the mean Little's Law reads, IOPS × mean latency) at a depth
// far above what one reap returns, as fio's does, whether the run ends at
// its runtime or at its size (fio's size-based end, which a job file
// without time_based asks for). The device is a loop device over a file
// held to 32 requests, so that every io_submit beyond them waits for one
// to complete: the I/Os the job asked for and could not yet submit are
// in flight from their slot's completion (the job's queue, as fio's), not
// only the 32 the device holds.
//
// It held the size-based job to the device's requests: a job whose I/Os
// were counted held no slot in flight, and jesd219 (4 jobs at iodepth 256,
// no time_based) kept 338 of 1,024 in flight where fio kept 1,010; here
// the job kept about 33 of 256.
func TestLibaioKeepsItsDepthInFlight(t *testing.T) {
	looptest.RequireRootTools(t)
	eng, fallback, err := ioengine.New("libaio")
	if err != nil || fallback != "" {
		t.Skipf("no libaio here: %v %s", err, fallback)
	}
	img := filepath.Join(t.TempDir(), "disk.img")
	looptest.RandomFile(t, img, 64<<20)
	dev := looptest.AttachLoopWith(t, img, "--direct-io=on")
	const depth, requests = 256, 32
	holdRequests(t, dev, requests)
	for _, c := range []struct {
		name string
		ctl  ioengine.Control
	}{
		{"time-based", ioengine.Control{}},
		{"size-based", ioengine.Control{BytesPerJob: 1 << 40}},
		{"counted", ioengine.Control{IOsPerJob: 1 << 40}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctl := c.ctl
			ctl.Ramp, ctl.Runtime = 200*time.Millisecond, 800*time.Millisecond
			st, err := eng.Run(context.Background(),
				ioengine.Workload{Filename: dev, Direct: true, RW: ioengine.RandRead, BS: 4096, IODepth: depth, NumJobs: 1, RandSeed: 7},
				ctl)
			if err != nil {
				t.Fatal(err)
			}
			little := st.All.IOPS * st.All.Lat.MeanNs / 1e9
			t.Logf("%d I/Os in %v: %.0f IOPS, mean latency %.2f ms, %.1f in flight (IOPS × mean latency %.1f)",
				st.All.TotalIOs, st.Runtime.Round(time.Millisecond), st.All.IOPS, st.All.Lat.MeanNs/1e6, st.InflightMean, little)
			if st.All.TotalIOs < 4*depth {
				t.Skipf("only %d I/Os in the window: too few to read a mean in flight", st.All.TotalIOs)
			}
			// Above the device's requests by far, at most the depth and
			// the I/Os in flight when the window opened (depth × the
			// longest latency / the window).
			lo := 0.5 * depth
			hi := depth * (1 + float64(st.All.Lat.MaxNs)/float64(st.Runtime))
			if st.InflightMean < lo || st.InflightMean > hi {
				t.Errorf("%.1f I/Os in flight on average at iodepth %d over %d requests; want %.0f-%.0f", st.InflightMean, depth, requests, lo, hi)
			}
			if d := little - st.InflightMean; d > 0.05*st.InflightMean || d < -0.05*st.InflightMean {
				t.Errorf("IOPS × mean latency %.1f against %.1f in flight: Little's Law does not close", little, st.InflightMean)
			}
		})
	}
}
