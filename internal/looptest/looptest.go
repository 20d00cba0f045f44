//go:build linux

// Package looptest holds test helpers for real block devices: image files,
// loop devices over them, mounts and checksums, each undone in t.Cleanup.
//
// A test needing root and losetup skips where they are missing or the kernel
// lacks loop devices; under CI=true, when it runs as root and losetup is
// installed, what would have been a skip is a failure instead.
package looptest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Strict reports whether a missing facility must fail rather than skip:
// under CI=true, as root, with losetup installed.
func Strict() bool {
	if os.Getenv("CI") != "true" || os.Geteuid() != 0 {
		return false
	}
	_, err := exec.LookPath("losetup")
	return err == nil
}

// Skipf skips t, or fails it when Strict.
func Skipf(t testing.TB, format string, a ...any) {
	t.Helper()
	if Strict() {
		t.Fatalf("CI=true, root and losetup present, yet: "+format, a...)
	}
	t.Skipf(format, a...)
}

// RequireRootTools skips t unless it runs as root with losetup and every
// tool on PATH (under Strict a missing tool fails: .ci/run installs them).
func RequireRootTools(t testing.TB, tools ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to attach loop devices")
	}
	if _, err := exec.LookPath("losetup"); err != nil {
		t.Skip("losetup not installed")
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			Skipf(t, "%s not installed", tool)
		}
	}
}

// MakeImage creates a zero-filled image file of size bytes in a temp dir.
func MakeImage(t testing.TB, size int64) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "disk.img")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	return p
}

// RunTool runs a command (stdin may be "") and fails t with its output on error.
func RunTool(t testing.TB, stdin string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// AttachLoop attaches image to a free loop device (scanning partitions when
// partscan) and detaches it in t.Cleanup. It returns the device path.
func AttachLoop(t testing.TB, image string, partscan bool) string {
	t.Helper()
	var extra []string
	if partscan {
		extra = append(extra, "-P")
	}
	return AttachLoopWith(t, image, extra...)
}

// AttachLoopWith attaches image to a free loop device with losetup's extra
// arguments (-o OFFSET, --sizelimit N …) and detaches it in t.Cleanup.
func AttachLoopWith(t testing.TB, image string, extra ...string) string {
	t.Helper()
	args := append([]string{"-f", "--show"}, extra...)
	out, err := exec.Command("losetup", append(args, image)...).Output()
	if err != nil {
		Skipf(t, "losetup cannot attach a loop device here: %v", err)
	}
	dev := strings.TrimSpace(string(out))
	t.Cleanup(func() {
		// A just-unmounted device can be briefly busy; retry a few times.
		for i := 0; i < 20; i++ {
			if exec.Command("losetup", "-d", dev).Run() == nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Errorf("could not detach %s", dev)
	})
	return dev
}

// ScanPartitions makes the kernel list the partitions of loop device dev
// (losetup -P, or partx -a when this kernel has no partition-table parser)
// and waits up to 3 s for the n partition nodes devp1…devpn to appear.
func ScanPartitions(t testing.TB, dev string, n int) {
	t.Helper()
	last := fmt.Sprintf("%sp%d", dev, n)
	for i := 0; i < 60; i++ {
		if _, err := os.Stat(last); err == nil {
			return
		}
		if i == 5 {
			if _, err := exec.LookPath("partx"); err == nil {
				RunTool(t, "", "partx", "-a", dev)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not appear", last)
}

// Mount mounts dev read-only at a new temp dir and unmounts it in t.Cleanup
// (read-only so the kernel writes nothing and checksums stay meaningful).
func Mount(t testing.TB, dev string) string {
	t.Helper()
	if _, err := exec.LookPath("mount"); err != nil {
		Skipf(t, "mount not installed")
	}
	dir := t.TempDir() // registered first, so removed after the unmount below
	if out, err := exec.Command("mount", "-o", "ro", dev, dir).CombinedOutput(); err != nil {
		Skipf(t, "cannot mount %s here: %v: %s", dev, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// FileSum returns the hex SHA-256 of a whole file.
func FileSum(t testing.TB, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ExclusivelyHeld reports whether block device dev is claimed: an O_EXCL
// open of it fails with EBUSY.
func ExclusivelyHeld(t testing.TB, dev string) bool {
	t.Helper()
	f, err := os.OpenFile(dev, os.O_RDONLY|syscall.O_EXCL, 0)
	if err == nil {
		f.Close()
		return false
	}
	if errors.Is(err, syscall.EBUSY) {
		return true
	}
	t.Fatalf("open %s O_EXCL: %v", dev, err)
	return false
}

// MountOverlay mounts an overlay at merged with the layer directories
// spelled as given (relative ones relative to from, as a user typing the
// mount command in from would), and unmounts it in t.Cleanup (from that
// directory too). It skips (fails under Strict) where overlayfs cannot be
// mounted.
func MountOverlay(t testing.TB, from, lower, upper, work, merged string) {
	t.Helper()
	cmd := exec.Command("mount", "-t", "overlay", "overlay", "-o", "lowerdir="+lower+",upperdir="+upper+",workdir="+work, merged)
	cmd.Dir = from
	if out, err := cmd.CombinedOutput(); err != nil {
		Skipf(t, "cannot mount overlayfs here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		c := exec.Command("umount", merged)
		c.Dir = from
		if out, err := c.CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", merged, err, out)
		}
	})
}
