package ioengine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/fliptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestVerifyBacklogCatchesAFlipBeforeItsReadBack: a block corrupted after
// its write and before its read back by verify_backlog is always caught,
// the failure naming that block, on every engine, buffered and direct, in
// order and at random (each block once, at depth), as fio 3.33 catches it
// on the same job. The byte is flipped by another party as each read is
// about to run (fliptest), so no timing decides whether the flip lands
// between the write and its read back.
func TestVerifyBacklogCatchesAFlipBeforeItsReadBack(t *testing.T) {
	const size, bs = 1 << 20, 4096
	const bad, want = 26*bs + 1000, 26 * bs
	fioBin, _ := exec.LookPath("fio")
	for _, eng := range engines {
		for _, direct := range []bool{false, true} {
			for _, v := range []ioengine.FioVerify{{Kind: ioengine.VerifyPattern, Pattern: []byte{0x5c, 0xa1, 0xab, 0x1e}, Backlog: 16},
				{Kind: ioengine.VerifyCRC32C, Backlog: 7, BacklogBatch: 3}} {
				rw := ioengine.Write
				if v.BacklogBatch > 0 {
					rw = ioengine.RandWrite
				}
				name := fmt.Sprintf("%s/direct=%t/%s/%s", eng, direct, rw, v.Kind)
				t.Run(name, func(t *testing.T) {
					path := flipFile(t, size)
					w := ioengine.Workload{Filename: path, RW: rw, BS: bs, IODepth: depthFor(eng, 8), NumJobs: 1, Direct: direct,
						FioVerify: v, Permit: guard.Permit{AllowWrite: true}, Shape: ioengine.Shape{RandomMap: true}}
					fl := fliptest.Start(t, path, bad, bs)
					_, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: time.Minute, IOsPerJob: size / bs})
					if ferr := fl.Stop(); ferr != nil {
						t.Fatal(ferr)
					}
					var f *ioengine.IOFailure
					if !errors.As(err, &f) || f.Errno != "verify" || f.Offset != want {
						t.Fatalf("%d flips before %d reads: got %v, want a verify failure of the block at %d", fl.Flips(), fl.Reads(), err, want)
					}
				})
				if fioBin == "" {
					continue
				}
				t.Run("fio/"+name, func(t *testing.T) {
					path := flipFile(t, size)
					args := []string{"--name=v", "--filename=" + path, "--size=1m", "--bs=4k", "--ioengine=" + eng, "--randrepeat=0",
						fmt.Sprintf("--iodepth=%d", depthFor(eng, 8)), fmt.Sprintf("--direct=%d", map[bool]int{true: 1}[direct]),
						"--rw=" + map[ioengine.RW]string{ioengine.Write: "write", ioengine.RandWrite: "randwrite"}[rw],
						"--verify=" + v.Kind, fmt.Sprintf("--verify_backlog=%d", v.Backlog)}
					if v.Kind == ioengine.VerifyPattern {
						args = append(args, "--verify_pattern=0x5ca1ab1e")
					}
					if v.BacklogBatch > 0 {
						args = append(args, fmt.Sprintf("--verify_backlog_batch=%d", v.BacklogBatch))
					}
					fl := fliptest.Start(t, path, bad, bs)
					cmd := exec.Command(fioBin, args...)
					cmd.Dir = filepath.Dir(path) // where fio saves its verify state on a failure
					out, err := cmd.CombinedOutput()
					if ferr := fl.Stop(); ferr != nil {
						t.Fatal(ferr)
					}
					if err == nil || !strings.Contains(string(out), fmt.Sprintf("offset %d", want)) {
						t.Fatalf("fio, %d flips before %d reads: %v, want a failure naming offset %d\n%s", fl.Flips(), fl.Reads(), err, want, out)
					}
				})
			}
		}
	}
}

// flipFile lays out a file of size zero bytes in a new directory.
func flipFile(t *testing.T, size int64) string {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
