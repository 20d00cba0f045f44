//go:build linux

package ioengine

import (
	"bytes"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/internal/looptest"
	"golang.org/x/sys/unix"
)

// TestPsyncRawReadAsPread reads a file of random bytes at several offsets
// through the psync loop's raw read (rawPread) and through unix.Pread: the
// same bytes and counts, a short read at the end, 0 past it, and the same
// errno for a descriptor that is not open.
func TestPsyncRawReadAsPread(t *testing.T) {
	if !rawPreadABI {
		t.Skip("reads go through unix.Pread on this architecture")
	}
	data := make([]byte, 1<<20)
	if _, err := rand.Read(data); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	p := &psyncLoop{raw: true}
	for _, off := range []int64{0, 4096, 12345, 1<<20 - 4096, 1<<20 - 100, 1 << 20, 2 << 20} {
		raw, want := make([]byte, 4096), make([]byte, 4096)
		n, err := p.io(dirRead, fd, raw, off)
		wn, werr := unix.Pread(fd, want, off)
		if n != wn || err != werr || !bytes.Equal(raw[:max(n, 0)], want[:max(wn, 0)]) {
			t.Errorf("offset %d: raw read %d, %v; pread %d, %v; same bytes %v", off, n, err, wn, werr, bytes.Equal(raw, want))
		}
		if end := min(off+4096, 1<<20); off < 1<<20 && !bytes.Equal(raw[:n], data[off:end]) {
			t.Errorf("offset %d: raw read gave other bytes than the file's", off)
		}
	}
	closed, err := unix.Dup(fd)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(closed)
	if _, err := p.io(dirRead, closed, make([]byte, 4096), 0); !errors.Is(err, unix.EBADF) {
		t.Errorf("raw read of a closed descriptor: %v, want EBADF", err)
	}
}

// TestNoAtimeOnBlockDevices opens a loop device and a regular file as a run
// does (openTarget): the device's open file has O_NOATIME, as fio opens
// every file that is not a regular one, and the regular file keeps its
// flags, as in fio.
func TestNoAtimeOnBlockDevices(t *testing.T) {
	looptest.RequireRootTools(t, "losetup")
	img := looptest.MakeImage(t, 8<<20)
	dev := looptest.AttachLoop(t, img, false)
	for _, c := range []struct {
		path string
		want bool
	}{{dev, true}, {img, false}} {
		w := Workload{Filename: c.path, RW: RandRead, BS: 4096}
		fd, err := openTarget(&w)
		if err != nil {
			t.Fatal(err)
		}
		fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		if got := fl&unix.O_NOATIME != 0; got != c.want {
			t.Errorf("%s: O_NOATIME %v, want %v", c.path, got, c.want)
		}
	}
}
