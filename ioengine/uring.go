//go:build linux

package ioengine

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// iowqWorkersUnderLimit is how many kernel workers of each kind (bounded,
// unbounded) a ring may start when a thread limit is near.
const iowqWorkersUnderLimit = 1

// waitSlice bounds each blocking wait so a job notices an abort or a stall.
const waitSlice = 250 * time.Millisecond

// uringSlot is the state of one I/O slot.
type uringSlot struct {
	start int64 // event time of submission, ns
	// due is the event time the I/O was due to arrive by its job's rate
	// (its scheduled arrival; 0: no rate): its response time runs from it.
	due int64
	off int64
	n   int64 // bytes
	dir int32
	pr  prioPick // the priority it went at (Workload.Prio)
}

// uringLoop is one job's ring, buffers and slots.
type uringLoop struct {
	r     *ring
	ar    *arena
	fixed bool
	arg   *uringGeteventsArg // in the arena: the kernel reads it by address
	ts    *kernelTimespec
	// tick is the wake-up timer's period (waitSlice), in the arena; nil
	// without EXT_ARG (kernels before 5.11), where waits have no bound,
	// and on a polled (IOPOLL) ring, whose waits poll.
	tick *kernelTimespec
	// boundArg bounds a wait for several completions (waitFor) to
	// maxReapDelay for the boundWaits waits after one that took a
	// quarter of it (slowHold); nil without EXT_ARG.
	boundArg   *uringGeteventsArg
	boundWaits int
	entries    uint32 // SQ entries: the timer needs one beyond the depth
	slots      []uringSlot
	free       []uint16
	opRead     uint8
	opWr       uint8
	// addrs and sqeLen are each slot's SQE addr and len: its buffer and
	// the block size, or (READV/WRITEV) its iovec and 1.
	addrs  []uint64
	sqeLen uint32
	// iovs are the slots' iovecs when SQEs name them (READV/WRITEV), each
	// I/O's size set in its own.
	iovs []iovec
	// fixedFiles: SQEs name the job's files by their index in the
	// registered set (IOSQE_FIXED_FILE), not by descriptor.
	fixedFiles bool
	// stream decides between one submission per completion and batches.
	stream streamPolicy
	// unpin is the job thread's CPU set before pinBesideWorkers (nil: not
	// pinned); alone: pinned with no other job of the run on its CPU.
	unpin *unix.CPUSet
	alone bool
	// probed: whether completions come through io-wq has been looked at
	// (probeIOWQ); viaIOWQ is the answer, oneWorker whether one worker did
	// them all, reapedIOs the completions it counts.
	probed             bool
	viaIOWQ, oneWorker bool
	reapedIOs          int64
	iowqNs0            int64 // the job thread's workers' CPU time at setup
}

// currentCPU is the CPU the calling thread runs on (getcpu; 0 if unknown).
func currentCPU() int {
	var cpu uint32
	if _, _, e := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0); e != 0 {
		return 0
	}
	return int(cpu)
}

// pinMaxDepth is the deepest queue of a job that is pinned beside its
// workers when the jobs are fewer than the CPUs: deeper, a job's several
// workers need the other CPUs. Measured on tmpfs, 2 CPUs, one job: pinned
// 150k/187k/231k IOPS at iodepth 1/2/4 against 23k/45k/99k free (an
// earlier engine). Today, at iodepth 8 and 16 the pinned job (waiting for
// all of its ring, waitFor) did as well or better: tmpfs at load 18–25,
// 308k, 263k against 212k, 260k at 8, 366k, 367k against 301k, 316k at 16;
// zram at 16, 392k, 394k IOPS at 2.6 µs of CPU per I/O against 283k, 283k
// at 3.3 µs free (fio 161k, 137k at 6.1–6.4 µs; load 26–34), where the
// free job's sleeps woke across CPUs (bench/RESULTS.md). At 64 neither
// won (tmpfs 261k, 541k pinned against 350k, 486k free).
const pinMaxDepth = 16

// splitMinDepth is the shallowest queue of a job alone on its CPU (fewer
// jobs than CPUs) whose ring's workers run on the other CPUs rather than
// beside it: the job, waiting for a quarter of its ring (waitFor), sleeps
// while its worker still has three quarters queued, and the worker does
// reads on its own CPU meanwhile. On zram, 2 CPUs, 16×1 (three rounds of
// 2 s each, bench/ab.py): 404k–409k IOPS at 3.5–3.6 µs of CPU per I/O
// against 368k–372k at 2.7 beside it (fio 413k–421k at 4.3–4.4); waiting
// for half, 270k; for one, 357k; the worker free on both CPUs, 249k. At
// 8×1 the job beside its worker did better (334k against 185k), as it
// does at 4×1 and below.
const splitMinDepth = 16

// pinBesideWorkers runs the job's thread and its ring's kernel workers on
// one CPU, the job's share of those this process may use (job i on the
// i-th after the one the run started on, round robin), when there are at least as many jobs as CPUs or the
// job's queue is shallow (pinMaxDepth). On a target whose every read goes
// to a worker (tmpfs cannot complete one without blocking), each I/O is a
// hand-off to the worker and one back: on one CPU two context switches;
// on two, two wake-ups across CPUs, which measured 1k–48k reschedule
// interrupts per 2 s at 1×4 and a third fewer IOPS (bench/RESULTS.md).
// A job alone on its CPU with a queue of splitMinDepth or more keeps its
// CPU and gives its workers the others. Kernels without
// IORING_REGISTER_IOWQ_AFF (before 5.14) leave both free.
func (u *uringLoop) pinBesideWorkers(j *job) {
	var allowed unix.CPUSet
	// A paced job (rate) is not pinned: its pace, not the CPU, sets its
	// IOPS, and pinned for its first I/Os (before probeIOWQ looks) on a
	// busy CPU it woke late and caught up in bursts.
	if j.pace.on || unix.SchedGetaffinity(0, &allowed) != nil || allowed.Count() < 2 {
		return
	}
	if j.w.NumJobs < allowed.Count() && j.depth > pinMaxDepth {
		return
	}
	var cpus []int
	start := 0
	for cpu := 0; cpu < len(allowed)*64; cpu++ {
		if allowed.IsSet(cpu) {
			if cpu == j.cpu0 {
				start = len(cpus)
			}
			cpus = append(cpus, cpu)
		}
	}
	var one unix.CPUSet
	cpu := cpus[(start+j.idx)%len(cpus)]
	one.Set(cpu)
	alone := j.w.NumJobs < allowed.Count()
	workers := one
	if alone && j.depth >= splitMinDepth {
		workers = allowed
		workers.Clear(cpu)
	}
	if u.r.register(uringRegisterIOWQAff, unsafe.Pointer(&workers), int(unsafe.Sizeof(workers))) != nil {
		return
	}
	if unix.SchedSetaffinity(0, &one) == nil {
		u.unpin, u.alone = &allowed, alone && j.depth < splitMinDepth
	}
}

// ringSetupFor maps fio's io_uring options to the ring's setup.
func ringSetupFor(o UringOptions) ringSetup {
	rs := ringSetup{fast: true}
	if o.HiPri {
		rs.flags |= uringSetupIOPoll
	}
	if o.SQThreadPoll {
		rs.flags |= uringSetupSQPoll
		if o.SQThreadPin {
			rs.flags |= uringSetupSQAff
			rs.sqCPU = uint32(o.SQThreadCPU)
		}
	}
	return rs
}

func newUringLoop(j *job) (jobLoop, error) { return openUringLoop(j, false) }

// openUringLoop sets up job j's ring and buffers. badRegister (tests only)
// hands the kernel a NULL buffer to register, so the real kernel refuses
// the registration and the unregistered fallback runs.
func openUringLoop(j *job, badRegister bool) (jobLoop, error) {
	o := j.w.Uring
	// One entry more than the depth, for the ring's wake-up timer (see
	// armTimer), where the kernel's limit leaves room.
	entries := uint32(1)
	for entries < uint32(j.depth)+1 && entries < MaxURingEntries {
		entries <<= 1
	}
	r, err := newRing(entries, ringSetupFor(o))
	if err != nil {
		return nil, fmt.Errorf("job %d: %w", j.idx, describeSetupErr(err, o))
	}
	ctl := int(2*unsafe.Sizeof(uringGeteventsArg{})+3*unsafe.Sizeof(kernelTimespec{})) + 128 + j.depth*int(unsafe.Sizeof(iovec{}))
	ar, err := newArena(j.depth, int(j.bs), ctl)
	if err != nil {
		r.close()
		return nil, fmt.Errorf("job %d: %w", j.idx, err)
	}
	j.content.start(ar.bufs, j.bs)
	if j.fewThreads {
		// io_uring's workers are threads of this process: under a thread
		// limit (RLIMIT_NPROC, pids.max) unbounded ones would take the
		// threads the Go runtime needs. Kernels before 5.15 lack the call
		// and keep their defaults.
		counts := [2]uint32{iowqWorkersUnderLimit, iowqWorkersUnderLimit}
		_ = r.register(uringRegisterIOWQMaxWorkers, unsafe.Pointer(&counts[0]), 2)
	}
	u := &uringLoop{r: r, ar: ar, slots: make([]uringSlot, j.depth), free: make([]uint16, 0, j.depth), entries: r.params.sqEntries,
		addrs: make([]uint64, j.depth), sqeLen: uint32(j.bs), opRead: uringOpRead, opWr: uringOpWrite}
	for i := j.depth - 1; i >= 0; i-- {
		u.free = append(u.free, uint16(i))
	}
	off := 0
	if r.hasExtArg {
		u.arg = &carve[uringGeteventsArg](ar, &off, 1)[0]
		u.ts = &carve[kernelTimespec](ar, &off, 1)[0]
		u.ts.sec, u.ts.nsec = int64(waitSlice/time.Second), int64(waitSlice%time.Second)
		u.arg.ts = uint64(uintptr(unsafe.Pointer(u.ts)))
		if !o.HiPri {
			u.tick = &carve[kernelTimespec](ar, &off, 1)[0]
			u.tick.sec, u.tick.nsec = int64(waitSlice/time.Second), int64(waitSlice%time.Second)
		}
		u.boundArg = &carve[uringGeteventsArg](ar, &off, 1)[0]
		bound := &carve[kernelTimespec](ar, &off, 1)[0]
		bound.sec, bound.nsec = int64(maxReapDelay/time.Second), int64(maxReapDelay%time.Second)
		u.boundArg.ts = uint64(uintptr(unsafe.Pointer(bound)))
	}
	iovs := carve[iovec](ar, &off, j.depth)
	for i := range iovs {
		iovs[i] = iovec{base: uintptr(ar.addr(i)), len: uintptr(j.bs)}
		u.addrs[i] = ar.addr(i)
	}
	var fs unix.Statfs_t
	var st unix.Stat_t
	blk := unix.Fstat(j.fds[0], &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFBLK
	// A device node's fstatfs names /dev's devtmpfs: only a file's says tmpfs.
	tmpfs := !blk && unix.Fstatfs(j.fds[0], &fs) == nil && fs.Type == unix.TMPFS_MAGIC
	// Pinned from the start where pinBesideWorkers says, for workers
	// started later keep the CPUs they start with; unpinned again once
	// the job's completions prove not to come through io-wq (probeIOWQ).
	u.pinBesideWorkers(j)
	u.iowqNs0, _ = iowqRunNs("/proc/self/task", unix.Gettid())
	if err := u.setUp(j, iovs, tmpfs, badRegister); err != nil {
		u.close(false)
		return nil, fmt.Errorf("job %d: %w", j.idx, err)
	}
	return u, nil
}

// setUp registers what fio's options (or qdsweep's choice) ask: the
// buffers, the files, vectored I/O.
func (u *uringLoop) setUp(j *job, iovs []iovec, tmpfs, badRegister bool) error {
	o := j.w.Uring
	if err := u.registerBuffers(j, iovs, tmpfs, badRegister); err != nil {
		return err
	}
	if o.NonVectored == Off && !u.fixed {
		// fio's nonvectored=0: one iovec per I/O (READ_FIXED takes none).
		u.opRead, u.opWr, u.sqeLen, u.iovs = uringOpReadv, uringOpWritev, 1, iovs
		for i := range iovs {
			u.addrs[i] = uint64(uintptr(unsafe.Pointer(&iovs[i])))
		}
	}
	if o.RegisterFiles {
		fds := make([]int32, len(j.fds))
		for i, fd := range j.fds {
			fds[i] = int32(fd)
		}
		if err := u.r.register(uringRegisterFiles, unsafe.Pointer(&fds[0]), len(fds)); err != nil {
			return &UringError{Setting: UringRegisterFiles, Fix: UringFixDrop, Err: err,
				Cause: fmt.Sprintf("IORING_REGISTER_FILES: %v (RLIMIT_NOFILE?)", err)}
		}
		u.fixedFiles = true
	}
	return nil
}

// registerBuffers registers the job's buffers as fio's fixedbufs asks, or
// where qdsweep chooses to (Auto: except on tmpfs, and deeper than the
// kernel allows), and says how the buffers are used in j.buffers.
func (u *uringLoop) registerBuffers(j *job, iovs []iovec, tmpfs, badRegister bool) error {
	c := j.w.Uring.FixedBufs
	switch {
	case c == Off:
		j.buffers = "unregistered: the job asked for no registered buffers"
		return nil
	case c == Auto && tmpfs:
		// Fixed buffers save pinning pages for DMA; tmpfs copies from
		// memory, and plain READ/WRITE measured faster there.
		j.buffers = "unregistered: tmpfs does no DMA, fixed buffers buy nothing there"
		return nil
	case j.depth > maxRegBuffers:
		if c == On {
			return &UringError{Setting: UringFixedBufs, Fix: UringFixDepth, N: maxRegBuffers,
				Cause: fmt.Sprintf("iodepth %d is above the kernel's %d registered buffers", j.depth, maxRegBuffers)}
		}
		j.buffers = fmt.Sprintf("unregistered: iodepth %d is above the kernel's %d registered buffers", j.depth, maxRegBuffers)
		return nil
	}
	if badRegister {
		iovs[0].base = 0 // a real kernel refuses a NULL buffer
	}
	err := u.r.register(uringRegisterBuffers, unsafe.Pointer(&iovs[0]), len(iovs))
	iovs[0].base = uintptr(u.ar.addr(0))
	switch {
	case err != nil && c == On:
		return &UringError{Setting: UringFixedBufs, Fix: UringFixLimit, Err: err,
			Cause: fmt.Sprintf("IORING_REGISTER_BUFFERS: %v (RLIMIT_MEMLOCK?)", err)}
	case err != nil:
		j.buffers = fmt.Sprintf("unregistered: IORING_REGISTER_BUFFERS: %v (RLIMIT_MEMLOCK?)", err)
	default:
		u.fixed = true
		u.opRead, u.opWr = uringOpReadFixed, uringOpWriteFixed
		j.buffers = "registered"
	}
	return nil
}

// describeSetupErr names the option behind a ring the kernel would not set up.
func describeSetupErr(err error, o UringOptions) error {
	switch {
	case o.SQThreadPoll && errors.Is(err, unix.EPERM):
		return &UringError{Setting: UringSQThreadPoll, Fix: UringFixDrop, Err: err,
			Cause: fmt.Sprintf("%v (kernels before 5.11 allow it to root only)", err)}
	case o.SQThreadPin && errors.Is(err, unix.EINVAL):
		return &UringError{Setting: UringSQThreadCPU, Value: o.SQThreadCPU, ShowValue: true, Fix: UringFixOtherCPU, Err: err,
			Cause: fmt.Sprintf("%v (not an online CPU this process may use)", err)}
	case o.SQThreadPoll || o.HiPri:
		// The settings that changed io_uring_setup's flags.
		var also []UringSetting
		if o.HiPri {
			also = append(also, UringHiPri)
		}
		if o.SQThreadPoll {
			also = append(also, UringSQThreadPoll)
		}
		return &UringError{Setting: also[0], Fix: UringFixNone, Err: err, Cause: err.Error(), Also: also}
	}
	return err
}

func (u *uringLoop) close(abandoned bool) {
	if u.unpin != nil {
		_ = unix.SchedSetaffinity(0, u.unpin) // the thread goes back to the runtime as it came
	}
	u.r.close()
	if !abandoned {
		u.ar.close()
	}
}

// prep fills up to n SQEs for free slots, stamped with event time t0, and
// publishes them in the SQ ring; io_uring_enter submits them. A paced job
// stops at the first I/O not yet due, a counted one at its last I/O. It
// returns how many it filled.
func (u *uringLoop) prep(j *job, n int, t0 int64) int {
	r := u.r
	k := 0
	for ; k < n; k++ {
		if !j.mayIssue(t0, j.depth-len(u.free)) {
			break
		}
		slot := u.free[len(u.free)-1]
		u.free = u.free[:len(u.free)-1]
		dir, fd, off, size := j.nextIO()
		s := &u.slots[slot]
		s.start, s.due, s.off, s.dir, s.n = t0, j.due, off, int32(dir), size
		s.pr = j.prio.pick(dir, size)
		op := u.opRead
		if dir == dirWrite {
			op = u.opWr
			j.fillWrite(u.ar.buf(int(slot))[:size], off)
		}
		sqeLen := uint32(size)
		if u.iovs != nil {
			sqeLen, u.iovs[slot].len = u.sqeLen, uintptr(size)
		}
		sqe := r.getSQE()
		*sqe = uringSQE{opcode: op, ioprio: s.pr.val, fd: int32(fd), off: uint64(off), addr: u.addrs[slot], len: sqeLen, userData: uint64(slot)}
		if u.fixed {
			sqe.bufIndex = slot
		}
		if u.fixedFiles {
			sqe.fd, sqe.flags = int32(j.peekFile), iosqeFixedFile
		}
	}
	r.flushSQ()
	return k
}

// complete handles one CQE at event time t1 and frees its slot; it returns
// the error that must end the job, if any.
func (u *uringLoop) complete(j *job, cqe *uringCQE, t1 int64) error {
	m := &j.m
	slot := uint16(cqe.userData)
	s := &u.slots[slot]
	m.retire(s.start)
	var err error
	if int64(cqe.res) == s.n {
		if bad, verr := j.verifyRead(int(s.dir), u.ar.buf(int(slot))[:s.n], s.off); bad {
			err = verr
		} else {
			m.record(int(s.dir), t1-s.start, s.n, t1, s.off, s.pr)
			m.arrived(s.due, t1)
		}
	} else {
		err = m.ioFailed(int(s.dir), s.off, int64(cqe.res), s.n)
	}
	u.free = append(u.free, slot)
	return err
}

// run keeps depth I/Os in flight. Like fio's defaults
// (iodepth_batch_submit=1, iodepth_batch_complete_min=1) it submits each
// completion's replacement at once, in its own io_uring_enter, before it
// looks at the next completion: on a virtual disk this keeps the host busy
// while the guest handles the rest of a batch, where submitting a whole
// batch's replacements together measured up to a third fewer IOPS at QD 16
// (see bench/RESULTS.md). On a target that completes I/Os during submission
// (tmpfs, the page cache) one call per I/O only costs CPU: the stream policy
// notices and submits whole batches from then on.
func (u *uringLoop) run(j *job) error {
	m := &j.m
	c := m.c
	r := u.r
	var f uringFlight
	// Waits are bounded (an abort or a stall is noticed within waitSlice)
	// by a timer that completes into the ring every waitSlice, rather than
	// by a timeout on each wait: the kernel arms an hrtimer per timed wait,
	// which measured ~0.8 µs of CPU per I/O with 16 jobs at iodepth 1
	// (9.81 against 8.98 s per million I/Os). Paced jobs keep timed waits,
	// which end when their next I/O is due.
	waitArg, timer, err := u.startTimer(j)
	if err != nil {
		return err
	}
	f.timer = timer
	for {
		t0 := c.now()
		if f.rearm && f.pending == 0 {
			if err := u.armTimer(); err != nil {
				return err
			}
			f.rearm = false
		}
		// SQEs the kernel did not take last time (EAGAIN, EBUSY) enter
		// flight with this call: their latency starts now too (none: a
		// no-op).
		u.restamp(f.pending, t0)
		if u.canSubmit(m, f.fatal) {
			k := u.prep(j, len(u.free), t0)
			f.pending += k
			f.inflight += k
		}
		if f.inflight == 0 {
			if j.rest(u.canSubmit(m, f.fatal)) {
				continue // paced, thought, or drained for the latency target's next window
			}
			return f.fatal
		}
		if j.pace.on && u.ts != nil {
			u.pacedWait(j, u.canSubmit(m, f.fatal))
		}
		if f.pending > 0 {
			// The replacements this call submits are in flight while it
			// waits: published so (the ramp's full-queue test samples it).
			m.submitting(t0, f.pending)
		}
		want := u.waitFor(j, f.inflight)
		n, err := r.enter(uint32(f.pending), want, uringEnterGetEvents, u.waitArgFor(want, waitArg))
		if n > 0 {
			m.submitted(t0, n)
			f.pending -= n
		}
		if err != nil && enterFailed(err) { // the nil test stays inline on the hot path
			return fmt.Errorf("io_uring_enter: %w", err)
		}
		t1 := c.now()
		u.waited(t1 - t0)
		head, tail := r.peekCQ()
		if err := u.stalled(j, head, tail, t1, f.inflight); err != nil {
			return err
		}
		m.reaped(t1)
		done, t1, err := u.reap(j, &f, head, tail, t1)
		if err != nil {
			return err
		}
		if done > 0 {
			m.endBatch(t1, done)
			if u.reapedIOs += int64(done); !u.probed {
				u.probeIOWQ()
			}
		}
		j.maybeYield(t1)
		if c.phase.Load() == phaseAbort {
			return f.fatal
		}
	}
}

// uringFlight is a job's I/O on its ring: in flight (submitted or
// prepared), prepared and not yet taken by the kernel (pending), the
// first error that ends the job (fatal), and whether the ring's timer
// fired and must be armed again (rearm; timer: the job has one).
type uringFlight struct {
	inflight, pending int
	fatal             error
	rearm, timer      bool
}

// reap handles the completions visible from head to tail (t1: when they
// were reaped) and advances the ring past them: each completes its I/O,
// the ring's timer asks for a rearm, and when streaming the replacement
// of a completion is submitted at once. It returns the completions handled
// since the last midBatch and the time of the last reap.
func (u *uringLoop) reap(j *job, f *uringFlight, head, tail uint32, t1 int64) (done int, _ int64, err error) {
	m, r := &j.m, u.r
	for head != tail {
		if r.cqe(head).userData == timerTag {
			head++
			f.rearm = f.timer
			continue
		}
		if e := u.complete(j, r.cqe(head), t1); e != nil && f.fatal == nil {
			f.fatal = e
		}
		head++
		f.inflight--
		done++
		// The last visible completion's replacement goes with the
		// next blocking enter, which submits and waits in one call.
		streaming := head != tail && u.stream.on() && f.pending == 0
		if streaming {
			r.cqAdvanceTo(head)
			m.midBatch(t1, done) // may end submission: check canSubmit after
			done = 0
		}
		if streaming && u.canSubmit(m, f.fatal) && j.dueIn(m.c.now()) <= 0 {
			// Submit the replacement now; the same call flushes
			// completions that arrived meanwhile.
			k, left, newTail, err := u.streamSubmit(j, tail)
			if err != nil {
				return done, t1, err
			}
			f.inflight += k
			f.pending += left
			tail = newTail
			t1 = m.c.now()
			m.reaped(t1)
		}
	}
	r.cqAdvanceTo(head)
	return done, t1, nil
}

// waitFor is how many completions a blocking wait asks for with inflight
// I/Os in flight. One, except where completions come through io-wq and
// one worker does the ring's reads one after another (the device sees one
// at a time whatever the job waits for). Then a job pinned alone beside
// its worker (one CPU, no other job on it: the worker runs only while the
// job waits) waits for all of them (below splitMinDepth); a job free of
// its worker's CPU (one job, deeper than pinMaxDepth) for half; and a job
// pinned with others, or on a CPU of its own with its workers on the
// others (splitMinDepth), for a quarter. The job wakes once per several
// completions while its worker still has reads queued, and the I/Os
// between a reap and their replacements' submission stay few (a whole
// ring of them, 8 jobs of 32 on 2 CPUs, kept 234 of 256 in flight on
// tmpfs at load 36). On zram, 4×1 (pinned alone) measured 0.51 context
// switches and 5.28 µs of CPU per I/O against 1.33 and 9.56 waiting for
// one.
//
// The free job's wake-up is sent by its worker, from the other CPU, at
// the completion that fills the wait: it is the worker, doing every read
// and so setting the ring's IOPS, that pays for it. Waiting for half, the
// worker woke the job once per 8 completions at 16×1 (measured while
// 16×1 ran free; it is pinned now, pinMaxDepth), not 4: on zram at
// load 12, 0.12 sleeping waits per I/O against 0.22, 3.1–3.2 µs of CPU
// per I/O against 4.0–4.4, 236k–247k IOPS against 196k–221k (fio 172k–
// 177k); the worker still ran dry 0.003 times per I/O (0.006–0.012 for
// a quarter; fio's 0.10–0.11). Waiting for three quarters cut the sleeps
// to 0.08 but left 207k–218k (bench/RESULTS.md).
func (u *uringLoop) waitFor(j *job, inflight int) uint32 {
	switch {
	case !u.oneWorker || j.pace.on:
		return 1
	case u.alone:
		return uint32(max(1, inflight))
	case u.unpin == nil:
		return uint32(max(1, inflight/2))
	}
	return uint32(max(1, inflight/4))
}

// maxReapDelay bounds a wait for several completions (waitFor): the
// completions that came meanwhile are counted when it ends, so a window's
// edge, which falls between reaps, is this close to where the device put
// it. Unbounded, a wait for half the ring of 256 (one io-wq worker handing
// a loop device of 128 requests those it had no room for) took 91 ms at
// 1,400 IOPS, and a 0.1 s window counted 128 I/Os where the device
// completed 142-144. Waits are bounded for slowHold waits after one that
// took a quarter of it, each slow one holding the bound again: a bounded
// wait on such a device ends by its timer, at 1 ms, slow itself, so the
// bound holds there for good (bounded only after the last slow wait, a
// wait that filled at once left the next unbounded: 470-499 I/Os counted
// in 1 s windows where the volume answered 331-441). Where waits fill in
// tens of µs (zram, tmpfs: 16 reads of one worker) the bound lapses
// after a slow one (the first, which starts the worker, or one the
// machine's load held up): a bounded wait arms the kernel's hrtimer, and
// 16x1 io_uring reads of zram held bounded for good (as from 102c0c9 to
// this change) ran 0.75-0.79M IOPS at 1.31-1.38 s of CPU per million I/Os
// against 1.05-1.12M at 0.94-0.97 unbounded (two runs of 5 and 7
// alternating rounds of 2 s, load 1-2.6).
const maxReapDelay = time.Millisecond

// slowHold is how many waits the bound holds for after a slow one
// (maxReapDelay).
const slowHold = 64

// waited counts a wait that took ns: the bound holds slowHold waits after
// a slow one (see maxReapDelay).
func (u *uringLoop) waited(ns int64) {
	u.boundWaits = max(u.boundWaits-1, 0)
	if ns > int64(maxReapDelay/4) {
		u.boundWaits = slowHold
	}
}

// waitArgFor is the argument of a wait for want completions: the run's
// (waitArg), or boundArg while waits are slow (see maxReapDelay).
func (u *uringLoop) waitArgFor(want uint32, waitArg *uringGeteventsArg) *uringGeteventsArg {
	if want > 1 && u.boundWaits > 0 && u.boundArg != nil {
		return u.boundArg
	}
	return waitArg
}

// canSubmit reports whether the job may submit another I/O: the window has
// not ended, no I/O failed for good, and a slot is free.
func (u *uringLoop) canSubmit(m *meter, fatal error) bool {
	return !m.done && fatal == nil && len(u.free) > 0
}

// startTimer arms the ring's wake-up timer when the job waits without a
// timeout of its own (not paced, and the ring has room for the timer's
// entry): waitArg is then nil and timer true; else the timed wait's
// argument.
func (u *uringLoop) startTimer(j *job) (waitArg *uringGeteventsArg, timer bool, err error) {
	if j.pace.on || u.tick == nil || u.entries <= uint32(j.depth) {
		return u.arg, false, nil
	}
	if err := u.armTimer(); err != nil {
		return nil, false, err
	}
	return nil, true, nil
}

// enterFailed reports whether io_uring_enter's error ends the run: an
// interrupted wait, a timed-out one, or SQEs the kernel could not take yet
// (EAGAIN, EBUSY: submitted again next time) do not.
func enterFailed(err error) bool {
	return err != nil && !errors.Is(err, unix.EINTR) && !errors.Is(err, unix.ETIME) &&
		!errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EBUSY)
}

// pacedWait bounds a paced job's wait for a completion by when its next
// I/O is due (a full queue, or one that may not submit, waits the whole
// slice).
func (u *uringLoop) pacedWait(j *job, canSubmit bool) {
	wait := int64(waitSlice)
	if canSubmit {
		wait = min(max(j.dueIn(j.m.c.now()), 1), wait)
		j.m.heldBack()
	}
	u.ts.sec, u.ts.nsec = wait/int64(time.Second), wait%int64(time.Second)
}

// stalled fails the run when nothing but the wake-up timer completed
// (between head and tail of the completion queue) and no I/O has
// completed for the workload's IOTimeout.
func (u *uringLoop) stalled(j *job, head, tail uint32, t1 int64, inflight int) error {
	r := u.r
	onlyTimer := tail-head == 1 && r.cqe(head).userData == timerTag
	if (head == tail || onlyTimer) && time.Duration(t1-j.m.pub.lastProgress.Load()) > j.w.IOTimeout {
		return fmt.Errorf("no I/O completed for %v with %d outstanding: %w", j.w.IOTimeout, inflight, ErrStalled)
	}
	return nil
}

// streamSubmit prepares and submits one replacement I/O in the middle of a
// reap, in a call that also flushes the completions that arrived
// meanwhile (tail: the completion queue's tail before it). It returns the
// I/Os prepared, those the kernel has not taken yet, and the new tail,
// and tells the streaming policy whether the submission completed within
// the call.
func (u *uringLoop) streamSubmit(j *job, tail uint32) (prepared, left int, newTail uint32, err error) {
	m, r := &j.m, u.r
	slot := u.free[len(u.free)-1]
	t0 := m.c.now()
	prepared = u.prep(j, 1, t0)
	left = prepared
	n, err := r.enter(1, 0, uringEnterGetEvents, nil)
	if enterFailed(err) {
		return prepared, left, tail, fmt.Errorf("io_uring_enter: %w", err)
	}
	if n > 0 {
		m.submitted(t0, n)
		left -= n
	}
	_, newTail = r.peekCQ()
	u.stream.observe(n > 0 && u.completedIn(slot, tail, newTail))
	return prepared, left, newTail, nil
}

// timerTag is the user data of the ring's wake-up timer; no slot has it
// (slots are below MaxURingEntries).
const timerTag = ^uint64(0)

// armTimer submits, on its own, a timeout SQE that completes into the ring
// after waitSlice (a pure timer: it waits for no completions), so that a
// wait for completions without a timeout of its own still returns within
// waitSlice. It is re-armed each time it fires.
func (u *uringLoop) armTimer() error {
	r := u.r
	*r.getSQE() = uringSQE{opcode: uringOpTimeout, fd: -1, addr: uint64(uintptr(unsafe.Pointer(u.tick))), len: 1, userData: timerTag}
	r.flushSQ()
	for try := 0; ; try++ {
		n, err := r.enter(1, 0, 0, nil)
		switch {
		case n == 1:
			return nil
		case err != nil && !errors.Is(err, unix.EINTR) && !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EBUSY):
			return fmt.Errorf("io_uring_enter (timer): %w", err)
		case try == 100:
			return fmt.Errorf("io_uring_enter (timer): the kernel took no SQE in %d tries", try+1)
		}
		time.Sleep(time.Millisecond)
	}
}

// restamp sets the submission time of the last n SQEs published (not yet
// taken by the kernel) to t0.
func (u *uringLoop) restamp(n int, t0 int64) {
	r := u.r
	for i := r.sqTailV - uint32(n); i != r.sqTailV; i++ {
		u.slots[uint16(r.sqes[i&r.sqMask].userData)].start = t0 // claimed, not yet taken
	}
}

// completedIn reports whether slot's I/O is among the CQEs from index from
// up to to, i.e. completed during the call that submitted it.
func (u *uringLoop) completedIn(slot uint16, from, to uint32) bool {
	for i := from; i != to; i++ {
		if uint16(u.r.cqe(i).userData) == slot {
			return true
		}
	}
	return false
}
