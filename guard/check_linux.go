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

	"github.com/qdsweep/qdsweep/ioengine/device"
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
	if p.Unchecked || !t.Write {
		return nil
	}
	fi, err := os.Stat(t.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil // qdsweep will create it
	}
	if err != nil {
		return fmt.Errorf("check write target: %w", err)
	}
	if fi.Mode().IsRegular() {
		return c.checkFile(t, fi, p)
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
		return refuse(nil, "%s is %s, neither a regular file nor a block device; name a file or a block device", path, kindOf(fi.Mode()))
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

func (c Checker) checkFile(t Target, fi os.FileInfo, p Permit) error {
	path := t.Path
	if swaps, err := c.swaps(); err == nil {
		for _, s := range swaps {
			if si, err := os.Stat(s); err == nil && os.SameFile(fi, si) {
				return refuse(ErrDeviceBusy, "%s is an active swap file; refusing to write (swapoff it first)", path)
			}
		}
	}
	if loop := c.loopBacking(path, fi); loop != "" {
		return refuse(ErrDeviceBusy, "%s backs loop device /dev/%s; refusing to write (detach it with losetup -d first)", path, loop)
	}
	if p.owns(fi) {
		return nil
	}
	if !p.AllowWrite {
		return refuse(nil, "%s already exists; refusing to overwrite its contents (pass --allow-write, or name a new --filename)", path)
	}
	if t.End > fi.Size() {
		return refuse(ErrWouldExtend, "%s is %d bytes and the workload would write up to byte %d; qdsweep never extends a file it did not create (lower --size/--offset or use a new --filename)",
			path, fi.Size(), t.End)
	}
	return nil
}

// loopBacking returns the name of a loop device whose backing file is the
// file or block device fi (found at path), or "". It compares three ways,
// any one being enough: the kernel's own record of the backing inode
// (LOOP_GET_STATUS64), the sysfs backing_file name resolved with stat, and
// that name byte for byte against path (only the final newline is dropped:
// a name ending in a space stays itself).
func (c Checker) loopBacking(path string, fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	abs, _ := filepath.Abs(path)
	block := filepath.Join(c.Roots.SysRoot(), "class", "block")
	ents, err := os.ReadDir(block)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "loop") {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(block, name, "loop", "backing_file")); err == nil {
			raw := strings.TrimSuffix(string(b), "\n")
			for _, n := range []string{raw, strings.TrimSuffix(raw, " (deleted)")} {
				if n == path || n == abs {
					return name
				}
				if bi, err := os.Stat(n); err == nil && sameNode(fi, bi) {
					return name
				}
				if c.overlayLayerOf(n, fi) {
					return name
				}
			}
		}
		if c.loopInfoMatches(name, st) {
			return name
		}
	}
	return ""
}

// overlayLayerOf reports whether fi is the file behind overlay path merged
// in one of its layers: the upper file a write through the merged path
// lands in, or a lower one. A loop device over a merged path reads the
// same bytes as the upper file, which has its own device and inode.
func (c Checker) overlayLayerOf(merged string, fi os.FileInfo) bool {
	mounts, err := c.mounts()
	if err != nil {
		return false
	}
	var best *mountEntry
	for i, m := range mounts {
		if m.fstype != "overlay" || !(strings.HasPrefix(merged, m.point+"/") || m.point == "/") {
			continue
		}
		if best == nil || len(m.point) > len(best.point) {
			best = &mounts[i]
		}
	}
	if best == nil {
		return false
	}
	rel := strings.TrimPrefix(merged, best.point)
	for _, dir := range overlayLayers(best.super) {
		if li, err := os.Stat(filepath.Join(dir, rel)); err == nil && os.SameFile(fi, li) {
			return true
		}
	}
	return false
}

// sameNode reports whether a and b are the same file, or block device nodes
// of the same device number.
func sameNode(a, b os.FileInfo) bool {
	if os.SameFile(a, b) {
		return true
	}
	if !isBlock(a) || !isBlock(b) {
		return false
	}
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Rdev == sb.Rdev
}

// loopInfoMatches asks loop device name (under the dev root) which inode
// backs it and compares it with st.
func (c Checker) loopInfoMatches(name string, st *syscall.Stat_t) bool {
	fd, err := unix.Open(filepath.Join(c.Roots.DevRoot(), name), unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var ls unix.Stat_t
	if unix.Fstat(fd, &ls) != nil || ls.Mode&unix.S_IFMT != unix.S_IFBLK {
		return false
	}
	info, err := unix.IoctlLoopGetStatus64(fd)
	if err != nil {
		return false // not attached
	}
	return info.Device == uint64(st.Dev) && info.Inode == st.Ino
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
	name := c.devName(uint64(st.Rdev))
	devs := []devNode{{name: name, dev: devNumber(uint64(st.Rdev)), rdev: uint64(st.Rdev)}}
	if name != "" {
		devs[0].dir = filepath.Join(c.Roots.SysRoot(), "class", "block", name)
	}
	parts := c.partitions(devs[0].name)
	devs = append(devs, parts...)
	if err := c.checkBusy(path, devs); err != nil {
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

// checkBusy refuses when the device or one of its partitions is mounted,
// used as swap, held by another block device or backs a loop device.
func (c Checker) checkBusy(path string, devs []devNode) error {
	mounts, err := c.mounts()
	if err != nil {
		return fmt.Errorf("check %s is not mounted: %w", path, err)
	}
	for _, d := range devs {
		for _, m := range mounts {
			if m.dev == d.dev || c.sameDevice(m.source, d) {
				return refuse(ErrDeviceBusy, "%s is mounted at %s; refusing to write (unmount it first)", path+partSuffix(d, devs[0]), m.point)
			}
		}
	}
	swaps, err := c.swaps()
	if err != nil {
		return fmt.Errorf("check %s is not swap: %w", path, err)
	}
	for _, d := range devs {
		for _, s := range swaps {
			if c.sameDevice(s, d) {
				return refuse(ErrDeviceBusy, "%s is an active swap area (%s); refusing to write (swapoff it first)", path+partSuffix(d, devs[0]), s)
			}
		}
	}
	for _, d := range devs {
		if d.dir == "" {
			continue
		}
		ents, err := os.ReadDir(filepath.Join(d.dir, "holders"))
		if err != nil || len(ents) == 0 {
			continue
		}
		names := make([]string, len(ents))
		for i, e := range ents {
			names[i] = e.Name()
		}
		return refuse(ErrDeviceBusy, "%s is held by %s (device mapper, RAID or another stacked device); refusing to write (release it first)",
			path+partSuffix(d, devs[0]), strings.Join(names, ", "))
	}
	for _, d := range devs {
		if loop := c.loopBackingDev(path, d, d == devs[0]); loop != "" {
			return refuse(ErrDeviceBusy, "%s backs loop device /dev/%s; refusing to write (detach it with losetup -d first)", path+partSuffix(d, devs[0]), loop)
		}
	}
	return c.checkLoopAliases(path, devs[0].name)
}

// checkLoopAliases refuses a loop device when another loop device reads
// the same backing file (any offset or size limit: their bytes may
// overlap) and that one, or a partition of it, is in use: mounted, swap,
// stacked or held by another process, each of which claims it exclusively,
// so an O_EXCL open of it fails with EBUSY.
func (c Checker) checkLoopAliases(path, name string) error {
	if !strings.HasPrefix(name, "loop") {
		return nil
	}
	self, ok := c.loopStatus(name)
	if !ok {
		return nil
	}
	ents, err := os.ReadDir(filepath.Join(c.Roots.SysRoot(), "class", "block"))
	if err != nil {
		return nil
	}
	for _, e := range ents {
		other := e.Name()
		if other == name || !strings.HasPrefix(other, "loop") {
			continue
		}
		st, ok := c.loopStatus(other)
		if !ok || st.Device != self.Device || st.Inode != self.Inode {
			continue
		}
		for _, n := range append([]string{other}, nodeNames(c.partitions(other))...) {
			fd, err := openExclusive(filepath.Join(c.Roots.DevRoot(), n), unix.O_RDONLY)
			if fd >= 0 {
				unix.Close(fd)
			}
			if errors.Is(err, ErrDeviceBusy) || errors.Is(err, unix.EBUSY) {
				return refuse(ErrDeviceBusy, "%s and /dev/%s are loop devices over one file, and /dev/%s is in use (mounted or held); refusing to write through the alias (unmount it or detach %s first)",
					path, other, n, path)
			}
		}
	}
	return nil
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

func nodeNames(ds []devNode) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.name
	}
	return out
}

// loopBackingDev finds a loop device backed by block device d.
func (c Checker) loopBackingDev(path string, d devNode, whole bool) string {
	p := path
	if !whole {
		p = filepath.Join(c.Roots.DevRoot(), d.name)
	}
	fi, err := os.Stat(p)
	if err != nil || !isBlock(fi) {
		return ""
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || uint64(st.Rdev) != d.rdev {
		return ""
	}
	return c.loopBacking(p, fi)
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
