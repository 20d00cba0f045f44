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

// TestReopenInItsOwnMode: a held file opened again for a job of another
// mode (Reopen) is the same file, whatever its path now leads to, with
// that job's own flags (O_DIRECT, O_DSYNC, read-write), and a job that
// writes a file held read-only is refused.
func TestReopenInItsOwnMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	ro, err := guard.Hold(guard.Target{Path: path}, guard.Permit{})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if fd, err := ro.Reopen(guard.Target{Path: path, Write: true}); err == nil {
		unix.Close(fd)
		t.Fatal("a file held read-only was reopened for writing")
	}
	rw, err := guard.Hold(guard.Target{Path: path, Write: true}, guard.Permit{AllowWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	// The path now leads elsewhere: a reopen still opens the held file.
	if err := os.Rename(path, path+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("other"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		t       guard.Target
		want    int
		without int
	}{
		{guard.Target{Path: path, Write: true, Sync: "dsync"}, unix.O_RDWR | unix.O_DSYNC, unix.O_DIRECT},
		{guard.Target{Path: path, Direct: true}, unix.O_DIRECT, unix.O_RDWR | unix.O_DSYNC},
	} {
		fd, err := rw.Reopen(c.t)
		if err != nil {
			if c.t.Direct {
				t.Logf("O_DIRECT refused here (%v): the mode's flags are checked without it", err)
				continue
			}
			t.Fatal(err)
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			t.Fatal(err)
		}
		fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		if id := rw.ID(); st.Ino != id.Ino || uint64(st.Dev) != id.Dev {
			t.Errorf("%+v: reopened inode %d, the held file is %d", c.t, st.Ino, id.Ino)
		}
		if st.Size != 1<<20 {
			t.Errorf("%+v: reopened a file of %d bytes, the held one has %d", c.t, st.Size, 1<<20)
		}
		if fl&c.want != c.want || fl&c.without != 0 {
			t.Errorf("%+v: flags %#o, want %#o set and %#o clear", c.t, fl, c.want, c.without)
		}
	}
}
