//go:build linux

package ioengine

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// sysRoot is where LogicalBlockSize looks up block device queue facts.
const sysRoot = "/sys"

// LogicalBlockSize returns the logical block size in bytes of path: for a
// block device from the BLKSSZGET ioctl; for a file (or a path not yet
// created, from its directory) the logical block size of the filesystem's
// device when it is cheaply known, else 512. O_DIRECT transfers and offsets
// must be multiples of it.
func LogicalBlockSize(path string) (int, error) {
	var st unix.Stat_t
	p := path
	if err := unix.Stat(p, &st); err != nil {
		p = filepath.Dir(path)
		if err2 := unix.Stat(p, &st); err2 != nil {
			return 0, fmt.Errorf("logical block size of %s: %w", path, err)
		}
	}
	if st.Mode&unix.S_IFMT == unix.S_IFBLK {
		fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return 0, fmt.Errorf("logical block size of %s: %w", path, err)
		}
		defer unix.Close(fd)
		n, err := unix.IoctlGetInt(fd, unix.BLKSSZGET)
		if err != nil {
			return 0, fmt.Errorf("logical block size of %s: BLKSSZGET: %w", path, err)
		}
		return n, nil
	}
	dev := uint64(st.Dev)
	b, err := os.ReadFile(fmt.Sprintf("%s/dev/block/%d:%d/queue/logical_block_size", sysRoot, unix.Major(dev), unix.Minor(dev)))
	if err != nil {
		// A partition's queue facts live with its disk.
		b, err = os.ReadFile(fmt.Sprintf("%s/dev/block/%d:%d/../queue/logical_block_size", sysRoot, unix.Major(dev), unix.Minor(dev)))
	}
	if err == nil {
		if n, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil && n > 0 {
			return n, nil
		}
	}
	return 512, nil
}

// directAlign is the alignment O_DIRECT I/O uses: max(logical block size, 512).
func directAlign(path string) (int, error) {
	n, err := LogicalBlockSize(path)
	if err != nil {
		return 0, err
	}
	return max(n, 512), nil
}
