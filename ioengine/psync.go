//go:build linux

package ioengine

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// psyncLoop issues one blocking pread/pwrite at a time.
type psyncLoop struct {
	ar     *arena
	writes int // writes issued, for SyncEvery
}

func newPsyncLoop(j *job) (jobLoop, error) {
	ar, err := newArena(1, int(j.bs), 0)
	if err != nil {
		return nil, fmt.Errorf("job %d: %w", j.idx, err)
	}
	j.buffers = ""
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
			if j.gate.held() && !j.idle() {
				break
			}
			continue // thought: look again (the window may have ended)
		}
		dir, fd, off, bs := j.nextIO()
		due := j.due
		buf := whole[:bs]
		if dir == dirWrite && j.verify != nil {
			j.verify.fill(buf, off)
		}
		t0 := c.now()
		m.submitted(t0, 1)
		var n int
		var err error
		if dir == dirWrite {
			n, err = unix.Pwrite(fd, buf, off)
		} else {
			n, err = unix.Pread(fd, buf, off)
		}
		for err == unix.EINTR {
			if dir == dirWrite {
				n, err = unix.Pwrite(fd, buf, off)
			} else {
				n, err = unix.Pread(fd, buf, off)
			}
		}
		t1 := c.now()
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
				m.record(dir, t1-t0, bs, t1, off)
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
