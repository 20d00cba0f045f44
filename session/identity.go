package session

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/sweep"
)

// A resumed sweep measures the file it measured before, or nothing: the
// target's identity (a file's device and inode, a block device's number,
// and its size) is recorded from the descriptor the sweep holds, and a
// resume is refused when the path now leads elsewhere, before anything is
// written and again once the target is held.

// targetIdentity is the identity of the file or device at path (the
// target, or /proc/self/fd/N of a held descriptor), read without blocking.
func targetIdentity(path string) (*sweep.TargetID, error) {
	st, err := guard.StackOf(path)
	if err != nil {
		return nil, err
	}
	l := st.Layers[0]
	id := &sweep.TargetID{Dev: l.File.Dev, Ino: l.File.Ino, Rdev: l.Rdev}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if id.Size, err = f.Seek(0, io.SeekEnd); err != nil {
		return nil, fmt.Errorf("size of %s: %w", path, err)
	}
	return id, nil
}

// heldIdentity is the identity of the held target, through its descriptor.
func heldIdentity(h *guard.Held) (*sweep.TargetID, error) {
	fd, err := h.Dup()
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), h.Path())
	defer f.Close()
	return targetIdentity("/proc/self/fd/" + strconv.Itoa(fd))
}

// sameTarget refuses a resume whose target is not the one recorded (was
// nil: a result from before identities were recorded, nothing to compare).
func sameTarget(path string, was, now *sweep.TargetID) error {
	if was == nil || now == nil || *was == *now {
		return nil
	}
	return Usagef("--resume: %s is not the file the sweep measured (%s then, %s now): it was replaced since; resume only onto the same target, or start a new sweep", path, describeID(was), describeID(now))
}

func describeID(id *sweep.TargetID) string {
	if id.Rdev != 0 {
		return fmt.Sprintf("block device number %d, %d bytes", id.Rdev, id.Size)
	}
	return fmt.Sprintf("inode %d on device %d, %d bytes", id.Ino, id.Dev, id.Size)
}
