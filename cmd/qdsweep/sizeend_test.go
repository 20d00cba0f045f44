package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSizeBasedEndsExact: a size-based job does exactly fio's I/O count and
// bytes (size, io_size, loops and numjobs; every engine and depth), counted
// per I/O, not polled; fio itself, where installed, does the same count on
// the same command.
func TestSizeBasedEndsExact(t *testing.T) {
	shapes := []struct {
		args []string
		ios  int64 // fio's count: (io_size or size) × loops ÷ bs × numjobs
	}{
		{[]string{"--size=1m"}, 256},
		{[]string{"--size=1m", "--io_size=3m"}, 768},
		{[]string{"--size=1m", "--loops=3"}, 768},
		{[]string{"--size=1m", "--numjobs=2"}, 512},
		{[]string{"--size=1m", "--rw=randread"}, 256},
		{[]string{"--size=1m", "--number_ios=100"}, 100},
		{[]string{"--size=1m", "--number_ios=100", "--loops=3"}, 300}, // fio caps each loop
		{[]string{"--size=1m", "--number_ios=1000", "--loops=2"}, 512},
	}
	for _, engine := range []string{"psync", "libaio", "io_uring"} {
		for _, depth := range []string{"1", "16"} {
			for i, sh := range shapes {
				t.Run(fmt.Sprintf("%s/qd%s/%d", engine, depth, i), func(t *testing.T) {
					dir := t.TempDir()
					args := append([]string{"run", "--name=e", "--rw=write", "--bs=4k", "--direct=1", "--ioengine=" + engine,
						"--iodepth=" + depth, "--output-format=qdsweep-json"}, sh.args...)
					stdout, stderr, code := runQdsweep(t, dir, args...)
					if code != 0 {
						t.Fatalf("exit %d: %s", code, stderr)
					}
					var doc struct {
						runJSONDoc
						IOBytes int64 `json:"io_bytes"`
					}
					if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
						t.Fatalf("%v\n%s", err, stdout)
					}
					if doc.TotalIOs != sh.ios || doc.IOBytes != sh.ios*4096 {
						t.Fatalf("%s: %d I/Os, %d bytes; fio does exactly %d I/Os, %d bytes", strings.Join(args[1:], " "),
							doc.TotalIOs, doc.IOBytes, sh.ios, sh.ios*4096)
					}
				})
			}
		}
	}
	t.Run("fio engine", func(t *testing.T) {
		if _, err := exec.LookPath("fio"); err != nil {
			t.Skip("fio not installed")
		}
		// The ends qdsweep hands fio (io_size, number_ios, end_fsync) are its
		// own options, not --fio-arg values: none is refused.
		for _, sh := range shapes[4:] {
			dir := t.TempDir()
			args := append([]string{"run", "--name=e", "--rw=write", "--bs=4k", "--ioengine=fio", "--end_fsync=1",
				"--output-format=qdsweep-json"}, sh.args...)
			stdout, stderr, code := runQdsweep(t, dir, args...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", strings.Join(args[1:], " "), code, stderr)
			}
			if doc := decodeRun(t, stdout); doc.TotalIOs != sh.ios {
				t.Errorf("%s: fio as the engine did %d I/Os; fio does %d", strings.Join(args[1:], " "), doc.TotalIOs, sh.ios)
			}
		}
	})
	t.Run("fio agrees", func(t *testing.T) {
		if _, err := exec.LookPath("fio"); err != nil {
			t.Skip("fio not installed: the counts above are fio 3.33's, measured when this test was written")
		}
		for _, sh := range shapes {
			dir := t.TempDir()
			args := append([]string{"--name=e", "--filename=" + filepath.Join(dir, "f"), "--rw=write", "--bs=4k", "--direct=1",
				"--ioengine=psync", "--output-format=json", "--group_reporting"}, sh.args...)
			out, err := exec.Command("fio", args...).Output()
			if err != nil {
				t.Fatalf("fio %s: %v", strings.Join(args, " "), err)
			}
			var doc struct {
				Jobs []struct {
					Read, Write struct {
						TotalIOs int64 `json:"total_ios"`
					}
				} `json:"jobs"`
			}
			if err := json.Unmarshal(out, &doc); err != nil || len(doc.Jobs) != 1 {
				t.Fatalf("fio's JSON: %v\n%s", err, out)
			}
			if got := doc.Jobs[0].Read.TotalIOs + doc.Jobs[0].Write.TotalIOs; got != sh.ios {
				t.Errorf("fio %s did %d I/Os; the table says %d", strings.Join(sh.args, " "), got, sh.ios)
			}
		}
	})
}
