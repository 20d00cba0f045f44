package fioadapt

import (
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/qdsweep/qdsweep/device"
	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// ReportFromStats describes a qdsweep run in fio's terms. qdsweep times
// each I/O from submission to completion: that is fio's lat, and it is
// written as clat too (with its percentiles, where fio's readers look for
// them); slat is not measured (zeros, as fio prints with disable_slat).
// The percentiles are fio's defaults, from the run's histogram.
//
// pcts are the percentiles to report (fio's percentile_list, at most 20);
// nil means DefaultPercentiles.
func ReportFromStats(name string, w ioengine.Workload, ioEngine string, runtime, ramp time.Duration, timeBased bool, pcts []float64, st *ioengine.Stats) fio.Report {
	if len(pcts) == 0 {
		pcts = fio.DefaultPercentiles
	}
	j := fio.Job{Name: name, RW: string(w.RW), BS: w.BS, IOEngine: ioEngine, IODepth: w.IODepth, IODepthFrom: "options",
		NumJobs: w.NumJobs, NumJobsFrom: "options"}
	if w.MinBS() != w.MaxBS() {
		for d := range j.BSBounds[:2] {
			j.BSBounds[d][0], j.BSBounds[d][1] = w.Shape.BSBounds(d, w.BS)
		}
	}
	j.Options = map[string]string{fio.OptName: name, fio.OptIOEngine: ioEngine, fio.OptGroupReporting: "1"}
	for _, kv := range rendered(w) {
		j.Options[kv[0]] = kv[1]
	}
	if timeBased {
		j.Options[fio.OptTimeBased] = "1"
		j.Options[fio.OptRuntime] = fioDuration(runtime)
	}
	if ramp > 0 {
		j.Options[fio.OptRampTime] = fioDuration(ramp)
	}
	if len(st.Errors) > 0 {
		j.Error = 5 // EIO: fio's err= is an errno; the errors themselves are in qdsweep's JSON
	}
	// fio's job_runtime of an entry sums the runtimes of the jobs it
	// covers, and its usr_cpu and sys_cpu are their CPU time over that sum
	// (sum_thread_stats): the window times the jobs that ran, and the
	// CPU of all of them over it.
	jobs := max(w.NumJobs, 1)
	if st.Shortfall != nil && st.Shortfall.JobsRun > 0 {
		jobs = st.Shortfall.JobsRun
	}
	j.RuntimeMs = st.Runtime.Milliseconds() * int64(jobs)
	if secs := st.Runtime.Seconds() * float64(jobs); secs > 0 {
		j.UsrCPU = st.CPU.UsrS / secs * 100
		j.SysCPU = st.CPU.SysS / secs * 100
	}
	ms := st.Runtime.Milliseconds()
	if w.RW.IsRead() || st.Read != nil { // a write job's verify phase reads
		j.Read = dirFromStats(st.Read, ms, pcts)
		if j.Read == nil && !w.RW.IsWrite() {
			j.Read = dirFromStats(&st.All, ms, pcts)
		}
		samplesOf(j.Read, st.Series, func(iv ioengine.Interval) (float64, float64) { return iv.ReadIOPS, iv.ReadBWBytes })
	}
	if w.RW.IsWrite() {
		j.Write = dirFromStats(st.Write, ms, pcts)
		if j.Write == nil && !w.RW.IsRead() {
			j.Write = dirFromStats(&st.All, ms, pcts)
		}
		samplesOf(j.Write, st.Series, func(iv ioengine.Interval) (float64, float64) { return iv.WriteIOPS, iv.WriteBWBytes })
	}
	// Every direction together: fio's mixed report (unified_rw_reporting).
	if j.Mixed = dirFromStats(&st.All, ms, pcts); j.Mixed != nil {
		samplesOf(j.Mixed, st.Series, func(iv ioengine.Interval) (float64, float64) {
			return iv.ReadIOPS + iv.WriteIOPS, iv.ReadBWBytes + iv.WriteBWBytes
		})
	}
	if lt := w.LatTarget; lt.On() {
		j.LatTarget = &fio.LatTarget{TargetNs: lt.Target.Nanoseconds(), WindowUs: lt.Window.Microseconds(),
			Percentile: lt.Percentile, Depth: st.LatencyDepth}
		if lt.Percentile == 0 {
			j.LatTarget.Percentile = 100 // fio's default
		}
	}
	j.IODepthDist = fio.DepthPercents(st.IODepths[:])
	j.IODepthSubmit, j.IODepthComplete = fio.BatchPercents(st.Submits[:]), fio.BatchPercents(st.Completes[:])
	r := fio.Report{Job: j, Time: time.Now(), Percentiles: pcts, Sync: dirFromStats(st.Sync, ms, pcts)}
	if st.All.Hist != nil && st.All.Hist.TotalCount() > 0 {
		r.LatNs, r.LatUs, r.LatMs = latencyDist(histBars(st.All.Hist))
	} else if len(st.All.Lat.Bins) > 0 {
		r.LatNs, r.LatUs, r.LatMs = latencyDist(st.All.Lat.Bins) // fio's buckets, each counted at its value
	}
	return r
}

// samplesOf fills d's IOPS and bandwidth samples (fio's iops_* and bw_*)
// from the run's series: one sample per whole slice (a last slice shorter
// than half the others is left out, as fio leaves out a partial one), of
// the direction's rate as of picks it. Nothing with no slices.
func samplesOf(d *fio.Dir, series []ioengine.Interval, of func(ioengine.Interval) (iops, bw float64)) {
	if d == nil || len(series) == 0 {
		return
	}
	var iops, bw []float64
	for i, iv := range series {
		if iv.DurNs <= 0 || i > 0 && i == len(series)-1 && 2*iv.DurNs < series[0].DurNs {
			continue
		}
		x, b := of(iv)
		iops, bw = append(iops, x), append(bw, b/1024)
	}
	if len(iops) == 0 {
		return
	}
	d.IOPSMin, d.IOPSMax, d.IOPSMean, d.IOPSStddev = sampleStats(iops)
	d.BWMin, d.BWMax, d.BWMean, d.BWDev = sampleStats(bw)
	d.IOPSSamples, d.BWSamples = int64(len(iops)), int64(len(bw))
}

// sampleStats is the min, max, mean and sample standard deviation of xs
// (0 with one sample, as fio).
func sampleStats(xs []float64) (lo, hi, mean, sd float64) {
	lo, hi = xs[0], xs[0]
	for _, x := range xs {
		lo, hi, mean = min(lo, x), max(hi, x), mean+x
	}
	mean /= float64(len(xs))
	if len(xs) > 1 {
		for _, x := range xs {
			sd += (x - mean) * (x - mean)
		}
		sd = math.Sqrt(sd / float64(len(xs)-1))
	}
	return lo, hi, mean, sd
}

// SetPercentiles gives d's completion latency the percentiles a summary
// holds (50, 90, 99, 99.9; those it lacks left out), and its fastest and
// slowest I/O, when d has none from a histogram.
func SetPercentiles(d *fio.Dir, l ioengine.Latency) {
	if d == nil || len(d.Clat.Percentiles) > 0 {
		return
	}
	for _, p := range []struct {
		pct float64
		ns  int64
	}{{50, l.P50Ns}, {90, l.P90Ns}, {99, l.P99Ns}, {99.9, l.P999Ns}} {
		if p.ns > 0 {
			d.Clat.Percentiles = append(d.Clat.Percentiles, fio.Percentile{Pct: p.pct, Ns: float64(p.ns)})
		}
	}
}

// dirFromStats converts one direction; nil stays nil.
func dirFromStats(d *ioengine.DirStats, runtimeMs int64, pcts []float64) *fio.Dir {
	if d == nil {
		return nil
	}
	out := &fio.Dir{IOBytes: d.Bytes, BWBytes: d.BWBytes, IOPS: d.IOPS, RuntimeMs: runtimeMs, TotalIOs: d.TotalIOs}
	if d.TotalIOs > 0 {
		l := latStatOf(d, pcts)
		out.Lat, out.Clat = l, l
		out.Lat.Percentiles = nil
		out.Prios = priosOf(d.Prios, pcts)
		if d.Clat != nil { // fio ran it and timed completion apart
			out.Clat = latStatOf(&ioengine.DirStats{TotalIOs: d.TotalIOs, Lat: *d.Clat}, pcts)
		}
		if d.Slat != nil {
			out.Slat = latStatOf(&ioengine.DirStats{TotalIOs: d.TotalIOs, Lat: *d.Slat}, nil)
			out.Slat.Percentiles = nil
		}
	}
	return out
}

// latStatOf is d's latency as fio reports a clat: from its histogram when
// it has one (stddev, bins, the percentiles pcts), else its summary's (the
// stddev fio reported when fio ran it).
func latStatOf(d *ioengine.DirStats, pcts []float64) fio.LatStat {
	l := fio.LatStat{MinNs: float64(d.Lat.MinNs), MaxNs: float64(d.Lat.MaxNs), MeanNs: d.Lat.MeanNs, StddevNs: d.Lat.StddevNs, N: d.TotalIOs}
	if d.Hist != nil && d.Hist.TotalCount() > 0 {
		l.StddevNs = d.Hist.StdDev()
		for _, b := range d.Hist.Distribution() {
			if b.Count > 0 {
				// The bucket's middle, as fio's json+ keys its bins by a value inside each.
				l.Bins = append(l.Bins, fio.Bin{Ns: float64(b.From+b.To) / 2, Count: b.Count})
			}
		}
		for _, p := range pcts {
			l.Percentiles = append(l.Percentiles, fio.Percentile{Pct: p, Ns: float64(d.Hist.ValueAtQuantile(p))})
		}
	} else if bins := FioBins(d.Lat.Bins); len(bins) > 0 {
		// fio's own buckets (a job fio ran): its percentiles, as it reads them.
		l.Bins = bins
		for _, p := range pcts {
			if v, ok := fio.BinsPercentile(bins, p); ok {
				l.Percentiles = append(l.Percentiles, fio.Percentile{Pct: p, Ns: v})
			}
		}
	} else {
		for _, p := range []struct {
			pct float64
			ns  int64
		}{{50, d.Lat.P50Ns}, {90, d.Lat.P90Ns}, {99, d.Lat.P99Ns}, {99.9, d.Lat.P999Ns}} {
			l.Percentiles = append(l.Percentiles, fio.Percentile{Pct: p.pct, Ns: float64(p.ns)})
		}
	}
	return l
}

// latencyDist is fio's latency distribution of h (ns): the percent of
// I/Os in each ns, µs and ms bucket, as fio 3.33 bins a completion latency
// (io_u_mark_latency): under 1000 ns by ns, under 1 ms by whole µs, else
// by whole ms, each key the bucket's exclusive upper bound. A bar of h
// counts where its lowest value falls (h's bars are at most 1/128 wide).
func latencyDist(bars []ioengine.LatencyBin) (ns, us, ms []float64) {
	ns, us, ms = make([]float64, len(fio.LatBucketsNs)), make([]float64, len(fio.LatBucketsUs)), make([]float64, len(fio.LatBucketsMs))
	var total float64
	for _, b := range bars {
		total += float64(b.Count)
	}
	for _, b := range bars {
		if b.Count == 0 {
			continue
		}
		pct := float64(b.Count) / total * 100
		switch v := b.Ns; {
		case v < 1e3:
			ns[latBucket(fio.LatBucketsNs, v)] += pct
		case v < 1e6:
			us[latBucket(fio.LatBucketsUs, math.Floor(v/1e3))] += pct
		default:
			ms[latBucket(fio.LatBucketsMs, math.Floor(v/1e6))] += pct
		}
	}
	return ns, us, ms
}

// histBars are h's bars, each at its lowest value (h's bars are at most
// 1/128 wide).
func histBars(h *hdrhistogram.Histogram) []ioengine.LatencyBin {
	var bars []ioengine.LatencyBin
	for _, b := range h.Distribution() {
		if b.Count > 0 {
			bars = append(bars, ioengine.LatencyBin{Ns: float64(b.From), Count: b.Count})
		}
	}
	return bars
}

// latBucket is the index of the first of keys above v (the last if none).
func latBucket(keys []float64, v float64) int {
	for i, k := range keys {
		if v < k {
			return i
		}
	}
	return len(keys) - 1
}

// DiskUtilOf is fio's disk utilisation of device name between two readings
// of its /proc/diskstats counters: I/Os, merges and ticks (ms) done in
// between, time in queue (ms, the weighted ticks), and util, the percent of
// the interval the device had I/O in flight.
func DiskUtilOf(name string, a, b device.Sample) fio.DiskUtil {
	d := func(x, y uint64) int64 {
		if y < x {
			return 0 // the counters wrapped or the device was reset
		}
		return int64(y - x)
	}
	s, e := a.Stats, b.Stats
	du := fio.DiskUtil{Name: name, ReadIOs: d(s.ReadIOs, e.ReadIOs), WriteIOs: d(s.WriteIOs, e.WriteIOs),
		ReadMerges: d(s.ReadMerges, e.ReadMerges), WriteMerges: d(s.WriteMerges, e.WriteMerges),
		ReadTicks: d(s.ReadTicks, e.ReadTicks), WriteTicks: d(s.WriteTicks, e.WriteTicks),
		InQueue: d(s.WeightedIOTicks, e.WeightedIOTicks)}
	if ms := float64(b.At.Sub(a.At)) / float64(time.Millisecond); ms > 0 {
		du.Util = min(100, 100*float64(d(s.IOsTotalTicks, e.IOsTotalTicks))/ms)
	}
	return du
}
