//go:build linux

package ioengine

import (
	"slices"
	"sync/atomic"
	"time"
)

// ivCut is a job's cumulative figures at its first event after the
// coordinator's interval tick (or at the end of its window).
type ivCut struct {
	tick       int64 // coordinator tick the cut answers
	t          int64 // event time of the cut, ns since the run's origin
	ios, bytes [2]int64
	latSum     [2]int64   // per direction
	area       int64      // ∫ inflight dt since the window began, ns × I/Os
	bins       [2][]ivBin // per direction
	max        [2]int64   // per direction, the largest latency since the cut before
	final      bool
}

// seriesClock is the coordinator's side of a run's series: it ticks every
// interval of the measured window; jobs read the tick once per reap batch.
type seriesClock struct {
	interval time.Duration
	bins     bool // keep each slice's latency bins (Control.SeriesBins)
	perJob   bool // each job's own series too (Control.SeriesPerJob)
	keepTail bool // the last slice apart however short (Control.SeriesKeepTail)
	tick     atomic.Int64
	times    []int64 // coordinator time of tick k (times[0]: window start), ns since the origin
	ticker   *time.Ticker
}

// newSeriesClock returns nil when ctl asks for no series.
func newSeriesClock(ctl Control) *seriesClock {
	if ctl.SeriesInterval <= 0 {
		return nil
	}
	return &seriesClock{interval: ctl.SeriesInterval, bins: ctl.SeriesBins, perJob: ctl.SeriesPerJob, keepTail: ctl.SeriesKeepTail}
}

// job returns the cutter of one more job (nil without a series).
func (c *seriesClock) job() *seriesJob {
	if c == nil {
		return nil
	}
	return &seriesJob{tick: &c.tick}
}

// start arms the ticker when the measured window begins at now.
func (c *seriesClock) start(now int64) {
	if c == nil {
		return
	}
	c.times = append(c.times[:0], now)
	c.ticker = time.NewTicker(c.interval)
}

// C is the ticker's channel (nil, never ready, without a series).
func (c *seriesClock) C() <-chan time.Time {
	if c == nil || c.ticker == nil {
		return nil
	}
	return c.ticker.C
}

// tickAt closes an interval at now.
func (c *seriesClock) tickAt(now int64) {
	c.times = append(c.times, now)
	c.tick.Store(int64(len(c.times) - 1))
}

func (c *seriesClock) stop() {
	if c != nil && c.ticker != nil {
		c.ticker.Stop()
	}
}

// merge adds each job's end-of-window cut and returns the run's
// intervals, and with perJob each job's own (nil for a job without a
// series).
func (c *seriesClock) merge(ms []meter) (all []Interval, perJob [][]Interval) {
	if c == nil || len(c.times) == 0 {
		return nil, nil
	}
	// Only the jobs handed back are read: a job abandoned in a syscall
	// still owns its cutter.
	var end int64
	jobs := make([]*seriesJob, len(ms))
	starts := make([]int64, len(ms))
	for i := range ms {
		m := &ms[i]
		if m.ser == nil || m.dir[0].hist == nil {
			continue
		}
		jobs[i], starts[i] = m.ser, m.winStart
		end = max(end, m.winEnd)
		m.ser.cut(m, m.winEnd, 0, true)
	}
	join := c.interval // a tail under half of it joins the slice before
	if c.keepTail {
		join = 0
	}
	all = mergeSeries(jobs, starts, c.times, end, join, c.bins)
	if c.perJob && len(jobs) > 1 {
		perJob = make([][]Interval, len(jobs))
		for i, j := range jobs {
			if j != nil {
				perJob[i] = mergeSeries(jobs[i:i+1], starts[i:i+1], c.times, end, join, c.bins)
			}
		}
	}
	return all, perJob
}

// seriesJob is the part of a meter that cuts its series: it lives in the
// job's goroutine; the only shared word is the coordinator's tick.
type seriesJob struct {
	tick *atomic.Int64
	last int64
	hist [2]ivHist // per direction
	max  [2]int64  // per direction, the largest latency since the last cut
	cuts []ivCut
	// open is how many of the window's I/Os the job had in flight when
	// its window opened (at its first reap after the coordinator's start).
	open int64
}

// record adds one completion's latency (direction dir) to the current
// interval.
func (s *seriesJob) record(dir int, lat int64) {
	s.hist[dir][ivSlot(lat)]++
	s.max[dir] = max(s.max[dir], lat)
}

// maybeCut cuts the series when the coordinator has ticked since the last
// cut. Called once per reap batch by the meter while measuring.
func (s *seriesJob) maybeCut(m *meter, t int64) {
	if k := s.tick.Load(); k != s.last {
		s.last = k
		s.cut(m, t, k, false)
	}
}

func (s *seriesJob) cut(m *meter, t, k int64, final bool) {
	c := ivCut{tick: k, t: t, latSum: [2]int64{m.dir[0].latSum, m.dir[1].latSum}, max: s.max, final: final}
	s.max = [2]int64{}
	c.area = m.area
	if m.measuring {
		c.area += m.inflight * (t - m.tLast)
	}
	for d := range m.dir {
		c.ios[d], c.bytes[d] = m.dir[d].ios, m.dir[d].bytes
	}
	c.bins = [2][]ivBin{s.hist[0].sparse(), s.hist[1].sparse()}
	s.cuts = append(s.cuts, c)
}

// reset forgets everything cut so far: the measured window begins with
// inflight of its I/Os in flight.
func (s *seriesJob) reset(inflight int64) {
	s.open = inflight
	s.cuts = s.cuts[:0]
	s.last = s.tick.Load()
	s.max = [2]int64{}
	clear(s.hist[0][:])
	clear(s.hist[1][:])
}

// ivPiece is a job's share of one slice, possibly in more than one piece.
type ivPiece struct {
	dt, area   float64
	ios, bytes [2]float64
	end        int64 // where the job's share of the slice ends
	set        bool  // the job has a share (a cut, or time spread over it)
}

// ivAcc is one slice of the run: its jobs' shares summed.
type ivAcc struct {
	ios, bytes [2]float64 // per second, summed over jobs
	area       float64    // mean in flight, summed over jobs
	latSum     [2]int64   // per direction
	dirCount   [2]int64
	max        [2]int64 // per direction
	count      int64
	bins       [2][]ivBin
	endSum     float64 // Σ over the jobs of where their shares of the slice end
	ends       int
}

// spreadSkipped gives the slices after prevK and before k, which a job's
// cuts skipped (nothing reaped between two ticks: a stalled device, or the
// job's thread kept off the CPU), their share of the span from t0 to t1:
// its I/Os were in flight all the same (inflight, the span's mean), though
// none completed. It returns where the remaining span, slice k's, begins.
func spreadSkipped(own []ivPiece, ticks []int64, prevK, k int, t0, t1 int64, inflight float64) int64 {
	from := t0
	for i := prevK + 1; i < k && i+1 < len(ticks); i++ {
		if hi := min(t1, ticks[i+1]); hi > from {
			own[i].dt += float64(hi - from)
			own[i].area += inflight * float64(hi-from)
			own[i].end, own[i].set = hi, true
			from = hi
		}
	}
	return from
}

// mergeSeries turns the jobs' cuts into the run's intervals. ticks[k] is
// the coordinator's time (ns since the origin) of tick k (ticks[0]: the
// window start); end is the end of the longest job window. A job's cut
// lands at its first completion after a tick, so each job's share of a
// slice runs between its own cuts: its rates and in-flight mean are its
// totals over that span (never above its depth; a slice in two pieces, a
// joined tail, over both) and are summed over jobs. Every job's share
// begins at the window's start (before its first reap, the I/Os it had in
// flight when its window opened) and each slice's bounds are the mean over
// all jobs of where their shares end, so slices are contiguous, in order,
// count every I/O once and, for one job, sum exactly to the run. A tail
// shorter than half of interval in the jobs' time (the coordinator's last
// tick came as the window ended, or the jobs reaped nothing after it) joins
// the slice before it (interval 0: none does).
// With bins, each slice keeps its latency bins (Interval.Bins).
func mergeSeries(jobs []*seriesJob, winStarts []int64, ticks []int64, end int64, interval time.Duration, bins bool) []Interval {
	if len(ticks) == 0 {
		return nil
	}
	n := len(ticks)
	for n > 1 && mergeSlices(jobs, winStarts, ticks, end, n, false, false)[n-1].DurNs < int64(interval)/2 {
		n--
	}
	return mergeSlices(jobs, winStarts, ticks, end, n, true, bins)
}

// mergeSlices is mergeSeries over the first n ticks' slices (cuts of later
// ticks fall in the last); without full, only their bounds and counts (no
// latency percentiles, nothing allocated per slice); with bins, each
// slice's latency bins per direction.
func mergeSlices(jobs []*seriesJob, winStarts []int64, ticks []int64, end int64, n int, full, bins bool) []Interval {
	accs := make([]ivAcc, n)
	own := make([]ivPiece, n)
	var startSum float64
	starts := 0
	for j, sj := range jobs {
		if sj == nil {
			continue
		}
		startSum += float64(addJobSlices(accs, own, sj, winStarts[j], ticks, full))
		starts++
	}
	origin := ticks[0]
	if starts > 0 {
		origin = int64(startSum / float64(starts))
	}
	out := make([]Interval, n)
	from := origin
	for k := range out {
		a := &accs[k]
		to := end
		switch {
		case a.ends > 0:
			to = int64(a.endSum / float64(a.ends))
		case k+1 < n:
			to = ticks[k+1]
		}
		to = max(to, from)
		iv := Interval{StartNs: from - origin, DurNs: to - from, IOs: a.count,
			ReadIOPS: a.ios[0], WriteIOPS: a.ios[1], ReadBWBytes: a.bytes[0], WriteBWBytes: a.bytes[1], InflightMean: a.area}
		if a.count > 0 && full {
			iv.LatMeanNs = float64(a.latSum[0]+a.latSum[1]) / float64(a.count)
			iv.DirLatMaxNs = a.max
			if bins {
				iv.DirLatMeanNs = dirMeans(a.latSum, a.dirCount)
				iv.Bins = [2][]LatBin{latBins(mergeBins(slices.Clone(a.bins[0]))), latBins(mergeBins(slices.Clone(a.bins[1])))}
			}
			iv.LatP99Ns = ivQuantile(append(a.bins[0], a.bins[1]...), 0.99)
		}
		out[k] = iv
		from = to
	}
	return out
}

// addJobSlices adds one job's shares of the len(accs) slices (own is
// scratch of the same length), with the latency bins of its cuts when
// bins is set, and returns where its share begins: the
// window's start, or its own when that came first (it reaped between the
// phase change and the coordinator's reading of the time). Before its
// window opened (its first reap after the start, late when its thread or
// its I/Os were held up), the job had the I/Os it then had in flight: that
// time joins the span to its first cut.
func addJobSlices(accs []ivAcc, own []ivPiece, sj *seriesJob, winStart int64, ticks []int64, bins bool) int64 {
	n := len(accs)
	clear(own)
	begin := min(winStart, ticks[0])
	prev, prevK := ivCut{t: begin, area: -sj.open * (winStart - begin)}, -1
	for _, c := range sj.cuts {
		k := int(c.tick) - 1 // tick k closes slice k-1
		if c.final || k >= n {
			k = n - 1
		}
		if k < 0 {
			continue
		}
		a, p := &accs[k], &own[k]
		if dt := float64(c.t - prev.t); dt > 0 {
			area := float64(c.area - prev.area)
			from := spreadSkipped(own, ticks, prevK, k, prev.t, c.t, area/dt)
			rest := float64(c.t - from)
			p.dt += rest
			for d := 0; d < 2; d++ {
				p.ios[d] += float64(c.ios[d] - prev.ios[d])
				p.bytes[d] += float64(c.bytes[d] - prev.bytes[d])
			}
			p.area += area * rest / dt
		}
		prevK = k
		p.end, p.set = c.t, true
		for d := range a.latSum {
			a.max[d] = max(a.max[d], c.max[d])
			a.latSum[d] += c.latSum[d] - prev.latSum[d]
			a.dirCount[d] += c.ios[d] - prev.ios[d]
		}
		a.count += c.ios[0] + c.ios[1] - prev.ios[0] - prev.ios[1]
		if bins {
			a.bins[0] = append(a.bins[0], c.bins[0]...)
			a.bins[1] = append(a.bins[1], c.bins[1]...)
		}
		prev = c
	}
	at := begin
	for k := range own {
		p, a := &own[k], &accs[k]
		if p.set {
			at = max(at, p.end)
		}
		a.endSum += float64(at)
		a.ends++
		if p.dt <= 0 {
			continue
		}
		for d := 0; d < 2; d++ {
			a.ios[d] += p.ios[d] / p.dt * 1e9
			a.bytes[d] += p.bytes[d] / p.dt * 1e9
		}
		a.area += p.area / p.dt
	}
	return begin
}
