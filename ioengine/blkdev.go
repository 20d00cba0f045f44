//go:build linux

package ioengine

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// ioctlBlockSize64 returns a block device's size in bytes (BLKGETSIZE64).
func ioctlBlockSize64(fd int) (int64, error) {
	var n uint64
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.BLKGETSIZE64), uintptr(unsafe.Pointer(&n)))
	if e != 0 {
		return 0, e
	}
	return int64(n), nil
}
