package session

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
)

// runLog is one of fio's logs a run writes: its file, the job's series it
// comes from (clone ≥ 0: that numjobs clone's own, Stats.JobSeries), and
// how many of the series' slices make one of its windows, or perIO: a
// line per I/O, from the job's kept I/Os (Stats.IOLog).
type runLog struct {
	path  string
	kind  fio.LogKind
	job   *runJob
	clone int
	every int
	perIO bool
	slice time.Duration // the series' interval
	// fioDir is where fio, running the job, wrote its own logs
	// (askFioForLogs): the log is fio's file of job number fioN,
	// carried through; n is the number in the log's own name. host is
	// the fio server whose log it is ("" here): fio's client writes it
	// under the log's name and the server's host (fio.ClientLogPath),
	// and so does the run.
	fioDir  string
	n, fioN int
	host    string
}

// runLogs are the logs the jobs ask for (write_iops_log, write_bw_log,
// write_lat_log, write_hist_log), named as fio names them: one per
// numjobs clone, job N counting every job's clones before it, from 1 (with
// per_job_logs=0, every clone's lines in one file, in job order); slice is
// the series' interval.
func runLogs(jobs []*runJob, slice time.Duration) []runLog {
	var out []runLog
	n := 1
	for _, j := range jobs {
		l := j.spec.run.Logs
		avg, hist := 1, 1
		if slice > 0 {
			avg = int(time.Duration(l.AvgMs) * time.Millisecond / slice)
			hist = int(time.Duration(l.HistMs) * time.Millisecond / slice)
		}
		clones := max(j.w.NumJobs, 1)
		for c := range clones {
			clone := c
			if clones == 1 {
				clone = -1 // the job's series is the clone's
			}
			for _, k := range []struct {
				prefix string
				kinds  []fio.LogKind
				every  int
			}{{l.IOPS, []fio.LogKind{fio.LogIOPS}, avg}, {l.BW, []fio.LogKind{fio.LogBW}, avg},
				{l.Lat, []fio.LogKind{fio.LogClat, fio.LogSlat, fio.LogLat}, avg}, {l.Hist, []fio.LogKind{fio.LogClatHist}, hist}} {
				for _, kind := range k.kinds {
					if k.prefix == "" {
						continue
					}
					rl := runLog{path: fio.LogPath(k.prefix, kind, n+c, l.PerJob), kind: kind, job: j, clone: clone,
						every: k.every, perIO: kind != fio.LogClatHist && l.PerIO(), slice: slice, n: n + c}
					out = append(out, perServer(rl, j.es.Clients)...)
				}
			}
		}
		n += clones
	}
	return out
}

// perServer is l as fio's client writes it back from each of the fio
// servers clients (l itself when there are none): one file a host,
// named after it (fio.ClientLogPath), two servers on one host in one.
func perServer(l runLog, clients []string) []runLog {
	if len(clients) == 0 {
		return []runLog{l}
	}
	var out []runLog
	for _, c := range clients {
		hl := l
		hl.path, hl.host = fio.ClientLogPath(l.path, c), c
		if !slices.ContainsFunc(out, func(o runLog) bool { return o.path == hl.path }) {
			out = append(out, hl)
		}
	}
	return out
}

// logWindow is the series interval the jobs' logs ask for (0: none): the
// greatest common divisor of their windows (log_avg_msec of averaged
// logs, log_hist_msec of histogram logs), so every log's window is a
// whole number of slices.
func logWindow(jobs []*runJob) time.Duration {
	var ms int64
	for _, j := range jobs {
		l := j.spec.run.Logs
		if l.Averaged() {
			ms = gcd(ms, l.AvgMs)
		}
		if l.Hist != "" && l.HistMs > 0 {
			ms = gcd(ms, l.HistMs)
		}
	}
	return time.Duration(ms) * time.Millisecond
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// ownEngine reports whether the job runs on one of qdsweep's engines
// that do I/O (io_uring, libaio, psync): they keep its I/Os (Control.IOLog),
// each clone's series and the series' tail apart (Control.SeriesKeepTail).
func (j *runJob) ownEngine() bool { return j.es.Sim == nil && j.es.Fio == nil }

// fioWritesLogs reports whether fio runs the job, so that it writes the
// job's logs itself (askFioForLogs): here, or, for fio servers, its
// client here as the servers send them back, a file a host.
func (j *runJob) fioWritesLogs() bool { return j.es.Fio != nil }

// unkeptLogs drops the logs of a job whose engine (the simulator) keeps
// no series per clone (numjobs > 1) or no I/Os (logs of every I/O, without
// log_avg_msec), and says why. The simulator keeps its I/Os
// (Control.IOLog).
func unkeptLogs(jobs []*runJob) {
	for _, j := range jobs {
		l := &j.spec.run.Logs
		if j.ownEngine() || j.fioWritesLogs() || !l.Any() {
			continue
		}
		if j.w.NumJobs > 1 {
			*l = fioadapt.JobLogs{}
			j.spec.notes = append(j.spec.notes, report.LogsIgnoredNote(fioadapt.LogsPerClone))
			continue
		}
		if l.PerIO() && j.es.Sim == nil {
			l.IOPS, l.BW, l.Lat = "", "", ""
			j.spec.notes = append(j.spec.notes, report.LogsIgnoredNote(fioadapt.LogsPerIO))
		}
	}
}

// checkLogs is the run's logs, checked by the one writer before anything
// is written (never a file the run reads or measures: files, the job file,
// its inputs), how they are written, and their series' interval.
func (r *Run) checkLogs(jobs []*runJob, files []string) ([]runLog, guard.OutOptions, time.Duration, error) {
	unkeptLogs(jobs)
	win := logWindow(jobs)
	logs := runLogs(jobs, win)
	oo := guard.OutOptions{Flag: "--write_*_log", Overwrite: r.Overwrite, Protect: append(append(slices.Clone(files), r.JobFile), r.Inputs...)}
	return logs, oo, win, checkRunLogs(logs, oo)
}

// checkRunLogs runs the one writer's checks on every log before the run.
func checkRunLogs(logs []runLog, oo guard.OutOptions) error {
	for _, l := range logs {
		if err := guard.CheckOutFile(l.path, oo); err != nil {
			return OutErr(err)
		}
	}
	return nil
}

// writeRunLogs writes each log from its job's series through the one
// writer, a file once with every line it holds (per_job_logs=0: each
// clone's in turn): averaged logs a line per window and direction the job
// does, at the window's end (ms since the measured window began), the
// window's mean: IOPS, KiB/s, or latency in ns (qdsweep times an I/O from
// submission to completion: fio's lat, written as clat too; each
// direction's own in a job that reads and writes), bs 0 (and
// offset 0) as fio writes averaged logs; histogram logs as
// fioadapt.HistLog. It returns whether every histogram count lies in
// its own bin of fio's (fioadapt.HistCounts).
func writeRunLogs(logs []runLog, oo guard.OutOptions) (exact bool, err error) {
	exact = true
	var order []string
	files := map[string]*bytes.Buffer{}
	for _, l := range logs {
		b := files[l.path]
		if b == nil {
			b = &bytes.Buffer{}
			files[l.path] = b
			order = append(order, l.path)
		}
		ok, err := writeRunLog(b, l)
		if err != nil {
			return exact, err
		}
		exact = exact && ok
	}
	for _, p := range order {
		if err := guard.WriteFile(p, files[p].Bytes(), oo); err != nil {
			return exact, fmt.Errorf("writing fio's log: %w", OutErr(err))
		}
	}
	return exact, nil
}

// markLogEpoch has the job note, under log_unix_epoch, when its measured
// window begins: its logs' times count from there, as fio's count from its
// epoch, the start of the job after its ramp.
func (j *runJob) markLogEpoch() {
	if !j.spec.run.Logs.UnixEpoch {
		return
	}
	then := j.ctl.OnWindowStart
	j.ctl.OnWindowStart = func() {
		j.logEpoch = time.Now().UnixMilli()
		if then != nil {
			then()
		}
	}
}

// askFioForLogs hands fio, for each job it runs here with logs, the
// job's log options with their files in a directory of the job's own
// (fioadapt.JobLogs.FioOptions), and marks the job's logs as fio's files
// to carry through; done removes the directories.
func askFioForLogs(jobs []*runJob, logs []runLog) (done func(), err error) {
	whole := wholeViaFio(jobs) // one fio run numbers every job's clones
	var dirs []string
	done = func() {
		for _, d := range dirs {
			os.RemoveAll(d)
		}
	}
	for _, j := range jobs {
		if !j.fioWritesLogs() || !j.spec.run.Logs.Any() {
			continue
		}
		dir, err := os.MkdirTemp("", "qdsweep-fiologs-")
		if err != nil {
			return done, fmt.Errorf("a directory for fio's logs: %w", err)
		}
		dirs = append(dirs, dir)
		j.es.Fio.JobOptions = append(j.es.Fio.JobOptions, j.spec.run.Logs.FioOptions(dir)...)
		if j.eng, _, err = j.es.Open(); err != nil {
			return done, err
		}
		for i := range logs {
			if logs[i].job == j {
				logs[i].fioDir, logs[i].fioN = dir, max(logs[i].clone, 0)+1
				if whole {
					logs[i].fioN = logs[i].n
				}
			}
		}
	}
	return done, nil
}

// carryFioLog adds to b the lines of fio's own file of the log
// (askFioForLogs); with per_job_logs=0 fio's one file holds every
// clone's lines, carried with the first. A file fio did not write (the
// job failed first) adds nothing.
func carryFioLog(b *bytes.Buffer, l runLog) error {
	if l.clone > 0 && !l.job.spec.run.Logs.PerJob {
		return nil
	}
	src := l.job.spec.run.Logs.FioLogPath(l.fioDir, l.kind, l.fioN)
	if l.host != "" {
		src = fio.ClientLogPath(src, l.host)
	}
	data, err := os.ReadFile(src)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading fio's log: %w", err)
	}
	b.Write(data)
	return nil
}

// writeRunLog adds one log's lines to b.
func writeRunLog(b *bytes.Buffer, l runLog) (exact bool, err error) {
	if l.fioDir != "" {
		return true, carryFioLog(b, l)
	}
	st, logs := l.job.st, l.job.spec.run.Logs
	if st == nil {
		return true, nil
	}
	series := st.Series
	if l.clone >= 0 {
		series = nil
		if l.clone < len(st.JobSeries) {
			series = st.JobSeries[l.clone]
		}
	}
	windows := ioengine.Coarsen(series, l.every)
	if n := len(windows); n > 0 && l.job.ownEngine() && l.kind != fio.LogClat && l.kind != fio.LogLat &&
		windows[n-1].DurNs < int64(l.every)*int64(l.slice) {
		// The last window ended before its time (the series' tail, kept
		// apart): fio writes such a part-window in its latency logs when
		// the job ends, and never in its IOPS, bandwidth and histogram
		// logs, whose windows end only as a completion or a sample finds
		// them full.
		windows = windows[:n-1]
	}
	if l.kind == fio.LogClatHist {
		if logs.HistMs <= 0 {
			return true, nil // fio writes the file, empty, without log_hist_msec
		}
		if c := max(l.clone, 0); c < len(st.HistLog) {
			windows = st.HistLog[c] // cut as fio cuts them (Control.HistWindow)
		}
		entries, exact := fioadapt.HistLog(windows, l.job.w, logs.HistCoarse)
		for i := range entries {
			entries[i].TimeMs += l.job.logEpoch
		}
		return exact, fio.WriteHistLog(b, entries, logs.HistCoarse)
	}
	var entries []fio.LogEntry
	if l.perIO {
		var recs []ioengine.IORecord
		if c := max(l.clone, 0); c < len(st.IOLog) {
			recs = st.IOLog[c]
		}
		entries = ioLogEntries(l.kind, recs)
	} else {
		entries = logEntries(l.kind, l.job.w.RW, windows, logs.MaxValue)
	}
	for i := range entries {
		entries[i].HexPrio, entries[i].WithOffset = logs.Prio, logs.Offset
		entries[i].TimeMs += l.job.logEpoch
	}
	return true, fio.WriteLog(b, entries)
}

// logEntries is one log's lines from a series; with maxValue
// (log_max_value) a latency line is its window's largest latency, as fio
// writes it, where it is the mean (fio's IOPS and bandwidth lines are each
// one rate per window, their largest the same).
func logEntries(kind fio.LogKind, rw ioengine.RW, series []ioengine.Interval, maxValue bool) []fio.LogEntry {
	if kind == fio.LogSlat {
		// qdsweep times an I/O from before its submission (lat) and does not
		// time the submission apart: the slat log is written empty, as fio
		// writes it for a synchronous engine, so fio's plotting scripts find
		// every file write_lat_log makes.
		return nil
	}
	var out []fio.LogEntry
	mixed := rw.IsRead() && rw.IsWrite()
	for _, iv := range series {
		t := (iv.StartNs + iv.DurNs) / 1e6
		for dir, does := range []bool{rw.IsRead(), rw.IsWrite()} {
			if !does {
				continue
			}
			var v float64
			switch kind {
			case fio.LogIOPS:
				v = []float64{iv.ReadIOPS, iv.WriteIOPS}[dir]
			case fio.LogBW:
				v = []float64{iv.ReadBWBytes, iv.WriteBWBytes}[dir] / 1024
			case fio.LogClat, fio.LogLat:
				if iv.IOs == 0 || mixed && []float64{iv.ReadIOPS, iv.WriteIOPS}[dir] == 0 {
					continue // no completion: no latency
				}
				v = iv.LatMeanNs
				switch {
				case maxValue:
					v = float64(iv.DirLatMaxNs[dir])
				case mixed:
					v = iv.DirLatMeanNs[dir]
				}
			}
			out = append(out, fio.LogEntry{TimeMs: t, Value: int64(math.Round(v)), Dir: dir})
		}
	}
	return out
}

// ioLogEntries is a log of every I/O (fio without log_avg_msec), a line
// per I/O in the order they completed, at its completion (ms since the
// measured window began): 1 in the IOPS log, its bytes over its latency
// in the bandwidth log (KB/s, as fio computes it), its latency in ns in
// the latency logs (qdsweep's one latency, submission to completion, in
// clat and lat); its size and offset as fio writes them. The slat log is
// empty (logEntries).
func ioLogEntries(kind fio.LogKind, recs []ioengine.IORecord) []fio.LogEntry {
	if kind == fio.LogSlat {
		return nil
	}
	out := make([]fio.LogEntry, 0, len(recs))
	for _, r := range recs {
		v := r.LatNs
		switch kind {
		case fio.LogIOPS:
			v = 1
		case fio.LogBW:
			v = 0
			if r.LatNs > 0 {
				v = r.Bytes * 1e6 / r.LatNs
			}
		}
		out = append(out, fio.LogEntry{TimeMs: r.EndNs / 1e6, Value: v, Dir: r.Dir, BS: r.Bytes, Offset: r.Offset, Prio: r.Prio})
	}
	return out
}

// slatUnlogged reports whether a job wrote an empty slat log where fio's
// would hold lines: write_lat_log on an asynchronous engine (io_uring,
// libaio), whose submission fio times apart; on psync fio's is empty too.
func slatUnlogged(jobs []*runJob) bool {
	for _, j := range jobs {
		if j.spec.run.Logs.Lat != "" && j.eng != nil && j.ownEngine() && j.eng.Name() != ioengine.EnginePsync {
			return true
		}
	}
	return false
}
