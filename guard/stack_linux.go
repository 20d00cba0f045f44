//go:build linux

package guard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// StackOf builds the storage stack under path on the running system (see
// Checker.StackOf). The write guard (Check, Hold, Recheck) asks it; so may
// anything else that must not write into a layer of something in use.
func StackOf(path string) (*Stack, error) { return Checker{}.StackOf(path) }

// StackOf builds the storage stack under path (a block device or a file;
// a directory or character device is a stack of itself), reading the
// system under c.Roots. Its Busy says whether it may be written.
//
// A path that does not exist yet stands on the nearest directory above it
// that does: a file created there is written into that directory's
// stack (a mounted overlay's layer, say).
func (c Checker) StackOf(path string) (*Stack, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return c.newFileStack(path)
	}
	if err != nil {
		return nil, fmt.Errorf("storage stack of %s: %w", path, err)
	}
	return c.stackOf(path, fi)
}

// newFileStack is the stack a file created at path would be written into:
// its nearest existing directory's.
func (c Checker) newFileStack(path string) (*Stack, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("storage stack of %s: %w", path, err)
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err == nil {
			st, err := c.stackOf(dir, fi)
			if err != nil {
				return nil, err
			}
			return createdIn(path, dir, st), nil
		}
		if !errors.Is(err, os.ErrNotExist) || dir == filepath.Dir(dir) {
			return nil, fmt.Errorf("storage stack of %s: %w", path, err)
		}
	}
}

// createdIn turns st, the stack of directory dir, into the stack of a
// file created at path in it.
func createdIn(path, dir string, st *Stack) *Stack {
	st.Path = path
	st.Layers = append([]Layer{{Path: path, What: "target (to be created)"}}, st.Layers...)
	st.Layers[1].What = "directory it is created in"
	if st.busy != nil {
		st.busy = refuse(ErrDeviceBusy, "%s would be created in %s, which %s", path, dir, strings.TrimPrefix(st.busy.Error(), dir+" "))
	}
	return st
}

// stackOf builds the stack of path, whose file is fi (stat of the path, or
// of a descriptor already open on it).
func (c Checker) stackOf(path string, fi os.FileInfo) (*Stack, error) {
	w := &walk{c: c, st: &Stack{Path: path}, chain: map[uint64]bool{}}
	var err error
	if w.mounts, err = c.mounts(); err != nil {
		return nil, fmt.Errorf("check %s is not mounted: %w", path, err)
	}
	if w.swaps, err = c.swaps(); err != nil {
		return nil, fmt.Errorf("check %s is not swap: %w", path, err)
	}
	w.loops = c.loopDevs()
	switch {
	case fi.Mode().IsRegular():
		w.file(path, fi)
	case isBlock(fi):
		w.device(path, rdevOf(fi))
	default:
		w.st.Layers = append(w.st.Layers, Layer{Path: path, What: "target", File: IDOf(fi)})
		if fi.IsDir() {
			if why := w.inOverlay(path, IDOf(fi)); why != "" {
				w.busy("%s %s; refusing to write whatever the flags (unmount the overlay first)", path, why)
			}
		}
	}
	return w.st, nil
}

func rdevOf(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Rdev)
	}
	return 0
}

// maxDepth bounds the walk down a stack (loop over loop over …).
const maxDepth = 16

// walk is one StackOf: the system's tables, read once, and the stack so far.
type walk struct {
	c       Checker
	st      *Stack
	mounts  []mountEntry
	swaps   []string
	loops   []loopDev
	ovls    []overlayMount
	ovlRead bool
	chain   map[uint64]bool // block devices in the stack (their users are the stack itself)
}

// busy records the first reason the stack must not be written.
func (w *walk) busy(format string, a ...any) {
	if w.st.busy == nil {
		w.st.busy = refuse(ErrDeviceBusy, format, a...)
	}
}

func (w *walk) overlays() []overlayMount {
	if !w.ovlRead {
		w.ovls, w.ovlRead = w.c.overlays(w.mounts), true
	}
	return w.ovls
}

// node describes block device rdev by its sysfs name.
func (w *walk) node(rdev uint64) devNode {
	d := devNode{name: w.c.devName(rdev), dev: devNumber(rdev), rdev: rdev}
	if d.name != "" {
		d.dir = filepath.Join(w.c.Roots.SysRoot(), "class", "block", d.name)
	}
	return d
}

func (w *walk) devPath(d devNode) string {
	if d.name == "" {
		return d.dev
	}
	return filepath.Join(w.c.Roots.DevRoot(), d.name)
}

// use is why a layer is in use: what the message says, and the fix.
type use struct{ what, fix string }

// file walks a file target: swap, any loop device over it, a mounted
// overlay's layers.
func (w *walk) file(path string, fi os.FileInfo) {
	w.st.Layers = append(w.st.Layers, Layer{Path: path, What: "target", File: IDOf(fi)})
	if w.isSwapFile(fi) {
		w.busy("%s is an active swap file; refusing to write (swapoff it first)", path)
	}
	fids := fileFids(path)
	for _, l := range w.loops {
		if l.overFile(path, fi, fids, w.overlays()) {
			w.busy("%s backs loop device /dev/%s; refusing to write (detach it with losetup -d first)", path, l.name)
			break
		}
	}
	if why := w.inOverlay(filepath.Dir(path), IDOf(fi)); why != "" {
		w.busy("%s %s; refusing to write whatever the flags (unmount the overlay first)", path, why)
	}
	// The filesystem's device closes the stack: mounted by definition, it
	// is written only through the filesystem, so nothing is asked of it.
	if id := IDOf(fi); id.Dev != 0 {
		w.st.Layers = append(w.st.Layers, Layer{Path: w.devPath(w.node(id.Dev)), What: "device of the filesystem holding " + path, Rdev: id.Dev})
	}
}

func (w *walk) isSwapFile(fi os.FileInfo) bool {
	for _, s := range w.swaps {
		if si, err := os.Stat(s); err == nil && os.SameFile(fi, si) {
			return true
		}
	}
	return false
}

// inOverlay says why directory dir, or a file in it with identity id, is
// in a mounted overlay's layers ("" when it is not).
func (w *walk) inOverlay(dir string, id FileID) string {
	ovls := w.overlays()
	for i := range ovls {
		if why := ovls[i].layerOf(dir, id); why != "" {
			return why
		}
	}
	return ""
}

// device walks a block device target: what uses it or its partitions,
// then every layer under it.
func (w *walk) device(path string, rdev uint64) {
	d := w.node(rdev)
	w.st.Layers = append(w.st.Layers, Layer{Path: path, What: "target", Rdev: rdev})
	w.chain[rdev] = true
	devs := append([]devNode{d}, w.c.partitions(d.name)...)
	for _, x := range devs {
		if u, ok := w.used(x, true); ok {
			w.busy("%s%s %s; refusing to write (%s)", path, partSuffix(x, d), u.what, u.fix)
			break
		}
	}
	w.below(path, d, 0)
}

// used says what uses device d directly: a mount, swap, a holder outside
// the stack, or a loop device over it (for the target any loop device;
// under it, one in use).
func (w *walk) used(d devNode, target bool) (use, bool) {
	for _, m := range w.mounts {
		if m.dev == d.dev || w.c.sameDevice(m.source, d) {
			return use{"is mounted at " + m.point, "unmount it first"}, true
		}
	}
	for _, s := range w.swaps {
		if w.c.sameDevice(s, d) {
			return use{"is an active swap area (" + s + ")", "swapoff it first"}, true
		}
	}
	if d.dir != "" {
		if ents, err := os.ReadDir(filepath.Join(d.dir, "holders")); err == nil {
			var names []string
			for _, e := range ents {
				if h := w.nodeByName(e.Name()); !w.chain[h] || h == 0 {
					names = append(names, e.Name())
				}
			}
			if len(names) > 0 {
				return use{"is held by " + strings.Join(names, ", ") + " (device mapper, RAID or another stacked device)", "release it first"}, true
			}
		}
	}
	for _, l := range w.loops {
		if !w.loopOverDev(l, d) || w.chain[w.nodeByName(l.name)] {
			continue
		}
		if target {
			return use{"backs loop device /dev/" + l.name, "detach it with losetup -d first"}, true
		}
		if why := w.inUse(l, 0); why != "" {
			return use{"backs loop device /dev/" + l.name + ", which " + why, "unmount or detach /dev/" + l.name + " first"}, true
		}
	}
	return use{}, false
}

// loopOverDev reports whether loop device l reads block device d.
func (w *walk) loopOverDev(l loopDev, d devNode) bool {
	if l.rdev != 0 {
		return l.rdev == d.rdev
	}
	for _, n := range l.names {
		if w.c.sameDevice(n, d) {
			return true
		}
	}
	return false
}

// nodeByName is the device number of sysfs block device name (0 if unknown).
func (w *walk) nodeByName(name string) uint64 {
	b, err := os.ReadFile(filepath.Join(w.c.Roots.SysRoot(), "class", "block", name, "dev"))
	if err != nil {
		return 0
	}
	var maj, min uint32
	if _, err := fmt.Sscanf(strings.TrimSpace(string(b)), "%d:%d", &maj, &min); err != nil {
		return 0
	}
	return unix.Mkdev(maj, min)
}

// inUse says how loop device l, or a partition of it, is in use: mounted,
// swap, held, claimed exclusively (the kernel's word, by an O_EXCL open),
// or backing another loop device in use, recursively. "" when idle.
func (w *walk) inUse(l loopDev, depth int) string {
	d := w.node(w.nodeByName(l.name))
	if d.rdev == 0 {
		d = devNode{name: l.name, dir: filepath.Join(w.c.Roots.SysRoot(), "class", "block", l.name)}
	}
	for _, x := range append([]devNode{d}, w.c.partitions(l.name)...) {
		for _, m := range w.mounts {
			if (x.rdev != 0 && m.dev == x.dev) || w.c.sameDevice(m.source, x) {
				return "is in use (/dev/" + x.name + " is mounted at " + m.point + ")"
			}
		}
		for _, s := range w.swaps {
			if w.c.sameDevice(s, x) {
				return "is in use (/dev/" + x.name + " is swap)"
			}
		}
		if ents, err := os.ReadDir(filepath.Join(x.dir, "holders")); err == nil && len(ents) > 0 {
			return "is in use (/dev/" + x.name + " is held by " + ents[0].Name() + ")"
		}
		fd, err := openExclusive(filepath.Join(w.c.Roots.DevRoot(), x.name), unix.O_RDONLY)
		if fd >= 0 {
			unix.Close(fd)
		}
		if errors.Is(err, ErrDeviceBusy) {
			return "is in use (/dev/" + x.name + " is mounted or held)"
		}
		if depth >= maxDepth {
			return "is in use (loop devices stacked deeper than " + fmt.Sprint(maxDepth) + ")"
		}
		for _, o := range w.loops {
			if o.name != l.name && w.loopOverDev(o, x) && !w.chain[w.nodeByName(o.name)] {
				if why := w.inUse(o, depth+1); why != "" {
					return "backs /dev/" + o.name + ", which " + why
				}
			}
		}
	}
	return ""
}

// below walks what device d (at path, the target or a layer under it) is
// written into: a loop device's backing device or file, a partition's
// whole disk, a stacked device's members; each checked for other users.
func (w *walk) below(target string, d devNode, depth int) {
	if depth >= maxDepth {
		w.busy("%s: loop devices stacked deeper than %d; refusing to write", target, maxDepth)
		return
	}
	here := w.devPath(d)
	if l, ok := w.loopByName(d.name); ok {
		if l.rdev != 0 {
			w.lower(target, w.node(l.rdev), "backing device of "+here, true, depth)
		} else {
			w.backingFile(target, l, here)
		}
	}
	if d.dir == "" {
		return
	}
	if _, err := os.Stat(filepath.Join(d.dir, "partition")); err == nil {
		if whole := w.nodeByName(filepath.Base(filepath.Dir(mustEval(d.dir)))); whole != 0 {
			w.lower(target, w.node(whole), "whole disk of "+here, false, depth)
		}
	}
	if ents, err := os.ReadDir(filepath.Join(d.dir, "slaves")); err == nil {
		for _, e := range ents {
			if m := w.nodeByName(e.Name()); m != 0 {
				w.lower(target, w.node(m), "member of "+here, false, depth)
			}
		}
	}
}

func mustEval(p string) string {
	if ev, err := filepath.EvalSymlinks(p); err == nil {
		return ev
	}
	return p
}

// lower adds block device d under the target and refuses when anything
// outside the stack uses it. Through a loop device (backing) every byte
// of d is written, so its partitions count and the kernel is asked whether
// anything claims it; under a partition only the whole disk itself.
func (w *walk) lower(target string, d devNode, what string, backing bool, depth int) {
	if w.chain[d.rdev] {
		w.busy("%s: the storage stack loops back to %s; refusing to write", target, w.devPath(d))
		return
	}
	w.chain[d.rdev] = true
	p := w.devPath(d)
	w.st.Layers = append(w.st.Layers, Layer{Path: p, What: what, Rdev: d.rdev})
	devs := []devNode{d}
	if backing {
		devs = append(devs, w.c.partitions(d.name)...)
	}
	busy := false
	for _, x := range devs {
		if u, ok := w.used(x, false); ok {
			w.busy("%s writes into %s%s (%s), which %s; refusing to write whatever the flags (%s)", target, p, partSuffix(x, d), what, u.what, u.fix)
			busy = true
			break
		}
	}
	if backing && !busy && d.name != "" {
		fd, err := openExclusive(p, unix.O_RDONLY)
		if fd >= 0 {
			unix.Close(fd)
		}
		if errors.Is(err, ErrDeviceBusy) {
			w.busy("%s writes into %s (%s), which is mounted, swap or held elsewhere (claimed exclusively); refusing to write whatever the flags (release it first)", target, p, what)
		}
	}
	// On, busy or not: the stack names every layer (Files).
	w.below(target, d, depth+1)
}

// backingFile adds loop device l's backing file under the target and
// refuses when it is swap, in a mounted overlay's layers, or read by
// another loop device in use (an alias over the same inode: any offset or
// size limit may overlap).
func (w *walk) backingFile(target string, l loopDev, here string) {
	var path string
	var fi os.FileInfo
	for _, n := range l.names {
		if st, err := os.Stat(n); err == nil {
			path, fi = n, st
			break
		}
	}
	what := "backing file of " + here
	if fi == nil {
		w.st.Layers = append(w.st.Layers, Layer{Path: l.names[0], What: what})
		if l.info != nil {
			w.st.Layers[len(w.st.Layers)-1].File = FileID{Dev: l.info.Device, Ino: l.info.Inode}
		}
		w.aliases(target, l, nil, nil, "")
		return
	}
	w.st.Layers = append(w.st.Layers, Layer{Path: path, What: what, File: IDOf(fi)})
	if w.isSwapFile(fi) {
		w.busy("%s writes into %s (%s), which is an active swap file; refusing to write whatever the flags (swapoff it first)", target, path, what)
	}
	if why := w.inOverlay(filepath.Dir(path), IDOf(fi)); why != "" {
		w.busy("%s writes into %s (%s), which %s; refusing to write whatever the flags (unmount the overlay first)", target, path, what, why)
	}
	w.aliases(target, l, fi, fileFids(path), path)
}

// aliases refuses when another loop device reads the same backing file as
// l and it, or a partition of it, is in use.
func (w *walk) aliases(target string, l loopDev, fi os.FileInfo, fids []fid, path string) {
	for _, o := range w.loops {
		if o.name == l.name || w.chain[w.nodeByName(o.name)] {
			continue
		}
		same := sameBacking(o, l)
		if !same && fi != nil {
			same = o.overFile(path, fi, fids, w.overlays())
		}
		if !same {
			continue
		}
		if why := w.inUse(o, 0); why != "" {
			w.busy("%s and /dev/%s are loop devices over one file, and /dev/%s %s; refusing to write through the alias (unmount it or detach %s first)",
				target, o.name, o.name, why, target)
			return
		}
	}
}

// sameBacking reports whether two loop devices read the same inode, as
// the kernel says.
func sameBacking(a, b loopDev) bool {
	return a.info != nil && b.info != nil && a.info.Device == b.info.Device && a.info.Inode == b.info.Inode
}

func (w *walk) loopByName(name string) (loopDev, bool) {
	if name == "" {
		return loopDev{}, false
	}
	for _, l := range w.loops {
		if l.name == name {
			return l, true
		}
	}
	return loopDev{}, false
}
