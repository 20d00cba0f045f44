//go:build linux

package ioengine

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// aioSetup calls io_setup for nr events.
func aioSetup(nr int) (uint64, error) {
	var ctx uint64
	_, _, e := unix.Syscall(unix.SYS_IO_SETUP, uintptr(nr), uintptr(unsafe.Pointer(&ctx)), 0)
	if e != 0 {
		return 0, e
	}
	return ctx, nil
}

func aioDestroy(ctx uint64) error {
	_, _, e := unix.Syscall(unix.SYS_IO_DESTROY, uintptr(ctx), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// probeAIO checks that Linux AIO can be set up.
func probeAIO() error {
	ctx, err := aioSetup(1)
	if err != nil {
		return fmt.Errorf("io_setup: %w", err)
	}
	return aioDestroy(ctx)
}

// aioLoop is one job's AIO context, buffers and slots.
type aioLoop struct {
	ctx    uint64
	ar     *arena
	iocbs  []aioIOCB // in the arena
	ptrs   []uint64  // iocb addresses for io_submit, in the arena
	events []aioEvent
	ts     *kernelTimespec
	slots  []uringSlot
	free   []uint32
	// freed is when each slot's last I/O was seen complete, and held
	// whether the slot is held in flight since then (hold).
	freed []int64
	held  []bool
	// nheld counts the held slots.
	nheld int
	// ring is the completion ring mapped at the context address, nil when
	// it does not carry the expected magic (then io_getevents reaps all).
	ring       *aioRingHdr
	ringEvents []aioEvent
	// stream decides between one io_submit per completion and batches.
	stream streamPolicy
}

func newAIOLoop(j *job) (jobLoop, error) {
	ctx, err := aioSetup(j.depth)
	if err != nil {
		if errors.Is(err, unix.EAGAIN) {
			return nil, settingErrf(err, "job %d: io_setup(%d): %v (raise fs.aio-max-nr or lower %s/%s)", j.idx, j.depth, err, SetIODepth, SetNumJobs)
		}
		return nil, fmt.Errorf("job %d: io_setup(%d): %w", j.idx, j.depth, err)
	}
	ctl := j.depth*int(unsafe.Sizeof(aioIOCB{})+8+unsafe.Sizeof(aioEvent{})) + 4*64 + int(unsafe.Sizeof(kernelTimespec{}))
	ar, err := newArena(j.depth, int(j.bs), ctl)
	if err != nil {
		_ = aioDestroy(ctx)
		return nil, fmt.Errorf("job %d: %w", j.idx, err)
	}
	j.content.start(ar.bufs, j.bs)
	a := &aioLoop{ctx: ctx, ar: ar, slots: make([]uringSlot, j.depth), free: make([]uint32, 0, j.depth),
		freed: make([]int64, j.depth), held: make([]bool, j.depth)}
	off := 0
	a.iocbs = carve[aioIOCB](ar, &off, j.depth)
	a.ptrs = carve[uint64](ar, &off, j.depth)
	a.events = carve[aioEvent](ar, &off, j.depth)
	a.ts = &carve[kernelTimespec](ar, &off, 1)[0]
	a.ts.sec, a.ts.nsec = int64(waitSlice/time.Second), int64(waitSlice%time.Second)
	for i := j.depth - 1; i >= 0; i-- {
		a.free = append(a.free, uint32(i))
		a.iocbs[i] = aioIOCB{data: uint64(i), fildes: uint32(j.fds[0]), buf: ar.addr(i), nbytes: uint64(j.bs)}
	}
	a.mapRing()
	j.threadFree = true
	return a, nil
}

// mapRing finds the kernel's completion ring at the context address. The
// kernel maps it into this process and keeps it until io_destroy; it is
// outside the Go heap. Conversion through a pointer to ctx turns the address
// into a pointer without an integer-to-pointer conversion.
func (a *aioLoop) mapRing() {
	r := *(**aioRingHdr)(unsafe.Pointer(&a.ctx))
	if r == nil || atomic.LoadUint32(&r.magic) != aioRingMagic || r.incompatFeatures != 0 ||
		r.headerLength != uint32(unsafe.Sizeof(aioRingHdr{})) || r.nr == 0 {
		return
	}
	a.ring = r
	a.ringEvents = unsafe.Slice((*aioEvent)(unsafe.Add(unsafe.Pointer(r), unsafe.Sizeof(aioRingHdr{}))), r.nr)
}

// reapRing copies the completions already in the ring into a.events without
// a system call and returns how many. Only this thread reads the ring (no
// io_getevents runs at the same time), so head needs no lock.
func (a *aioLoop) reapRing() int {
	if a.ring == nil {
		return 0
	}
	nr := a.ring.nr
	head := atomic.LoadUint32(&a.ring.head)
	tail := atomic.LoadUint32(&a.ring.tail)
	n := 0
	for head != tail && n < len(a.events) {
		a.events[n] = a.ringEvents[head%nr]
		head = (head + 1) % nr
		n++
	}
	if n > 0 {
		atomic.StoreUint32(&a.ring.head, head)
	}
	return n
}

// completedInRing reports whether slot's I/O already sits in the ring, i.e.
// completed during the io_submit that issued it.
func (a *aioLoop) completedInRing(slot uint32) bool {
	if a.ring == nil {
		return false
	}
	nr := a.ring.nr
	for i, tail := atomic.LoadUint32(&a.ring.head), atomic.LoadUint32(&a.ring.tail); i != tail; i = (i + 1) % nr {
		if uint32(a.ringEvents[i].data) == slot {
			return true
		}
	}
	return false
}

func (a *aioLoop) close(abandoned bool) {
	a.ring, a.ringEvents = nil, nil
	if abandoned {
		// io_destroy waits for outstanding I/Os: let a stalled device keep
		// this thread, not the caller.
		go func() { _ = aioDestroy(a.ctx) }()
		return
	}
	_ = aioDestroy(a.ctx)
	a.ar.close()
}

// submit prepares up to n I/Os in free slots (a paced job stops at the
// first not yet due, a counted one at its last) and hands them to io_submit in one call; it returns
// how many the kernel took. The I/O of a held slot runs from the slot's
// hold (see hold).
func (a *aioLoop) submit(j *job, n int) (int, error) {
	m := &j.m
	t0 := m.c.now()
	k := 0
	for ; k < n; k++ {
		if !j.mayIssue(t0, j.depth-len(a.free)+k) {
			break
		}
		slot := a.free[len(a.free)-1-k]
		dir, fd, off, size := j.nextIO()
		s := &a.slots[slot]
		s.start, s.due, s.off, s.dir, s.n = t0, j.due, off, int32(dir), size
		if a.held[slot] {
			s.start = a.freed[slot]
		}
		cb := &a.iocbs[slot]
		cb.offset = off
		cb.nbytes = uint64(size)
		cb.fildes = uint32(fd)
		cb.opcode = aioCmdPread
		s.pr = j.prio.pick(dir, size)
		setAIOPrio(cb, s.pr, j.prio.def)
		if dir == dirWrite {
			cb.opcode = aioCmdPwrite
			j.fillWrite(a.ar.buf(int(slot))[:size], off)
		}
		a.ptrs[k] = uint64(uintptr(unsafe.Pointer(cb)))
	}
	if k == 0 {
		return 0, nil
	}
	m.submitting(t0, k-a.heldIn(k))
	got, _, e := unix.Syscall(unix.SYS_IO_SUBMIT, uintptr(a.ctx), uintptr(k), uintptr(unsafe.Pointer(&a.ptrs[0])))
	switch {
	case e == 0:
	case e == unix.EAGAIN || e == unix.EINTR:
		got = 0
	default:
		return 0, fmt.Errorf("io_submit: %w", e)
	}
	// The kernel took ptrs[:got], the slots at the top of the free stack.
	if got > 0 {
		h := a.heldIn(int(got))
		for _, slot := range a.free[len(a.free)-int(got):] {
			a.held[slot] = false
		}
		a.nheld -= h
		m.submittedHeld(t0, h, int(got)-h)
	}
	a.free = a.free[:len(a.free)-int(got)]
	return int(got), nil
}

// run keeps depth I/Os in flight the way fio does by default
// (iodepth_batch_submit=1, iodepth_batch_complete_min=1): every completion
// is followed at once by its replacement's io_submit, before the next
// completion is looked at. On a virtual disk this keeps the host busy while
// the guest handles the rest of a batch; submitting the replacements of a
// whole batch together measured ~20% fewer IOPS at QD 4 (see bench/RESULTS.md).
// Completions already in the ring are taken without a system call;
// io_getevents blocks only when the ring is empty. On a target that completes
// I/Os inside io_submit (tmpfs, cached pages) the stream policy switches to
// batches.
func (a *aioLoop) run(j *job) error {
	m := &j.m
	c := m.c
	inflight := 0
	var fatal error
	for {
		if a.canSubmit(m, fatal) {
			n, sent, err := a.submitFree(j, &fatal)
			if err != nil {
				return err
			}
			if inflight += n; inflight == 0 && sent > 0 {
				continue // all completed during their submission (tmpfs): submit again
			}
		}
		a.release(j, fatal)
		if inflight == 0 {
			if j.rest(a.canSubmit(m, fatal)) {
				continue // paced, thought, or drained for the latency target's next window
			}
			return fatal
		}
		got, err := a.wait(j, fatal)
		if err != nil {
			return err
		}
		t1 := c.now()
		if got == 0 && time.Duration(t1-m.pub.lastProgress.Load()) > j.w.IOTimeout {
			return fmt.Errorf("no I/O completed for %v with %d outstanding: %w", j.w.IOTimeout, inflight, ErrStalled)
		}
		m.reaped(t1)
		a.countBatch(j, got, t1, &fatal)
		inflight -= got
		j.maybeYield(t1)
		if c.phase.Load() == phaseAbort {
			return fatal
		}
	}
}

// canSubmit reports whether the job may submit another I/O: the window has
// not ended, no I/O failed for good, and a slot is free.
func (a *aioLoop) canSubmit(m *meter, fatal error) bool {
	return !m.done && fatal == nil && len(a.free) > 0
}

// wait returns the completions waiting: those already in the ring,
// without a system call, else io_getevents' (blocking for one, no longer
// than a paced job's next I/O is due).
func (a *aioLoop) wait(j *job, fatal error) (int, error) {
	got := a.reapRing()
	if got > 0 {
		return got, nil
	}
	if j.pace.on {
		// Wait for a completion no longer than until the next I/O is
		// due (a full queue waits the whole slice).
		wait := int64(waitSlice)
		if a.canSubmit(&j.m, fatal) {
			wait = min(max(j.dueIn(j.m.c.now()), 1), wait)
			j.m.heldBack()
		}
		a.ts.sec, a.ts.nsec = wait/int64(time.Second), wait%int64(time.Second)
	}
	n, _, e := unix.Syscall6(unix.SYS_IO_GETEVENTS, uintptr(a.ctx), 1, uintptr(len(a.events)), uintptr(unsafe.Pointer(&a.events[0])), uintptr(unsafe.Pointer(a.ts)), 0)
	if e != 0 && e != unix.EINTR {
		return 0, fmt.Errorf("io_getevents: %w", e)
	}
	if e != 0 {
		return 0, nil
	}
	return int(n), nil
}

// heldIn is how many of the k slots at the top of the free stack are held.
func (a *aioLoop) heldIn(k int) int {
	h := 0
	for _, slot := range a.free[len(a.free)-k:] {
		if a.held[slot] {
			h++
		}
	}
	return h
}

// submitFree submits the free slots: all in one call once the stream
// policy batches, else one per call, the slot freed first going first,
// the completions that came during each call counted as soon as it
// returns (it blocks while the device has no free request: a loop device
// holds 128, QD 256 asks for more). It returns the change in flight (the
// I/Os submitted less those that completed meanwhile) and the I/Os
// submitted; *fatal takes the first I/O failure that ends the job.
//
// Counting a completion only once the replacement of the one before it
// was submitted stamped the last of a reap 128 blocked submissions late
// (90 ms at 1,400 IOPS) and, when the window closed meanwhile, counted
// them all inside it: 85 more I/Os a window than the device completed in
// it, however long (1,540 against 1,400 IOPS over 0.5 s); and one call
// submitting the whole queue at the start blocked past the window's
// opening, whose first 100 ms went to the ramp. A replacement waiting for
// its turn is in flight from its slot's completion, as it was when that
// completion was counted late (hold).
func (a *aioLoop) submitFree(j *job, fatal *error) (added, sent int, err error) {
	m := &j.m
	if !a.stream.on() {
		n, err := a.submit(j, len(a.free))
		return n, n, err
	}
	for a.stream.on() && a.canSubmit(m, *fatal) && j.dueIn(m.c.now()) <= 0 {
		// a.free holds the slots in the order they were freed; submit
		// takes the last.
		slot := a.free[0]
		copy(a.free, a.free[1:])
		a.free[len(a.free)-1] = slot
		n, err := a.submit(j, 1)
		if err != nil || n == 0 {
			return added, sent, err
		}
		added += n
		sent += n
		a.stream.observe(a.completedInRing(slot))
		t := m.c.now()
		m.reaped(t)
		if k := a.reapRing(); k > 0 {
			added -= k
			a.countBatch(j, k, t, fatal)
		}
		j.maybeYield(t)
	}
	return added, sent, nil
}

// countBatch counts the n events in a.events seen complete at t1 and
// frees their slots: one batch of the meter's.
func (a *aioLoop) countBatch(j *job, n int, t1 int64, fatal *error) {
	for i := range n {
		ev := &a.events[i]
		slot := uint32(ev.data)
		s := &a.slots[slot]
		j.m.retire(s.start)
		if e := a.record(j, ev, s, slot, t1); e != nil && *fatal == nil {
			*fatal = e
		}
		a.free = append(a.free, slot)
		a.freed[slot] = t1
	}
	j.m.endBatch(t1, n)
	a.hold(j, n, t1, *fatal)
}

// hold keeps the n slots just freed at t in flight until their
// replacements are submitted, one call after another (submitFree), each
// blocked until the device has room or waiting for the job's CPU: their
// I/Os run from t, as they did when these completions were counted late,
// so the job keeps the depth asked (fio's latency counts the same wait)
// and Little's Law closes over it. Not for a paced job (its I/O waits to
// be due, not for room), one held by its gate, nor once the job submits
// no more. A job that counts its I/Os holds no more slots than it has
// I/Os left; one that counts bytes holds them all, and release lets go
// of those it does not submit.
func (a *aioLoop) hold(j *job, n int, t int64, fatal error) {
	if n == 0 || !a.stream.on() || j.pace.on || j.gate != nil || j.left == 0 || j.m.done || fatal != nil {
		return
	}
	if j.left > 0 && j.leftBytes <= 0 {
		n = int(min(int64(n), j.left-int64(a.nheld)))
		if n <= 0 {
			return
		}
	}
	for _, slot := range a.free[len(a.free)-n:] {
		a.held[slot] = true
	}
	a.nheld += n
	j.m.hold(t, n)
}

// release lets go of the held slots once the job submits no more (its
// count spent, its window or its run ended): their replacements will
// not be submitted, and they leave flight as if they had never been held.
func (a *aioLoop) release(j *job, fatal error) {
	if a.nheld == 0 || !j.m.done && j.left != 0 && fatal == nil {
		return
	}
	var sum int64
	for _, slot := range a.free {
		if a.held[slot] {
			a.held[slot] = false
			sum += a.freed[slot]
		}
	}
	j.m.unhold(j.m.c.now(), a.nheld, sum)
	a.nheld = 0
}

// record counts one completion: a whole transfer (a read checked against
// its stamp when verifying) or a failure; the error ends the job.
func (a *aioLoop) record(j *job, ev *aioEvent, s *uringSlot, slot uint32, t1 int64) error {
	m := &j.m
	if ev.res != s.n {
		return m.ioFailed(int(s.dir), s.off, ev.res, s.n)
	}
	if bad, verr := j.verifyRead(int(s.dir), a.ar.buf(int(slot))[:s.n], s.off); bad {
		return verr
	}
	m.record(int(s.dir), t1-s.start, s.n, t1, s.off, s.pr)
	m.arrived(s.due, t1)
	return nil
}
