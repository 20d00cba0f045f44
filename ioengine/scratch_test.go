//go:build linux

package ioengine_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/qdsweep/qdsweep/ioengine"
)

func TestCreateScratch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "qdsweep.scratch")
	const size = 8<<20 + 4096*3 // not a multiple of the 1 MiB chunk
	if err := ioengine.CreateScratch(context.Background(), path, size); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != size || fi.Mode().Perm() != 0o644 {
		t.Fatalf("size %d mode %v", fi.Size(), fi.Mode())
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Blocks*512 < size {
		t.Fatalf("only %d bytes allocated of %d: not laid out", st.Blocks*512, size)
	}
	b, _ := os.ReadFile(path)
	if zeros := strings.Count(string(b[:4096]), "\x00"); zeros > 512 {
		t.Fatalf("first block is mostly zeros (%d): layout did not write data", zeros)
	}
	if err := ioengine.CreateScratch(context.Background(), path, size); !errors.Is(err, os.ErrExist) {
		t.Fatalf("second create: %v, want an error wrapping os.ErrExist", err)
	}
	link := filepath.Join(filepath.Dir(path), "link")
	if err := os.Symlink(filepath.Join(filepath.Dir(path), "elsewhere"), link); err != nil {
		t.Fatal(err)
	}
	if err := ioengine.CreateScratch(context.Background(), link, 4096); err == nil {
		t.Fatal("a symlink must not be followed")
	}
}

func TestCreateScratchCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "qdsweep.scratch")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := ioengine.CreateScratch(ctx, path, 64<<20)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if _, serr := os.Stat(path); !errors.Is(serr, os.ErrNotExist) {
		t.Fatalf("partial file left behind: %v", serr)
	}
}

// TestCreateScratchENOSPC lays out more than a tiny tmpfs holds.
func TestCreateScratchENOSPC(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small tmpfs")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", mnt).Run() })
	path := filepath.Join(mnt, "qdsweep.scratch")
	err := ioengine.CreateScratch(context.Background(), path, 8<<20)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "of 8 MiB") {
		t.Fatalf("err %v, want ENOSPC saying how far it got", err)
	}
	t.Log(err)
	if _, serr := os.Stat(path); !errors.Is(serr, os.ErrNotExist) {
		t.Fatalf("partial file left behind: %v", serr)
	}
}

// TestScratchRemovesOnlyItsOwnFile: when another process has replaced the
// scratch file (removed it and created its own at the same path), Remove
// leaves the newcomer alone: ownership is by inode, not by name.
func TestScratchRemovesOnlyItsOwnFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "qdsweep.scratch")
	mine := ioengine.NewScratch(path)
	if err := mine.Create(context.Background(), 1<<20); err != nil {
		t.Fatal(err)
	}
	// The other sweep's file, at the same path.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("someone else's"), 0o644); err != nil {
		t.Fatal(err)
	}
	if mine.Remove() {
		t.Fatal("removed another process's file")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "someone else's" {
		t.Fatalf("the other file is gone or changed: %q %v", b, err)
	}
	// A second owner whose create fails (the file exists) owns nothing.
	loser := ioengine.NewScratch(path)
	if err := loser.Create(context.Background(), 1<<20); err == nil {
		t.Fatal("created over an existing file")
	}
	if loser.Remove() {
		t.Fatal("the loser removed the winner's file")
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	// Its own file it removes.
	os.Remove(path)
	again := ioengine.NewScratch(path)
	if err := again.Create(context.Background(), 1<<20); err != nil {
		t.Fatal(err)
	}
	if !again.Remove() {
		t.Error("did not remove its own file")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("still there: %v", err)
	}
}
