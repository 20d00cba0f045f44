package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestRunWritesFioLogs: write_iops_log, write_bw_log and write_lat_log
// with log_avg_msec write fio's averaged logs, named as fio names them
// (the same files fio 3.33 writes for the same command), each line "time,
// value, direction, 0, 0" that fio's log reader and fio's fio2gnuplot
// take back (its mean is the log's): a window's
// bandwidth is its IOPS × 4 KiB, clat and lat agree. Without
// log_avg_msec (fio logs every I/O) on the simulator, which keeps no
// I/Os, the job runs without the logs, and run says why
// (TestRunWritesFioLogsPerIO: a local engine writes them).
func TestRunWritesFioLogs(t *testing.T) {
	args := []string{"--name=a", "--filename=f", "--size=1m", "--bs=4k", "--rw=randread", "--rate_iops=1000",
		"--write_iops_log=q", "--write_bw_log=q", "--write_lat_log=q", "--log_avg_msec=50"}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runQdsweep(t, dir, append([]string{"run"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := logNames(t, dir)
	if want := []string{"q_bw.1.log", "q_clat.1.log", "q_iops.1.log", "q_lat.1.log", "q_slat.1.log"}; !slices.Equal(got, want) {
		t.Fatalf("logs %v, want %v", got, want)
	}
	read := func(name string) []fio.LogEntry {
		es, err := fio.ReadLog(filepath.Join(dir, name))
		if err != nil || len(es) < 2 {
			t.Fatalf("%s: %v, %d lines", name, err, len(es))
		}
		return es
	}
	iops, bw, clat, lat := read("q_iops.1.log"), read("q_bw.1.log"), read("q_clat.1.log"), read("q_lat.1.log")
	for i, e := range iops {
		if e.Dir != 0 || e.BS != 0 || e.Offset != 0 || i > 0 && e.TimeMs <= iops[i-1].TimeMs {
			t.Errorf("iops line %d: %+v", i+1, e)
		}
		if i < len(bw) && (bw[i].TimeMs != e.TimeMs || bw[i].Value < 4*e.Value-4 || bw[i].Value > 4*e.Value+4) {
			t.Errorf("window %d: %d IOPS of 4 KiB but %d KiB/s", i+1, e.Value, bw[i].Value)
		}
	}
	if !slices.Equal(clat, lat) {
		t.Errorf("clat %v and lat %v differ; qdsweep's one latency is both", clat, lat)
	}
	if fioBin, err := exec.LookPath("fio"); err == nil {
		fdir := t.TempDir()
		if err := os.WriteFile(filepath.Join(fdir, "f"), make([]byte, 4<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := runIn(fdir, fioBin, args...); err != nil {
			t.Fatalf("fio: %v\n%s", err, out)
		}
		// Both write q_slat.1.log, empty: fio's for a synchronous engine,
		// qdsweep's because it does not time submission apart.
		if fioNames := logNames(t, fdir); !slices.Equal(got, fioNames) {
			t.Errorf("qdsweep wrote %v, fio %v", got, fioNames)
		}
	}
	if g, err := exec.LookPath("fio2gnuplot"); err == nil {
		// fio's own reader of its logs: the mean it finds is the log's.
		out, err := runIn(dir, g, "-p", "q_bw*.log", "-d", filepath.Join(dir, "g"))
		avg, rerr := os.ReadFile(filepath.Join(dir, "g", "q_bw.average"))
		var sum int64
		for _, e := range bw {
			sum += e.Value
		}
		want := sum / int64(len(bw))
		if err != nil || rerr != nil || !strings.Contains(string(avg), fmt.Sprintf("0 %d\n", want)) && !strings.Contains(string(avg), fmt.Sprintf("0 %d\n", want+1)) {
			t.Errorf("fio2gnuplot: %v %v, average file %q, want the mean %d\n%s", err, rerr, avg, want, out)
		}
	}
	// fio runs these; so does qdsweep, without the logs, and says why: the
	// simulated device keeps one series and one list of I/Os for every clone.
	for _, c := range []struct {
		args []string
		why  string
	}{{[]string{"--write_iops_log=q", "--log_avg_msec=50", "--numjobs=2"}, "numjobs > 1"}} {
		d := t.TempDir()
		_, stderr, code := runQdsweep(t, d, append([]string{"run", "--name=b", "--filename=f", "--size=1m", "--ioengine=sim"}, c.args...)...)
		if code != 0 || !strings.Contains(strings.Join(strings.Fields(stderr), " "), c.why) || len(logNames(t, d)) != 0 {
			t.Errorf("%v: exit %d, %q, logs %v; want the run, no logs, and why", c.args, code, stderr, logNames(t, d))
		}
	}
}

// logNames are the fio logs in dir, sorted.
func logNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if _, _, _, ok := fio.LogName(e.Name()); ok {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out
}
