package ioengine

// verifyBacklog is fio's verify_backlog: the job's writes, oldest first
// (fio's io_hist_list), each read back and checked once, Batch at a time
// after every Backlog writes while the job writes, and the rest once its
// writes are done (fio's verify phase), as fio's check_get_verify and
// get_next_verify pick them. Its ring grows only when more writes than it
// holds wait (their oldest still in flight), never per I/O.
type verifyBacklog struct {
	every, batch int // verify_backlog, verify_backlog_batch (every when 0)
	ring         []backlogWrite
	head, n      int  // the oldest write, and how many wait
	left         int  // reads left of the batch under way
	lastRead     bool // the job's last I/O was a backlog read (fio's last_ddir)
	// taken: the I/O next returned last is a backlog read; drain: the
	// job's writes are done and only its backlog is left to read.
	taken, drain bool
}

// backlogWrite is one write waiting to be read back.
type backlogWrite struct {
	file   int
	off, n int64
	done   bool // completed: it may be read back
}

func newVerifyBacklog(v FioVerify, depth int) *verifyBacklog {
	if v.Backlog <= 0 {
		return nil
	}
	b := &verifyBacklog{every: v.Backlog, batch: v.BacklogBatch}
	if b.batch <= 0 {
		b.batch = v.Backlog
	}
	b.ring = make([]backlogWrite, v.Backlog+2*depth+1)
	return b
}

// logWrite records a write just issued (fio's log_io_piece).
func (b *verifyBacklog) logWrite(file int, off, n int64) {
	if b.n == len(b.ring) {
		grown := make([]backlogWrite, 2*len(b.ring))
		for i := range b.n {
			grown[i] = b.ring[(b.head+i)%len(b.ring)]
		}
		b.ring, b.head = grown, 0
	}
	b.ring[(b.head+b.n)%len(b.ring)] = backlogWrite{file: file, off: off, n: n}
	b.n++
}

// completed marks the oldest waiting write at off that is still in flight
// as done. Writes are told apart by offset alone: two of different files
// at one offset in flight at once may swap, which delays neither's check.
func (b *verifyBacklog) completed(off int64) {
	for i := range b.n {
		if w := &b.ring[(b.head+i)%len(b.ring)]; w.off == off && !w.done {
			w.done = true
			return
		}
	}
}

// ready reports whether the oldest waiting write has completed.
func (b *verifyBacklog) ready() bool {
	return b.n > 0 && b.ring[b.head].done
}

// due reports whether the next I/O reads a write back (fio's
// check_get_verify): a batch under way, or every-th write waiting after
// one that was not a read back, and its oldest write completed.
func (b *verifyBacklog) due() bool {
	if b.n == 0 {
		return false
	}
	if b.drain {
		return true
	}
	if b.left == 0 && b.n%b.every == 0 && !b.lastRead {
		b.left = b.batch
	}
	return b.left > 0 && b.ready()
}

// pop takes the oldest waiting write for its read back.
func (b *verifyBacklog) pop() backlogWrite {
	w := b.ring[b.head]
	b.head = (b.head + 1) % len(b.ring)
	b.n--
	b.left = max(b.left-1, 0)
	return w
}
