//go:build linux

package ioengine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestFallbackToLibaio forces the io_uring probe to fail the way
// kernel.io_uring_disabled and seccomp make it fail and runs through the fallback.
func TestFallbackToLibaio(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fb")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		errno unix.Errno
		hint  string
	}{
		{unix.EPERM, "kernel.io_uring_disabled"},
		{unix.ENOSYS, "seccomp"},
	}
	for _, c := range cases {
		t.Run(c.errno.Error(), func(t *testing.T) {
			eng, reason, err := newEngine("io_uring", func() error { return fmt.Errorf("io_uring_setup: %w", c.errno) })
			if err != nil {
				t.Fatal(err)
			}
			if eng.Name() != EngineLibaio || !strings.Contains(reason, c.hint) || !strings.HasSuffix(reason, "using libaio") {
				t.Fatalf("engine %s, reason %q", eng.Name(), reason)
			}
			w := Workload{Filename: path, RW: RandRead, BS: 4096, IODepth: 4, NumJobs: 1, Direct: true}
			st, err := eng.Run(context.Background(), w, Control{Runtime: 50 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if st.Engine != EngineLibaio || st.FallbackReason != reason || st.All.TotalIOs == 0 {
				t.Fatalf("stats: engine %q reason %q ios %d", st.Engine, st.FallbackReason, st.All.TotalIOs)
			}
		})
	}
	eng, reason, err := New("io_uring")
	if err != nil || eng.Name() != EngineIOUring || reason != "" {
		t.Fatalf("with the real probe: %v %q %v", eng, reason, err)
	}
}

// TestRegisteredBufferFallback makes the kernel refuse buffer registration
// and checks that plain READ/WRITE carry the run, verified, and say why.
func TestRegisteredBufferFallback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "reg")
	b := make([]byte, 1<<20)
	stamp(b, 0)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	w := Workload{Filename: path, RW: RandRead, BS: 4096, IODepth: 8, NumJobs: 1, Direct: true, Verify: true}
	for _, bad := range []bool{false, true} {
		open := func(j *job) (jobLoop, error) { return openUringLoop(j, bad) }
		st, err := (&kernelEngine{name: EngineIOUring, newLoop: open}).Run(context.Background(), w, Control{Runtime: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if st.All.TotalIOs == 0 {
			t.Fatal("no I/O")
		}
		if bad != strings.HasPrefix(st.Buffers, "unregistered: IORING_REGISTER_BUFFERS") || !bad && st.Buffers != "registered" {
			t.Fatalf("bad=%v: buffers %q", bad, st.Buffers)
		}
	}
}

// TestOffsetGen checks that offsets stay inside the region and aligned,
// random ones cover it, and sequential ones wrap around.
func TestOffsetGen(t *testing.T) {
	cases := []struct {
		rw          RW
		start, size int64
		bs          int64
	}{
		{RandRead, 0, 1 << 20, 4096},
		{RandWrite, 1 << 20, 3 << 20, 65536},
		{RandRW, 4096, 40960, 4096},
		{Read, 8192, 10 * 4096, 4096},
		{ReadWrite, 0, 5 * 512, 512},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s-%d-%d", c.rw, c.start, c.bs), func(t *testing.T) {
			w := Workload{RW: c.rw, BS: c.bs, RWMixRead: 50, RandSeed: 3}
			g := newOffsetGen(&w, c.start, []int64{c.size}, 0)
			blocks := c.size / c.bs
			seen := map[int64]bool{}
			next := [2]int64{c.start, c.start} // expected sequential offset per direction
			for i := 0; i < int(blocks)*50; i++ {
				dir, _, off, _ := g.next()
				if off < c.start || off+c.bs > c.start+c.size || (off-c.start)%c.bs != 0 {
					t.Fatalf("offset %d outside [%d,%d) or unaligned to %d", off, c.start, c.start+c.size, c.bs)
				}
				if !c.rw.IsRandom() {
					if off != next[dir] {
						t.Fatalf("sequential %s: offset %d, want %d", c.rw, off, next[dir])
					}
					next[dir] = off + c.bs
					if next[dir] == c.start+c.size {
						next[dir] = c.start // wrap around
					}
				}
				seen[off] = true
			}
			if int64(len(seen)) != blocks {
				t.Fatalf("touched %d of %d blocks", len(seen), blocks)
			}
		})
	}
}
