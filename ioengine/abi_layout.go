//go:build linux

package ioengine

import "unsafe"

// The hand-laid kernel structures' sizes and field offsets, checked when
// the package compiles: on an architecture where a layout differs (a field
// aligned otherwise, a word of another width) an index below is out of
// range and the build fails there, instead of the kernel reading garbage.
// CI builds the package for 32- and 64-bit, little- and big-endian Linux.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(uringSQE{})-64]
	_ = [1]struct{}{}[unsafe.Offsetof(uringSQE{}.off)-8]
	_ = [1]struct{}{}[unsafe.Offsetof(uringSQE{}.addr)-16]
	_ = [1]struct{}{}[unsafe.Offsetof(uringSQE{}.len)-24]
	_ = [1]struct{}{}[unsafe.Offsetof(uringSQE{}.userData)-32]
	_ = [1]struct{}{}[unsafe.Offsetof(uringSQE{}.bufIndex)-40]
	_ = [1]struct{}{}[unsafe.Offsetof(uringSQE{}.addr3)-48]
	_ = [1]struct{}{}[unsafe.Sizeof(uringCQE{})-16]
	_ = [1]struct{}{}[unsafe.Offsetof(uringCQE{}.res)-8]
	_ = [1]struct{}{}[unsafe.Sizeof(uringParams{})-120]
	_ = [1]struct{}{}[unsafe.Offsetof(uringParams{}.sqOff)-40]
	_ = [1]struct{}{}[unsafe.Offsetof(uringParams{}.cqOff)-80]
	_ = [1]struct{}{}[unsafe.Offsetof(uringSQOffsets{}.userAddr)-32]
	_ = [1]struct{}{}[unsafe.Sizeof(uringGeteventsArg{})-24]
	_ = [1]struct{}{}[unsafe.Offsetof(uringGeteventsArg{}.ts)-16]
	_ = [1]struct{}{}[unsafe.Sizeof(kernelTimespec{})-16]
	_ = [1]struct{}{}[unsafe.Sizeof(uringProbeHdr{})-16]
	_ = [1]struct{}{}[unsafe.Sizeof(uringProbeOp{})-8]
	_ = [1]struct{}{}[unsafe.Sizeof(aioIOCB{})-64]
	_ = [1]struct{}{}[unsafe.Offsetof(aioIOCB{}.opcode)-16]
	_ = [1]struct{}{}[unsafe.Offsetof(aioIOCB{}.fildes)-20]
	_ = [1]struct{}{}[unsafe.Offsetof(aioIOCB{}.buf)-24]
	_ = [1]struct{}{}[unsafe.Offsetof(aioIOCB{}.offset)-40]
	_ = [1]struct{}{}[unsafe.Offsetof(aioIOCB{}.flags)-56]
	_ = [1]struct{}{}[unsafe.Sizeof(aioEvent{})-32]
	_ = [1]struct{}{}[unsafe.Offsetof(aioEvent{}.res)-16]
	_ = [1]struct{}{}[unsafe.Sizeof(aioRingHdr{})-32]
	// iovec is struct iovec: two native words.
	_ = [1]struct{}{}[unsafe.Sizeof(iovec{})-2*unsafe.Sizeof(uintptr(0))]
)
