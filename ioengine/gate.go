//go:build linux

package ioengine

import (
	"time"

	"golang.org/x/sys/unix"
)

// gate holds one job to the pacing of fio's that decides whether it may
// issue its next I/O, beyond its rate: thinktime (a pause with nothing in
// flight after so many I/Os), the latency target's queue depth, and the
// rate floors, checked as I/Os complete. The loops ask it before each I/O
// (job.mayIssue) and hand it the job's idle moments (job.idle); the meter
// counts completions into it (meter.record).
type gate struct {
	think ThinkTime
	floor RateFloor
	lt    LatencyTarget

	start int64 // the job's first event time, ns
	// issued and completed count the job's I/Os (completed: whole ones).
	issued, completed int64
	// doneIOs and doneBytes count completions per direction, for the floors.
	doneIOs, doneBytes [2]int64

	// thinking is set once a think is due: the job issues nothing until
	// its I/Os complete, then pauses (idle).
	thinking    bool
	thinkBlocks int64 // the count (issued or completed) at the last think
	thinkB      int64 // the count when the think was decided
	thinkIssued int64 // issued at the last think: a think follows an issue, as fio's
	lastThink   int64 // event time the last think was decided (thinktime_iotime)

	// Rate floors: the counts at the last check, per direction.
	checked           [2]bool
	lastCheck         [2]int64
	lastIOs, lastByte [2]int64

	// The latency target's search (fio's io_u.c lat_target_*).
	qd, qdLow, qdHigh, stable int
	maxDepth                  int // the job's iodepth
	ltStart, ltIOs, ltFailed  int64
	quiesce                   bool // drain before the next window
	endRun                    bool // the depth settled: one more window, then end
	ended                     bool // the job ends (the search is over)
	final                     bool // the final window's figures started afresh (meter.open)

	err error // a floor not met, a latency over a 100th-percentile target at depth 1

	fl flowGate // the job's flow (Workload.Flow; flowgate.go)
}

// newGate returns the gate of a job of w with depth I/Os at most; nil
// when w sets none of its options.
func newGate(w *Workload, depth int) *gate {
	if !w.Think.On() && !w.RateMin.On() && !w.LatTarget.On() && !w.Flow.On() {
		return nil
	}
	g := &gate{think: w.Think, floor: w.RateMin, lt: w.LatTarget, qd: depth, maxDepth: depth,
		fl: flowGate{weight: w.Flow.Weight, sleep: w.Flow.Sleep.Nanoseconds()}}
	if g.floor.Cycle == 0 {
		g.floor.Cycle = time.Second // fio's rate_cycle default
	}
	if g.think.Spin > g.think.Time {
		g.think.Spin = g.think.Time // fio: thinktime_spin is at most thinktime
	}
	if g.think.Blocks == 0 {
		g.think.Blocks = 1
	}
	if g.lt.On() {
		g.qd, g.qdLow, g.qdHigh = 1, 1, depth
	}
	return g
}

// begin starts the job's clocks at event time t.
func (g *gate) begin(t int64) {
	g.start, g.lastThink, g.ltStart = t, t, t
}

// done counts a whole completion of dir with latency lat ns (meter.record).
func (g *gate) done(dir int, lat, bytes int64) {
	g.completed++
	g.doneIOs[dir]++
	g.doneBytes[dir] += bytes
	if g.lt.On() && lat > g.lt.Target.Nanoseconds() {
		g.ltFailed++
		if g.lt.percentile() == 100 && g.err == nil && !g.endRunFailed(lat) {
			g.failWindow()
		}
	}
}

// endRunFailed is fio's lat_target_failed at the 100th percentile: any
// I/O over the target fails the window at once, and at depth 1 it ends
// the job with fio's "latency exceeds" error.
func (g *gate) endRunFailed(lat int64) bool {
	if g.qd == 1 {
		g.err = &LatencyTargetError{LatNs: lat, TargetNs: g.lt.Target.Nanoseconds()}
		return true
	}
	return false
}

// allow reports whether the job may issue one more I/O at event time t
// with busy of its I/Os in flight, and checks what fio checks between two
// I/Os (the floors, the latency window); m is the job's meter.
func (g *gate) allow(m *meter, t int64, busy int) bool {
	if g.err != nil || g.ended {
		return false
	}
	if g.floor.On() && m.measuring {
		if err := g.checkFloors(t); err != nil {
			g.err = err
			return false
		}
	}
	if g.lt.On() && m.measuring && !g.quiesce { // a draining job judges no window (fio quiesces at once)
		g.checkWindow(t)
		if g.ended {
			return false
		}
	}
	if g.think.On() && !g.thinking && g.issued > g.thinkIssued && g.thinkDue(t) {
		g.thinking, g.thinkB, g.lastThink = true, g.count(), t
	}
	if g.thinking || g.quiesce || g.fl.held {
		return false
	}
	if g.lt.On() && busy >= g.qd {
		return false
	}
	return g.fl.allow(m)
}

// thinkDue is fio's handle_thinktime's test, made after an I/O was issued.
func (g *gate) thinkDue(t int64) bool {
	th := &g.think
	if th.IOTime > 0 {
		if t-g.lastThink >= (th.IOTime + th.Time).Nanoseconds() {
			return true
		}
		if !th.BlocksSet {
			return false // fio: thinktime_blocks's default 1 does not go with iotime
		}
	}
	return g.count() >= g.thinkBlocks+int64(th.Blocks)
}

// count is the I/Os thinktime_blocks counts: issued or completed.
func (g *gate) count() int64 {
	if g.think.Issued {
		return g.issued
	}
	return g.completed
}

// held reports whether the job waits for its I/Os to drain (a think, the
// latency target's quiesce, or its flow's sleep).
func (g *gate) held() bool { return g.thinking || g.quiesce || g.fl.held }

// checkFloors is fio's check_min_rate: after a settling time of 2 s from
// the job's start, each direction's completions over each rate_cycle must
// reach its floor.
func (g *gate) checkFloors(t int64) error {
	if t-g.start < int64(2*time.Second) {
		return nil
	}
	for d := range 2 {
		if g.doneBytes[d] == 0 || g.floor.Bytes[d] == 0 && g.floor.IOPS[d] == 0 {
			continue
		}
		if g.checked[d] {
			spentMs := (t - g.lastCheck[d]) / int64(time.Millisecond)
			if spentMs < g.floor.Cycle.Milliseconds() || spentMs == 0 {
				continue
			}
			if f := g.floor.Bytes[d]; f > 0 {
				if got := (g.doneBytes[d] - g.lastByte[d]) * 1000 / spentMs; float64(got) < f {
					return &FloorError{Bytes: true, Floor: f, Got: got}
				}
			} else if got := (g.doneIOs[d] - g.lastIOs[d]) * 1000 / spentMs; float64(got) < g.floor.IOPS[d] {
				return &FloorError{Floor: g.floor.IOPS[d], Got: got}
			}
		}
		g.checked[d], g.lastCheck[d] = true, t
		g.lastIOs[d], g.lastByte[d] = g.doneIOs[d], g.doneBytes[d]
	}
	return nil
}

// checkWindow is fio's lat_target_check: once a latency_window has passed,
// the window succeeded when at least latency_percentile per cent of its
// I/Os were within the target.
func (g *gate) checkWindow(t int64) {
	if t-g.ltStart < g.lt.Window.Nanoseconds() {
		return
	}
	ios := g.completed - g.ltIOs
	if ios <= 0 {
		return // fio divides by zero here; a window without I/O judges nothing
	}
	success := float64(ios-g.ltFailed) / float64(ios) * 100
	if success >= g.lt.percentile() {
		g.succeedWindow(t)
	} else {
		g.failWindow()
	}
}

// succeedWindow is fio's lat_target_success: raise the floor of the
// search to the depth, double it until a window fails, then bisect; a
// depth that would not change settles the search.
func (g *gate) succeedWindow(t int64) {
	qd := g.qd
	g.qdLow = g.qd
	if g.qd+1 == g.qdHigh {
		// fio: a search stuck one below the ceiling raises the ceiling
		// after three successes in a row.
		if g.stable++; g.stable >= 3 {
			g.qdHigh++
			g.stable = 0
		}
	}
	if g.qdHigh != g.depthMax() {
		g.qd = (g.qd + g.qdHigh) / 2
	} else {
		g.qd *= 2
	}
	g.qd = min(g.qd, g.depthMax())
	if !g.lt.Run && g.qd == qd {
		if g.endRun {
			g.ended = true
		} else {
			g.quiesce, g.endRun = true, true // the final window starts once drained
		}
	}
	g.newWindow(t)
}

// failWindow is fio's __lat_target_failed: lower the ceiling to the depth
// and bisect toward the floor, then drain before the next window.
func (g *gate) failWindow() {
	if g.qd == 1 {
		return // fio: at depth 1 there is nowhere to go; the window goes on
	}
	g.qdHigh = g.qd
	if g.qd == g.qdLow {
		g.qdLow--
	}
	g.qd = (g.qd + g.qdLow) / 2
	g.stable = 0
	g.quiesce = true // the next window starts once the job's I/Os drained (idle)
}

// depthMax is the job's iodepth, the search's ceiling.
func (g *gate) depthMax() int { return g.maxDepth }

// newWindow is fio's lat_new_cycle: the next latency window starts at t.
func (g *gate) newWindow(t int64) {
	g.ltStart, g.ltIOs, g.ltFailed = t, g.completed, 0
}

// idle is the job's moment with nothing in flight while it is held: the
// latency target's next window starts, or the job thinks, spinning
// thinktime_spin then sleeping the rest of thinktime. It reports false
// when the job must issue no more.
func (j *job) idle() bool {
	g, m := j.gate, &j.m
	t := m.c.now()
	if g.quiesce {
		g.quiesce = false
		g.newWindow(t)
		if g.endRun && !g.final && m.measuring {
			// fio's final window at the settled depth: the job's
			// figures start again here (reset_all_stats).
			g.final = true
			m.open(t)
		}
	}
	if g.fl.held {
		g.fl.held = false
		return j.sleepUntil(t + g.fl.sleep) // fio's flow_sleep, its I/Os completed
	}
	if !g.thinking {
		return true
	}
	g.thinking = false
	g.thinkBlocks, g.thinkIssued = g.thinkB, g.issued
	spinEnd := t + g.think.Spin.Nanoseconds()
	for m.c.now() < spinEnd {
	}
	ok := j.sleepUntil(t + g.think.Time.Nanoseconds())
	if m.measuring {
		m.thought++
	}
	return ok
}

// rest is what a loop with nothing in flight does before it submits again,
// when it may (canSubmit): a job held by its gate thinks, starts its
// next latency window or sleeps its flow's flow_sleep (idle), one its flow
// holds back without a sleep looks again (flowSpin), a paced one waits
// until its next I/O is due (waitDue). It reports whether the job goes on; false also when it has
// nothing to wait for.
func (j *job) rest(canSubmit bool) bool {
	switch {
	case !canSubmit:
		return false
	case j.gate != nil && (j.gate.held() || j.gate.fl.wait):
		return j.holdOn()
	}
	return j.pace.on && j.waitDue()
}

// holdOn is what a job its gate refused does with nothing in flight: held,
// it thinks, starts its next latency window or sleeps its flow's sleep
// (idle); held back by its flow without a sleep, it looks again
// (flowSpin). It reports false when the job must issue no more.
func (j *job) holdOn() bool {
	switch g := j.gate; {
	case g.held():
		return j.idle()
	case g.fl.wait:
		return j.flowSpin()
	}
	return true
}

// sleepUntil sleeps, nothing of the job in flight, until event time end,
// following the coordinator's phase (the window may open or close
// meanwhile); false when the job must issue no more.
func (j *job) sleepUntil(end int64) bool {
	m := &j.m
	for {
		t := m.c.now()
		if t >= end {
			return true
		}
		ts := unix.NsecToTimespec(min(end-t, maxPaceSleep))
		_ = unix.Nanosleep(&ts, nil) // EINTR: look again
		t = m.c.now()
		m.reaped(t)
		m.endBatch(t, 0)
		if m.done || m.c.phase.Load() == phaseAbort {
			return false
		}
		j.maybeYield(t)
	}
}
