//go:build linux

package ioengine_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/qdsweep/qdsweep/ioengine"
)

// cachedPages counts the pages of the file at path in the page cache
// (mincore over a read-only mapping).
func cachedPages(t *testing.T, path string, size int) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(b)
	vec := make([]byte, (size+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// TestFadviseAsFio reads the first 64 blocks of 4 KiB of a 4 MiB file on
// the disk in order, buffered, its cache dropped first, under fio 3.33 and
// qdsweep's psync engine, and counts the file's pages cached after each:
// the kernel's readahead brings in more than was read unless the file is
// advised random (FADV_RANDOM, fio's fadvise_hint=random and what its
// default of 1 gives a random job), which reads no more than was asked.
// qdsweep's advice by pattern, for this sequential job, is fio's default's:
// readahead.
func TestFadviseAsFio(t *testing.T) {
	const size, reads = 4 << 20, 64
	path := filepath.Join(t.TempDir(), "advised")
	layOut(t, path, size)
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		_ = f.Sync() // written back, so invalidating drops every page
		f.Close()
	}
	qd := func(advice ioengine.Fadvise) int {
		w := ioengine.Workload{Filename: path, RW: ioengine.Read, BS: 4096, IODepth: 1, NumJobs: 1, Invalidate: true, Fadvise: advice}
		if _, err := mustEngine(t, "psync").Run(context.Background(), w, ioengine.Control{Runtime: time.Minute, IOsPerJob: reads}); err != nil {
			t.Fatal(err)
		}
		return cachedPages(t, path, size)
	}
	fio := func(hint string) int {
		out, err := exec.Command("fio", "--name=a", "--filename="+path, "--size=4m", "--rw=read", "--bs=4k", "--ioengine=psync",
			"--number_ios=64", "--fadvise_hint="+hint, "--output-format=terse").CombinedOutput()
		if err != nil {
			t.Fatalf("fio: %v\n%s", err, out)
		}
		return cachedPages(t, path, size)
	}
	random, byPattern, none := qd(ioengine.FadviseRandom), qd(ioengine.FadviseByPattern), qd(ioengine.FadviseNone)
	t.Logf("pages cached after %d sequential reads: qdsweep %d (advised random), %d (by pattern), %d (no advice)", reads, random, byPattern, none)
	if random > reads+4 {
		t.Errorf("qdsweep advised random: %d pages cached after %d reads; want no readahead (at most %d)", random, reads, reads+4)
	}
	if byPattern < 2*reads || none < 2*reads {
		t.Errorf("qdsweep advised by pattern or not at all: %d and %d pages cached after %d sequential reads; want readahead (at least %d)", byPattern, none, reads, 2*reads)
	}
	if _, err := exec.LookPath("fio"); err != nil {
		t.Log("fio is not installed: the comparison with it is not made")
		return
	}
	fioRandom, fioDefault := fio("random"), fio("1")
	t.Logf("fio: %d (fadvise_hint=random), %d (1, its default)", fioRandom, fioDefault)
	if fioRandom > reads+4 || fioDefault < 2*reads {
		t.Errorf("fio: %d pages cached with fadvise_hint=random and %d with 1: not the readahead qdsweep was held to", fioRandom, fioDefault)
	}
}
