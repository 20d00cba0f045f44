package ioengine_test

import (
	"context"
	"errors"
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
