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

// rampWindow is the longest figures kept from the first I/O (rampKept)
// of jobs that ended in their ramp, which fio reports whole; 0 when a
// job did not keep them.
func rampWindow(got []meter) time.Duration {
	var d int64
	for i := range got {
		if !got[i].inRamp || got[i].winEnd <= got[i].winStart {
			return 0
		}
		d = max(d, got[i].winEnd-got[i].winStart)
	}
	return time.Duration(d)
}

// heldCause is the pacing that held the jobs' I/Os back, the cause of a
// shortfall it explains: the latency target's depth, thinktime, the flow,
// the rate cap; "" when none did.
func heldCause(got []meter, w *Workload) ShortfallCause {
	var held, thought, flowed bool
	for i := range got {
		held = held || got[i].held > 0
		thought = thought || got[i].thought > 0
		flowed = flowed || got[i].g != nil && got[i].g.fl.holds > 0
	}
	switch {
	case w.LatTarget.On():
		return ShortfallLatencyTarget
	case thought:
		return ShortfallThink
	case flowed:
		return ShortfallFlow
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
	dirs := [2]dirSum{newDirSum(), newDirSum()}
	allHist := hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
	var syncs *dirSum
	if w.SyncEvery > 0 {
		s := newDirSum()
		syncs = &s
	}
	var areaSum int64
	arrival := newDirSum()
	for i := range ms {
		m := &ms[i]
		if m.dir[0].hist == nil { // job never started
			continue
		}
		areaSum += m.windowArea()
		if syncs != nil && m.sync.hist != nil {
			syncs.add(&m.sync)
		}
		if m.arrival.hist != nil {
			arrival.add(&m.arrival)
		}
		for d := range m.dir {
			dirs[d].add(&m.dir[d])
			allHist.Merge(m.dir[d].hist)
		}
		mergeCounts(st, m)
	}
	st.Runtime = window
	win := float64(window)
	if win > 0 {
		st.InflightMean = float64(areaSum) / win
	}
	var ds [2]DirStats
	for d := range dirs {
		ds[d] = dirs[d].finish(win)
		ds[d].Prios = prioStats(ms, d, win)
	}
	st.All = DirStats{
		TotalIOs: ds[0].TotalIOs + ds[1].TotalIOs,
		Bytes:    ds[0].Bytes + ds[1].Bytes,
		IOPS:     ds[0].IOPS + ds[1].IOPS,
		BWBytes:  ds[0].BWBytes + ds[1].BWBytes,
		Lat:      latencyOf(allHist, dirs[0].latSum+dirs[1].latSum, ds[0].TotalIOs+ds[1].TotalIOs),
		Hist:     allHist,
	}
	if w.RW.IsRead() || ds[dirRead].TotalIOs > 0 { // a writer's reads: verify_backlog's
		r := ds[dirRead]
		st.Read = &r
	}
	if w.RW.IsWrite() {
		wr := ds[dirWrite]
		st.Write = &wr
	}
	if syncs != nil {
		s := syncs.finish(win)
		st.Sync = &s
	}
	if arrival.s.TotalIOs > 0 {
		a := latencyOf(arrival.hist, arrival.latSum, arrival.s.TotalIOs)
		st.Arrival = &a
	}
	return st
}

// dirSum sums the meters of one direction (or of the syncs) over the jobs.
type dirSum struct {
	s      DirStats
	hist   *hdrhistogram.Histogram
	latSum int64
}

func newDirSum() dirSum {
	return dirSum{hist: hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)}
}

// add adds one job's meter of the direction.
func (d *dirSum) add(dm *dirMeter) {
	d.s.TotalIOs += dm.ios
	d.s.Bytes += dm.bytes
	d.latSum += dm.latSum
	d.hist.Merge(dm.hist)
}

// finish is the direction's statistics over a window of win nanoseconds
// (0: rates unknown).
func (d *dirSum) finish(win float64) DirStats {
	s := d.s
	if win > 0 {
		s.IOPS = float64(s.TotalIOs) / (win / 1e9)
		s.BWBytes = float64(s.Bytes) / (win / 1e9)
	}
	s.Lat = latencyOf(d.hist, d.latSum, s.TotalIOs)
	s.Hist = d.hist
	return s
}

// mergeCounts adds one job's counts that are not per direction: short
// I/Os, the depth histograms, its errors, and the depth a latency target
// settled on.
func mergeCounts(st *Stats, m *meter) {
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
