package ioengine

import (
	"errors"
	"fmt"
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
}

func newAIOLoop(j *job) (jobLoop, error) {
	ctx, err := aioSetup(j.depth)
	if err != nil {
		if errors.Is(err, unix.EAGAIN) {
			return nil, fmt.Errorf("job %d: io_setup(%d): %w (raise fs.aio-max-nr or lower --iodepth/--numjobs)", j.idx, j.depth, err)
		}
		return nil, fmt.Errorf("job %d: io_setup(%d): %w", j.idx, j.depth, err)
	}
	ctl := j.depth*int(unsafe.Sizeof(aioIOCB{})+8+unsafe.Sizeof(aioEvent{})) + 4*64 + int(unsafe.Sizeof(kernelTimespec{}))
	ar, err := newArena(j.depth, int(j.bs), ctl)
	if err != nil {
		_ = aioDestroy(ctx)
		return nil, fmt.Errorf("job %d: %w", j.idx, err)
	}
	a := &aioLoop{ctx: ctx, ar: ar, slots: make([]uringSlot, j.depth), free: make([]uint32, 0, j.depth)}
	off := 0
	a.iocbs = carve[aioIOCB](ar, &off, j.depth)
	a.ptrs = carve[uint64](ar, &off, j.depth)
	a.events = carve[aioEvent](ar, &off, j.depth)
	a.ts = &carve[kernelTimespec](ar, &off, 1)[0]
	a.ts.sec, a.ts.nsec = int64(waitSlice/time.Second), int64(waitSlice%time.Second)
	for i := j.depth - 1; i >= 0; i-- {
		a.free = append(a.free, uint32(i))
		a.iocbs[i] = aioIOCB{data: uint64(i), fildes: uint32(j.fd), buf: ar.addr(i), nbytes: uint64(j.bs)}
	}
	return a, nil
}

func (a *aioLoop) close(abandoned bool) {
	if abandoned {
		// io_destroy waits for outstanding I/Os: let a stalled device keep
		// this thread, not the caller.
		go func() { _ = aioDestroy(a.ctx) }()
		return
	}
	_ = aioDestroy(a.ctx)
	a.ar.close()
}

func (a *aioLoop) run(j *job) error {
	m := &j.m
	c := m.c
	bs := j.bs
	inflight := 0
	var fatal error
	for {
		toPrep := 0
		if !m.done && fatal == nil {
			toPrep = j.depth - inflight
		}
		if toPrep > 0 {
			t0 := c.now()
			for k := 0; k < toPrep; k++ {
				slot := a.free[len(a.free)-1-k]
				dir, off := j.gen.next()
				s := &a.slots[slot]
				s.start, s.off, s.dir = t0, off, int32(dir)
				cb := &a.iocbs[slot]
				cb.offset = off
				cb.opcode = aioCmdPread
				if dir == dirWrite {
					cb.opcode = aioCmdPwrite
					if j.verify {
						stamp(a.ar.buf(int(slot)), off)
					}
				}
				a.ptrs[k] = uint64(uintptr(unsafe.Pointer(cb)))
			}
			m.submitting(t0, toPrep)
			n, _, e := unix.Syscall(unix.SYS_IO_SUBMIT, uintptr(a.ctx), uintptr(toPrep), uintptr(unsafe.Pointer(&a.ptrs[0])))
			switch {
			case e == 0:
			case e == unix.EAGAIN || e == unix.EINTR:
				n = 0
			default:
				return fmt.Errorf("io_submit: %w", e)
			}
			// The kernel took ptrs[:n], the slots at the top of the free stack.
			a.free = a.free[:len(a.free)-int(n)]
			if n > 0 {
				m.submitted(t0, int(n))
				inflight += int(n)
			}
		}
		if inflight == 0 {
			return fatal
		}
		got, _, e := unix.Syscall6(unix.SYS_IO_GETEVENTS, uintptr(a.ctx), 1, uintptr(len(a.events)), uintptr(unsafe.Pointer(&a.events[0])), uintptr(unsafe.Pointer(a.ts)), 0)
		if e != 0 && e != unix.EINTR {
			return fmt.Errorf("io_getevents: %w", e)
		}
		t1 := c.now()
		if e == 0 && got > 0 {
			m.reaped(t1)
			for i := 0; i < int(got); i++ {
				ev := &a.events[i]
				slot := uint32(ev.data)
				s := &a.slots[slot]
				if ev.res == bs {
					if j.verify && s.dir == dirRead && !stamped(a.ar.buf(int(slot)), s.off) {
						if err := m.verifyFailed(s.off); err != nil && fatal == nil {
							fatal = err
						}
					} else {
						m.record(int(s.dir), t1-s.start, bs)
					}
				} else if err := m.ioFailed(int(s.dir), s.off, ev.res, bs); err != nil && fatal == nil {
					fatal = err
				}
				a.free = append(a.free, slot)
			}
			inflight -= int(got)
			m.endBatch(t1, int(got))
		} else if time.Duration(t1-m.pub.lastProgress.Load()) > j.w.IOTimeout {
			return fmt.Errorf("no I/O completed for %v with %d outstanding: %w", j.w.IOTimeout, inflight, ErrStalled)
		}
		if c.phase.Load() == phaseAbort {
			return fatal
		}
	}
}
