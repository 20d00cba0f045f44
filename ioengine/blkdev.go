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

// dropCache drops fd's cached pages, as fio's invalidate does: those of
// the n bytes from off (the whole file when n is 0) written back and
// invalidated for a regular file (POSIX_FADV_DONTNEED over the jobs'
// region, as fio's over each file's), the device's buffer cache flushed for
// a block device (BLKFLSBUF, which needs CAP_SYS_ADMIN). Failures are
// ignored: the run measures as it would have.
func dropCache(fd int, off, n int64) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		_ = unix.Fadvise(fd, off, n, unix.FADV_DONTNEED)
	case unix.S_IFBLK:
		_, _, _ = unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.BLKFLSBUF), 0)
	}
}

// of is the posix_fadvise advice f gives a job of pattern rw: 0 for none.
func (f Fadvise) of(rw RW) int {
	switch {
	case f == FadviseNone:
		return 0
	case f == FadviseRandom, f == FadviseByPattern && rw.IsRandom():
		return unix.FADV_RANDOM
	}
	return unix.FADV_SEQUENTIAL
}
