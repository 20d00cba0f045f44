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

// FSClass groups filesystem types by what a target's latency on them means.
type FSClass string

// Filesystem classes (FSType.Class).
const (
	// FSNetwork: a kernel network or cluster filesystem (nfs, cifs, 9p,
	// virtiofs, ceph, lustre …): its per-I/O latency is a round trip to a
	// server, not a device's service time.
	FSNetwork FSClass = "network"
	// FSFUSE: a FUSE filesystem (fuse.gcsfuse, fuse.s3fs, fuse.sshfs …),
	// most often in front of object storage or a remote host: a round trip
	// through a user-space daemon and usually the network.
	FSFUSE FSClass = "fuse"
	// FSMemory: tmpfs and ramfs: page cache only, no device at all.
	FSMemory FSClass = "memory"
	// FSLocal: a filesystem on a local block device (ext4, xfs, btrfs …).
	FSLocal FSClass = "local"
	// FSOther: anything else without a block device (overlay, proc …).
	FSOther FSClass = "other"
)

// networkFSTypes are kernel filesystems whose I/O goes to a server.
var networkFSTypes = map[string]bool{
	"nfs": true, "nfs4": true, "cifs": true, "smb3": true, "smbfs": true, "9p": true, "virtiofs": true,
	"ceph": true, "lustre": true, "gfs2": true, "ocfs2": true, "glusterfs": true, "beegfs": true,
	"gpfs": true, "afs": true, "orangefs": true, "pvfs2": true,
}

// ClassifyFSType names the class of a mountinfo filesystem type: FUSE
// mounts report "fuse", "fuseblk" or "fuse.<name>" (fuse.gcsfuse,
// fuse.s3fs, fuse.mountpoint-s3, fuse.juicefs …); glusterfs mounts through
// FUSE as "fuse.glusterfs".
func ClassifyFSType(fstype string) FSClass {
	t := strings.ToLower(strings.TrimSpace(fstype))
	switch {
	case t == "fuse" || t == "fuseblk" || strings.HasPrefix(t, "fuse."):
		return FSFUSE
	case networkFSTypes[t]:
		return FSNetwork
	case t == "tmpfs" || t == "ramfs":
		return FSMemory
	case localFSTypes[t]:
		return FSLocal
	}
	return FSOther
}

// localFSTypes are filesystems that live on a local block device.
var localFSTypes = map[string]bool{
	"ext2": true, "ext3": true, "ext4": true, "xfs": true, "btrfs": true, "f2fs": true, "vfat": true,
	"exfat": true, "ntfs": true, "ntfs3": true, "zfs": true, "jfs": true, "reiserfs": true, "bcachefs": true,
	"squashfs": true, "iso9660": true, "erofs": true,
}

// FSType is the mount a path lives on, from the mount table.
type FSType struct {
	Type       string  `json:"type"`        // mountinfo's filesystem type, e.g. "nfs4", "fuse.gcsfuse"
	Source     string  `json:"source"`      // mountinfo's source, e.g. "server:/export", "bucket"
	MountPoint string  `json:"mount_point"` // where it is mounted
	Class      FSClass `json:"class"`
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
		dev = fmt.Sprintf("%d:%d", unix.Major(st.Dev), unix.Minor(st.Dev))
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
