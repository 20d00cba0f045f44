//go:build linux

package ioengine

// verifyRead checks a completed read of direction dir (buf, read at off)
// against the job's verifier: bad is true when it failed, and err is the
// failure that ends the job (nil under continue_on_error, which counts it).
// A completed write may be read back by verify_backlog from then on.
func (j *job) verifyRead(dir int, buf []byte, off int64) (bad bool, err error) {
	if b := j.gen.backlog; b != nil && dir == dirWrite {
		b.completed(off) // it may be read back now
	}
	if j.verify == nil || dir != dirRead {
		return false, nil
	}
	at, cause := j.verify.check(buf, off)
	if cause == nil {
		return false, nil
	}
	return true, j.m.verifyFailed(at, cause)
}

// backlogRead reports whether the I/O the job took last reads a write
// back for verify_backlog: it counts against none of the job's limits.
func (j *job) backlogRead() bool { return j.gen.backlog != nil && j.gen.backlog.taken }

// drainBacklog, once the job's writes are done, reports whether writes
// are left to read back, and has the job read them before it ends.
func (j *job) drainBacklog() bool {
	b := j.gen.backlog
	if b == nil || b.n == 0 {
		return false
	}
	b.drain = true
	return true
}

// backlogReady reports whether a job whose writes are done may read back
// its next write: the oldest waiting has completed.
func (j *job) backlogReady() bool {
	b := j.gen.backlog
	return b != nil && b.drain && b.ready()
}
