//go:build linux

package ioengine_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// stampedBlocks counts the bs-byte blocks of path that carry their own
// offsets (written by a Verify run).
func stampedBlocks(t *testing.T, path string, bs int) int {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := stampedBytes(len(got))
	n := 0
	for i := 0; i+bs <= len(got); i += bs {
		if bytes.Equal(got[i:i+bs], want[i:i+bs]) {
			n++
		}
	}
	return n
}

// TestFileListRoundRobin writes sequentially over a two-file list (fio's
// filename=a:b) with every engine: each job's I/Os go to the files in
// turn, one cursor per file, so both files are written alike, block by
// block from the start. The run ends after 64 writes (fio's size-based
// end), not after a time: a busy machine changes how long they take,
// never how many there are.
func TestFileListRoundRobin(t *testing.T) {
	const size, bs = 4 << 20, 4096
	for place, dir := range places(t) {
		for _, eng := range engines {
			t.Run(place+"/"+eng, func(t *testing.T) {
				a, b := filepath.Join(dir, "a-"+eng), filepath.Join(dir, "b-"+eng)
				for _, p := range []string{a, b} {
					if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				depth := depthFor(eng, 4)
				w := ioengine.Workload{Filename: a, Files: []string{a, b}, RW: ioengine.Write, BS: bs, IODepth: depth, NumJobs: 1, Direct: true, Verify: true, Permit: guard.Permit{AllowWrite: true}}
				const writes = 64
				st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: time.Minute, IOsPerJob: writes})
				if err != nil {
					t.Fatal(err)
				}
				if st.All.TotalIOs != writes {
					t.Fatalf("%d writes, want the %d of the size-based end", st.All.TotalIOs, writes)
				}
				na, nb := stampedBlocks(t, a, bs), stampedBlocks(t, b, bs)
				t.Logf("%d writes; stamped blocks: a %d, b %d of %d", st.All.TotalIOs, na, nb, size/bs)
				if na == 0 || nb == 0 {
					t.Fatalf("stamped blocks a %d, b %d: the job did not write both files", na, nb)
				}
				if na+nb != writes || na-nb > depth+1 || nb-na > depth+1 {
					t.Errorf("stamped blocks a %d, b %d: not in turn (depth %d)", na, nb, depth)
				}
			})
		}
	}
}

// TestFileListSizes reads a list of files of different sizes with
// verification: without Size each file is covered to its own end (no
// short reads past the smaller one's end); with Size each gets an equal
// share, and a share larger than a file is refused before any I/O.
func TestFileListSizes(t *testing.T) {
	dir := t.TempDir()
	small, large := filepath.Join(dir, "small"), filepath.Join(dir, "large")
	if err := os.WriteFile(small, stampedBytes(1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(large, stampedBytes(3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, eng := range engines {
		t.Run(eng, func(t *testing.T) {
			w := ioengine.Workload{Filename: large, Files: []string{large, small}, RW: ioengine.RandRead, BS: 4096, IODepth: depthFor(eng, 8), NumJobs: 2, Direct: true, Verify: true, RandSeed: 4}
			st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: 150 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if st.All.TotalIOs == 0 || len(st.Errors) > 0 || st.ShortIOs > 0 {
				t.Fatalf("%d I/Os, errors %+v, %d short: reads left a file's region", st.All.TotalIOs, st.Errors, st.ShortIOs)
			}
			w.Size = 4 << 20 // 2 MiB each: more than small holds
			_, err = mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: 50 * time.Millisecond})
			if !errors.Is(err, ioengine.ErrBadWorkload) {
				t.Fatalf("--size 4 MiB over a 1 MiB and a 3 MiB file: err %v, want a bad-workload error", err)
			}
		})
	}
}

// TestFileListWriteShare writes over two existing 1 MiB files with a size
// of 2 MiB: each holds its 1 MiB share, so the write guard (which never
// lets a run extend a file) lets it through, file by file.
func TestFileListWriteShare(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, make([]byte, 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := ioengine.Workload{Filename: a, Files: []string{a, b}, Size: 2 << 20, RW: ioengine.RandWrite, BS: 4096, IODepth: 4, NumJobs: 1,
		Direct: true, Verify: true, Permit: guard.Permit{AllowWrite: true}}
	st, err := mustEngine(t, "io_uring").Run(context.Background(), w, ioengine.Control{Runtime: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("2 MiB over two 1 MiB files: %v", err)
	}
	for _, p := range []string{a, b} {
		if fi, err := os.Stat(p); err != nil || fi.Size() != 1<<20 {
			t.Fatalf("%s: %v (want it 1 MiB, never extended)", p, err)
		}
		if stampedBlocks(t, p, 4096) == 0 {
			t.Errorf("%s: no block written (%d writes in all)", p, st.All.TotalIOs)
		}
	}
}
