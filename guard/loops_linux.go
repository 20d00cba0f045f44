//go:build linux

package guard

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// loopDev is an attached loop device and what backs it.
type loopDev struct {
	name  string   // "loop3"
	names []string // the backing file as sysfs names it, and without " (deleted)"
	info  *unix.LoopInfo64
	rdev  uint64 // a backing block device's number; 0 for a backing file
	fids  []fid  // the backing file's handles (its own, the real file under an overlay)
}

// loopDevs lists every attached loop device under the sys root, asking
// each (under the dev root) which inode backs it where it can.
func (c Checker) loopDevs() []loopDev {
	block := filepath.Join(c.Roots.SysRoot(), "class", "block")
	ents, err := os.ReadDir(block)
	if err != nil {
		return nil
	}
	var out []loopDev
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "loop") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(block, name, "loop", "backing_file"))
		if err != nil {
			continue // not attached
		}
		l := loopDev{name: name}
		raw := strings.TrimSuffix(string(b), "\n")
		l.names = []string{raw}
		if t := strings.TrimSuffix(raw, " (deleted)"); t != raw {
			l.names = append(l.names, t)
		}
		if info, ok := c.loopStatus(name); ok {
			l.info = info
			l.rdev = info.Rdevice
		}
		for _, n := range l.names {
			var st unix.Stat_t
			if unix.Stat(n, &st) != nil {
				continue
			}
			if l.info != nil && (uint64(st.Dev) != l.info.Device || st.Ino != l.info.Inode) {
				continue // the name leads elsewhere now
			}
			if st.Mode&unix.S_IFMT == unix.S_IFBLK {
				l.rdev = uint64(st.Rdev)
			} else {
				l.fids = fileFids(n)
			}
			break
		}
		out = append(out, l)
	}
	return out
}

// overFile reports whether the loop device reads the file fi (found at
// path, with handles fids): by the name sysfs gives (byte for byte, or
// resolved with stat), by the inode the kernel says backs it, by file
// handle (a hard link, a bind mount, an overlay's merged path and its
// upper or lower file are one inode or one handle), or by the same path
// inside a layer of the overlay the backing name lies on.
func (l loopDev) overFile(path string, fi os.FileInfo, fids []fid, ovls []overlayMount) bool {
	abs, _ := filepath.Abs(path)
	for _, n := range l.names {
		if n == path || n == abs {
			return true
		}
		if bi, err := os.Stat(n); err == nil && os.SameFile(fi, bi) {
			return true
		}
		if overlayPathOf(n, fi, ovls) {
			return true
		}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && l.info != nil && l.info.Device == uint64(st.Dev) && l.info.Inode == st.Ino {
		return true
	}
	return sharesFid(l.fids, fids)
}

// overlayPathOf reports whether fi is the file at merged's place in a
// layer of the overlay merged lies on: the upper file a write through the
// merged path lands in, or a lower one.
func overlayPathOf(merged string, fi os.FileInfo, ovls []overlayMount) bool {
	var best *overlayMount
	for i, o := range ovls {
		if !underMount(merged, o.point) {
			continue
		}
		if best == nil || len(o.point) > len(best.point) {
			best = &ovls[i]
		}
	}
	if best == nil {
		return false
	}
	rel := strings.TrimPrefix(merged, best.point)
	for _, l := range best.layers {
		if l.role == "work" {
			continue
		}
		if li, err := os.Stat(filepath.Join(l.path, rel)); err == nil && os.SameFile(fi, li) {
			return true
		}
	}
	return false
}

// underMount reports whether path lies at or under mount point mp.
func underMount(path, mp string) bool {
	if mp == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == mp || strings.HasPrefix(path, strings.TrimSuffix(mp, "/")+"/")
}
