//go:build linux

package device

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"golang.org/x/sys/unix"
)

// Resolve finds the block device behind path on the running system. See
// Roots.Resolve.
func Resolve(path string) (*Device, error) { return Roots{}.Resolve(path) }

// Resolve finds the block device behind path: a block device special file
// stands for itself; any other file (or, when path does not exist yet, its
// nearest existing ancestor directory) stands for the device of the
// filesystem holding it. A path on a filesystem without one (tmpfs, …)
// returns an error wrapping ErrNoBlockDevice that names the filesystem type.
func (r Roots) Resolve(path string) (*Device, error) {
	p, err := existingAncestor(path)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		return nil, fmt.Errorf("stat %s: %w", p, err)
	}
	dev := uint64(st.Dev)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFBLK:
		dev = uint64(st.Rdev)
	case unix.S_IFCHR:
		return nil, fmt.Errorf("%s is a character device: %w", path, ErrNoBlockDevice)
	}
	major, minor := unix.Major(dev), unix.Minor(dev)
	if major == 0 {
		return nil, fmt.Errorf("%s is on %s: %w", path, fsTypeName(p), ErrNoBlockDevice)
	}
	d, err := r.ResolveDevNum(major, minor)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// existingAncestor returns path when it exists, else the nearest existing
// ancestor directory (a target file may be created by the sweep later).
func existingAncestor(path string) (string, error) {
	p := filepath.Clean(path)
	for {
		_, err := os.Stat(p)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("stat %s: %w", p, err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", fmt.Errorf("stat %s: %w", path, err)
		}
		p = parent
	}
}

// ResolveDevNum describes the block device major:minor from the sys root:
// /sys/dev/block/M:m leads to its directory; a partition (a directory with a
// "partition" file) takes its queue facts from the parent disk; a stacked
// device lists its slaves/ as Members. A number without a sysfs entry
// returns an error wrapping ErrNoBlockDevice.
func (r Roots) ResolveDevNum(major, minor uint32) (*Device, error) {
	link := filepath.Join(r.sys(), "dev", "block", fmt.Sprintf("%d:%d", major, minor))
	dir, err := filepath.EvalSymlinks(link)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("device %d:%d has no entry in %s: %w", major, minor, filepath.Dir(link), ErrNoBlockDevice)
	}
	if err != nil {
		return nil, fmt.Errorf("resolve device %d:%d: %w", major, minor, err)
	}
	d := &Device{
		Name:    filepath.Base(dir),
		Major:   major,
		Minor:   minor,
		SysPath: dir,
		roots:   r,
	}
	disk := dir
	if _, err := os.Stat(filepath.Join(dir, "partition")); err == nil {
		disk = filepath.Dir(dir)
		d.Parent = filepath.Base(disk)
	}
	if d.Members, err = listDir(filepath.Join(dir, "slaves")); err != nil {
		return nil, err
	}
	if d.Label, err = readTrimmed(filepath.Join(dir, "dm", "name")); err != nil {
		return nil, err
	}
	if d.Label == "" {
		if d.Label, err = readTrimmed(filepath.Join(dir, "md", "level")); err != nil {
			return nil, err
		}
	}
	if d.Queue, err = readQueue(disk); err != nil {
		return nil, fmt.Errorf("queue facts of %s: %w", filepath.Base(disk), err)
	}
	return d, nil
}

// listDir returns the sorted entry names of dir, none when it does not exist.
func listDir(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, nil
	}
	return names, nil
}
