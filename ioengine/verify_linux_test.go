package ioengine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestFioVerifyFindsTheBadBlock writes a file with fio's verify blocks on
// every engine and kind, reads it back clean, flips one byte and has the
// read fail naming the block that holds it.
func TestFioVerifyFindsTheBadBlock(t *testing.T) {
	const size, bs = 1 << 20, 16384
	for _, eng := range engines {
		for _, v := range []ioengine.FioVerify{{Kind: ioengine.VerifyCRC32C}, {Kind: ioengine.VerifyMD5, Interval: 4096},
			{Kind: ioengine.VerifyPattern, Pattern: []byte{0xde, 0xad}}, {Kind: ioengine.VerifyMeta, Pattern: []byte("abc")}} {
			t.Run(eng+"/"+v.Kind, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "v")
				if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
					t.Fatal(err)
				}
				w := ioengine.Workload{Filename: path, RW: ioengine.Write, BS: bs, IODepth: depthFor(eng, 8), NumJobs: 1, Direct: true,
					FioVerify: v, Permit: guard.Permit{AllowWrite: true}}
				ctl := ioengine.Control{Runtime: time.Minute, IOsPerJob: size / bs}
				if _, err := mustEngine(t, eng).Run(context.Background(), w, ctl); err != nil {
					t.Fatal(err)
				}
				w.RW = ioengine.Read
				if _, err := mustEngine(t, eng).Run(context.Background(), w, ctl); err != nil {
					t.Fatalf("reading back what was written: %v", err)
				}
				const bad = 37*bs + 5000
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				b[bad] ^= 1
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
				want := int64(37 * bs)
				if v.Interval > 0 {
					want = bad / v.Interval * v.Interval
				}
				_, err = mustEngine(t, eng).Run(context.Background(), w, ctl)
				var f *ioengine.IOFailure
				if !errors.As(err, &f) || f.Errno != "verify" || f.Offset != want || !strings.Contains(err.Error(), "verify failed") {
					t.Fatalf("got %v, want a verify failure of the block at %d", err, want)
				}
			})
		}
	}
}

// TestVerifyBacklogReadsEachWriteOnce: with verify_backlog a writing job
// reads back and checks every write once within its own run, Backlog at a
// time and the rest when its writes end (fio 3.33 counts them as reads
// too: 1,024 writes of 4 KiB, 1,024 reads), on every engine, at depth, and
// with a batch smaller than the backlog; the reads count against none of
// the job's limits.
func TestVerifyBacklogReadsEachWriteOnce(t *testing.T) {
	const size, bs = 1 << 20, 4096
	for _, eng := range engines {
		for _, v := range []ioengine.FioVerify{{Kind: ioengine.VerifyCRC32C, Backlog: 16}, {Kind: ioengine.VerifyMD5, Backlog: 7, BacklogBatch: 3}} {
			t.Run(fmt.Sprintf("%s/%d-%d", eng, v.Backlog, v.BacklogBatch), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "v")
				if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
					t.Fatal(err)
				}
				w := ioengine.Workload{Filename: path, RW: ioengine.RandWrite, BS: bs, IODepth: depthFor(eng, 8), NumJobs: 1, Direct: true,
					FioVerify: v, Permit: guard.Permit{AllowWrite: true}, Shape: ioengine.Shape{RandomMap: true}}
				st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: time.Minute, IOsPerJob: size / bs})
				if err != nil {
					t.Fatal(err)
				}
				if st.Write == nil || st.Read == nil || st.Write.TotalIOs != size/bs || st.Read.TotalIOs != size/bs || st.Read.Bytes != size {
					t.Fatalf("writes %+v, reads %+v: want %d of each, every write read back once", st.Write, st.Read, size/bs)
				}
			})
		}
	}
}
