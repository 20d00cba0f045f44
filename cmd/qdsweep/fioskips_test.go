package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkipsEndAsFio: a sequential job with skips (rw=read:8k, rw=rw:8k)
// ends where fio 3.33's does, on a file larger than its region. One
// direction does fio's count exactly (an I/O that starts in the region is
// issued; read:4k with bs=8k over 1 MiB: 86). Reads and writes each walk
// the region from their own position and the job ends with the first to
// pass its end: that direction's count is fio's, the other's is what the
// mix drew before it, in each tool from its own random draws, so it is
// held to fio's within 5 binomial standard deviations. Each loop is
// such a pass from the region's start, drawing what the first drew
// (loops=2: fio 170 reads and 172 writes, where qdsweep wrapped on to
// 184 and 160).
func TestSkipsEndAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	for _, args := range [][]string{
		{"--rw=read:4k", "--bs=8k"},
		{"--rw=write:8k", "--bs=4k"},
		{"--rw=rw:8k", "--bs=4k"},
		{"--rw=rw:8k", "--bs=4k", "--rwmixread=70"},
		{"--rw=rw:8k", "--bs=8k", "--rwmixread=30"},
		{"--rw=rw:8k", "--bs=4k", "--ioengine=libaio", "--iodepth=8", "--direct=1"},
		{"--rw=rw:8k", "--bs=4k", "--loops=2"},
		{"--rw=rw:8k", "--bs=4k", "--loops=3", "--rwmixread=70"},
	} {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			f := skipCounts(t, fioBin, nil, args)
			q := skipCounts(t, sweepBinary(t), []string{"run", "--allow-write"}, args)
			t.Logf("fio reads %d, writes %d; qdsweep reads %d, writes %d", f[0], f[1], q[0], q[1])
			hi := func(n [2]int64) int64 { return max(n[0], n[1]) }
			lo := func(n [2]int64) int64 { return min(n[0], n[1]) }
			if hi(q) != hi(f) || (f[0] == 0) != (q[0] == 0) || (f[1] == 0) != (q[1] == 0) {
				t.Fatalf("the direction that ends the pass: fio %v, qdsweep %v", f, q)
			}
			// The other direction's count: each I/O is it with the mix's
			// odds until the first has done hi I/Os.
			sd := math.Sqrt(float64(lo(f)+lo(q))/2 + 1)
			if d := math.Abs(float64(lo(q) - lo(f))); d > 5*sd {
				t.Errorf("the other direction: fio %d, qdsweep %d (%.0f sd)", lo(f), lo(q), d/sd)
			}
		})
	}
}

// skipCounts runs args over 1 MiB of an 8 MiB file under bin and returns
// the reads and writes it did.
func skipCounts(t *testing.T, bin string, pre, args []string) [2]int64 {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	all := append(append(append([]string{}, pre...), "--name=s", "--filename=data", "--size=1m", "--output-format=json"), args...)
	cmd := exec.Command(bin, all...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v: %s", filepath.Base(bin), strings.Join(all, " "), err, stderr.String())
	}
	var doc struct {
		Jobs []struct {
			Read, Write struct {
				TotalIOs int64 `json:"total_ios"`
			}
		} `json:"jobs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("%s's JSON: %v", filepath.Base(bin), fmt.Sprint(err))
	}
	return [2]int64{doc.Jobs[0].Read.TotalIOs, doc.Jobs[0].Write.TotalIOs}
}
