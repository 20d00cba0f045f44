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
	// How far the kernel reads ahead is the device's read_ahead_kb and
	// its ramp (80 pages unadvised at 8 MiB, over 128 at 128 KiB): any
	// readahead caches more than was read.
	if byPattern <= reads+4 || none <= reads+4 {
		t.Errorf("qdsweep advised by pattern or not at all: %d and %d pages cached after %d sequential reads; want readahead (more than %d)", byPattern, none, reads, reads+4)
	}
	if _, err := exec.LookPath("fio"); err != nil {
		t.Log("fio is not installed: the comparison with it is not made")
		return
	}
	fioRandom, fioDefault := fio("random"), fio("1")
	t.Logf("fio: %d (fadvise_hint=random), %d (1, its default)", fioRandom, fioDefault)
	if fioRandom > reads+4 || fioDefault <= reads+4 {
		t.Errorf("fio: %d pages cached with fadvise_hint=random and %d with 1: not the readahead qdsweep was held to", fioRandom, fioDefault)
	}
}

// TestInvalidateDirectAsFio: invalidate=1 drops a file's cached pages
// before an O_DIRECT run too, as fio 3.33's (it advises POSIX_FADV_DONTNEED
// whatever direct is), those of the job's region only: a 4 MiB file
// written back and read into the page cache keeps its pages through a
// direct run of 16 reads without it, loses them with it, and keeps the
// 3 MiB past a region of 1 MiB, under qdsweep and under fio.
func TestInvalidateDirectAsFio(t *testing.T) {
	const size, all = 4 << 20, 1024
	path := filepath.Join(t.TempDir(), "cached")
	layOut(t, path, size)
	cache := func() int {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		_ = f.Sync() // written back: dropping the cache drops every page
		if _, err := f.ReadAt(make([]byte, size), 0); err != nil {
			t.Fatal(err)
		}
		return cachedPages(t, path, size)
	}
	cases := []struct {
		invalidate bool
		region     int64 // 0: the whole file
		want       int   // pages left cached
	}{{false, 0, all}, {true, 0, 0}, {true, 1 << 20, all - 256}}
	_, err := exec.LookPath("fio")
	for _, c := range cases {
		before := cache()
		w := ioengine.Workload{Filename: path, RW: ioengine.Read, BS: 4096, IODepth: 1, NumJobs: 1, Direct: true, Invalidate: c.invalidate, Size: c.region}
		if _, err := mustEngine(t, "psync").Run(context.Background(), w, ioengine.Control{Runtime: time.Minute, IOsPerJob: 16}); err != nil {
			t.Fatal(err)
		}
		after := cachedPages(t, path, size)
		t.Logf("qdsweep, invalidate %v, region %d: %d pages cached before a direct run, %d after", c.invalidate, c.region, before, after)
		if after < c.want-all/16 || after > c.want+all/16 {
			t.Errorf("invalidate %v, region %d: a direct run left %d of %d pages cached; want %d", c.invalidate, c.region, after, all, c.want)
		}
		if err != nil {
			continue // fio is not installed: the comparison with it is not made
		}
		before = cache()
		region := map[bool]string{true: "1m", false: "4m"}[c.region > 0]
		out, ferr := exec.Command("fio", "--name=a", "--filename="+path, "--size="+region, "--rw=read", "--bs=4k", "--ioengine=psync",
			"--direct=1", "--number_ios=16", "--invalidate="+map[bool]string{true: "1", false: "0"}[c.invalidate], "--output-format=terse").CombinedOutput()
		if ferr != nil {
			t.Fatalf("fio: %v\n%s", ferr, out)
		}
		after = cachedPages(t, path, size)
		t.Logf("fio, invalidate %v, size %s: %d pages cached before a direct run, %d after", c.invalidate, region, before, after)
		if after < c.want-all/16 || after > c.want+all/16 {
			t.Errorf("fio, invalidate %v, size %s: %d of %d pages left cached; not what qdsweep was held to (%d)", c.invalidate, region, after, all, c.want)
		}
	}
}

// TestEachPassStartsFromTheDevice: a buffered random read that goes over
// its region more than once drops the region's page cache as each pass
// begins, as fio's invalidate=1 does (fio 3.33, 4k random reads of 4 MiB,
// buffered: time_based 2 s p50 93 µs and loops=4 p50 97 µs, the device's,
// where qdsweep read the page cache after its first pass, p50 1.7 µs at 50×
// fio's IOPS). 612 reads of a 1 MiB region (256 blocks): two passes and
// 100 reads into a third leave about 100 pages cached, not 256.
func TestEachPassStartsFromTheDevice(t *testing.T) {
	const size, bs, reads = 1 << 20, 4096, 612
	path := filepath.Join(t.TempDir(), "passes")
	layOut(t, path, size)
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		_ = f.Sync() // written back, so invalidating drops every page
		f.Close()
	}
	for _, eng := range engines {
		for _, inval := range []bool{true, false} {
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: bs, IODepth: depthFor(eng, 4), NumJobs: 1, Invalidate: inval, RandSeed: 1, Shape: ioengine.Shape{RandomMap: true}}
			if _, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: time.Minute, IOsPerJob: reads}); err != nil {
				t.Fatal(err)
			}
			got := cachedPages(t, path, size)
			t.Logf("%s invalidate=%v: %d of %d pages cached after %d random reads", eng, inval, got, size/bs, reads)
			switch {
			case inval && got > reads-2*size/bs+8:
				t.Errorf("%s: %d pages cached: the third pass began on the cache the first two left", eng, got)
			case !inval && got < size/bs-8:
				t.Errorf("%s without invalidate: %d pages cached of %d read: the measure does not see the cache", eng, got, size/bs)
			}
		}
	}
	if _, err := exec.LookPath("fio"); err != nil {
		t.Log("fio is not installed: the comparison with it is not made")
		return
	}
	out, err := exec.Command("fio", "--name=a", "--filename="+path, "--size=1m", "--io_size=2506752", "--rw=randread", "--bs=4k",
		"--ioengine=psync", "--output-format=terse").CombinedOutput()
	if err != nil {
		t.Fatalf("fio: %v\n%s", err, out)
	}
	got := cachedPages(t, path, size)
	t.Logf("fio: %d pages cached after %d random reads", got, reads)
	if got > reads-2*size/bs+8 {
		t.Errorf("fio left %d pages cached: not the invalidation qdsweep is held to", got)
	}
}
