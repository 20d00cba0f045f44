//go:build linux

package ioengine

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/qdsweep/qdsweep/guard"
)

// openTarget opens the workload's file or device for the run: read-only or
// read-write as the pattern needs, O_DIRECT when asked, never creating,
// truncating or extending it. A write runs only past the write guard
// (w.Permit; guard.Hold): a block device is opened with O_EXCL and stays
// claimed while the returned descriptor is open. When w.Held is set the run
// uses a duplicate of that descriptor, the one open file of the whole sweep
// (for w.Filename; any other file, such as a per-job file, is held here).
func openTarget(w *Workload) (int, error) {
	if h := heldFor(w); h != nil { // another file (a per-job file) is held on its own below
		if h != w.Held {
			// A run's file held from its start (HeldFiles), perhaps by a
			// job of another mode: this job's own open of that very file.
			return noAtime(reopenHeld(h, w))
		}
		switch {
		case w.RW.IsWrite() && !h.Write():
			return -1, fmt.Errorf("open %s: held read-only, and %s writes", w.Filename, w.RW)
		case h.Direct() != w.Direct:
			return -1, settingErrf(nil, "open %s: held with %s, and the run asks %s", w.Filename, use(SetDirect, h.Direct()), use(SetDirect, w.Direct))
		}
		return noAtime(h.Dup())
	}
	h, err := guard.Hold(w.GuardTarget(w.Filename, w.RW.IsWrite(), 0), w.Permit)
	if err != nil {
		return -1, guardErr(err)
	}
	defer h.Close()
	return noAtime(h.Dup())
}

// reopenHeld opens the file h holds again through its descriptor
// (/proc/self/fd: the same file, never the path again) with w's own
// flags: read or read-write, O_DIRECT, O_SYNC or O_DSYNC; a block
// device's O_EXCL claim stays h's.
func reopenHeld(h *guard.Held, w *Workload) (int, error) {
	if w.RW.IsWrite() && !h.Write() {
		return -1, fmt.Errorf("open %s: held read-only, and %s writes", w.Filename, w.RW)
	}
	fd, err := h.Dup()
	if err != nil {
		return -1, err
	}
	defer unix.Close(fd)
	flags := unix.O_RDONLY | unix.O_CLOEXEC
	if w.RW.IsWrite() {
		flags = unix.O_RDWR | unix.O_CLOEXEC
	}
	if w.Direct {
		flags |= unix.O_DIRECT
	}
	switch w.OpenSync {
	case "sync":
		flags |= unix.O_SYNC
	case "dsync":
		flags |= unix.O_DSYNC
	}
	nfd, err := unix.Open(fmt.Sprintf("/proc/self/fd/%d", fd), flags, 0)
	if err != nil {
		return -1, fmt.Errorf("open %s: %w", w.Filename, err)
	}
	return nfd, nil
}

// heldFor is the hold of w.Filename among w.Held and w.HeldFiles, or nil.
func heldFor(w *Workload) *guard.Held { return w.HeldFile(w.Filename) }
