//go:build linux

package device

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/prometheus/procfs"
	"golang.org/x/sys/unix"
)

// fsNames names the device-less filesystems a target is commonly found on,
// by statfs f_type magic (linux/magic.h).
var fsNames = map[int64]string{
	unix.TMPFS_MAGIC:           "tmpfs",
	unix.RAMFS_MAGIC:           "ramfs",
	unix.OVERLAYFS_SUPER_MAGIC: "overlayfs",
	unix.NFS_SUPER_MAGIC:       "nfs",
	unix.FUSE_SUPER_MAGIC:      "fuse",
	unix.BTRFS_SUPER_MAGIC:     "btrfs",
	unix.SMB_SUPER_MAGIC:       "smb",
	unix.CIFS_SUPER_MAGIC:      "cifs",
	unix.V9FS_MAGIC:            "9p",
	unix.PROC_SUPER_MAGIC:      "proc",
	unix.SYSFS_MAGIC:           "sysfs",
	0x2fc12fc1:                 "zfs",
	unix.DEVPTS_SUPER_MAGIC:    "devpts",
}

// fsTypeName names the filesystem holding path for messages.
func fsTypeName(path string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return "a filesystem without a block device"
	}
	if name, ok := fsNames[int64(st.Type)]; ok {
		return name
	}
	return fmt.Sprintf("a filesystem of type %#x without a block device", uint64(st.Type))
}

// FSTypeOf finds the mount holding path (or, when path does not exist yet,
// its nearest existing ancestor) in the mount table of Roots' procfs
// (self/mountinfo): the mount with the same st_dev, else the deepest mount
// point containing the path. A fixture procfs needs a "self" link to a
// directory holding mountinfo.
func (r Roots) FSTypeOf(path string) (FSType, error) {
	p, err := existingAncestor(path)
	if err != nil {
		return FSType{}, err
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if ev, err := filepath.EvalSymlinks(p); err == nil {
		p = ev
	}
	fs, err := procfs.NewFS(r.ProcRoot())
	if err != nil {
		return FSType{}, fmt.Errorf("mount table: %w", err)
	}
	self, err := fs.Self()
	if err != nil {
		return FSType{}, fmt.Errorf("mount table: %w", err)
	}
	mounts, err := self.MountInfo()
	if err != nil {
		return FSType{}, fmt.Errorf("mount table: %w", err)
	}
	var st unix.Stat_t
	dev := ""
	if unix.Stat(p, &st) == nil {
		dev = fmt.Sprintf("%d:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)))
	}
	var best *procfs.MountInfo
	bestDev := false
	for _, m := range mounts {
		if !underMount(p, m.MountPoint) {
			continue
		}
		same := dev != "" && m.MajorMinorVer == dev
		// Prefer the mount of the path's own device; among equals the
		// deepest (and, for stacked mounts on one point, the last).
		if best == nil || (same && !bestDev) || (same == bestDev && len(m.MountPoint) >= len(best.MountPoint)) {
			best, bestDev = m, same
		}
	}
	if best == nil {
		return FSType{}, fmt.Errorf("mount table: no mount holds %s", p)
	}
	return FSType{Type: best.FSType, Source: best.Source, MountPoint: best.MountPoint, Class: ClassifyFSType(best.FSType)}, nil
}

// underMount reports whether path lies at or under mount point mp.
func underMount(path, mp string) bool {
	if mp == "/" {
		return true
	}
	return path == mp || strings.HasPrefix(path, strings.TrimSuffix(mp, "/")+"/")
}
