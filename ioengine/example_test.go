package ioengine_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
)

// Run one step, like one fio invocation: lay out a small scratch file, read
// it at random with 8 I/Os in flight for 200 ms and look at the figures.
// The numbers differ from run to run; the example prints only what does not.
func Example() {
	dir, err := os.MkdirTemp("", "qdsweep-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	ctx := context.Background()
	path := filepath.Join(dir, "scratch")
	if err := ioengine.CreateScratch(ctx, path, 16<<20); err != nil {
		fmt.Println(err)
		return
	}

	// "io_uring" falls back to libaio (and says why) where io_uring is refused.
	eng, _, err := ioengine.New(ioengine.EngineIOUring)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := ioengine.Workload{
		Filename: path,
		Size:     16 << 20, // bytes
		RW:       ioengine.RandRead,
		BS:       4096, // bytes
		IODepth:  8,
		NumJobs:  1,
		Direct:   true,
	}
	st, err := eng.Run(ctx, w, ioengine.Control{Ramp: 50 * time.Millisecond, Runtime: 200 * time.Millisecond})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("engine ran:", st.Engine == eng.Name())
	fmt.Println("IOPS > 0:", st.All.IOPS > 0)
	fmt.Println("reads only:", st.Read != nil && st.Write == nil)
	// Little's Law: the mean in flight is IOPS × mean latency (both over the
	// I/Os that completed in the window).
	little := st.All.IOPS * st.All.Lat.MeanNs / 1e9
	fmt.Println("in flight = IOPS × mean latency:", math.Abs(st.InflightMean-little) <= 0.001*st.InflightMean)
	// Output:
	// engine ran: true
	// IOPS > 0: true
	// reads only: true
	// in flight = IOPS × mean latency: true
}

// Lay out a file to measure: its blocks written (with data that does not
// compress), so reads of it reach the device instead of being answered
// from unwritten extents.
func ExampleCreateScratch() {
	dir, err := os.MkdirTemp("", "qdsweep-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "scratch")
	if err := ioengine.CreateScratch(context.Background(), path, 4<<20); err != nil {
		fmt.Println(err)
		return
	}
	fi, err := os.Stat(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(fi.Size(), "bytes")
	// Output: 4194304 bytes
}

// The sim engine models a remote disk (1.3 ms per I/O, 160k IOPS cap)
// through the same interface, without touching any file.
func ExampleNewSim() {
	eng := ioengine.NewSim(ioengine.SimConfig{Latency: 1300 * time.Microsecond, IOPS: 160000, Seed: 1})
	w := ioengine.Workload{Filename: "sim", Size: 1 << 30, RW: ioengine.RandRead, BS: 4096, IODepth: 32, NumJobs: 1, Direct: true}
	st, err := eng.Run(context.Background(), w, ioengine.Control{Runtime: 200 * time.Millisecond})
	if err != nil {
		fmt.Println(err)
		return
	}
	// With no jitter every I/O takes exactly 1.3 ms, so 32 in flight can
	// never exceed Little's Law's 32 / 1.3 ms ≈ 24.6k IOPS.
	fmt.Println("engine:", eng.Name())
	fmt.Printf("mean latency: %.1f ms\n", st.All.Lat.MeanNs/1e6)
	fmt.Println("IOPS ≤ 32 / 1.3 ms:", st.All.IOPS > 0 && st.All.IOPS <= 32/1.3e-3*1.001)
	// Output:
	// engine: sim
	// mean latency: 1.3 ms
	// IOPS ≤ 32 / 1.3 ms: true
}

// A refusal of an io_uring setting names the setting by the caller's
// option table; every fix it may ask for is listed.
func ExampleUringFixes() {
	e := &ioengine.UringError{Setting: ioengine.UringRegisterFiles, Fix: ioengine.UringFixDrop, Cause: "too many open files"}
	fmt.Println(len(ioengine.UringFixes()), "fixes")
	fmt.Println(e.Line(ioengine.UringNames{Setting: func(ioengine.UringSetting) string { return "files" }}))
	fmt.Println(e)
	// Output:
	// 10 fixes
	// files: too many open files; drop files
	// IORING_REGISTER_FILES: too many open files; drop IORING_REGISTER_FILES
}
