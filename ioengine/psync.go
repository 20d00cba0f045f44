//go:build linux

package ioengine

import (
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// psyncLoop issues one blocking pread/pwrite at a time.
type psyncLoop struct {
	ar     *arena
	writes int // writes issued, for SyncEvery
	// raw is set while the job's reads return quickly: its next read is
	// a raw system call (see rawReadMax).
	raw bool
}

// rawReadMax is the longest a job's last read may have taken, ns, for its
// next read to go to the kernel as a raw system call, past the Go
// runtime's bookkeeping around a system call (entersyscall and
// exitsyscall: the goroutine's and its P's states, the P's hand-back on
// return). That bookkeeping lets the runtime give the P of a thread
// blocked in the kernel to other goroutines; a job's thread has no use
// for that, as every job has a P of its own (leaseProcs), and the others
// (the coordinator, the collector's workers) run on the process's own.
// It cost 0.27-0.31 µs of the 4.3-4.4 µs of CPU per I/O of 16 psync jobs'
// 4k direct reads of zram (whole-process task-clock, three rounds: 4.31-
// 4.37 against 4.06-4.11 µs, at 467-472k against 498-503k IOPS).
//
// What a raw call costs instead: while it lasts, its P is neither free nor
// preemptible, and a stop of the world (a collection's start and end, rare
// in a window as the hot path allocates nothing; GOMAXPROCS's change when
// the run ends) waits for it to return. Reads that took under rawReadMax
// keep such a wait that short. A job's first read, every write (a write
// can block for as long as a filesystem is frozen) and every read after a
// slow or failed one go through the runtime's wrapper, so a device slow or
// stalled from the start, or slowing down, holds no P past one read. A
// device that stops answering between one fast read and the next holds
// the raw call, and any stop of the world with it, until the read returns:
// the watchdog still ends the run (it runs on the process's own P), but
// the run's return waits for that read too, where through the wrapper it
// returned with the job left behind.
const rawReadMax = int64(time.Millisecond)

// rawPreadABI is set where pread64 takes its offset in one register (the
// 64-bit architectures), as rawPread passes it; elsewhere every read goes
// through unix.Pread, which splits it as the architecture asks.
const rawPreadABI = unsafe.Sizeof(uintptr(0)) == 8

func newPsyncLoop(j *job) (jobLoop, error) {
	ar, err := newArena(1, int(j.bs), 0)
	if err != nil {
		return nil, fmt.Errorf("job %d: %w", j.idx, err)
	}
	j.buffers = ""
	j.content.start(ar.bufs, j.bs)
	j.threadFree = true
	return &psyncLoop{ar: ar}, nil
}

func (p *psyncLoop) close(abandoned bool) {
	if !abandoned {
		p.ar.close()
	}
}

func (p *psyncLoop) run(j *job) error {
	m := &j.m
	c := m.c
	whole := p.ar.buf(0)
	for !m.done {
		if j.pace.on && !j.waitDue() {
			break
		}
		if j.gate != nil && !j.mayIssue(c.now(), 0) {
			if !j.holdOn() {
				break
			}
			continue // thought, or held back by its flow: look again (the window may have ended)
		}
		dir, fd, off, bs := j.nextIO()
		due := j.due
		buf := whole[:bs]
		if dir == dirWrite {
			j.fillWrite(buf, off)
		}
		t0 := c.now()
		m.submitted(t0, 1)
		n, err := p.io(dir, fd, buf, off)
		t1 := c.now()
		p.raw = rawPreadABI && dir == dirRead && err == nil && t1-t0 < rawReadMax
		m.reaped(t1)
		m.retire(t0)
		var fatal error
		switch {
		case err != nil:
			res := int64(-int(unix.EIO))
			if en, ok := err.(unix.Errno); ok {
				res = -int64(en)
			}
			fatal = m.ioFailed(dir, off, res, bs)
		case int64(n) != bs:
			fatal = m.ioFailed(dir, off, int64(n), bs)
		default:
			if bad, verr := j.verifyRead(dir, buf, off); bad {
				fatal = verr
			} else {
				m.record(dir, t1-t0, bs, t1, off, j.prio.def)
				m.arrived(due, t1)
			}
		}
		m.endBatch(t1, 1)
		if fatal == nil && err == nil && int64(n) == bs && dir == dirWrite && j.w.SyncEvery > 0 {
			// After the write has left flight: the sync is no I/O's latency.
			fatal = p.sync(j, fd)
		}
		j.maybeYield(t1)
		if fatal != nil {
			return fatal
		}
		if c.phase.Load() == phaseAbort {
			return nil
		}
	}
	return nil
}

// io issues one pread or pwrite of buf at off and retries it on EINTR.
func (p *psyncLoop) io(dir, fd int, buf []byte, off int64) (n int, err error) {
	for {
		switch {
		case dir == dirWrite:
			n, err = unix.Pwrite(fd, buf, off)
		case p.raw:
			n, err = rawPread(fd, buf, off)
		default:
			n, err = unix.Pread(fd, buf, off)
		}
		if err != unix.EINTR {
			return n, err
		}
	}
}

// rawPread is unix.Pread as a raw system call (rawReadMax); buf is not empty.
func rawPread(fd int, buf []byte, off int64) (int, error) {
	r, _, e := unix.RawSyscall6(unix.SYS_PREAD64, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(off), 0, 0)
	if e != 0 {
		return int(r), e
	}
	return int(r), nil
}

// sync runs fio's fsync=N / fdatasync=N after every SyncEvery writes of the
// job: an fsync or fdatasync of the file just written, timed on its own.
// Nothing is in flight meanwhile. A failed sync ends the job.
func (p *psyncLoop) sync(j *job, fd int) error {
	p.writes++
	if p.writes%j.w.SyncEvery != 0 {
		return nil
	}
	m := &j.m
	t0 := m.c.now()
	var err error
	for {
		if j.w.SyncData {
			err = unix.Fdatasync(fd)
		} else {
			err = unix.Fsync(fd)
		}
		if err != unix.EINTR {
			break
		}
	}
	t1 := m.c.now()
	m.reaped(t1) // nothing was in flight meanwhile
	if err != nil {
		call := "fsync"
		if j.w.SyncData {
			call = "fdatasync"
		}
		return fmt.Errorf("%s: %w", call, err)
	}
	m.synced(t1 - t0)
	return nil
}
