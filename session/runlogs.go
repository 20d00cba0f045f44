package session

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// runLog is one of fio's logs a run writes: its file and the job's series
// it comes from.
type runLog struct {
	path string
	kind fio.LogKind
	job  *runJob
}

// runLogs are the logs the jobs ask for (write_iops_log, write_bw_log,
// write_lat_log), named as fio names them: job N counts every job's
// numjobs clones before it, from 1.
func runLogs(jobs []*runJob) []runLog {
	var out []runLog
	n := 1
	for _, j := range jobs {
		l := j.spec.run.Logs
		for _, k := range []struct {
			prefix string
			kinds  []fio.LogKind
		}{{l.IOPS, []fio.LogKind{fio.LogIOPS}}, {l.BW, []fio.LogKind{fio.LogBW}}, {l.Lat, []fio.LogKind{fio.LogClat, fio.LogLat}}} {
			for _, kind := range k.kinds {
				if k.prefix != "" {
					out = append(out, runLog{path: fio.LogPath(k.prefix, kind, n, l.PerJob), kind: kind, job: j})
				}
			}
		}
		n += max(j.w.NumJobs, 1)
	}
	return out
}

// logWindow is the series interval the jobs' logs ask for (0: none); a
// run's jobs share one (log_avg_msec).
func logWindow(jobs []*runJob) (time.Duration, error) {
	var win time.Duration
	for _, j := range jobs {
		if l := j.spec.run.Logs; l.Any() {
			d := time.Duration(l.AvgMs) * time.Millisecond
			if win != 0 && d != win {
				return 0, Usagef("log_avg_msec differs between jobs (%v, %v): qdsweep keeps one window for a run's logs; give every job the same", win, d)
			}
			win = d
		}
	}
	return win, nil
}

// checkLogs is the run's logs, checked by the one writer before anything
// is written (never a file the run reads or measures: files, the job file,
// its inputs), how they are written, and their window.
func (r *Run) checkLogs(jobs []*runJob, files []string) ([]runLog, guard.OutOptions, time.Duration, error) {
	logs := runLogs(jobs)
	oo := guard.OutOptions{Flag: "--write_*_log", Overwrite: r.Overwrite, Protect: append(append(slices.Clone(files), r.JobFile), r.Inputs...)}
	win, err := logWindow(jobs)
	if err == nil {
		err = checkRunLogs(logs, oo)
	}
	return logs, oo, win, err
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
// writer: a line per window and direction the job does, at the window's
// end (ms since the measured window began), the window's mean: IOPS,
// KiB/s, or latency in ns (qdsweep times an I/O from submission to
// completion: fio's lat, written as clat too), bs and offset 0 as fio
// writes averaged logs.
func writeRunLogs(logs []runLog, oo guard.OutOptions) error {
	for _, l := range logs {
		if l.job.st == nil {
			continue
		}
		var b bytes.Buffer
		entries := logEntries(l.kind, l.job.w.RW, l.job.st.Series)
		for i := range entries {
			entries[i].HexPrio = l.job.spec.run.Logs.Prio
		}
		if err := fio.WriteLog(&b, entries); err != nil {
			return err
		}
		if err := guard.WriteFile(l.path, b.Bytes(), oo); err != nil {
			return fmt.Errorf("writing fio's log: %w", OutErr(err))
		}
	}
	return nil
}

// logEntries is one log's lines from a series.
func logEntries(kind fio.LogKind, rw ioengine.RW, series []ioengine.Interval) []fio.LogEntry {
	var out []fio.LogEntry
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
			default:
				if iv.IOs == 0 {
					continue // no completion: no latency
				}
				v = iv.LatMeanNs
			}
			out = append(out, fio.LogEntry{TimeMs: t, Value: int64(math.Round(v)), Dir: dir})
		}
	}
	return out
}
