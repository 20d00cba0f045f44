//go:build linux

package guard

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// OpenDirFor opens the directory a file created at path goes into
// (O_PATH) and judges it through that descriptor, as Check judges a new
// file's directory: where the descriptor is (the kernel's name for it),
// with its identity, not the path resolved again. The caller creates the
// file relative to the returned descriptor (openat), so a directory
// symlink flipped since the check cannot send the file into another
// directory (an overlay's layer, a loop device's filesystem); it closes
// the descriptor when done with the file.
func OpenDirFor(path string) (int, error) {
	dir := filepath.Dir(path)
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("open %s: %w", dir, err)
	}
	self := fmt.Sprintf("/proc/self/fd/%d", fd)
	where, err := os.Readlink(self)
	if err != nil || !filepath.IsAbs(where) {
		where = dir
	}
	fi, err := os.Stat(self)
	if err == nil {
		var st *Stack
		if st, err = (Checker{}).stackOf(where, fi); err == nil {
			err = createdIn(path, where, st).Busy()
		}
	}
	if err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}
