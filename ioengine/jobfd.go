//go:build linux

package ioengine

import (
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// ownOpen opens the file behind fd again for one job, as fio's jobs each
// open their file: a descriptor of its own, on an open file of its own,
// with fd's access mode and O_DIRECT. Jobs that shared one open file paid
// for it in every I/O: each read takes and drops a reference on the open
// file (a process of several threads cannot skip it), one cache line that
// 16 psync jobs on 2 CPUs moved between them on every pread (zram, 4k
// direct reads: fdget and fput 0.41 µs per I/O against fio's 0.12). It
// opens /proc/self/fd/N, which names the same file (a deleted one too) and
// claims nothing (a block device held with O_EXCL stays held by fd). It
// returns fd itself where the file cannot be opened again (no /proc, no
// descriptors left) or its descriptor would leave fewer than reserve
// below RLIMIT_NOFILE for the run's rings and contexts: the job then
// shares it, as before.
func ownOpen(fd, reserve int) int {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return fd
	}
	keep := unix.O_ACCMODE | unix.O_DIRECT | unix.O_SYNC | unix.O_DSYNC | unix.O_NOATIME
	path := filepath.Join(systemLimits.proc, "self/fd", strconv.Itoa(fd))
	f, err := unix.Open(path, fl&keep|unix.O_CLOEXEC, 0)
	if err != nil {
		return fd
	}
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) != nil || uint64(f)+uint64(reserve) >= lim.Cur {
		unix.Close(f) // the lowest free descriptor: about as many are open
		return fd
	}
	var a, b unix.Stat_t
	if unix.Fstat(fd, &a) != nil || unix.Fstat(f, &b) != nil || a.Dev != b.Dev || a.Ino != b.Ino || a.Rdev != b.Rdev {
		unix.Close(f) // not the same file: share fd
		return fd
	}
	return f
}

// noAtime sets O_NOATIME on a block device's open file, as fio opens every
// file that is not a regular one: each read of a device opened without it
// asks whether the device node's access time needs an update
// (atime_needs_update, touch_atime: 0.09 µs per I/O of 16 psync jobs'
// 4k direct reads of zram, none in fio's). A regular file keeps its flags,
// as in fio. The flag goes on the open file, which the descriptors dup'd
// from it share; where it cannot be set (not the owner: EPERM) the reads
// update the access time as before. It returns fd and err as given.
func noAtime(fd int, err error) (int, error) {
	var st unix.Stat_t
	if err != nil || unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return fd, err
	}
	if fl, ferr := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); ferr == nil && fl&unix.O_NOATIME == 0 {
		_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFL, fl|unix.O_NOATIME)
	}
	return fd, err
}

// ownOpenReserve is how many descriptors ownOpen leaves free per job (a
// ring or an AIO context, an eventfd) and for the process besides.
func ownOpenReserve(jobs int) int { return 4*jobs + 64 }
