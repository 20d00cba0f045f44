package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestVerifyBacklogAsFio runs fio's verify_backlog natively and under fio
// 3.33: the same reads and writes in fio's JSON (each write read back once,
// counted as a read: 256 of each for a 1 MiB randwrite of 4 KiB, at depth
// 8 and with a batch of 4); then, with one byte of the file flipped over
// and over while the job runs (every other run at 2,000 writes a second,
// 8 ms between a write and its read back), both fail on a read back naming
// the block that holds it (a run that wrote the block after the last flip
// before its read back is tried again, up to 8 runs).
func TestVerifyBacklogAsFio(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed: this test checks verify_backlog against fio 3.33's (CI installs it)")
	}
	run := func(who, dir string, args ...string) (string, error) {
		if who == "fio" {
			out, err := runIn(dir, fioBin, args...)
			return string(out), err
		}
		stdout, stderr, code := runQdsweep(t, dir, append(append([]string{"run"}, args...), "--allow-write")...)
		if code != 0 {
			return stdout + stderr, fmt.Errorf("exit %d", code)
		}
		return stdout, nil
	}
	job := []string{"--name=v", "--filename=f", "--size=1m", "--bs=4k", "--verify=crc32c", "--verify_backlog=16"}
	for _, extra := range [][]string{{"--rw=randwrite", "--ioengine=libaio", "--iodepth=8", "--direct=1"}, {"--rw=write", "--verify_backlog_batch=4"}} {
		counts := map[string][2]int64{}
		for _, who := range []string{"fio", "qdsweep"} {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 1<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := run(who, dir, append(append(job, extra...), "--output-format=json")...)
			if err != nil {
				t.Fatalf("%s %v: %v\n%s", who, extra, err, out)
			}
			var doc struct {
				Jobs []struct {
					Read, Write struct {
						TotalIOs int64 `json:"total_ios"`
					}
				} `json:"jobs"`
			}
			if err := json.Unmarshal(jsonPart([]byte(out)), &doc); err != nil || len(doc.Jobs) != 1 {
				t.Fatalf("%s's JSON: %v\n%s", who, err, out)
			}
			counts[who] = [2]int64{doc.Jobs[0].Read.TotalIOs, doc.Jobs[0].Write.TotalIOs}
		}
		if counts["fio"] != [2]int64{256, 256} || counts["qdsweep"] != counts["fio"] {
			t.Errorf("%v: reads and writes: qdsweep %v, fio %v; want 256 each", extra, counts["qdsweep"], counts["fio"])
		}
	}
	const bad = 26*4096 + 1000 // in the block at 106496
	for _, who := range []string{"fio", "qdsweep"} {
		var outs []string
		for i := range 8 {
			args := append(job, "--rw=write", "--verify=pattern", "--verify_pattern=0x5ca1ab1e")
			if i%2 == 1 {
				args = append(args, "--rate_iops=2000")
			}
			out, err := runFlipping(t, func(dir string) (string, error) { return run(who, dir, args...) }, bad)
			if err == nil {
				continue // the flips missed the window: try again
			}
			if !strings.Contains(out, "offset 106496") {
				t.Fatalf("%s with a byte flipped at %d: %v, want a failure naming offset 106496:\n%s", who, bad, err, out)
			}
			outs = append(outs, out)
			break
		}
		if len(outs) == 0 {
			t.Errorf("%s read back a block flipped over and over in 8 runs and found nothing", who)
		}
	}
}

// runFlipping lays out a 1 MiB file f in a new directory, runs do in it
// while a goroutine writes a zero (never in the pattern) at byte bad of f
// over and over, and returns what do did.
func runFlipping(t *testing.T, do func(dir string) (string, error), bad int64) (string, error) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			// Opened by name each time: a run may lay the file out anew.
			if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
				_, _ = f.WriteAt([]byte{0}, bad)
				f.Close()
			}
		}
	}()
	out, err := do(dir)
	stop.Store(true)
	<-done
	return out, err
}
