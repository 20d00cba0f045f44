package device

import (
	"errors"
	"fmt"
)

// ErrNoBlockDevice reports that a path lives on a filesystem without a block
// device (tmpfs, overlay, network and FUSE filesystems, …): device telemetry
// is off for it, which is not an error for a sweep.
var ErrNoBlockDevice = errors.New("no block device")

// Device is the block device a measured path resolves to.
type Device struct {
	// Name is the kernel name whose /proc/diskstats line is sampled:
	// "vda", "nvme0n1p2", "dm-0", "md127", "loop3p1".
	Name  string
	Major uint32
	Minor uint32
	// Parent is the whole disk holding a partition ("" for a whole disk);
	// queue facts come from it.
	Parent string
	// Members are the kernel names of the devices a stacked device
	// (device-mapper, md) is built from, from its slaves/ directory.
	Members []string
	// Label is the stack's own name when it has one: the device-mapper name
	// ("vg0-data") or the md array's level ("raid1").
	Label string
	// SysPath is the device's directory under the sys root.
	SysPath string
	// Queue holds the request-queue facts of the disk that owns the queue.
	Queue Queue

	roots Roots
}

// MajMin is the device number as "major:minor".
func (d *Device) MajMin() string { return fmt.Sprintf("%d:%d", d.Major, d.Minor) }
