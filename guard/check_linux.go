//go:build linux

package guard

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/qdsweep/qdsweep/device"
)

// Checker runs the checks against the system under Roots.
type Checker struct {
	Roots device.Roots
	// NoTools skips the second opinion of blkid and wipefs (tests of the
	// built-in scan only). The zero value asks them wherever they are installed.
	NoTools bool
}

// Check decides whether t may run under p on the running system; see the
// package comment for the rules. Refusals wrap ErrWriteRefused and read as
// one line naming the flag or step that would allow the write.
func Check(t Target, p Permit) error { return Checker{}.Check(t, p) }

// Check decides whether t may run under p, reading the system under c.Roots.
// A block device is opened exclusively for the length of the check only;
// Hold keeps it for a whole run.
func (c Checker) Check(t Target, p Permit) error {
	if err := checkKind(t.Path, t.Write); err != nil {
		return err
	}
	if p.Unchecked {
		return nil
	}
	fi, err := os.Stat(t.Path)
	if errors.Is(err, os.ErrNotExist) {
		// qdsweep will create it (for a read too: it lays the file out),
		// unless the directory is a layer of something in use.
		st, err := c.newFileStack(t.Path)
		if err != nil {
			return fmt.Errorf("check write target: %w", err)
		}
		return st.Busy()
	}
	if !t.Write {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check write target: %w", err)
	}
	if fi.Mode().IsRegular() {
		return c.checkFile(t, fi, p, t.Path)
	}
	fd, err := c.checkDevice(t.Path, p, func() (int, error) { return openExclusive(t.Path, unix.O_RDONLY) })
	if fd >= 0 {
		unix.Close(fd)
	}
	return err
}

// checkKind refuses, before anything opens it, a missing target where
// qdsweep would create it under /dev, /proc or /sys (a typo of a device
// name would lay out a file in RAM), a FIFO or socket (an open would block
// or fail), and for a write anything but a regular file or block device.
// Reading a directory or character device is the engines' to refuse.
func checkKind(path string, write bool) error {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		if under := pseudoRoot(path); under != "" {
			return refuse(nil, "%s does not exist, and qdsweep creates nothing under %s; name an existing device (lsblk lists them) or a file on a filesystem", path, under)
		}
		return nil
	}
	if err != nil || fi.Mode().IsRegular() || isBlock(fi) {
		return nil
	}
	if write || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0 {
		return refuse(nil, "%s is %s, neither a regular file nor a block device; name a file or a block device", path, FileKind(fi.Mode()))
	}
	return nil
}

func isBlock(fi os.FileInfo) bool {
	return fi.Mode()&os.ModeDevice != 0 && fi.Mode()&os.ModeCharDevice == 0
}

// openExclusive opens a block device with O_EXCL: the kernel answers EBUSY
// when it is mounted or claimed (swap, RAID, LVM, another exclusive opener).
func openExclusive(path string, flags int) (int, error) {
	fd, err := unix.Open(path, flags|unix.O_EXCL|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.EBUSY) {
		return -1, refuse(ErrDeviceBusy, "%s is busy (mounted, swap, part of a RAID/LVM/dm device or opened exclusively elsewhere); refusing to write", path)
	}
	if err != nil {
		return -1, fmt.Errorf("open %s exclusively: %w", path, err)
	}
	return fd, nil
}

func (c Checker) checkFile(t Target, fi os.FileInfo, p Permit, where string) error {
	path := t.Path
	st, err := c.stackOf(where, fi)
	if err != nil {
		return err
	}
	if err := st.Busy(); err != nil {
		return err
	}
	if p.owns(fi) {
		return nil
	}
	if !p.AllowWrite {
		return refuse(nil, "%s already exists; refusing to overwrite its contents (pass --allow-write, or name a new %s)", path, SettingFile)
	}
	if t.End > fi.Size() {
		return refuse(ErrWouldExtend, "%s is %d bytes and the workload would write up to byte %d; qdsweep never extends a file it did not create (lower %s/%s or use a new %s)",
			path, fi.Size(), t.End, SettingSize, SettingOffset, SettingFile)
	}
	return nil
}

// checkDevice checks block device path: the flags, then what holds it
// (by name, for a message that says what to undo), then it opens it with
// open (which must use O_EXCL: the kernel's own word that nothing else
// claims it) and reads through that descriptor whether it is blank. It
// returns the open descriptor (the caller closes it) when the write may go
// ahead; on refusal nothing stays open.
func (c Checker) checkDevice(path string, p Permit, open func() (int, error)) (int, error) {
	if !p.AllowWriteDevice {
		return -1, refuse(nil, "%s is a block device; writing destroys its data: pass --allow-write-device to allow it", path)
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return -1, fmt.Errorf("check write target %s: %w", path, err)
	}
	destroy := false
	if p.DestroyData != "" {
		var ds unix.Stat_t
		if err := unix.Stat(p.DestroyData, &ds); err != nil || ds.Mode&unix.S_IFMT != unix.S_IFBLK || ds.Rdev != st.Rdev {
			return -1, refuse(ErrDestroyMismatch, "--destroy-data=%s does not name the target %s; name the same device twice to confirm", p.DestroyData, path)
		}
		destroy = true
	}
	parts := c.partitions(c.devName(uint64(st.Rdev)))
	fi, err := os.Stat(path)
	if err != nil {
		return -1, fmt.Errorf("check write target %s: %w", path, err)
	}
	if !isBlock(fi) || rdevOf(fi) != uint64(st.Rdev) {
		return -1, refuse(nil, "%s changed while it was being checked; refusing to write", path)
	}
	stack, err := c.stackOf(path, fi)
	if err != nil {
		return -1, err
	}
	if err := stack.Busy(); err != nil {
		return -1, err
	}
	fd, err := open()
	if err != nil {
		return -1, err
	}
	fail := func(err error) (int, error) {
		unix.Close(fd)
		return -1, err
	}
	var ost unix.Stat_t
	if err := unix.Fstat(fd, &ost); err != nil {
		return fail(fmt.Errorf("check write target %s: %w", path, err))
	}
	if ost.Mode&unix.S_IFMT != unix.S_IFBLK || ost.Rdev != st.Rdev {
		return fail(refuse(nil, "%s changed while it was being checked; refusing to write", path))
	}
	if destroy {
		return fd, nil
	}
	if len(parts) > 0 {
		names := make([]string, len(parts))
		for i, p := range parts {
			names[i] = p.name
		}
		return fail(refuse(ErrHasPartitions, "%s has partitions (%s); refusing to write to the whole device (pass --destroy-data=%s to overwrite them)",
			path, strings.Join(names, ", "), path))
	}
	if err := c.checkBlank(path, fd); err != nil {
		return fail(err)
	}
	return fd, nil
}

// checkBlank reads the open device fd where formats keep their superblocks
// and asks blkid and wipefs for a second opinion.
func (c Checker) checkBlank(path string, fd int) error {
	size, err := unix.Seek(fd, 0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("check %s for existing data: size: %w", path, err)
	}
	// Read through a plain descriptor: the held one may be O_DIRECT.
	rfd, err := unix.Open(fmt.Sprintf("/proc/self/fd/%d", fd), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("check %s for existing data: %w", path, err)
	}
	f := os.NewFile(uintptr(rfd), path)
	defer f.Close()
	found, err := Scan(f, size)
	if err != nil {
		return refuse(ErrHasSignature, "%s could not be read to check it is blank (%v); refusing to write (pass --destroy-data=%s to overwrite it unchecked)", path, err, path)
	}
	if !found.Blank() {
		return refuse(ErrHasSignature, "%s holds %s; refusing to write (pass --destroy-data=%s to overwrite it)", path, found, path)
	}
	if !c.NoTools {
		what, err := secondOpinion(path)
		if err != nil {
			return refuse(ErrHasSignature, "%s: %v; refusing to write (pass --destroy-data=%s to overwrite it)", path, err, path)
		}
		if what != "" {
			return refuse(ErrHasSignature, "%s holds %s; refusing to write (pass --destroy-data=%s to overwrite it)", path, what, path)
		}
	}
	return nil
}

// dupFd returns a close-on-exec duplicate of fd, or -1.
func dupFd(fd int) int {
	n, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return n
}

// devNode is a block device as sysfs names it, with its "major:minor".
type devNode struct {
	name string // e.g. "loop3", "nvme0n1p2" ("" when sysfs does not know it)
	dev  string // "major:minor"
	rdev uint64 // device number
	dir  string // its sysfs directory ("" when sysfs does not know it)
}

func devNumber(rdev uint64) string {
	return fmt.Sprintf("%d:%d", unix.Major(rdev), unix.Minor(rdev))
}

// devName maps a device number to its sysfs name through /sys/dev/block/M:m.
func (c Checker) devName(rdev uint64) string {
	link, err := os.Readlink(filepath.Join(c.Roots.SysRoot(), "dev", "block", devNumber(rdev)))
	if err != nil {
		return ""
	}
	return filepath.Base(link)
}

// partitions lists the partitions of whole device name: its sysfs
// subdirectories that hold a "partition" file.
func (c Checker) partitions(name string) []devNode {
	if name == "" {
		return nil
	}
	dir := filepath.Join(c.Roots.SysRoot(), "class", "block", name)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var parts []devNode
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), name) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "partition")); err != nil {
			continue
		}
		dev, _ := os.ReadFile(filepath.Join(dir, e.Name(), "dev"))
		d := devNode{name: e.Name(), dev: strings.TrimSuffix(string(dev), "\n"), dir: filepath.Join(dir, e.Name())}
		var maj, min uint32
		if _, err := fmt.Sscanf(d.dev, "%d:%d", &maj, &min); err == nil {
			d.rdev = unix.Mkdev(maj, min)
		}
		parts = append(parts, d)
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].name < parts[j].name })
	return parts
}

// loopStatus asks loop device name (a whole loop device: sysfs gives it
// a loop directory; its partitions would answer for it) which file backs it.
func (c Checker) loopStatus(name string) (*unix.LoopInfo64, bool) {
	if _, err := os.Stat(filepath.Join(c.Roots.SysRoot(), "class", "block", name, "loop")); err != nil {
		return nil, false
	}
	fd, err := unix.Open(filepath.Join(c.Roots.DevRoot(), name), unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	info, err := unix.IoctlLoopGetStatus64(fd)
	if err != nil {
		return nil, false // not attached
	}
	return info, true
}

func partSuffix(d, whole devNode) string {
	if d == whole {
		return ""
	}
	return " (partition " + d.name + ")"
}

// sameDevice reports whether a path from mountinfo or /proc/swaps names d:
// by device number when the path exists, else by its /dev/<name> spelling.
func (c Checker) sameDevice(p string, d devNode) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err == nil {
		return st.Mode&unix.S_IFMT == unix.S_IFBLK && uint64(st.Rdev) == d.rdev
	}
	return d.name != "" && (p == "/dev/"+d.name || p == filepath.Join(c.Roots.DevRoot(), d.name))
}

func (c Checker) mounts() ([]mountEntry, error) {
	f, err := os.Open(filepath.Join(c.Roots.ProcRoot(), "self", "mountinfo"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseMountinfo(f)
}

func (c Checker) swaps() ([]string, error) {
	f, err := os.Open(filepath.Join(c.Roots.ProcRoot(), "swaps"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil // kernel without swap support
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseSwaps(f)
}

// IDOf is the identity of the file fi describes (zero off a stat).
func IDOf(fi os.FileInfo) FileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return FileID{Dev: uint64(st.Dev), Ino: st.Ino}
	}
	return FileID{}
}

// owns reports whether fi is one of the files qdsweep created (p.Ours).
func (p Permit) owns(fi os.FileInfo) bool {
	id := IDOf(fi)
	return id != (FileID{}) && slices.Contains(p.Ours, id)
}

// sameFilesystem reports whether a and b are on one filesystem (the same
// device number); true when either cannot be read, to refuse on doubt.
func sameFilesystem(a, b string) bool {
	var sa, sb unix.Stat_t
	if unix.Stat(a, &sa) != nil || unix.Stat(b, &sb) != nil {
		return true
	}
	return sa.Dev == sb.Dev
}
