//go:build linux

package ioengine

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// arena is one page-aligned anonymous mapping outside the Go heap: the I/O
// buffers (one per slot) plus a control area for structures whose addresses
// the kernel keeps (iocbs, events, timespecs). The garbage collector never
// moves or frees it; close unmaps it.
type arena struct {
	mem     []byte
	bufs    []byte // slots × bs bytes, page aligned
	bs      int
	control []byte // after the buffers, page aligned
}

// newArena maps slots buffers of bs bytes and controlBytes of control space.
func newArena(slots, bs, controlBytes int) (*arena, error) {
	page := os.Getpagesize()
	bufBytes := roundUp(slots*bs, page)
	ctlBytes := roundUp(controlBytes, page)
	if ctlBytes == 0 {
		ctlBytes = page
	}
	mem, err := unix.Mmap(-1, 0, bufBytes+ctlBytes, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("mapping %d bytes of I/O buffers: %w", bufBytes+ctlBytes, err)
	}
	return &arena{mem: mem, bufs: mem[:slots*bs], bs: bs, control: mem[bufBytes:]}, nil
}

// buf returns slot i's buffer.
func (a *arena) buf(i int) []byte { return a.bufs[i*a.bs : (i+1)*a.bs : (i+1)*a.bs] }

// addr returns the address of slot i's buffer.
func (a *arena) addr(i int) uint64 { return uint64(uintptr(unsafe.Pointer(&a.bufs[i*a.bs]))) }

func (a *arena) close() {
	if a != nil && a.mem != nil {
		_ = unix.Munmap(a.mem)
		a.mem = nil
	}
}

// carve returns a typed slice of n T placed in the control area at byte offset *off,
// advancing *off (aligned to 64 bytes).
func carve[T any](a *arena, off *int, n int) []T {
	var zero T
	sz := int(unsafe.Sizeof(zero))
	start := roundUp(*off, 64)
	end := start + sz*n
	if end > len(a.control) {
		panic(fmt.Sprintf("ioengine: arena control area too small (%d > %d)", end, len(a.control)))
	}
	*off = end
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&a.control[start])), n)
}

func roundUp(n, to int) int { return (n + to - 1) / to * to }
