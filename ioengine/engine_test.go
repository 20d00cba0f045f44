//go:build linux

package ioengine_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

var engines = []string{"io_uring", "libaio", "psync"}

// places returns the directories to test in: a temp dir on the machine's
// disk, and one on /dev/shm (tmpfs, O_DIRECT works there) when present.
func places(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"disk": t.TempDir()}
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "qdsweep-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			out["tmpfs"] = d
		}
	}
	return out
}

// fastFile lays out size bytes at name on tmpfs where there is one (an I/O
// takes microseconds there, so the engine, not the device, sets the
// figures), else in the test's directory, and returns its path.
func fastFile(t *testing.T, name string, size int64) string {
	t.Helper()
	dir := places(t)["tmpfs"]
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name)
	layOut(t, path, size)
	return path
}

// stamped returns size bytes where every 8-byte little-endian word holds its own offset.
func stampedBytes(size int) []byte {
	b := make([]byte, size)
	for i := 0; i+8 <= size; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], uint64(i))
	}
	return b
}

func mustEngine(t *testing.T, name string) ioengine.Engine {
	t.Helper()
	e, reason, err := ioengine.New(name)
	if err != nil {
		t.Fatal(err)
	}
	if reason != "" {
		t.Logf("%s: %s", name, reason)
	}
	return e
}

func depthFor(engine string, depth int) int {
	if engine == "psync" {
		return 1
	}
	return depth
}

// TestReadVerify reads a file stamped with its offsets at depth > 1 and checks every byte.
func TestReadVerify(t *testing.T) {
	const size = 4 << 20
	for place, dir := range places(t) {
		path := filepath.Join(dir, "stamped")
		if err := os.WriteFile(path, stampedBytes(size), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, eng := range engines {
			for _, rw := range []ioengine.RW{ioengine.RandRead, ioengine.Read} {
				t.Run(place+"/"+eng+"/"+string(rw), func(t *testing.T) {
					w := ioengine.Workload{Filename: path, RW: rw, BS: 8192, IODepth: depthFor(eng, 16), NumJobs: 2, Direct: true, Verify: true, RandSeed: 7, Permit: guard.Permit{AllowWrite: true}}
					st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: 150 * time.Millisecond})
					if err != nil {
						t.Fatal(err)
					}
					if st.All.TotalIOs == 0 || len(st.Errors) != 0 {
						t.Fatalf("%d I/Os, errors %+v", st.All.TotalIOs, st.Errors)
					}
					if st.Write != nil || st.Read == nil || st.Read.TotalIOs != st.All.TotalIOs {
						t.Fatalf("direction split wrong: read %+v write %+v", st.Read, st.Write)
					}
				})
			}
		}
	}
}

// TestReadVerifyDetectsCorruption proves the check above can fail: one
// changed word is reported with its offset.
func TestReadVerifyDetectsCorruption(t *testing.T) {
	const size = 1 << 20
	path := filepath.Join(t.TempDir(), "corrupt")
	b := stampedBytes(size)
	const bad = 100 * 4096
	b[bad+100] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, eng := range engines {
		t.Run(eng, func(t *testing.T) {
			w := ioengine.Workload{Filename: path, RW: ioengine.Read, BS: 4096, IODepth: depthFor(eng, 8), NumJobs: 1, Direct: true, Verify: true}
			_, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: 2 * time.Second})
			var f *ioengine.IOFailure
			if !errors.As(err, &f) || f.Errno != "verify" || f.Offset != bad {
				t.Fatalf("got %v, want a verify failure at offset %d", err, bad)
			}
		})
	}
}

// TestWriteVerify writes sequentially over a whole file at depth > 1,
// exactly once (a counted end), and checks afterwards that every block
// holds its own offsets: every write counted landed.
func TestWriteVerify(t *testing.T) {
	const size = 2 << 20
	for place, dir := range places(t) {
		for _, eng := range engines {
			t.Run(place+"/"+eng, func(t *testing.T) {
				path := filepath.Join(dir, "w-"+eng)
				if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
					t.Fatal(err)
				}
				w := ioengine.Workload{Filename: path, RW: ioengine.Write, BS: 16384, IODepth: depthFor(eng, 8), NumJobs: 1, Direct: true, Verify: true, Permit: guard.Permit{AllowWrite: true}}
				// Exactly one pass (fio's size-based end), however busy the machine.
				st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: time.Minute, IOsPerJob: size / 16384})
				if err != nil {
					t.Fatal(err)
				}
				if st.All.TotalIOs != size/16384 {
					t.Fatalf("%d writes, want exactly one pass of %d", st.All.TotalIOs, size/16384)
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != size {
					t.Fatalf("file is %d bytes, want %d (engines never extend)", len(got), size)
				}
				if want := stampedBytes(size); !bytes.Equal(got, want) {
					for i := 0; i < size; i += 8 {
						if !bytes.Equal(got[i:i+8], want[i:i+8]) {
							t.Fatalf("first difference at byte %d", i)
						}
					}
				}
			})
		}
	}
}

// TestMixRatio checks that randrw with rwmixread=70 reads 70% ± 2% of I/Os.
func TestMixRatio(t *testing.T) {
	path := fastFile(t, "mix", 8<<20)
	w := ioengine.Workload{Filename: path, RW: ioengine.RandRW, RWMixRead: 70, BS: 4096, IODepth: 16, NumJobs: 1, Direct: true, RandSeed: 1, Permit: guard.Permit{AllowWrite: true}}
	// Run until 20000 I/Os (3σ of the share is then 1%), not for a fixed time.
	ctl := ioengine.Control{Runtime: 5 * time.Second, SampleInterval: 10 * time.Millisecond,
		OnSample: func(s ioengine.Sample) bool { return s.IOs >= 20000 }}
	st, err := mustEngine(t, "io_uring").Run(context.Background(), w, ctl)
	if err != nil {
		t.Fatal(err)
	}
	if st.Read == nil || st.Write == nil || st.All.TotalIOs < 5000 {
		t.Fatalf("too few I/Os to judge: %+v", st.All)
	}
	share := float64(st.Read.TotalIOs) / float64(st.All.TotalIOs)
	if math.Abs(share-0.70) > 0.02 {
		t.Fatalf("read share %.3f over %d I/Os, want 0.70 ± 0.02", share, st.All.TotalIOs)
	}
	if st.Read.TotalIOs+st.Write.TotalIOs != st.All.TotalIOs {
		t.Fatalf("read %d + write %d != all %d", st.Read.TotalIOs, st.Write.TotalIOs, st.All.TotalIOs)
	}
}

// TestLittlesLaw checks that the measured mean in-flight count equals IOPS ×
// mean latency within 5% on a half-second run.
func TestLittlesLaw(t *testing.T) {
	path := filepath.Join(t.TempDir(), "little")
	if err := ioengine.CreateScratch(context.Background(), path, 64<<20); err != nil {
		t.Fatal(err)
	}
	for _, eng := range []string{"io_uring", "libaio"} {
		t.Run(eng, func(t *testing.T) {
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 8, NumJobs: 1, Direct: true}
			st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Ramp: 50 * time.Millisecond, Runtime: 500 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			little := st.All.IOPS * st.All.Lat.MeanNs / 1e9
			t.Logf("inflight %.3f, IOPS %.0f × mean %.1f µs = %.3f", st.InflightMean, st.All.IOPS, st.All.Lat.MeanNs/1e3, little)
			if rel := math.Abs(st.InflightMean-little) / st.InflightMean; rel > 0.05 {
				t.Fatalf("Little's Law off by %.1f%%", rel*100)
			}
			checkInflightBound(t, st, 8)
		})
	}
}

// TestControl checks the window hooks, early end by OnSample, and cancellation.
func TestControl(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ctl")
	if err := os.WriteFile(path, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 4, NumJobs: 2, Direct: true}
	eng := mustEngine(t, "io_uring")

	t.Run("sample ends window", func(t *testing.T) {
		var starts, ends, samples atomic.Int32
		var last ioengine.Sample
		ctl := ioengine.Control{
			Ramp: 20 * time.Millisecond, Runtime: 10 * time.Second, SampleInterval: 20 * time.Millisecond,
			OnWindowStart: func() { starts.Add(1) },
			OnWindowEnd:   func() { ends.Add(1) },
			// The fifth sample ends the window, or the first after it
			// with a completion: a loaded disk may complete none for a
			// while (5 samples over 132 ms without one, the run's total
			// 0, beside a CI run and two CPU hogs).
			OnSample: func(s ioengine.Sample) bool {
				last = s
				return samples.Add(1) >= 5 && s.IOs > 0
			},
		}
		begin := time.Now()
		st, err := eng.Run(context.Background(), w, ctl)
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(begin) > 5*time.Second {
			t.Fatal("OnSample returning true did not end the window")
		}
		if starts.Load() != 1 || ends.Load() != 1 || samples.Load() < 5 {
			t.Fatalf("hooks: %d starts, %d ends, %d samples", starts.Load(), ends.Load(), samples.Load())
		}
		if last.IOs == 0 || last.IOs > st.All.TotalIOs || last.Bytes != last.IOs*4096 || last.LatSumNs <= 0 {
			t.Fatalf("last sample %+v vs total %d", last, st.All.TotalIOs)
		}
	})
	// The context ends once a sample has seen I/O complete, not at a
	// deadline: a 150 ms one passed before any completed on a loaded
	// machine. The run must stop then, with the context's error (not at its
	// 10 s window's end, without one) and the stats so far.
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var seen int64
		ctl := ioengine.Control{Runtime: 10 * time.Second, SampleInterval: 20 * time.Millisecond,
			OnSample: func(s ioengine.Sample) bool {
				if s.IOs > 0 && seen == 0 {
					seen = s.IOs
					cancel()
				}
				return false
			}}
		st, err := eng.Run(ctx, w, ctl)
		if !errors.Is(err, context.Canceled) {
			// nil: the run went on to its 10 s window's end.
			t.Fatalf("err %v, want one wrapping the context's error", err)
		}
		if st == nil || st.All.TotalIOs < seen {
			t.Fatalf("want partial stats of at least the %d I/Os a sample saw, got %+v", seen, st)
		}
	})
}

// TestOffsetIncrement gives each job its own slice and checks, through
// verification, that every job reads inside the file.
func TestOffsetIncrement(t *testing.T) {
	path := filepath.Join(t.TempDir(), "slices")
	if err := os.WriteFile(path, stampedBytes(4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 4, NumJobs: 4,
		Size: 1 << 20, OffsetIncrement: 1 << 20, Direct: true, Verify: true}
	st, err := mustEngine(t, "libaio").Run(context.Background(), w, ioengine.Control{Runtime: 100 * time.Millisecond})
	if err != nil || st.All.TotalIOs == 0 {
		t.Fatalf("err %v, stats %+v", err, st)
	}
	w.Size = 2 << 20 // the last job would run past the end of the file
	_, err = mustEngine(t, "libaio").Run(context.Background(), w, ioengine.Control{Runtime: 100 * time.Millisecond})
	if !errors.Is(err, ioengine.ErrBadWorkload) {
		t.Fatalf("err %v, want ErrBadWorkload for a region past the end", err)
	}
}
