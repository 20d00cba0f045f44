//go:build linux

package ioengine

import (
	"testing"
	"unsafe"
)

// TestABISizes pins the kernel structure sizes this package lays out by hand.
func TestABISizes(t *testing.T) {
	cases := []struct {
		name string
		got  uintptr
		want uintptr
	}{
		{"io_uring_sqe", unsafe.Sizeof(uringSQE{}), 64},
		{"io_uring_cqe", unsafe.Sizeof(uringCQE{}), 16},
		{"io_uring_params", unsafe.Sizeof(uringParams{}), 120},
		{"io_uring_getevents_arg", unsafe.Sizeof(uringGeteventsArg{}), 24},
		{"io_uring_probe", unsafe.Sizeof(uringProbeHdr{}), 16},
		{"io_uring_probe_op", unsafe.Sizeof(uringProbeOp{}), 8},
		{"iocb", unsafe.Sizeof(aioIOCB{}), 64},
		{"io_event", unsafe.Sizeof(aioEvent{}), 32},
		{"aio_ring header", unsafe.Sizeof(aioRingHdr{}), 32},
		{"iovec", unsafe.Sizeof(iovec{}), 2 * unsafe.Sizeof(uintptr(0))},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: size %d, want %d", c.name, c.got, c.want)
		}
	}
	if off := unsafe.Offsetof(uringSQE{}.userData); off != 32 {
		t.Errorf("sqe.user_data at %d, want 32", off)
	}
	if off := unsafe.Offsetof(aioIOCB{}.offset); off != 40 {
		t.Errorf("iocb.aio_offset at %d, want 40", off)
	}
}
