package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/fliptest"
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
	// A byte flipped between a block's write and its read back, as each
	// read is about to run (never a race with the job's timing): both fail
	// naming the block, through verify_backlog and through the verify phase
	// after the writes.
	const bad = 26*4096 + 1000 // in the block at 106496
	for _, extra := range [][]string{{"--verify=pattern", "--verify_pattern=0x5ca1ab1e"}, {"--verify=crc32c", "--verify_backlog=0"}} {
		for _, who := range []string{"fio", "qdsweep"} {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			fl := fliptest.Start(t, path, bad, 4096)
			out, err := run(who, dir, append(append(job, "--rw=write"), extra...)...)
			if ferr := fl.Stop(); ferr != nil {
				t.Fatal(ferr)
			}
			if err == nil || !strings.Contains(out, "offset 106496") {
				t.Errorf("%s %v, %d flips before %d reads: %v, want a failure naming offset 106496:\n%s", who, extra, fl.Flips(), fl.Reads(), err, out)
			}
		}
	}
}
