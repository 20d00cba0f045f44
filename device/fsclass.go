package device

import "strings"

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
