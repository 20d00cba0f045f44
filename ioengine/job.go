//go:build linux

package ioengine

import (
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// job is the state one job's goroutine owns: its region, offsets, buffers and meter.
type job struct {
	idx int
	// cpu0 is the CPU the run started on: a job pinned beside its
	// workers takes the (cpu0's place + idx)-th allowed CPU, so that two
	// runs at once begin where the scheduler put each, not both on the first.
	cpu0  int
	w     *Workload
	fds   []int // the job's files' descriptors, indexed as offsetGen's files
	depth int
	bs    int64 // bytes of each I/O buffer: the largest I/O (Workload.MaxBS)
	gen   offsetGen
	// invalidate, when set, drops the page cache over the job's region of
	// file f as a new pass over it begins (fio's invalidate=1 at each
	// pass: its loop_cache_invalidate and the reopen of each loop).
	invalidate func(f int)
	m          meter
	verify     verifier // stamps writes and checks reads (nil: no verify)
	content    *filler  // fills its write buffers (Workload.Buffers; nil: it writes nothing)
	// buffers says how the engine uses its buffers ("registered",
	// "unregistered: <why>"); set by newLoop.
	buffers string
	// lastYield is the event time of the last pass through the scheduler, ns.
	lastYield int64
	// threadFree is set by loops that may run on any thread between calls
	// (an io_uring ring with a single issuer may not).
	threadFree bool
	// fewThreads is set when a thread limit is near: an io_uring ring then
	// caps its kernel workers (threads of this process) at one of each kind.
	fewThreads bool
	// pace holds the job to Workload.RateIOPS.
	pace pacer
	// due is the event time the I/O nextIO took last was due to arrive
	// (its scheduled arrival under the rate; 0: no rate).
	due int64
	// gate holds it to thinktime, the latency target and the rate floors
	// (nil when the workload sets none).
	gate *gate
	// trace takes the event time of each I/O issued (Control.issueTrace).
	trace *[]int64
	// peeked is the next I/O, drawn early to learn its direction (its
	// due time depends on it); valid when hasPeek.
	peekDir  int
	peekFile int
	peekOff  int64
	peekLen  int64
	hasPeek  bool
	// left is how many I/Os the job may still issue (Control.IOsPerJob);
	// -1: no count. Taking the last one ends the job's submissions.
	left int64
	// leftBytes is how many bytes the job may still issue
	// (Control.BytesPerJob; 0: no budget): the I/O that uses them up is
	// its last, and left drops to 0.
	leftBytes int64
	// prio picks each I/O's priority (Workload.Prio).
	prio prioChooser
	// loops is the passes the job has still to make, this one included
	// (Control.Loops); passLeft the I/Os left in the pass when it is
	// ending and another follows (0: not ending).
	loops    int
	passLeft int64
	// loopsRepeat: each pass draws what the first drew
	// (Control.LoopsRepeat).
	loopsRepeat bool
}

// pacer holds a job to a rate per direction (fio's rate_iops, with fio's
// default rate_process=linear): the next I/O of direction d may be issued
// from event time next[d] on, and each one issued moves it on by
// interval[d]. As in fio, a job that fell behind (a slow device) catches up
// as fast as it can.
type pacer struct {
	on       bool
	interval [2]int64 // ns between two I/Os of a direction; 0: no cap
	next     [2]int64 // event time, ns
	// poisson draws each gap from an exponential distribution of mean
	// interval (fio's rate_process=poisson), from rng[d].
	poisson bool
	rng     [2]*rand.Rand
}

// newPacer returns the pacer of a workload's per-job rates (I/Os per second
// per direction; 0: no cap).
func newPacer(rate [2]float64) pacer {
	var p pacer
	for d, r := range rate {
		if r > 0 {
			p.interval[d] = max(int64(float64(time.Second)/r), 1)
			p.on = true
		}
	}
	return p
}

// newPoissonPacer returns newPacer's pacer drawing its gaps as fio's
// rate_process=poisson does, from streams seeded by seed and the job.
func newPoissonPacer(rate [2]float64, seed uint64, job int) pacer {
	p := newPacer(rate)
	p.poisson = true
	for d := range p.rng {
		p.rng[d] = rand.New(rand.NewPCG(seed, uint64(job)<<8|uint64(d)|0x9e3779b97f4a7c15))
	}
	return p
}

// gap is the time from one due time of direction d to the next: the
// interval, or under poisson an exponential draw of mean interval (fio's
// usec_for_io: (1e6/iops) × −ln U).
func (p *pacer) gap(d int) int64 {
	if !p.poisson {
		return p.interval[d]
	}
	return int64(float64(p.interval[d]) * -math.Log(1-p.rng[d].Float64()))
}

// begin sets the job's first due time, event time t.
func (p *pacer) begin(t int64) { p.next = [2]int64{t, t} }

// peekIO returns the next I/O's direction without taking it.
func (j *job) peekIO() (dir int) {
	if !j.hasPeek {
		j.peekDir, j.peekFile, j.peekOff, j.peekLen = j.gen.next()
		j.hasPeek = true
	}
	return j.peekDir
}

// nextIO takes the next I/O: its direction, the descriptor of its file, its
// offset and its size; it counts the I/O against the rate.
func (j *job) nextIO() (dir, fd int, off, n int64) {
	dir = j.peekIO()
	j.hasPeek = false
	file, off, n := j.peekFile, j.peekOff, j.peekLen
	if j.gen.newPass {
		j.gen.newPass = false
		if j.invalidate != nil {
			j.invalidate(file)
		}
	}
	j.due = 0
	if j.pace.on {
		j.due = j.pace.next[dir]
		j.pace.next[dir] += j.pace.gap(dir)
	}
	if j.gate != nil {
		j.gate.issued++
	}
	readBack := j.backlogRead()
	if j.leftBytes > 0 && !readBack {
		if j.leftBytes -= n; j.leftBytes <= 0 {
			j.left = 1 // this I/O is the last
		}
	}
	j.endingPass()
	if j.trace != nil {
		*j.trace = append(*j.trace, j.m.c.now())
	}
	switch {
	case j.left > 0 && !readBack:
		j.left--
		if j.left == 0 && !j.drainBacklog() {
			j.m.done = true // the loops submit no more and drain what is in flight
		}
	case j.left == 0 && readBack && !j.drainBacklog():
		j.m.done = true // the last write read back
	}
	if j.passLeft > 0 {
		if j.passLeft--; j.passLeft == 0 {
			// fio's next loop: the pass starts over at the region's
			// start, the I/O drawn past its end dropped.
			j.loops--
			j.gen.restartPass(j.loopsRepeat)
			j.hasPeek = false
		}
	}
	return dir, j.fds[file], off, n
}

// loopCut gives the job, whose loop in strided zones ended at the I/O just
// taken (zoneLoops.cut), the shares of the loops left, the one the I/O
// drawn next begins among them.
func (j *job) loopCut() {
	l := &j.gen.zone.loops
	l.cut = false
	j.left = -1
	if l.ios > 0 {
		j.left = 1 + int64(l.left+1)*l.ios
	}
	if l.bytes > 0 {
		j.leftBytes = int64(l.left+1) * l.bytes
	}
}

// endingPass notes where the job's pass ends (Control.PassEnds): the next
// I/O, drawn now, starting past the region's end ends it with the one
// being taken; the one drawn next ending its direction's pass (rw=rw:8k)
// is its last. The last pass ends the job; one with more to run
// (Control.Loops) ends there and the next starts over (passLeft). A loop
// in strided zones that ended (zoneLoops.cut) hands on to the next
// (loopCut).
func (j *job) endingPass() {
	if !j.gen.passEnds || j.left == 0 || j.passLeft > 0 {
		return
	}
	var last int64 // I/Os left in the pass, this one included
	if j.peekIO(); j.gen.ended {
		last = 1
	} else if j.gen.zone != nil && j.gen.zone.loops.cut {
		j.loopCut()
		return
	} else if j.gen.lastOfPass {
		last = 2 // the I/O drawn next is the last
	}
	switch {
	case last == 0:
	case j.loops > 1:
		j.passLeft = last
	case j.left > last || j.left < 0:
		j.left = last
	}
}

// mayIssue reports whether the job may issue its next I/O at event time t
// with busy of its I/Os in flight: it has I/Os left, the next is due
// (RateIOPS), and the gate lets it (thinktime, the latency target's
// depth). A gate that ends the job (its search settled, a floor not met)
// ends its submissions.
func (j *job) mayIssue(t int64, busy int) bool {
	if j.left == 0 && !j.backlogReady() || j.pace.on && j.dueIn(t) > 0 {
		return false
	}
	if j.gate == nil {
		return true
	}
	ok := j.gate.allow(&j.m, t, busy)
	if j.gate.ended || j.gate.err != nil {
		j.m.done = true // the loops submit no more and drain what is in flight
	}
	return ok
}

// dueIn returns how long, ns, until the next I/O may be issued at event
// time t; ≤ 0 means now (always without a rate). Like fio, a job that
// reads and writes and is ahead of the rate in the next I/O's direction
// turns it into the other direction when that one is due sooner.
func (j *job) dueIn(t int64) int64 {
	if !j.pace.on {
		return 0
	}
	dir := j.peekIO()
	if j.gen.reads && j.gen.writes && j.pace.next[dir] > t && j.pace.next[1-dir] < j.pace.next[dir] {
		dir = 1 - dir
		j.peekDir = dir
	}
	return j.pace.next[dir] - t
}

// maxPaceSleep bounds one sleep of a paced job, so that it follows the end
// of the window and an abort within this long.
const maxPaceSleep = int64(5 * time.Millisecond)

// waitDue sleeps, with no I/O of the job in flight, until its next I/O is
// due. It follows the coordinator's phase while it waits (the window may
// open or close then) and reports false when the job must submit no more.
// The wait is outside every I/O's latency: an I/O's time starts when it is
// issued, after the wait, as in fio.
func (j *job) waitDue() bool {
	m := &j.m
	for {
		t := m.c.now()
		d := j.dueIn(t)
		if d <= 0 {
			return true
		}
		m.heldBack()
		ts := unix.NsecToTimespec(min(d, maxPaceSleep))
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

// jobLoop is one engine's I/O loop for one job, built on the job's locked OS thread.
type jobLoop interface {
	// run issues I/Os until the window ends (m.done), then drains in-flight
	// I/Os without recording them. It returns a fatal error (I/O failure,
	// stall, syscall failure); the coordinator's phaseAbort ends it at once.
	run(j *job) error
	// close releases the ring/context and buffers; abandoned is true when
	// I/Os may still be in flight (do not free their buffers).
	close(abandoned bool)
}

// newLoopFunc builds an engine's loop for a job; it runs on the job's OS thread.
type newLoopFunc func(j *job) (jobLoop, error)

// yieldEvery is how often, in ns of event time, a job's goroutine passes
// through the Go scheduler.
//
// A job goroutine is locked to its thread and spends nearly all its time in
// blocking syscalls, so it never reschedules on its own. The runtime's system
// monitor then takes it for a goroutine running for over 10 ms and, from that
// moment, takes its P away at every tick it finds the thread in a syscall
// (every 20 µs): each return from a syscall must win a P back under the
// scheduler lock, and the monitor itself never backs off from 20 µs sleeps.
// Measured on a 2-vCPU VM at libaio QD 4: ~5,900 monitor wakeups/s and twice
// fio's context switches per I/O; with the pass below, ~170/s. One pass through the scheduler every few ms resets the
// monitor's view of the goroutine and lets it sleep up to 10 ms again.
const yieldEvery = int64(4 * time.Millisecond)

// maybeYield passes through the scheduler when yieldEvery has elapsed since
// the last time; t is the current event time, ns.
//
// A goroutine locked to its thread yields by handing its P to another thread
// and sleeping until that thread hands it back: two thread switches, after
// which the scheduler often moves the thread to the other CPU, away from the
// device's interrupts. Loops whose kernel object is not tied to the thread
// (AIO contexts, plain files) set threadFree, and then yield unlocked: the
// same thread picks the goroutine up again at once, without a switch.
func (j *job) maybeYield(t int64) {
	if t-j.lastYield < yieldEvery {
		return
	}
	if j.threadFree {
		runtime.UnlockOSThread()
		runtime.Gosched()
		runtime.LockOSThread()
	} else {
		runtime.Gosched()
	}
	j.lastYield = t
}

// inlineStreakLimit is how many submissions in a row must complete during
// their own submitting call before a loop stops submitting one I/O per call.
const inlineStreakLimit = 8

// streamPolicy decides whether a loop submits each completion's replacement
// in its own call (the default, fio's iodepth_batch_submit=1) or in batches.
// A target that completes I/Os synchronously inside the submitting call
// (tmpfs, cached pages) gains nothing from the former and pays a system call
// per I/O, so after inlineStreakLimit such submissions in a row the policy
// turns batching on for the rest of the run.
type streamPolicy struct {
	inlineStreak int
	batch        bool
}

// on reports whether replacements are submitted one per call.
func (p *streamPolicy) on() bool { return !p.batch }

// observe records whether the last single submission completed inline.
func (p *streamPolicy) observe(inline bool) {
	if !inline {
		p.inlineStreak = 0
		return
	}
	p.inlineStreak++
	if p.inlineStreak >= inlineStreakLimit {
		p.batch = true
	}
}
