//go:build linux

package ioengine_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"golang.org/x/sys/unix"
)

// shape is one iodepth × numjobs split of an engine.
type shape struct {
	engine  string
	iodepth int
	numjobs int
}

// shapes are the splits users run: N synchronous workers (psync) and the
// multi-job splits of the asynchronous engines, all beyond this machine's
// CPU count.
func shapes() []shape {
	var out []shape
	for _, n := range []int{1, 4, 16, 64, 256} {
		out = append(out, shape{"psync", 1, n})
	}
	for _, eng := range []string{"io_uring", "libaio"} {
		for _, s := range [][2]int{{1, 16}, {4, 8}, {8, 4}, {32, 8}, {256, 4}} {
			out = append(out, shape{eng, s[0], s[1]})
		}
	}
	return out
}

// layOut writes a file of size bytes (real writes, not fallocate: reads of
// unwritten extents never reach the device).
func layOut(t *testing.T, path string, size int64) {
	t.Helper()
	if err := ioengine.CreateScratch(context.Background(), path, size); err != nil {
		t.Fatal(err)
	}
}

// TestShapesKeepDepthInFlight runs every shape on a written file on the
// disk and on tmpfs and checks that the jobs kept iodepth × numjobs I/Os in
// flight whatever the CPU count: at least ShortfallFraction of it, or a
// shortfall that names a cause the run measured. The engine once kept
// about one job per CPU busy (2.0 of 16 in flight on 2 CPUs); on the disk
// the floor of half the depth catches that on any machine, busy or not.
// Little's Law closes within 2% in every shape.
func TestShapesKeepDepthInFlight(t *testing.T) {
	const size = 64 << 20
	procs := runtime.GOMAXPROCS(0)
	for place, dir := range places(t) {
		path := filepath.Join(dir, "target")
		layOut(t, path, size)
		for _, s := range shapes() {
			name := fmt.Sprintf("%s/%s/%dx%d", place, s.engine, s.iodepth, s.numjobs)
			t.Run(name, func(t *testing.T) {
				w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: s.iodepth, NumJobs: s.numjobs, Direct: true, RandSeed: 3}
				st, err := mustEngine(t, s.engine).Run(context.Background(), w, ioengine.Control{Ramp: 50 * time.Millisecond, Runtime: 250 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				qd := float64(w.QD())
				t.Logf("%.0f IOPS, mean %.0f µs, in flight %.2f of %.0f, shortfall %+v", st.All.IOPS, st.All.Lat.MeanNs/1e3, st.InflightMean, qd, st.Shortfall)
				checkShortfall(t, st, w)
				// On tmpfs the CPU is the device: a job has an I/O in
				// flight only while it runs one, and many jobs on few
				// CPUs wait their turn. The shortfall (checked above)
				// says so; the floor holds where I/Os wait on a device,
				// unless the run measured its threads starved of CPU
				// (cause cpu). Jobs parked for want of a P, the old
				// fault, wait neither on a CPU nor on the device.
				cpuStarved := st.Shortfall != nil && st.Shortfall.Cause == ioengine.ShortfallCPU
				if place == "disk" && !cpuStarved && st.InflightMean < 0.5*qd {
					t.Errorf("in flight %.2f of %.0f: the jobs did not keep their I/Os in flight", st.InflightMean, qd)
				}
				checkInflightBound(t, st, qd)
				if little := (st.InflightMean - st.All.IOPS*st.All.Lat.MeanNs/1e9) / st.InflightMean; math.Abs(little) > 0.02 {
					t.Errorf("Little's Law open by %.2f%%: in flight %.2f, IOPS × mean latency %.2f", little*100, st.InflightMean, st.All.IOPS*st.All.Lat.MeanNs/1e9)
				}
				if got := runtime.GOMAXPROCS(0); got != procs {
					t.Errorf("GOMAXPROCS %d after the run, want %d back", got, procs)
				}
			})
		}
	}
}

// checkInflightBound checks the mean in flight against the depth. It
// counts the I/Os that completed in the window, over their whole latency,
// so those in flight when the window opened add up to their age then: at
// most the depth times the longest latency, over the window.
func checkInflightBound(t *testing.T, st *ioengine.Stats, qd float64) {
	t.Helper()
	bound := qd * (1 + float64(st.All.Lat.MaxNs)/float64(st.Runtime))
	if st.InflightMean > bound {
		t.Errorf("in flight %.2f above the depth %.0f and its edge allowance (%.2f)", st.InflightMean, qd, bound)
	}
}

// checkShortfall checks that Stats.Shortfall is set exactly when the run
// kept less than ShortfallFraction of the depth in flight, and that its
// cause is backed by its figures.
func checkShortfall(t *testing.T, st *ioengine.Stats, w ioengine.Workload) {
	t.Helper()
	qd := float64(w.QD())
	low := st.InflightMean < ioengine.ShortfallFraction*qd
	sf := st.Shortfall
	switch {
	case low && sf == nil:
		t.Errorf("in flight %.2f of %.0f and no shortfall reported", st.InflightMean, qd)
	case !low && sf != nil:
		t.Errorf("shortfall %+v reported with %.2f of %.0f in flight", sf, st.InflightMean, qd)
	case sf != nil:
		if sf.QD != w.QD() || sf.JobsAsked != w.NumJobs || sf.InflightMean != st.InflightMean {
			t.Errorf("shortfall %+v does not match the run (QD %d, %d jobs, in flight %.2f)", sf, w.QD(), w.NumJobs, st.InflightMean)
		}
		switch sf.Cause {
		case ioengine.ShortfallCPU:
			if sf.CPUBusy < 0.8 && sf.CPUWait < qd-st.InflightMean {
				t.Errorf("cause cpu with the jobs busy %.2f and %.2f waiting for a CPU", sf.CPUBusy, sf.CPUWait)
			}
		case ioengine.ShortfallLimit:
			if sf.Limit == "" || sf.JobsRun >= sf.JobsAsked {
				t.Errorf("cause limit without a limit or a missing job: %+v", sf)
			}
		case ioengine.ShortfallUnexplained:
		default:
			t.Errorf("unknown cause %q", sf.Cause)
		}
	}
}

// TestJobsBeyondOpenFileLimit lowers RLIMIT_NOFILE so that only some of
// sixteen io_uring jobs can open their ring: the run goes on with those,
// and its shortfall names the limit, the jobs that ran and the kernel's error.
func TestJobsBeyondOpenFileLimit(t *testing.T) {
	eng := mustEngine(t, "io_uring")
	if eng.Name() != "io_uring" {
		t.Skipf("io_uring unavailable here (%s)", eng.Name())
	}
	path := filepath.Join(t.TempDir(), "target")
	layOut(t, path, 8<<20)
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count open files: %v", err)
	}
	// Room for the target and about four rings (the count includes the
	// directory being read; the Go runtime may hold a few more).
	lim := unix.Rlimit{Cur: uint64(len(ents) + 5), Max: old.Max}
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 4, NumJobs: 16, Direct: true}
	st, err := eng.Run(context.Background(), w, ioengine.Control{Runtime: 100 * time.Millisecond})
	if rerr := unix.Setrlimit(unix.RLIMIT_NOFILE, &old); rerr != nil {
		t.Fatal(rerr)
	}
	if err != nil {
		if errors.Is(err, unix.EMFILE) {
			t.Skipf("no ring could open under %d open files: %v", lim.Cur, err)
		}
		t.Fatal(err)
	}
	sf := st.Shortfall
	t.Logf("%.0f IOPS, in flight %.2f, shortfall %+v", st.All.IOPS, st.InflightMean, sf)
	if sf == nil || sf.Cause != ioengine.ShortfallLimit || sf.Limit != ioengine.LimitNofile {
		t.Fatalf("shortfall %+v, want cause limit RLIMIT_NOFILE", sf)
	}
	if sf.JobsRun < 1 || sf.JobsRun >= 16 || sf.LimitValue != int64(lim.Cur) || sf.Err == "" {
		t.Errorf("shortfall %+v: want 1..15 jobs run, limit %d and the kernel's error", sf, lim.Cur)
	}
	if want := float64(sf.JobsRun * w.IODepth); math.Abs(st.InflightMean-want) > want*0.5 {
		t.Errorf("in flight %.2f, want about %.0f (%d jobs × iodepth %d)", st.InflightMean, want, sf.JobsRun, w.IODepth)
	}
	checkShortfall(t, st, w)
}
