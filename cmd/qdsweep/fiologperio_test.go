package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// perIOLine is one line of a log of every I/O, its columns as numbers
// (log_prio's hex priority read as 0).
type perIOLine []int64

// readPerIOLog reads a log of every I/O: its lines, each split at ", ".
func readPerIOLog(t *testing.T, path string) []perIOLine {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []perIOLine
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l == "" {
			continue
		}
		var line perIOLine
		for _, f := range strings.Split(l, ", ") {
			if strings.HasPrefix(f, "0x") {
				f = "0"
			}
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				t.Fatalf("%s: line %q: %v", filepath.Base(path), l, err)
			}
			line = append(line, n)
		}
		out = append(out, line)
	}
	return out
}

// TestRunWritesFioLogsPerIO: without log_avg_msec, write_iops_log,
// write_bw_log and write_lat_log log every I/O, as fio 3.33 does: the
// same files as fio's for the same job (256 random reads of 4 KiB at
// 1,000 IOPS), a line per I/O in each (256), slat empty (qdsweep does not
// time submission apart; fio's engine is synchronous), "time, value,
// direction, bs, prio" (log_offset: the offset before the priority),
// time in ms since the job began (256 I/Os at 1,000 IOPS take at least
// 255 ms), 1 in the IOPS log, the latency in ns in clat and lat, the bytes
// over that latency (KB/s) in the bandwidth log, offsets of whole blocks
// in the file. fio's logs of the same job hold all of it too, and both
// name every block once (fio's random map, which qdsweep keeps too).
func TestRunWritesFioLogsPerIO(t *testing.T) {
	fioBin, _ := exec.LookPath("fio")
	for _, extra := range [][]string{nil, {"--log_offset=1"}, {"--log_offset=1", "--log_prio=1"}} {
		args := append([]string{"--name=a", "--filename=f", "--size=1m", "--bs=4k", "--rw=randread", "--rate_iops=1000",
			"--write_iops_log=q", "--write_bw_log=q", "--write_lat_log=q"}, extra...)
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 4<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := runQdsweep(t, dir, append([]string{"run", "--output-format=terse"}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		dirs := map[string]string{"qdsweep": dir}
		if fioBin != "" {
			fdir := t.TempDir()
			if err := os.WriteFile(filepath.Join(fdir, "f"), make([]byte, 4<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := runIn(fdir, fioBin, append([]string{"--output-format=terse"}, args...)...); err != nil {
				t.Fatalf("fio: %v\n%s", err, out)
			}
			dirs["fio"] = fdir
		}
		want := []string{"q_bw.1.log", "q_clat.1.log", "q_iops.1.log", "q_lat.1.log", "q_slat.1.log"}
		for who, d := range dirs {
			if got := logNames(t, d); !slices.Equal(got, want) {
				t.Fatalf("%s %v: logs %v, want %v", who, extra, got, want)
			}
			checkPerIOLogs(t, who+" "+strings.Join(extra, " "), d, len(extra) > 0, true)
		}
	}
}

// checkPerIOLogs checks the per-I/O logs in dir of the job
// TestRunWritesFioLogsPerIO runs.
// randomMap: each block is read once.
func checkPerIOLogs(t *testing.T, who, dir string, withOffset, randomMap bool) {
	t.Helper()
	cols := 5
	if withOffset {
		cols = 6
	}
	logs := map[string][]perIOLine{}
	for _, k := range []string{"iops", "bw", "clat", "lat", "slat"} {
		logs[k] = readPerIOLog(t, filepath.Join(dir, "q_"+k+".1.log"))
	}
	if n := len(logs["slat"]); n != 0 {
		t.Errorf("%s: slat log has %d lines, want none", who, n)
	}
	for _, k := range []string{"iops", "bw", "clat", "lat"} {
		ls := logs[k]
		if len(ls) != 256 {
			t.Errorf("%s: %s log has %d lines, want one per I/O (256)", who, k, len(ls))
			continue
		}
		blocks := map[int64]bool{}
		for i, l := range ls {
			if len(l) != cols || l[2] != 0 || l[3] != 4096 || l[len(l)-1] != 0 || i > 0 && l[0] < ls[i-1][0] {
				t.Fatalf("%s: %s line %d: %v: want %d columns, time never going back, read (0) of 4096 bytes, priority 0", who, k, i+1, l, cols)
			}
			if withOffset {
				blocks[l[4]] = l[4]%4096 == 0 && l[4] < 1<<20
			}
		}
		if last := ls[len(ls)-1][0]; last < 200 || last > 60000 {
			t.Errorf("%s: %s log's last I/O at %d ms: the 256 I/Os at 1,000 IOPS took at least 255 ms", who, k, last)
		}
		if withOffset && (randomMap && len(blocks) != 256 || slices.Contains(mapValues(blocks), false)) {
			t.Errorf("%s: %s log's offsets cover %d blocks of the file's 256 (all within it: %v)", who, k, len(blocks), !slices.Contains(mapValues(blocks), false))
		}
	}
	for i, l := range logs["iops"] {
		clat, bw := logs["clat"][i][1], logs["bw"][i][1]
		if l[1] != 1 || clat <= 0 || logs["lat"][i][1] < clat || bw != 4096*1_000_000/clat {
			t.Fatalf("%s: I/O %d: iops %d (want 1), clat %d ns, lat %d ns (≥ clat), bw %d (want 4096e6/clat = %d)",
				who, i+1, l[1], clat, logs["lat"][i][1], bw, 4096*1_000_000/max(clat, 1))
		}
	}
}

func mapValues(m map[int64]bool) []bool {
	var out []bool
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// TestRunSaysSlatLogEmpty: on an asynchronous engine, where fio's slat log
// has a line per I/O, run writes it empty and says why in one line; on
// psync, where fio's is empty too, it says nothing.
func TestRunSaysSlatLogEmpty(t *testing.T) {
	for _, c := range []struct {
		engine string
		say    bool
	}{{"libaio", true}, {"psync", false}} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runQdsweep(t, dir, "run", "--name=a", "--filename=f", "--size=256k", "--ioengine="+c.engine,
			"--write_lat_log=q", "--output-format=terse")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.engine, code, stderr)
		}
		n := strings.Count(stderr, "slat log is empty")
		if b, err := os.ReadFile(filepath.Join(dir, "q_slat.1.log")); err != nil || len(b) != 0 || n != map[bool]int{true: 1, false: 0}[c.say] {
			t.Errorf("%s: slat log %q (%v), said %d times: %s", c.engine, b, err, n, stderr)
		}
	}
}

// TestRunLogsOnSimAndFio: the simulated device and the fio engine write
// fio's logs of every I/O too. The simulator's (a device of 1,000 IOPS,
// 256 reads of 4 KiB) hold a line per simulated completion, as the local
// engines' do. The fio engine hands fio the job's log options and carries
// fio's own files through the one writer: with prioclass=1 and prio=3
// (which fio runs for qdsweep) and log_prio=1, every line's priority is
// fio's 0x2003, as fio's own run of the same job writes it, and without
// log_prio the column is 1 (the real-time class) in both.
func TestRunLogsOnSimAndFio(t *testing.T) {
	base := []string{"--name=a", "--filename=f", "--size=1m", "--bs=4k", "--rw=randread", "--write_iops_log=q", "--write_bw_log=q", "--write_lat_log=q"}
	want := []string{"q_bw.1.log", "q_clat.1.log", "q_iops.1.log", "q_lat.1.log", "q_slat.1.log"}
	dir := t.TempDir()
	if _, stderr, code := runQdsweep(t, dir, append([]string{"run", "--output-format=terse", "--ioengine=sim", "--sim=latency=1ms,iops=1000"}, base...)...); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, stderr)
	}
	if got := logNames(t, dir); !slices.Equal(got, want) {
		t.Fatalf("sim: logs %v, want %v", got, want)
	}
	checkPerIOLogs(t, "sim", dir, false, false)
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed: the fio engine's logs are fio's")
	}
	for _, c := range []struct {
		extra []string
		prio  string
	}{{[]string{"--log_prio=1"}, "0x2003"}, {nil, "1"}} {
		args := append(append(slices.Clone(base), "--rate_iops=1000", "--prioclass=1", "--prio=3"), c.extra...)
		dirs := map[string]string{"qdsweep": t.TempDir(), "fio": t.TempDir()}
		for who, d := range dirs {
			if err := os.WriteFile(filepath.Join(d, "f"), make([]byte, 1<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			if who == "fio" {
				if out, err := runIn(d, fioBin, append([]string{"--output-format=terse"}, args...)...); err != nil {
					t.Fatalf("fio: %v\n%s", err, out)
				}
			} else if _, stderr, code := runQdsweep(t, d, append([]string{"run", "--output-format=terse", "--ioengine=fio"}, args...)...); code != 0 {
				t.Fatalf("fio engine: exit %d: %s", code, stderr)
			}
			if got := logNames(t, d); !slices.Equal(got, want) {
				t.Fatalf("%s %v: logs %v, want %v", who, c.extra, got, want)
			}
			for _, k := range []string{"iops", "bw", "clat", "lat"} {
				b, err := os.ReadFile(filepath.Join(d, "q_"+k+".1.log"))
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
				for i, l := range lines {
					if f := strings.Split(l, ", "); len(f) != 5 || f[4] != c.prio {
						t.Fatalf("%s %v: %s log line %d: %q: want 5 columns, the priority %s", who, c.extra, k, i+1, l, c.prio)
					}
				}
				if len(lines) != 256 {
					t.Errorf("%s %v: %s log has %d lines, want one per I/O (256)", who, c.extra, k, len(lines))
				}
			}
		}
	}
}
