//go:build linux

package ioengine

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"
)

// finalWindow is, when every job ended its latency target's search with
// a final window whose figures started afresh (fio reports only that
// window), the longest of those windows; 0 otherwise.
func finalWindow(got []meter, w *Workload) time.Duration {
	if !w.LatTarget.On() || w.LatTarget.Run || len(got) == 0 {
		return 0
	}
	var d int64
	for i := range got {
		if g := got[i].g; g == nil || !g.final || got[i].winEnd <= got[i].winStart {
			return 0
		}
		d = max(d, got[i].winEnd-got[i].winStart)
	}
	return time.Duration(d)
}

// heldCause is the pacing that held the jobs' I/Os back, the cause of a
// shortfall it explains: the latency target's depth, thinktime, the rate
// cap; "" when none did.
func heldCause(got []meter, w *Workload) ShortfallCause {
	var held, thought bool
	for i := range got {
		held = held || got[i].held > 0
		thought = thought || got[i].thought > 0
	}
	switch {
	case w.LatTarget.On():
		return ShortfallLatencyTarget
	case thought:
		return ShortfallThink
	case held:
		return ShortfallRate
	}
	return ""
}

// perJobStats is each job's own figures (Stats.PerJob): over its own
// window when it has one (a job that ended on its I/O count), else the
// run's; its CPU the share of the run's by I/O count.
func perJobStats(got []meter, st *Stats, engine, fallback string, w *Workload, window time.Duration) []Stats {
	out := make([]Stats, 0, len(got))
	for i := range got {
		win := window
		if d := got[i].winEnd - got[i].winStart; d > 0 {
			win = time.Duration(d)
		}
		js := mergeStats(got[i:i+1], engine, fallback, w, win)
		if st.All.TotalIOs > 0 {
			f := float64(js.All.TotalIOs) / float64(st.All.TotalIOs)
			js.CPU = CPU{UsrS: st.CPU.UsrS * f, SysS: st.CPU.SysS * f}
		}
		js.Buffers = st.Buffers
		out = append(out, *js)
	}
	return out
}

// shortfallOf returns the run's shortfall, or nil when it kept at least
// ShortfallFraction of iodepth × numjobs in flight. limit is set when some
// jobs could not start; sched covers the job threads over the window.
func shortfallOf(st *Stats, w *Workload, running int, limit *Shortfall, sched schedTotals, held ShortfallCause) *Shortfall {
	qd := w.QD()
	if st.Runtime <= 0 || st.InflightMean >= ShortfallFraction*float64(qd) {
		return nil
	}
	sf := &Shortfall{Cause: ShortfallUnexplained}
	switch {
	case limit != nil && running < w.NumJobs:
		*sf = *limit
	case held != "":
		sf.Cause = held
	case st.Sync != nil && st.Sync.TotalIOs > 0:
		sf.Cause, sf.SyncData = ShortfallSync, w.SyncData
	}
	sf.QD, sf.InflightMean, sf.JobsAsked, sf.JobsRun = qd, st.InflightMean, w.NumJobs, running
	if sched.ok && running > 0 {
		win := float64(st.Runtime)
		sf.CPUBusy = min(float64(sched.cpuNs+sched.waitNs)/(win*float64(running)), 1)
		sf.CPUWait = float64(sched.waitNs) / win
	}
	gap := float64(qd) - st.InflightMean
	if sf.Cause == ShortfallUnexplained && sched.ok && (sf.CPUBusy >= cpuBoundBusy || sf.CPUWait >= gap) {
		sf.Cause = ShortfallCPU
	}
	return sf
}

// cpuBoundBusy is the share of the window above which job threads that
// were running or waiting for a CPU count as CPU-bound. Below it, threads
// that waited for a CPU at least as long as the missing in-flight time
// (CPUWait ≥ QD − in flight) also explain the shortfall: a job waiting
// for a CPU between two I/Os has none in flight.
const cpuBoundBusy = 0.8

func tvSeconds(tv unix.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }

// mergeStats merges the jobs' meters into Stats over the measured window
// (ns, from the coordinator's start of the window to its end). Every job
// counts the I/Os that complete in its own view of the window (from the
// first reap it makes after the start to the first after the end, a lag of
// microseconds unless its thread waits for a CPU), and the figures are
// taken over the one window: IOPS is all those I/Os over it, the in-flight
// mean their in-flight time over it, so IOPS × mean latency equals the
// in-flight mean. (Summing each job's own rate instead lets a job that
// reaped rarely, starved of CPU among many, weigh by the inverse of a short
// window of its own.)
func mergeStats(ms []meter, engine, fallback string, w *Workload, window time.Duration) *Stats {
	st := &Stats{Engine: engine, FallbackReason: fallback, Errors: []IOError{}}
	var dirs [2]DirStats
	var dirHist [2]*hdrhistogram.Histogram
	var dirLatSum [2]int64
	allHist := hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
	for d := range dirHist {
		dirHist[d] = hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
	}
	var areaSum int64
	var syncs *DirStats
	var syncHist *hdrhistogram.Histogram
	var syncLatSum int64
	if w.SyncEvery > 0 {
		syncs, syncHist = &DirStats{}, hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
	}
	for _, m := range ms {
		if m.dir[0].hist == nil { // job never started
			continue
		}
		areaSum += m.windowArea()
		if syncs != nil && m.sync.hist != nil {
			syncs.TotalIOs += m.sync.ios
			syncLatSum += m.sync.latSum
			syncHist.Merge(m.sync.hist)
		}
		for d := range m.dir {
			dm := &m.dir[d]
			dirs[d].TotalIOs += dm.ios
			dirs[d].Bytes += dm.bytes
			dirLatSum[d] += dm.latSum
			dirHist[d].Merge(dm.hist)
			allHist.Merge(dm.hist)
		}
		st.ShortIOs += m.shortIOs
		if m.g != nil && m.g.lt.On() {
			st.LatencyDepth = m.g.qd
		}
		for b := range m.depths {
			st.IODepths[b] += m.depths[b]
			st.Submits[b] += m.submits[b]
			st.Completes[b] += m.completes[b]
		}
		for _, e := range m.errs {
			st.Errors = mergeIOError(st.Errors, e)
		}
	}
	st.Runtime = window
	win := float64(window)
	if win > 0 {
		for d := range dirs {
			dirs[d].IOPS = float64(dirs[d].TotalIOs) / (win / 1e9)
			dirs[d].BWBytes = float64(dirs[d].Bytes) / (win / 1e9)
		}
		st.InflightMean = float64(areaSum) / win
	}
	for d := range dirs {
		dirs[d].Lat = latencyOf(dirHist[d], dirLatSum[d], dirs[d].TotalIOs)
		dirs[d].Hist = dirHist[d]
	}
	st.All = DirStats{
		TotalIOs: dirs[0].TotalIOs + dirs[1].TotalIOs,
		Bytes:    dirs[0].Bytes + dirs[1].Bytes,
		IOPS:     dirs[0].IOPS + dirs[1].IOPS,
		BWBytes:  dirs[0].BWBytes + dirs[1].BWBytes,
		Lat:      latencyOf(allHist, dirLatSum[0]+dirLatSum[1], dirs[0].TotalIOs+dirs[1].TotalIOs),
		Hist:     allHist,
	}
	if w.RW.IsRead() {
		r := dirs[dirRead]
		st.Read = &r
	}
	if w.RW.IsWrite() {
		wr := dirs[dirWrite]
		st.Write = &wr
	}
	if syncs != nil {
		if win > 0 {
			syncs.IOPS = float64(syncs.TotalIOs) / (win / 1e9)
		}
		syncs.Lat = latencyOf(syncHist, syncLatSum, syncs.TotalIOs)
		syncs.Hist = syncHist
		st.Sync = syncs
	}
	return st
}

// latencyOf summarises a histogram; the mean is the exact sum over count.
func latencyOf(h *hdrhistogram.Histogram, sum, n int64) Latency {
	if n == 0 || h.TotalCount() == 0 {
		return Latency{}
	}
	// ValueAtQuantile takes a percentage (99.9), not a fraction.
	return Latency{
		MinNs:  h.Min(),
		MeanNs: float64(sum) / float64(n),
		P50Ns:  h.ValueAtQuantile(50),
		P90Ns:  h.ValueAtQuantile(90),
		P99Ns:  h.ValueAtQuantile(99),
		P999Ns: h.ValueAtQuantile(99.9),
		MaxNs:  h.Max(),
	}
}
