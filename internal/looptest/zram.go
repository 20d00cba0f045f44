//go:build linux

package looptest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ZramDevice is the zram device the tests use: a block device served from
// memory, with its own queue and /sys/block/zram0/stat.
const ZramDevice = "/dev/zram0"

const zramSys = "/sys/block/zram0"

// Zram sizes ZramDevice to size bytes for t alone and returns its path.
// The device is empty (every block reads as zeros) until t writes it.
//
// Tests of several packages run at once, so t first takes an exclusive
// flock on the device's sysfs directory, held until t ends: a lock on
// something that always exists leaves nothing behind, and it cannot be on
// the device node, since an open of the node counts as an opener and
// zram's reset refuses (EBUSY) while any is left. t.Cleanup resets the
// device (its contents and size go) and then releases the lock.
//
// It skips, saying why, when t does not run as root, when this kernel has
// no zram0 (the zram module not loaded), or when zram0 is already sized
// by someone else (not ours to reset).
func Zram(t testing.TB, size int64) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to size " + ZramDevice)
	}
	if _, err := os.Stat(zramSys + "/disksize"); err != nil {
		t.Skipf("no zram device here (%v): load the zram module for these tests", err)
	}
	lockZram(t)
	if cur := zramDisksize(t); cur != 0 {
		t.Skipf("%s is in use (disksize %d bytes, set outside this test): not ours to reset", ZramDevice, cur)
	}
	// Registered before the size is set: it runs before the lock's release.
	t.Cleanup(func() { resetZram(t) })
	if err := os.WriteFile(zramSys+"/disksize", []byte(strconv.FormatInt(size, 10)), 0); err != nil {
		t.Fatalf("size %s to %d bytes: %v", ZramDevice, size, err)
	}
	// udev may not have made the node yet on a freshly loaded module.
	for i := 0; ; i++ {
		if fi, err := os.Stat(ZramDevice); err == nil && fi.Mode()&os.ModeDevice != 0 {
			return ZramDevice
		} else if i == 60 {
			t.Fatalf("%s: no block device node after sizing it (%v)", ZramDevice, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lockZram takes the exclusive flock on zram0's sysfs directory, waiting
// up to 5 minutes for a test of another package to release it, and
// releases it in t.Cleanup.
func lockZram(t testing.TB) {
	t.Helper()
	fd, err := unix.Open(zramSys, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("open %s: %v", zramSys, err)
	}
	t.Cleanup(func() { unix.Close(fd) }) // closing the descriptor releases the lock
	for end := time.Now().Add(5 * time.Minute); ; {
		err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return
		}
		if !errors.Is(err, unix.EWOULDBLOCK) {
			t.Fatalf("flock %s: %v", zramSys, err)
		}
		if time.Now().After(end) {
			t.Fatalf("%s still locked by another test after 5 minutes", ZramDevice)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func zramDisksize(t testing.TB) int64 {
	t.Helper()
	b, err := os.ReadFile(zramSys + "/disksize")
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		t.Fatalf("%s/disksize: %v", zramSys, err)
	}
	return n
}

// resetZram resets zram0, retrying while a descriptor of it is still
// being closed (the reset refuses any open device), and fails t when it
// stays sized.
func resetZram(t testing.TB) {
	t.Helper()
	var err error
	for i := 0; i < 100; i++ {
		if err = os.WriteFile(zramSys+"/reset", []byte("1"), 0); err == nil && zramDisksize(t) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("could not reset %s: %v", ZramDevice, fmt.Errorf("still %d bytes: %w", zramDisksize(t), err))
}
