package ioengine

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// openTarget opens the workload's file or device for the run: read-only or
// read-write as the pattern needs, O_DIRECT when asked, never creating,
// truncating or extending it.
func openTarget(w *Workload) (int, error) {
	flags := unix.O_RDONLY | unix.O_CLOEXEC
	if w.RW.IsWrite() {
		flags = unix.O_RDWR | unix.O_CLOEXEC
	}
	if w.Direct {
		flags |= unix.O_DIRECT
	}
	fd, err := unix.Open(w.Filename, flags, 0)
	if err != nil {
		if w.Direct && errors.Is(err, unix.EINVAL) {
			return -1, fmt.Errorf("open %s with O_DIRECT: %w: the filesystem refuses direct I/O; use --direct=0", w.Filename, err)
		}
		return -1, fmt.Errorf("open %s: %w", w.Filename, err)
	}
	return fd, nil
}
