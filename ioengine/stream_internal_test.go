//go:build linux

package ioengine

import (
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestStreamPolicy checks when a loop gives up one submission per call.
func TestStreamPolicy(t *testing.T) {
	cases := []struct {
		name   string
		inline []bool
		want   bool // still one submission per call
	}{
		{"no observations", nil, true},
		{"asynchronous device", []bool{false, false, false}, true},
		{"streak one short", repeat(true, inlineStreakLimit-1), true},
		{"streak broken", append(repeat(true, inlineStreakLimit-1), append([]bool{false}, repeat(true, inlineStreakLimit-1)...)...), true},
		{"synchronous target", repeat(true, inlineStreakLimit), false},
		{"batching is for good", append(repeat(true, inlineStreakLimit), false, false), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p streamPolicy
			for _, in := range c.inline {
				p.observe(in)
			}
			if p.on() != c.want {
				t.Fatalf("on() = %v after %v, want %v", p.on(), c.inline, c.want)
			}
		})
	}
}

func repeat(v bool, n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestAIOUserRing reads completions from the kernel's AIO ring without
// io_getevents, for long enough to wrap around the ring, and checks that
// every I/O comes back exactly once and that the kernel sees the head moved
// (io_getevents then finds nothing left to deliver).
func TestAIOUserRing(t *testing.T) {
	const depth, bs = 8, 4096
	path := filepath.Join(t.TempDir(), "ring")
	if err := os.WriteFile(path, stampedFile(1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	w := Workload{Filename: path, RW: RandRead, BS: bs, IODepth: depth, NumJobs: 1, Direct: true}
	fd, err := openTarget(&w)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	j := &job{w: &w, fds: []int{fd}, depth: depth, bs: bs}
	l, err := newAIOLoop(j)
	if err != nil {
		t.Fatal(err)
	}
	a := l.(*aioLoop)
	defer a.close(false)
	if a.ring == nil {
		t.Skip("no AIO ring with the expected magic at the context address (not a Linux kernel?)")
	}
	rounds := 3*int(a.ring.nr)/depth + 1
	for round := 0; round < rounds; round++ {
		for k := 0; k < depth; k++ {
			cb := &a.iocbs[k]
			cb.opcode, cb.offset = aioCmdPread, int64((round*depth+k)%256)*bs
			a.ptrs[k] = uint64(uintptr(unsafe.Pointer(cb)))
		}
		n, _, e := unix.Syscall(unix.SYS_IO_SUBMIT, uintptr(a.ctx), depth, uintptr(unsafe.Pointer(&a.ptrs[0])))
		if e != 0 || n != depth {
			t.Fatalf("round %d: io_submit: %d, %v", round, n, e)
		}
		seen := make(map[uint64]bool)
		deadline := time.Now().Add(10 * time.Second)
		for len(seen) < depth {
			got := a.reapRing()
			for _, ev := range a.events[:got] {
				if seen[ev.data] {
					t.Fatalf("round %d: slot %d completed twice", round, ev.data)
				}
				seen[ev.data] = true
				off := a.iocbs[ev.data].offset
				if ev.res != bs || !stamped(a.ar.buf(int(ev.data)), off) {
					t.Fatalf("round %d: slot %d at %d: res %d, data stamped %v", round, ev.data, off, ev.res, stamped(a.ar.buf(int(ev.data)), off))
				}
			}
			if got == 0 && time.Now().After(deadline) {
				t.Fatalf("round %d: %d of %d completions in the ring after 10 s", round, len(seen), depth)
			}
		}
	}
	var zero kernelTimespec
	n, _, e := unix.Syscall6(unix.SYS_IO_GETEVENTS, uintptr(a.ctx), 0, depth, uintptr(unsafe.Pointer(&a.events[0])), uintptr(unsafe.Pointer(&zero)), 0)
	if e != 0 || n != 0 {
		t.Fatalf("io_getevents after user-space reaping: %d events, %v; want 0", n, e)
	}
}

// stampedFile returns size bytes in the layout stamped expects.
func stampedFile(size int) []byte {
	b := make([]byte, size)
	for off := 0; off+4096 <= size; off += 4096 {
		stamp(b[off:off+4096], int64(off))
	}
	return b
}
