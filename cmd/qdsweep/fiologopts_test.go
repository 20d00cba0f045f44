package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRunLogMaxValueAndUnixEpoch: log_max_value writes each averaged
// latency window's largest latency, as fio 3.33 does, so the largest line
// is the job's largest latency (fio's JSON max; qdsweep's, within its
// histogram's 1 %), and log_unix_epoch writes times as Unix ms, between
// the run's start and end. The same assertions hold on fio's own logs of
// the same job (256 reads of 4 KiB at 1,000 IOPS, windows of 50 ms).
func TestRunLogMaxValueAndUnixEpoch(t *testing.T) {
	args := []string{"--name=a", "--filename=f", "--size=1m", "--bs=4k", "--rw=randread", "--rate_iops=1000",
		"--write_iops_log=q", "--write_lat_log=q", "--log_avg_msec=50", "--log_max_value=1", "--log_unix_epoch=1",
		"--output-format=json", "--output=o.json"}
	runs := map[string][]string{"qdsweep": nil}
	if fioBin, err := exec.LookPath("fio"); err == nil {
		runs["fio"] = []string{fioBin}
	}
	for who, bin := range runs {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now().UnixMilli()
		if bin != nil {
			if out, err := runIn(dir, bin[0], args...); err != nil {
				t.Fatalf("fio: %v\n%s", err, out)
			}
		} else if _, stderr, code := runQdsweep(t, dir, append([]string{"run"}, args...)...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		end := time.Now().UnixMilli()
		var doc struct {
			Jobs []struct {
				Read struct {
					Clat struct {
						Max float64 `json:"max"`
					} `json:"clat_ns"`
				} `json:"read"`
			} `json:"jobs"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "o.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &doc); err != nil || len(doc.Jobs) != 1 {
			t.Fatalf("%s: JSON: %v %d jobs", who, err, len(doc.Jobs))
		}
		for _, k := range []string{"iops", "clat"} {
			ls := readPerIOLog(t, filepath.Join(dir, "q_"+k+".1.log"))
			if len(ls) < 3 {
				t.Fatalf("%s: %s log has %d lines, want a line per 50 ms of 256 ms", who, k, len(ls))
			}
			var top int64
			for i, l := range ls {
				if l[0] < start || l[0] > end || i > 0 && l[0] < ls[i-1][0] {
					t.Fatalf("%s: %s line %d: %v: want a Unix time in ms between %d and %d, never going back", who, k, i+1, l, start, end)
				}
				top = max(top, l[1])
			}
			if m := doc.Jobs[0].Read.Clat.Max; k == "clat" && (float64(top) < m*0.99 || float64(top) > m*1.01) {
				t.Errorf("%s: the clat log's largest line is %d ns, the job's largest latency %.0f", who, top, m)
			}
			if k == "iops" && slices.ContainsFunc(ls, func(l perIOLine) bool { return l[1] <= 0 }) {
				t.Errorf("%s: an IOPS line without I/Os: %v", who, ls)
			}
		}
	}
}

// TestRunRefusesLogStoreCompressed: log_store_compressed=1, with which fio
// writes its logs as zlib chunks of its in-memory samples (NAME.log.fz),
// is refused in one line naming it and the fix, exit 2, nothing written;
// log_store_compressed=0 writes the logs as text, as fio.
func TestRunRefusesLogStoreCompressed(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--name=a", "--filename=f", "--size=256k", "--ioengine=sim", "--write_lat_log=q", "--output-format=terse"}
	_, stderr, code := runQdsweep(t, dir, append(args, "--log_store_compressed=1")...)
	if ents, _ := os.ReadDir(dir); code != 2 || len(ents) != 0 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "log_store_compressed=1") || !strings.Contains(stderr, "drop it") {
		t.Fatalf("exit %d, %d files, %q: want exit 2, nothing written, one line naming log_store_compressed and the fix", code, len(ents), stderr)
	}
	if _, stderr, code := runQdsweep(t, dir, append(args, "--log_store_compressed=0")...); code != 0 || !slices.Contains(logNames(t, dir), "q_lat.1.log") {
		t.Fatalf("log_store_compressed=0: exit %d, logs %v: %s", code, logNames(t, dir), stderr)
	}
}
