package fioadapt

import (
	"math"
	"sort"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// maxLogSlices bounds the slices of one log (a day of 100 ms windows);
// later lines are left out.
const maxLogSlices = 864000

// logBin accumulates one slice.
type logBin struct {
	ios, bytes [2]float64 // per second
	rated      bool       // an iops line (or a per-I/O line) fell in it
	latW, latN float64    // Σ latency × weight, Σ weight
	lats       []float64  // per-I/O latencies (raw logs)
}

// logStep is the slices' width, ms: an averaged log's own window
// (log_avg_msec), else interval (0: 250 ms).
func logStep(iops, lat [][]fio.LogEntry, interval time.Duration) int64 {
	step := interval.Milliseconds()
	if step <= 0 {
		step = ioengine.DefaultSeriesInterval.Milliseconds()
	}
	for _, set := range [][][]fio.LogEntry{iops, lat} {
		for _, es := range set {
			if averaged(es) {
				if s := spacing(es); s > 0 {
					step = s
				}
			}
		}
	}
	return step
}

// logBins are the slices being filled, step ms wide, by index.
type logBins struct {
	bins map[int64]*logBin
	step int64
}

func (l *logBins) bin(k int64) *logBin {
	if l.bins[k] == nil {
		l.bins[k] = &logBin{}
	}
	return l.bins[k]
}

// slot is the index of the slice e of log es falls in: an averaged line at
// time t covers (t − step, t]; a per-I/O line at t falls in [k·step, (k+1)·step).
func (l *logBins) slot(es []fio.LogEntry, e fio.LogEntry) int64 {
	if averaged(es) {
		return max(0, int64(math.Round(float64(e.TimeMs)/float64(l.step)))-1)
	}
	return e.TimeMs / l.step
}

// addIOPS adds the jobs' iops logs; it returns each job's rate by slice
// and direction (iopsAt[job][k][dir]), to weigh averaged latencies (jobs:
// at least this many entries).
func (l *logBins) addIOPS(iops [][]fio.LogEntry, jobs int) []map[int64][2]float64 {
	iopsAt := make([]map[int64][2]float64, max(len(iops), jobs))
	for j, es := range iops {
		iopsAt[j] = map[int64][2]float64{}
		avg := averaged(es)
		for _, e := range es {
			if e.Dir > 1 {
				continue
			}
			k := l.slot(es, e)
			b := l.bin(k)
			rate := float64(e.Value)
			if !avg {
				rate = 1e3 / float64(l.step) // one I/O
			}
			b.ios[e.Dir] += rate
			b.rated = true
			r := iopsAt[j][k]
			r[e.Dir] += rate
			iopsAt[j][k] = r
		}
	}
	return iopsAt
}

// addLat adds the jobs' latency logs: averaged lines weighed by the job's
// rate in the slice, per-I/O lines one each (and counted as I/Os when
// there is no iops log, countIOs).
func (l *logBins) addLat(lat [][]fio.LogEntry, iopsAt []map[int64][2]float64, countIOs bool) {
	for j, es := range lat {
		avg := averaged(es)
		for _, e := range es {
			if e.Dir > 1 || e.Value <= 0 {
				continue
			}
			b := l.bin(l.slot(es, e))
			if avg {
				w := 1.0
				if iopsAt[j] != nil {
					w = iopsAt[j][l.slot(es, e)][e.Dir]
				}
				b.latW += float64(e.Value) * w
				b.latN += w
				continue
			}
			b.latW += float64(e.Value)
			b.latN++
			b.lats = append(b.lats, float64(e.Value))
			if countIOs {
				b.rated = true
				b.ios[e.Dir] += 1e3 / float64(l.step)
				if e.BS > 0 {
					b.bytes[e.Dir] += float64(e.BS) * 1e3 / float64(l.step)
				}
			}
		}
	}
}

// LogSeries turns one run's iops and latency logs (one slice of entries
// per job; either may be empty) into slices. Averaged logs keep their own
// window (log_avg_msec); per-I/O logs are binned every interval (0: 250 ms).
// Rates are summed over jobs; a slice's mean latency weighs each job's by
// its I/Os; p99 is known only from per-I/O latency logs. fio logs no
// in-flight figure, so InflightMean stays 0 (unknown). Trims are left out.
func LogSeries(iops, lat [][]fio.LogEntry, interval time.Duration) []ioengine.Interval {
	step := logStep(iops, lat, interval)
	lb := &logBins{bins: map[int64]*logBin{}, step: step}
	iopsAt := lb.addIOPS(iops, len(lat))
	lb.addLat(lat, iopsAt, len(iops) == 0)
	bins := lb.bins
	if len(bins) == 0 {
		return nil
	}
	// The last slice is the last with a rate: fio flushes a final
	// partial latency window the iops log may lack.
	last := int64(-1)
	for k, b := range bins {
		if k < maxLogSlices && (b.rated || len(iops) == 0 && b.latN > 0) {
			last = max(last, k)
		}
	}
	if last < 0 {
		return nil
	}
	out := make([]ioengine.Interval, last+1)
	dur := time.Duration(step) * time.Millisecond
	for k := range out {
		iv := ioengine.Interval{StartNs: int64(k) * int64(dur), DurNs: int64(dur)}
		if b := bins[int64(k)]; b != nil {
			iv.ReadIOPS, iv.WriteIOPS = b.ios[0], b.ios[1]
			iv.ReadBWBytes, iv.WriteBWBytes = b.bytes[0], b.bytes[1]
			iv.IOs = int64(math.Round((b.ios[0] + b.ios[1]) * dur.Seconds()))
			if b.latN > 0 {
				iv.LatMeanNs = b.latW / b.latN
			}
			if len(b.lats) > 0 {
				sort.Float64s(b.lats)
				iv.LatP99Ns = int64(b.lats[min(len(b.lats)-1, int(math.Ceil(0.99*float64(len(b.lats))))-1)])
			}
		}
		out[k] = iv
	}
	return out
}

// StatusSeries turns one run's --status-interval reports (the interim
// reports and the final one of a job, in order) into slices between
// consecutive reports: I/Os and bytes from the differences of fio's
// cumulative counts over the difference of its runtime, mean latency from
// the differences of mean × count. It returns nil with fewer than two
// reports. Jobs are matched by name.
func StatusSeries(outs []fio.Output, job string) []ioengine.Interval {
	type cum struct {
		ms         int64
		ios, bytes [2]int64
		latSum     float64
	}
	var cs []cum
	for _, o := range outs {
		for _, j := range o.Jobs {
			if j.Name != job || j.AllClients {
				continue
			}
			var c cum
			for d, dir := range []*fio.Dir{j.Read, j.Write} {
				if dir == nil {
					continue
				}
				c.ms = max(c.ms, dir.RuntimeMs)
				c.ios[d], c.bytes[d] = dir.TotalIOs, dir.IOBytes
				c.latSum += dir.Lat.MeanNs * float64(dir.TotalIOs)
			}
			cs = append(cs, c)
		}
	}
	if len(cs) < 2 {
		return nil
	}
	var out []ioengine.Interval
	prev := cum{}
	for _, c := range cs {
		dt := float64(c.ms-prev.ms) / 1e3
		if dt <= 0 {
			continue
		}
		iv := ioengine.Interval{StartNs: prev.ms * 1e6, DurNs: (c.ms - prev.ms) * 1e6}
		iv.ReadIOPS = float64(c.ios[0]-prev.ios[0]) / dt
		iv.WriteIOPS = float64(c.ios[1]-prev.ios[1]) / dt
		iv.ReadBWBytes = float64(c.bytes[0]-prev.bytes[0]) / dt
		iv.WriteBWBytes = float64(c.bytes[1]-prev.bytes[1]) / dt
		n := c.ios[0] + c.ios[1] - prev.ios[0] - prev.ios[1]
		iv.IOs = n
		if n > 0 {
			iv.LatMeanNs = (c.latSum - prev.latSum) / float64(n)
		}
		out = append(out, iv)
		prev = c
	}
	return out
}

// averaged reports whether a log holds window averages (log_avg_msec):
// fio writes a block size of 0 on those lines.
func averaged(es []fio.LogEntry) bool {
	for _, e := range es {
		if e.BS != 0 {
			return false
		}
	}
	return len(es) > 0
}

// spacing is the median gap between an averaged log's lines, ms.
func spacing(es []fio.LogEntry) int64 {
	var gaps []int64
	for i := 1; i < len(es); i++ {
		if d := es[i].TimeMs - es[i-1].TimeMs; d > 0 {
			gaps = append(gaps, d)
		}
	}
	if len(gaps) == 0 {
		return 0
	}
	sort.Slice(gaps, func(a, b int) bool { return gaps[a] < gaps[b] })
	return gaps[len(gaps)/2]
}
