package fioadapt

import (
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

// FioRun is one fio output file with the per-interval logs that belong to
// it: the iops and latency logs, one entry per job.
type FioRun struct {
	Outputs  []fio.Output
	IOPSLogs [][]fio.LogEntry
	LatLogs  [][]fio.LogEntry
}

// AttachSeries gives r's steps (made by ImportResult) the series of the runs
// they came from: from the run's logs when it has some and one job, else
// from its --status-interval reports. Slices of per-I/O logs are interval
// long (0: 250 ms). A slice without bandwidth gets IOPS × the step's block
// size. It returns how many steps got a series.
func AttachSeries(r *sweep.Result, runs []FioRun, interval time.Duration) int {
	n := 0
	for _, run := range runs {
		for _, o := range fio.Final(run.Outputs) {
			for _, j := range o.Jobs {
				if j.AllClients {
					continue
				}
				one, err := ImportResult([]fio.Output{{Format: o.Format, Jobs: []fio.Job{j}}})
				if err != nil || len(one.Steps) != 1 {
					continue
				}
				key := one.Steps[0]
				var ivs []ioengine.Interval
				src := sweep.SeriesFioLogs
				if (len(run.IOPSLogs) > 0 || len(run.LatLogs) > 0) && countJobs(run.Outputs) == 1 {
					ivs = LogSeries(run.IOPSLogs, run.LatLogs, interval)
				}
				if len(ivs) == 0 {
					ivs, src = StatusSeries(run.Outputs, j.Name), sweep.SeriesFioStatus
				}
				if len(ivs) == 0 {
					continue
				}
				for i := range r.Steps {
					s := &r.Steps[i]
					if s.Series != nil || s.RW != key.RW || s.BS != key.BS || s.IODepth != key.IODepth || s.NumJobs != key.NumJobs {
						continue
					}
					s.Series = fioSeries(ivs, src, s.BS)
					n++
					break
				}
			}
		}
	}
	return n
}

// countJobs counts the jobs of a run's final reports.
func countJobs(outs []fio.Output) int {
	n := 0
	for _, o := range fio.Final(outs) {
		for _, j := range o.Jobs {
			if !j.AllClients {
				n++
			}
		}
	}
	return n
}

func fioSeries(ivs []ioengine.Interval, src string, bs int64) *sweep.Series {
	s := &sweep.Series{Source: src, Points: make([]sweep.SeriesPoint, len(ivs))}
	for i, iv := range ivs {
		if iv.ReadBWBytes == 0 && iv.WriteBWBytes == 0 && bs > 0 {
			iv.ReadBWBytes, iv.WriteBWBytes = iv.ReadIOPS*float64(bs), iv.WriteIOPS*float64(bs)
		}
		s.Points[i].Interval = iv
		s.IntervalNs = max(s.IntervalNs, iv.DurNs)
	}
	return s
}
