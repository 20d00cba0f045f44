//go:build linux

package guard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Held is a target checked and opened for a whole run. A block device opened
// for writing is held with O_EXCL, so while it is open the kernel refuses to
// mount it (EBUSY), to use it as swap or to let a RAID/LVM/dm device or any
// other exclusive opener claim it. Every step of a run uses this one open
// file (Dup), so nothing is reopened by path after the check.
type Held struct {
	fd     int
	path   string
	write  bool
	direct bool
	block  bool
}

// Hold checks t under p (Check) on the running system and opens it for the
// run; see Checker.Hold.
func Hold(t Target, p Permit) (*Held, error) { return Checker{}.Hold(t, p) }

// Hold opens t.Path (read-only, or read-write when t.Write; O_DIRECT when
// t.Direct; never creating, truncating or extending it) and checks it under
// p through the open descriptor, so the file checked is the file written. A
// block device opened for writing is opened with O_EXCL first (EBUSY: it is
// refused as busy) and stays claimed until Close, even with p.Unchecked.
// The caller closes the Held when the run ends.
func (c Checker) Hold(t Target, p Permit) (*Held, error) {
	flags := t.openFlags()
	fi, err := os.Stat(t.Path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", t.Path, err)
	}
	h := &Held{path: t.Path, write: t.Write, direct: t.Direct, block: isBlock(fi)}
	if h.block && t.Write {
		open := func() (int, error) { return openExclusive(t.Path, flags) }
		if p.Unchecked {
			h.fd, err = open()
		} else {
			h.fd, err = c.checkDevice(t.Path, p, open)
		}
		if err != nil {
			return nil, directHint(t, err)
		}
		return h, nil
	}
	if !p.Unchecked && t.Write && !fi.Mode().IsRegular() && !h.block {
		return nil, refuse(nil, "%s is %s, neither a regular file nor a block device; refusing to write to it", t.Path, FileKind(fi.Mode()))
	}
	h.fd, err = unix.Open(t.Path, flags, 0)
	if err != nil {
		return nil, directHint(t, fmt.Errorf("open %s: %w", t.Path, err))
	}
	if t.Write && !p.Unchecked {
		var st unix.Stat_t
		if err := unix.Fstat(h.fd, &st); err != nil {
			unix.Close(h.fd)
			return nil, fmt.Errorf("open %s: %w", t.Path, err)
		}
		f := os.NewFile(uintptr(dupFd(h.fd)), t.Path)
		ofi, err := f.Stat()
		f.Close()
		if err != nil {
			unix.Close(h.fd)
			return nil, fmt.Errorf("open %s: %w", t.Path, err)
		}
		// The stack is the one of where the open file is (the kernel's
		// name for it, no symlink in it), not of what the path leads to
		// again: a directory symlink flipped between the open and the
		// check cannot show another directory's stack.
		where, lerr := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", h.fd))
		if lerr != nil || !filepath.IsAbs(where) || strings.HasSuffix(where, " (deleted)") {
			where = t.Path
		}
		if err := c.checkFile(t, ofi, p, where); err != nil {
			unix.Close(h.fd)
			return nil, err
		}
	}
	return h, nil
}

// directHint adds the fix for a filesystem that refuses O_DIRECT: turn
// SettingDirect off, named by the caller (Named: --direct=0), or in plain
// words (direct=0).
func directHint(t Target, err error) error {
	if t.Direct && errors.Is(err, unix.EINVAL) {
		return &failure{format: "open %s with O_DIRECT: %v: the filesystem refuses direct I/O; use %v=0",
			args: []any{t.Path, err, SettingDirect}, err: err}
	}
	return err
}

// Path is the path the target was opened by.
func (h *Held) Path() string { return h.path }

// Write reports whether the target is open for writing.
func (h *Held) Write() bool { return h.write }

// Direct reports whether the target is open with O_DIRECT.
func (h *Held) Direct() bool { return h.direct }

// Block reports whether the target is a block device.
func (h *Held) Block() bool { return h.block }

// Exclusive reports whether the target is held with O_EXCL (a block device
// open for writing).
func (h *Held) Exclusive() bool { return h.block && h.write }

// Dup returns a close-on-exec duplicate descriptor of the held open file for
// one run; the caller closes it. The exclusive claim lasts while any
// duplicate or the Held itself is open.
func (h *Held) Dup() (int, error) {
	if h == nil || h.fd < 0 {
		return -1, errors.New("target is not held")
	}
	fd, err := unix.FcntlInt(uintptr(h.fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("dup %s: %w", h.path, err)
	}
	return fd, nil
}

// openFlags are the open(2) flags t is opened with: read-only or
// read-write, O_DIRECT, O_SYNC or O_DSYNC, close-on-exec; never creating,
// truncating or extending. Every open of a target, its hold and each
// reopen of it in another job's mode (Reopen), takes them from here.
func (t Target) openFlags() int {
	flags := unix.O_RDONLY | unix.O_CLOEXEC
	if t.Write {
		flags = unix.O_RDWR | unix.O_CLOEXEC
	}
	if t.Direct {
		flags |= unix.O_DIRECT
	}
	switch t.Sync {
	case "sync":
		flags |= unix.O_SYNC
	case "dsync":
		flags |= unix.O_DSYNC
	}
	return flags
}

// Reopen opens the held file again through its descriptor (/proc/self/fd:
// the same file, never t.Path again) in t's own mode (openFlags), for a
// job that opens it otherwise than the hold did (direct=0 beside direct=1);
// a block device's O_EXCL claim stays h's. A t that writes a file held
// read-only is refused: it was never judged for writing. The caller
// closes the descriptor.
func (h *Held) Reopen(t Target) (int, error) {
	if t.Write && !h.Write() {
		return -1, fmt.Errorf("open %s: held read-only, and the job writes", t.Path)
	}
	fd, err := h.Dup()
	if err != nil {
		return -1, err
	}
	defer unix.Close(fd)
	nfd, err := unix.Open(fmt.Sprintf("/proc/self/fd/%d", fd), t.openFlags(), 0)
	if err != nil {
		return -1, fmt.Errorf("open %s: %w", t.Path, err)
	}
	return nfd, nil
}

// ID is the identity (device, inode) of the held file, read through its
// descriptor; zero when it cannot be read.
func (h *Held) ID() FileID {
	var st unix.Stat_t
	if h == nil || h.fd < 0 || unix.Fstat(h.fd, &st) != nil {
		return FileID{}
	}
	return FileID{Dev: uint64(st.Dev), Ino: st.Ino}
}

// PathID is the identity (device, inode) of the file path leads to now,
// symlinks followed: what a check of path judged, for a later Hold's ID
// to be compared with.
func PathID(path string) (FileID, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return FileID{}, err
	}
	return FileID{Dev: uint64(st.Dev), Ino: st.Ino}, nil
}

// Close releases the held descriptor. It is safe to call more than once.
func (h *Held) Close() error {
	if h == nil || h.fd < 0 {
		return nil
	}
	err := unix.Close(h.fd)
	h.fd = -1
	return err
}

// ErrTargetChanged is wrapped when a target's path no longer leads to the
// file that was checked and held (a symlink or device node swapped in).
var ErrTargetChanged = errors.New("target changed")

// Same proves that path leads to the held file now: the same device and
// inode (for a block device, the same device number, whatever node names
// it). For a program that opens the target by path itself (fio), checked
// before each of its runs; a difference stops the run before it starts.
func (h *Held) Same(path string) error {
	var held, now unix.Stat_t
	if err := unix.Fstat(h.fd, &held); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := unix.Stat(path, &now); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrTargetChanged, path, err)
	}
	same := held.Dev == now.Dev && held.Ino == now.Ino
	if h.block {
		same = now.Mode&unix.S_IFMT == unix.S_IFBLK && held.Rdev == now.Rdev
	}
	if !same {
		return fmt.Errorf("%w: %s no longer leads to the file or device checked at the start (replaced or re-linked during the run); stopped before fio opened it", ErrTargetChanged, path)
	}
	return nil
}

// Recheck looks again, during the run, at what claims a held target that
// is being written: a block device that gained a holder, a mount, a swap
// area or a loop device over it (or over one of its partitions), or a file
// that a loop device was attached over. The O_EXCL hold stops mounts and
// stacked devices of the device itself; a loop device over it, or over a
// held file, the kernel allows. The error wraps ErrTargetChanged and
// ErrDeviceBusy and names what appeared.
func (h *Held) Recheck() error {
	if h == nil || !h.write {
		return nil
	}
	c := Checker{}
	fi, err := os.Stat(fmt.Sprintf("/proc/self/fd/%d", h.fd))
	if err != nil {
		return nil
	}
	stack, err := c.stackOf(h.path, fi)
	if err == nil {
		err = stack.Busy()
	}
	if err != nil {
		return fmt.Errorf("%w during the run: %w; stopped writing it", ErrTargetChanged, err)
	}
	return nil
}
