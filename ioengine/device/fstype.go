package device

import (
	"fmt"

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
