package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// logsJob is a job file with fio's logs: job a's two clones and job b
// (fio's logs 1, 2 and 3), 256 reads of 4 KiB each at 1,000 IOPS,
// averaged and histogram logs every 50 ms, and extra lines.
func logsJob(extra ...string) string {
	return "[global]\nfilename=f\nsize=1m\nbs=4k\nrw=randread\nrate_iops=1000\n" +
		"write_iops_log=q\nwrite_hist_log=q\nlog_avg_msec=50\nlog_hist_msec=50\n" +
		strings.Join(extra, "\n") + "\n[a]\nnumjobs=2\n[b]\n"
}

// runLogsJob runs job under cmd (qdsweep run, or fio) in a new directory
// and returns it.
func runLogsJob(t *testing.T, job string, fioBin string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	if fioBin != "" {
		if out, err := runIn(dir, fioBin, "--output-format=terse", "j.fio"); err != nil {
			t.Fatalf("fio: %v\n%s", err, out)
		}
		return dir
	}
	if _, stderr, code := runQdsweep(t, dir, "run", "--output-format=terse", "j.fio"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	return dir
}

var histLogRE = regexp.MustCompile(`^.+_clat_hist(\.\d+)?\.log$`)

// allLogNames are the fio logs in dir, histogram logs too, sorted.
func allLogNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := logNames(t, dir)
	for _, e := range ents {
		if histLogRE.MatchString(e.Name()) {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out
}

// logShape is a log's lines and the columns of each (the set of counts).
func logShape(t *testing.T, path string) (lines int, cols []int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l == "" {
			continue
		}
		lines++
		if n := len(strings.Split(l, ",")); !slices.Contains(cols, n) {
			cols = append(cols, n)
		}
	}
	return lines, cols
}

// histTotal is the completions a histogram log counts, checking each
// line's bins (PlatNR >> coarseness) and block size, and with ordered
// that its times never go back (one clone's log).
func histTotal(t *testing.T, path string, coarseness int, ordered bool) uint64 {
	t.Helper()
	es, err := readHistLog(path)
	if err != nil {
		t.Fatal(err)
	}
	var sum uint64
	for i, e := range es {
		if len(e.Counts) != fio.PlatNR>>coarseness || e.BS != 4096 || e.Dir != 0 || ordered && i > 0 && e.TimeMs < es[i-1].TimeMs {
			t.Errorf("%s line %d: %d bins (want %d), bs %d, direction %d, %d ms", filepath.Base(path), i+1, len(e.Counts), fio.PlatNR>>coarseness, e.BS, e.Dir, e.TimeMs)
		}
		for _, n := range e.Counts {
			sum += n
		}
	}
	return sum
}

// TestRunWritesFioLogsPerJob: numjobs=2 and a second job write fio's logs
// 1, 2 and 3, named as fio 3.33 names them for the same job file (with
// per_job_logs=0 one file each); every line has fio's columns (log_offset
// adds one); each histogram log has 1856 >> log_hist_coarseness bins a
// line and counts the reads of its clone's full windows (as fio's, the
// last part-window is not written: fewer than all, more than all but two
// windows' at 1,000 IOPS); fio's own fio2gnuplot reads the logs.
func TestRunWritesFioLogsPerJob(t *testing.T) {
	fioBin, _ := exec.LookPath("fio")
	for _, c := range []struct {
		extra      []string
		coarseness int
	}{
		{nil, 0},
		{[]string{"log_offset=1", "log_hist_coarseness=2"}, 2},
		{[]string{"per_job_logs=0", "log_prio=1", "log_hist_coarseness=6"}, 6},
	} {
		job := logsJob(c.extra...)
		q := runLogsJob(t, job, "")
		names := allLogNames(t, q)
		perJob := !slices.Contains(c.extra, "per_job_logs=0")
		want := []string{"q_clat_hist.1.log", "q_clat_hist.2.log", "q_clat_hist.3.log", "q_iops.1.log", "q_iops.2.log", "q_iops.3.log"}
		if !perJob {
			want = []string{"q_clat_hist.log", "q_iops.log"}
		}
		if !slices.Equal(names, want) {
			t.Fatalf("%v: logs %v, want %v", c.extra, names, want)
		}
		var fdir string
		if fioBin != "" {
			fdir = runLogsJob(t, job, fioBin)
			if fn := allLogNames(t, fdir); !slices.Equal(fn, names) {
				t.Errorf("%v: qdsweep wrote %v, fio %v", c.extra, names, fn)
			}
		}
		for _, n := range names {
			lines, cols := logShape(t, filepath.Join(q, n))
			wantCols := 5
			switch {
			case histLogRE.MatchString(n):
				wantCols = 3 + fio.PlatNR>>c.coarseness
				total := histTotal(t, filepath.Join(q, n), c.coarseness, perJob)
				reads := uint64(256) // the clone's
				if !perJob {
					reads *= 3 // every clone's in one file
				}
				if total > reads || total+2*50*reads/256 < reads {
					t.Errorf("%v %s: %d completions counted, want all of %d but the last part-window's", c.extra, n, total, reads)
				}
			case slices.Contains(c.extra, "log_offset=1"):
				wantCols = 6
			}
			if !slices.Equal(cols, []int{wantCols}) || lines < 2 {
				t.Errorf("%v %s: %d lines of %v columns, want lines of %d", c.extra, n, lines, cols, wantCols)
			}
			if fdir == "" {
				continue
			}
			flines, fcols := logShape(t, filepath.Join(fdir, n))
			if !slices.Equal(fcols, cols) {
				t.Errorf("%v %s: fio's %v columns, qdsweep's %v", c.extra, n, fcols, cols)
			}
			if histLogRE.MatchString(n) {
				ft, qt := histTotal(t, filepath.Join(fdir, n), c.coarseness, perJob), histTotal(t, filepath.Join(q, n), c.coarseness, perJob)
				t.Logf("%v %s: fio counts %d completions, qdsweep %d", c.extra, n, ft, qt)
			}
			t.Logf("%v %s: fio %d lines, qdsweep %d", c.extra, n, flines, lines)
		}
		if g, err := exec.LookPath("fio2gnuplot"); err == nil {
			out, err := runIn(q, g, "-p", "q_iops*.log", "-d", filepath.Join(q, "g"))
			avg, rerr := os.ReadFile(filepath.Join(q, "g", "q_iops.average"))
			if err != nil || rerr != nil || !strings.Contains(string(avg), "from q_iops.") {
				t.Errorf("fio2gnuplot: %v %v, average file %q\n%s", err, rerr, avg, out)
			}
		}
	}
}

// TestFioPlotScripts: fio's fio_generate_plots draws qdsweep's logs, and
// fio_jsonplus_clat2csv reads run's json+ output: its completion-latency
// bins count every read.
func TestFioPlotScripts(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed: fio's scripts need it")
	}
	dir := runLogsJob(t, logsJob("write_bw_log=q", "write_lat_log=q", "write_iops_log=q"), "")
	t.Run("fio_generate_plots", func(t *testing.T) {
		s, err := exec.LookPath("fio_generate_plots")
		if err != nil {
			t.Skip("fio_generate_plots not installed (fio's tools)")
		}
		if _, err := exec.LookPath("gnuplot"); err != nil {
			t.Skip("gnuplot not installed: fio_generate_plots draws with it")
		}
		if out, err := runIn(dir, s, "q"); err != nil {
			t.Fatalf("fio_generate_plots: %v\n%s", err, out)
		}
		svgs, _ := filepath.Glob(filepath.Join(dir, "q-*.svg"))
		if len(svgs) == 0 {
			t.Error("fio_generate_plots drew nothing from qdsweep's logs")
		}
	})
	t.Run("fio_jsonplus_clat2csv", func(t *testing.T) {
		s, err := exec.LookPath("fio_jsonplus_clat2csv")
		if err != nil {
			t.Skip("fio_jsonplus_clat2csv not installed (fio's tools)")
		}
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, "f"), make([]byte, 4<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		out, stderr, code := runQdsweep(t, d, "run", "--name=a", "--filename=f", "--size=1m", "--bs=4k", "--rw=randread", "--output-format=json+")
		if code != 0 || !json.Valid([]byte(out)) {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if err := os.WriteFile(filepath.Join(d, "o.json"), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := runIn(d, s, "o.json", "clat"); err != nil {
			t.Fatalf("fio_jsonplus_clat2csv: %v\n%s", err, b)
		}
		csv, err := os.ReadFile(filepath.Join(d, "clat_job0"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
		head := strings.Split(lines[0], ", ")
		col := slices.Index(head, "read_clat_ns_cumulative")
		last := strings.Split(lines[len(lines)-1], ", ")
		if col < 0 || col >= len(last) {
			t.Fatalf("no read_clat_ns_cumulative column in %q", lines[0])
		}
		if n, err := strconv.Atoi(strings.TrimSpace(last[col])); err != nil || n != 256 {
			t.Errorf("fio_jsonplus_clat2csv counts %q reads (%v), want %d", last[col], err, 256)
		}
	})
}

// TestRunHistLogMixedWindows: a job that reads and writes with a
// histogram window (100 ms) twice its averaged logs' (50 ms) writes both
// as fio names them, the histogram log a line per window and direction
// (929 columns at coarseness 1, fio's too) counting each I/O of its full
// windows once (reads and writes both), the
// IOPS log twice as many windows, and the latency logs each direction's
// own mean, as fio's.
func TestRunHistLogMixedWindows(t *testing.T) {
	args := []string{"--name=a", "--filename=f", "--size=1m", "--bs=4k", "--rw=randrw", "--rate_iops=500,500",
		"--write_hist_log=q", "--log_hist_msec=100", "--write_iops_log=q", "--log_avg_msec=50", "--log_hist_coarseness=1", "--write_lat_log=q"}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runQdsweep(t, dir, append([]string{"run", "--allow-write"}, args...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	names := allLogNames(t, dir)
	if want := []string{"q_clat.1.log", "q_clat_hist.1.log", "q_iops.1.log", "q_lat.1.log", "q_slat.1.log"}; !slices.Equal(names, want) {
		t.Fatalf("logs %v, want %v", names, want)
	}
	hist, err := readHistLog(filepath.Join(dir, "q_clat_hist.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs [2]uint64
	for _, e := range hist {
		for _, n := range e.Counts {
			dirs[e.Dir] += n
		}
	}
	iopsLines, _ := logShape(t, filepath.Join(dir, "q_iops.1.log"))
	_, cols := logShape(t, filepath.Join(dir, "q_clat_hist.1.log"))
	if dirs[0]+dirs[1] > 256 || dirs[0] == 0 || dirs[1] == 0 || iopsLines < len(hist)*2-4 || !slices.Equal(cols, []int{3 + fio.PlatNR/2}) {
		t.Errorf("histogram log: %d lines of %v columns, %v reads and writes; IOPS log %d lines", len(hist), cols, dirs, iopsLines)
	}
	lat, err := fio.ReadLog(filepath.Join(dir, "q_clat.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	var latDirs [2]int
	for _, e := range lat {
		if e.Value <= 0 {
			t.Errorf("latency log: %+v", e)
		}
		latDirs[e.Dir]++
	}
	if latDirs[0] == 0 || latDirs[1] == 0 {
		t.Errorf("latency log: %v lines of reads and writes, want both", latDirs)
	}
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		return
	}
	fdir := t.TempDir()
	if err := os.WriteFile(filepath.Join(fdir, "f"), make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runIn(fdir, fioBin, args...); err != nil {
		t.Fatalf("fio: %v\n%s", err, out)
	}
	flines, fcols := logShape(t, filepath.Join(fdir, "q_clat_hist.1.log"))
	fn := allLogNames(t, fdir)
	if !slices.Equal(fn, names) || !slices.Equal(fcols, cols) {
		t.Errorf("fio wrote %v, its histogram log %v columns; qdsweep %v, %v", fn, fcols, names, cols)
	}
	t.Logf("histogram log: fio %d lines, qdsweep %d", flines, len(hist))
}

// readHistLog reads the histogram log at path (fio.ParseHistLog).
func readHistLog(path string) ([]fio.HistEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return fio.ParseHistLog(f)
}

// TestRunLogWindowsAsFio: averaged and histogram logs end their windows as
// fio 3.33's do. fio writes a latency log's last part-window when the job
// ends, and never its IOPS, bandwidth and histogram logs' (their windows
// end as a completion or sample finds them full): with one window for all
// (50 ms; 256 reads at 1,000 IOPS), qdsweep's latency logs have one line
// more than its IOPS and bandwidth logs, its histogram log as many as
// those or one fewer (TestRunHistLogWindowsAsFio), and the columns are fio's. The line counts of fio's own logs of
// the same job are logged beside them (fio's IOPS and bandwidth windows
// follow its helper thread's wake-ups, so they vary with the load).
func TestRunLogWindowsAsFio(t *testing.T) {
	job := "[global]\nfilename=f\nsize=1m\nbs=4k\nrw=randread\nrate_iops=1000\nlog_avg_msec=50\nlog_hist_msec=50\n" +
		"write_iops_log=q\nwrite_bw_log=q\nwrite_lat_log=q\nwrite_hist_log=q\nlog_hist_coarseness=4\n[a]\n"
	kinds := []string{"iops", "bw", "clat", "lat", "clat_hist"}
	count := func(dir string) map[string]int {
		n := map[string]int{}
		for _, k := range kinds {
			n[k], _ = logShape(t, filepath.Join(dir, "q_"+k+".1.log"))
		}
		return n
	}
	q := count(runLogsJob(t, job, ""))
	if q["clat"] != q["iops"]+1 || q["lat"] != q["clat"] || q["bw"] != q["iops"] || q["clat_hist"] > q["iops"] || q["clat_hist"] < q["iops"]-1 || q["iops"] < 4 {
		t.Errorf("qdsweep's lines %v: want the latency logs one more than the IOPS and bandwidth logs (at least 4 full windows), the histogram log as many or one fewer (its windows begin at the first completion)", q)
	}
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		return
	}
	fdir, qdir := runLogsJob(t, job, fioBin), runLogsJob(t, job, "")
	for _, k := range kinds {
		_, fc := logShape(t, filepath.Join(fdir, "q_"+k+".1.log"))
		_, qc := logShape(t, filepath.Join(qdir, "q_"+k+".1.log"))
		if !slices.Equal(fc, qc) {
			t.Errorf("%s log: fio's columns %v, qdsweep's %v", k, fc, qc)
		}
	}
	t.Logf("lines, fio %v, qdsweep %v", count(fdir), q)
}

// TestRunHistLogWindowsAsFio: a histogram log's windows begin at the first
// completion, as fio 3.33's do (the first whose time, in ms, is not 0),
// and each closes at the first completion at least log_hist_msec after it
// began, the next beginning where it should have ended; a window open when
// the job ends writes no line. On the simulated device (an I/O every 30 ms,
// no jitter) the lines fall at 90, 150, 180 and 240 ms exactly (from the
// window start they would fall at 60, 120, 180, 210). On real I/O (256
// reads at 1,000 IOPS, 50 ms windows), for fio's run and qdsweep's, the
// rule applied to the job's own log of every I/O (write_lat_log, the same
// run) gives as many lines, give or take one, the first within the skew of
// the two logs' clocks on a loaded machine (fio reads its clock for each).
func TestRunHistLogWindowsAsFio(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, code := runQdsweep(t, dir, "run", "--name=a", "--filename=f", "--size=512k", "--bs=4k", "--ioengine=sim", "--sim=latency=30ms,jitter=0",
		"--write_hist_log=s", "--log_hist_msec=50", "--output-format=terse"); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, stderr)
	}
	if got := histTimes(t, filepath.Join(dir, "s_clat_hist.1.log")); len(got) < 4 || !slices.Equal(got[:4], []int64{90, 150, 180, 240}) {
		t.Errorf("sim: histogram lines at %v ms, want 90, 150, 180, 240, …", got)
	}
	job := "[global]\nfilename=f\nsize=1m\nbs=4k\nrw=randread\nrate_iops=1000\nlog_hist_msec=50\n" +
		"write_lat_log=q\nwrite_hist_log=q\nlog_hist_coarseness=4\n[a]\n"
	runs := map[string]string{"qdsweep": runLogsJob(t, job, "")}
	if fioBin, err := exec.LookPath("fio"); err == nil {
		runs["fio"] = runLogsJob(t, job, fioBin)
	}
	for who, dir := range runs {
		var want []int64 // fio's rule over the completions' times
		last := int64(0)
		for _, l := range readPerIOLog(t, filepath.Join(dir, "q_clat.1.log")) {
			if last == 0 {
				last = l[0]
			}
			if l[0]-last >= 50 {
				want = append(want, l[0])
				last += 50
			}
		}
		got := histTimes(t, filepath.Join(dir, "q_clat_hist.1.log"))
		if len(want) < 3 || len(got) < len(want)-1 || len(got) > len(want)+1 || got[0] < want[0]-2 || got[0] > want[0]+20 {
			t.Errorf("%s: histogram lines at %v ms, fio's rule over the completions gives %v", who, got, want)
		}
	}
}

// histTimes are the times of a histogram log's lines, ms.
func histTimes(t *testing.T, path string) []int64 {
	t.Helper()
	es, err := readHistLog(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, e := range es {
		out = append(out, e.TimeMs)
	}
	return out
}
