//go:build linux

package guard_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/qdsweep/qdsweep/guard"
)

// TestHoldSyncFlags: fio's sync=sync / sync=dsync open the file with
// O_SYNC / O_DSYNC, so every write is durable before it completes; the
// flags are read back from the held descriptor.
func TestHoldSyncFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sync       string
		want, none int
	}{{"sync", unix.O_SYNC, 0}, {"dsync", unix.O_DSYNC, unix.O_SYNC &^ unix.O_DSYNC}, {"", 0, unix.O_DSYNC}} {
		h, err := guard.Hold(guard.Target{Path: path, Write: true, Sync: c.sync}, guard.Permit{AllowWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		fd, err := h.Dup()
		h.Close()
		if err != nil {
			t.Fatal(err)
		}
		fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		if fl&c.want != c.want || (c.none != 0 && fl&c.none != 0) {
			t.Errorf("sync %q: open flags %#o, want %#o set and %#o clear", c.sync, fl, c.want, c.none)
		}
	}
}
