//go:build linux

package ioengine

import (
	"errors"
	"sync/atomic"
	"syscall"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"
)

// Directions index per-direction counters.
const (
	dirRead  = 0
	dirWrite = 1
)

// Phases of a run, published by the coordinator and read by jobs once per event.
const (
	phaseRamp int32 = iota
	phaseMeasure
	phaseStop  // stop submitting, drain in-flight I/Os
	phaseAbort // stop at once (stalled device): do not drain
)

// Histogram range: 1 ns .. 100 s with two significant digits, so every
// percentile is within 1% of the recorded value and a histogram stays ~30 KiB.
const (
	histMinNs   = 1
	histMaxNs   = int64(100 * time.Second)
	histSigFigs = 2
)

// coord is what jobs share with the coordinator: the phase and the clock.
type coord struct {
	phase atomic.Int32
	base  time.Time    // monotonic origin of all event times
	ser   *seriesClock // per-interval series (nil: none); see series.go
	// windowStart is the event time the measured window began (the phase
	// change); written and read by the coordinator's goroutine only.
	windowStart int64
	// ramp holds the ramp's slices (Control.SeriesInterval apart), cut by
	// the coordinator from the jobs' ramp counts; see rampCut.
	ramp     []rampSlice
	rampLast rampSlice // the counts and time of the last cut
}

// rampSlice is the ramp's completions up to event time t (cumulative), or
// between two cuts.
type rampSlice struct {
	t0, t1                int64
	reads, writes, latSum int64
}

// rampCut closes a slice of the ramp at event time t from the jobs' ramp
// counts, since the last cut or, for the first, since rampBegin.
func (c *coord) rampCut(t int64, pubs []jobPub) {
	var now rampSlice
	for i := range pubs {
		now.reads += pubs[i].rampReads.Load()
		now.writes += pubs[i].rampWrites.Load()
		now.latSum += pubs[i].rampLatSum.Load()
	}
	now.t1 = t
	if c.rampLast.t1 > 0 && t > c.rampLast.t1 {
		c.ramp = append(c.ramp, rampSlice{t0: c.rampLast.t1, t1: t, reads: now.reads - c.rampLast.reads,
			writes: now.writes - c.rampLast.writes, latSum: now.latSum - c.rampLast.latSum})
	}
	c.rampLast = now
}

// rampBegin starts the ramp's slices at event time t, with every count at
// zero: it runs before the jobs are let go, so the first slice counts
// their first completions. (Begun after, it lost those the jobs made
// before the coordinator's goroutine got a CPU: on a loaded machine the
// slices counted 44 I/Os where OnRampSample had seen 49.)
func (c *coord) rampBegin(t int64) { c.rampLast = rampSlice{t1: t} }

// rampIntervals is the ramp's series as Intervals marked Ramp, their start
// relative to the window's (negative: before it), bs the mean I/O size of
// reads and writes; nil without slices.
func (c *coord) rampIntervals(bs [2]float64) []Interval {
	var out []Interval
	for _, r := range c.ramp {
		d := float64(r.t1-r.t0) / 1e9
		iv := Interval{StartNs: r.t0 - c.windowStart, DurNs: r.t1 - r.t0, IOs: r.reads + r.writes, Ramp: true,
			ReadIOPS: float64(r.reads) / d, WriteIOPS: float64(r.writes) / d,
			ReadBWBytes: float64(r.reads) * bs[0] / d, WriteBWBytes: float64(r.writes) * bs[1] / d}
		if iv.IOs > 0 {
			iv.LatMeanNs = float64(r.latSum) / float64(iv.IOs)
		}
		out = append(out, iv)
	}
	return out
}

// now returns monotonic nanoseconds since the run's origin.
func (c *coord) now() int64 { return int64(time.Since(c.base)) }

// jobPub holds the figures of one job the coordinator reads while it runs.
// Jobs store them once per event batch, never per I/O.
type jobPub struct {
	ios          atomic.Int64 // completed in the window
	_            int64        // was bytes (a sample counts them from ios); keeps one cache line a job
	latSum       atomic.Int64 // ns
	inflight     atomic.Int64
	lastProgress atomic.Int64 // event time of the last completion (or of the first submit after idle)
	// rampReads, rampWrites and rampLatSum count the ramp's completions
	// (before the window), for the ramp's series (Stats.Ramp).
	rampReads, rampWrites, rampLatSum atomic.Int64 // 8 fields: one cache line a job
}

// dirMeter counts one direction of one job.
type dirMeter struct {
	ios, bytes, latSum int64
	hist               *hdrhistogram.Histogram
}

// meter measures one job; it is goroutine-local (no locks, no atomics per I/O).
type meter struct {
	c         *coord
	pub       *jobPub
	measuring bool
	done      bool // the window has ended: submit no more
	tLast     int64
	inflight  int64
	area      int64 // ∫ inflight dt over the window, ns × I/Os
	winStart  int64
	winEnd    int64
	dir       [2]dirMeter
	errs      []IOError
	shortIOs  int64
	cont      bool       // ContinueOnError
	ser       *seriesJob // per-interval cuts (nil: no series)
	// ioLog keeps every completion of the window (Control.IOLog), its
	// end in event time; nil: none kept.
	ioLog *[]IORecord
	// hist cuts fio's histogram log windows (Control.HistWindow; nil: none).
	hist *histWindows

	// startSum is the sum of the submission times of the I/Os in flight,
	// ns. With it the window's edges count the same I/Os as the latency
	// sum: areaIn adds the time before the window of the I/Os in flight
	// when it opens (they complete in it), areaOut takes away the time in
	// the window of those still in flight when it closes (they do not).
	startSum int64
	areaIn   int64
	areaOut  int64
	// arrival counts the window's response times of paced I/Os (from
	// each one's due time to its completion; bytes unused, hist nil until
	// the first): arrived.
	arrival dirMeter
	// sync counts the window's syncs (Workload.SyncEvery; bytes unused);
	// its hist is nil when the workload does not sync.
	sync dirMeter
	// g is the job's gate (nil: none), told of every whole completion.
	g *gate
	// pace is the job's rate (RateIOPS), begun again when the window
	// opens (open).
	pace *pacer
	// thought counts the window's thinks (Workload.Think).
	thought int64
	// held counts the times, in the window, that the job had a free slot
	// and held its next I/O back because it was not yet due (RateIOPS).
	held int64
	// mid is set during midBatch: the window closes only at the end of a
	// reap (endBatch), never between completions of one.
	mid bool
	// rampIOs and rampLatSum count the ramp's completions per direction
	// and their latencies (published in endBatch before the window opens).
	rampIOs    [2]int64
	rampLatSum int64
	// rampKept: a job that ends by its size keeps its figures from its
	// first I/O (inRamp while the ramp lasts) and starts them afresh when
	// the window opens, as fio resets a job's figures when its ramp_time
	// ends: one that ends in its ramp reports every I/O, as fio's does.
	rampKept, inRamp bool
	// depths counts the window's submissions by the job's I/Os in flight
	// right after them, in fio's "IO depths" buckets (Stats.IODepths).
	depths [DepthBuckets]int64
	// submits and completes count the window's submission calls and
	// reaps by their I/Os (Stats.Submits, Stats.Completes).
	submits, completes [DepthBuckets]int64
	// prios count the window's completions by priority (Workload.Prio).
	prios prioMeters
}

func newMeter(c *coord, pub *jobPub, cont bool) meter {
	m := meter{c: c, pub: pub, cont: cont}
	for i := range m.dir {
		m.dir[i].hist = hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
	}
	return m
}

// start marks the job's first event time; a run without ramp measures from here.
func (m *meter) start(t int64) {
	m.tLast = t
	switch m.c.phase.Load() {
	case phaseMeasure:
		m.measuring = true
		m.winStart = t
		m.areaIn = m.inflight*t - m.startSum
	case phaseRamp:
		if m.rampKept {
			m.open(t)
			m.inRamp = true
		}
	case phaseStop, phaseAbort:
		m.done = true
	}
}

// submitted records n I/Os entering flight at time t.
func (m *meter) submitted(t int64, n int) {
	if m.measuring {
		m.area += m.inflight * (t - m.tLast)
	}
	if m.inflight == 0 {
		m.pub.lastProgress.Store(t)
	}
	m.tLast = t
	m.inflight += int64(n)
	// Published now, not at the end of the batch: a submission that
	// blocks in the kernel (pwrite, io_submit on a frozen filesystem)
	// never reaches the end of its batch, and the watchdog must see it;
	// and a job that reaps a quarter or half of its ring at a time (io_uring on
	// io-wq) is seen with its queue refilled while it waits, not as it was
	// just after its last reap (the ramp's full-queue test).
	m.pub.inflight.Store(m.inflight)
	m.startSum += int64(n) * t
	if m.measuring {
		m.depths[DepthBucket(m.inflight)] += int64(n)
		m.submits[BatchBucket(n)]++
	}
}

// hold keeps n I/Os in flight from time t whose slots are free: the
// job holds them until it can submit their replacements, each of which
// then runs from t (submittedHeld).
func (m *meter) hold(t int64, n int) {
	if m.measuring {
		m.area += m.inflight * (t - m.tLast)
	}
	m.tLast = t
	m.inflight += int64(n)
	m.startSum += int64(n) * t
	m.pub.inflight.Store(m.inflight)
}

// unhold takes out of flight at time t n held I/Os (hold) whose
// replacements will not be submitted, freed at times summing to freedSum:
// their time in flight leaves the window's area too, which then still
// sums the latencies of the I/Os completed in it.
func (m *meter) unhold(t int64, n int, freedSum int64) {
	if m.measuring {
		m.area += m.inflight * (t - m.tLast)
		m.areaIn -= int64(n)*t - freedSum
	}
	m.tLast = t
	m.inflight -= int64(n)
	m.startSum -= freedSum
	m.pub.inflight.Store(m.inflight)
}

// submittedHeld records a submission at time t of held I/Os (hold: in
// flight already) and fresh ones.
func (m *meter) submittedHeld(t int64, held, fresh int) {
	if held == 0 {
		m.submitted(t, fresh)
		return
	}
	if m.measuring {
		m.area += m.inflight * (t - m.tLast)
	}
	m.tLast = t
	m.inflight += int64(fresh)
	m.pub.inflight.Store(m.inflight)
	m.startSum += int64(fresh) * t
	if m.measuring {
		m.depths[DepthBucket(m.inflight)] += int64(held + fresh)
		m.submits[BatchBucket(held+fresh)]++
	}
}

// retire takes an I/O submitted at event time start out of flight; call it
// for every completion (failed ones too) before the batch's endBatch.
func (m *meter) retire(start int64) { m.startSum -= start }

// submitting publishes, before a submission syscall that may block in the
// kernel, that n I/Os are about to enter flight at time t, so that the
// coordinator's watchdog sees an I/O stuck in submission as outstanding.
func (m *meter) submitting(t int64, n int) {
	if m.inflight == 0 {
		m.pub.lastProgress.Store(t)
	}
	m.pub.inflight.Store(m.inflight + int64(n))
}

// reaped integrates in-flight time up to the reap at time t; call it before
// recording the batch's completions.
func (m *meter) reaped(t int64) {
	if m.measuring {
		m.area += m.inflight * (t - m.tLast)
	}
	m.tLast = t
}

// record counts one completed I/O of dir with latency lat ns, of bytes at
// off, completed at event time end, at priority pr.
func (m *meter) record(dir int, lat, bytes, end, off int64, pr prioPick) {
	if m.g != nil {
		m.g.done(dir, lat, bytes)
	}
	if (!m.measuring || m.inRamp) && !m.done {
		m.rampIOs[dir]++
		m.rampLatSum += lat
	}
	if !m.measuring {
		return
	}
	d := &m.dir[dir]
	d.ios++
	d.bytes += bytes
	d.latSum += lat
	if m.ser != nil {
		m.ser.record(dir, lat)
	}
	if m.ioLog != nil {
		*m.ioLog = append(*m.ioLog, IORecord{EndNs: end, LatNs: lat, Offset: off, Bytes: bytes, Dir: dir, Prio: pr.val})
	}
	if m.hist != nil {
		m.hist.record(dir, lat, end-m.winStart)
	}
	if lat < histMinNs {
		lat = histMinNs
	}
	if d.hist.RecordValue(lat) != nil {
		_ = d.hist.RecordValue(histMaxNs)
	}
	m.prios.record(dir, pr, lat, bytes)
}

// arrived counts the response time of an I/O due to arrive at event time
// due (its scheduled arrival under the job's rate; 0: no rate, nothing
// counted) that completed at t1: its wait to be issued and its latency.
func (m *meter) arrived(due, t1 int64) {
	if due == 0 || !m.measuring {
		return
	}
	a := &m.arrival
	if a.hist == nil {
		a.hist = hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)
	}
	lat := max(t1-due, histMinNs)
	a.ios++
	a.latSum += t1 - due
	if a.hist.RecordValue(lat) != nil {
		_ = a.hist.RecordValue(histMaxNs)
	}
}

// endBatch closes a reap batch of n completions at time t: publishes the
// figures and follows phase changes (the window begins or ends here).
func (m *meter) endBatch(t int64, n int) {
	m.inflight -= int64(n)
	if n > 0 && m.measuring {
		m.completes[BatchBucket(n)]++
	}
	p := m.c.phase.Load()
	switch {
	case p >= phaseStop && m.mid:
		m.done = true // submit no more; the window closes at the reap's end
	case p >= phaseStop:
		if m.measuring {
			m.winEnd = t
			m.areaOut = m.inflight*t - m.startSum
		}
		m.measuring = false
		m.done = true
	case p == phaseMeasure && m.inRamp:
		m.inRamp = false
		m.open(t) // the ramp's figures kept (rampKept) start afresh
	case p == phaseMeasure && !m.measuring && !m.done:
		m.open(t)
	}
	if m.measuring && m.ser != nil {
		m.ser.maybeCut(m, t)
	}
	m.publish(t)
}

// open starts the job's measured window at event time t, its figures
// from zero: when the run's window opens, and again for a latency
// target's final window (gate.idle), as fio resets a job's figures there.
func (m *meter) open(t int64) {
	m.measuring = true
	if m.pace != nil && m.pace.on {
		// The rate starts again with the window, as fio's does
		// (reset_all_stats zeroes its rate state and start time): I/Os
		// a job fell behind on in the ramp are not caught up in the
		// window, which would then count more than the rate allows.
		m.pace.begin(t)
	}
	m.winStart = t
	m.area = 0
	m.areaIn = m.inflight*t - m.startSum
	for i := range m.dir {
		d := &m.dir[i]
		d.ios, d.bytes, d.latSum = 0, 0, 0
		d.hist.Reset()
	}
	if m.sync.hist != nil {
		m.sync.ios, m.sync.latSum = 0, 0
		m.sync.hist.Reset()
	}
	m.errs = m.errs[:0]
	m.shortIOs = 0
	m.depths = [DepthBuckets]int64{}
	m.submits, m.completes = [DepthBuckets]int64{}, [DepthBuckets]int64{}
	if m.ser != nil {
		m.ser.reset(m.inflight)
	}
	if m.ioLog != nil {
		*m.ioLog = (*m.ioLog)[:0]
	}
	if m.hist != nil {
		m.hist.reset()
	}
}

// publish stores the job's figures for the coordinator at event time t.
func (m *meter) publish(t int64) {
	if (!m.measuring || m.inRamp) && !m.done {
		m.pub.rampReads.Store(m.rampIOs[dirRead])
		m.pub.rampWrites.Store(m.rampIOs[dirWrite])
		m.pub.rampLatSum.Store(m.rampLatSum)
	}
	r, w := &m.dir[dirRead], &m.dir[dirWrite]
	m.pub.ios.Store(r.ios + w.ios)
	m.pub.latSum.Store(r.latSum + w.latSum)
	m.pub.inflight.Store(m.inflight)
	m.pub.lastProgress.Store(t)
}

// midBatch closes part of a reap: n completions at time t, published like
// endBatch's, after which the loop submits their replacements before it
// handles the rest of the reap. The measured window may open here (a reap
// that never ends, on a device that completes as fast as the loop reaps,
// must not keep it shut) but closes only at the end of the reap: the end of
// the window stops submissions, so the reap ends within iodepth completions,
// and the completions of one reap, which may all have waited as long for a
// CPU, stay on one side of the edge.
func (m *meter) midBatch(t int64, n int) {
	m.mid = true
	m.endBatch(t, n)
	m.mid = false
}

// finish closes the window if the job ended without seeing the stop phase (an error).
func (m *meter) finish(t int64) {
	if m.measuring {
		m.area += m.inflight * (t - m.tLast)
		m.winEnd = t
		m.areaOut = m.inflight*t - m.startSum
		m.measuring = false
	}
	m.done = true
}

// windowArea is the in-flight integral over the I/Os that completed in the
// window, ns × I/Os: the area inside the window, plus the time before it of
// the I/Os that were in flight when it opened, minus the time inside it of
// those still in flight when it closed. It equals the sum of their
// latencies when the job's counts are consistent, so Little's Law closes
// over the same I/Os whatever happens at the edges (a thread descheduled
// for milliseconds there weighs the same in both).
func (m *meter) windowArea() int64 { return m.area + m.areaIn - m.areaOut }

// ioFailed counts a failed I/O (res is the negative errno or, for a short
// transfer, the byte count) and returns a non-nil error when the job must end.
func (m *meter) ioFailed(dir int, off int64, res int64, want int64) error {
	kind := "short"
	var errno syscall.Errno
	if res < 0 {
		errno = syscall.Errno(-res)
		kind = unix.ErrnoName(errno)
		if kind == "" {
			kind = errno.Error()
		}
	} else {
		m.shortIOs++
	}
	op := "read"
	if dir == dirWrite {
		op = "write"
	}
	var e *IOError
	for i := range m.errs {
		if m.errs[i].Errno == kind && m.errs[i].Op == op {
			e = &m.errs[i]
		}
	}
	if e == nil {
		m.errs = append(m.errs, IOError{Errno: kind, Op: op, FirstOffset: off})
		e = &m.errs[len(m.errs)-1]
	}
	e.Count++
	if m.cont {
		return nil
	}
	if res < 0 {
		return &IOFailure{Op: op, Offset: off, Errno: kind, Count: e.Count, Err: errno}
	}
	return &IOFailure{Op: op, Offset: off, Errno: kind, Count: e.Count, Err: errShortIO, Got: res, Want: want}
}

var errShortIO = errors.New("short transfer")

// verifyFailed counts a read whose data lacks its stamp (Workload.Verify,
// FioVerify): the block at off, for cause.
func (m *meter) verifyFailed(off int64, cause error) error {
	for i := range m.errs {
		if m.errs[i].Errno == "verify" {
			m.errs[i].Count++
			if m.cont {
				return nil
			}
			return &IOFailure{Op: "read", Offset: off, Errno: "verify", Count: m.errs[i].Count, Err: cause}
		}
	}
	m.errs = append(m.errs, IOError{Errno: "verify", Op: "read", FirstOffset: off, Count: 1})
	if m.cont {
		return nil
	}
	return &IOFailure{Op: "read", Offset: off, Errno: "verify", Count: 1, Err: cause}
}

// heldBack records that a free slot waited for the next I/O to be due.
func (m *meter) heldBack() {
	if m.measuring {
		m.held++
	}
}

// synced records one sync (fsync or fdatasync) that took lat ns.
func (m *meter) synced(lat int64) {
	if !m.measuring || m.sync.hist == nil {
		return
	}
	m.sync.ios++
	m.sync.latSum += lat
	if lat < histMinNs {
		lat = histMinNs
	}
	if m.sync.hist.RecordValue(lat) != nil {
		_ = m.sync.hist.RecordValue(histMaxNs)
	}
}

// histLogs is each job's histogram log windows (Control.HistWindow),
// cut from the job's own window start and timed, as the other logs, from
// the run's at event time start; nil when none were cut.
func histLogs(ms []meter, start int64) [][]Interval {
	var out [][]Interval
	for i := range ms {
		if ms[i].hist == nil {
			continue
		}
		if out == nil {
			out = make([][]Interval, len(ms))
		}
		out[i] = ms[i].hist.out
		for k := range out[i] {
			out[i][k].StartNs += ms[i].winStart - start
		}
	}
	return out
}

// ioLogs is each job's kept I/Os (Control.IOLog), their ends made relative
// to the window's start at event time start; nil when none were kept.
func ioLogs(ms []meter, start int64) [][]IORecord {
	var out [][]IORecord
	for i := range ms {
		if ms[i].ioLog == nil {
			continue
		}
		if out == nil {
			out = make([][]IORecord, len(ms))
		}
		recs := *ms[i].ioLog
		for k := range recs {
			recs[k].EndNs -= start
		}
		out[i] = recs
	}
	return out
}
