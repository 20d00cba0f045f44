package ioengine

import (
	"runtime"
	"sync"
)

// A job spends nearly all its time in short blocking system calls (a pread,
// an io_uring_enter or io_getevents that waits for one completion). A
// goroutine in a system call keeps its P (one of GOMAXPROCS) until the
// runtime's system monitor takes it back, and the monitor wakes only every
// 20 µs to 10 ms: with GOMAXPROCS = 2, sixteen psync jobs kept 2.0 I/Os in
// flight (47.7k IOPS at 42 µs), the others waiting for a P to issue their
// next I/O. With one P per job on top of the process's own, each job's
// thread finds its P again on every return from the kernel: 15.9 in flight,
// 56.6k IOPS at 281 µs, as fio's sixteen processes (59.4k at 266 µs).
//
// procLeases raises GOMAXPROCS by the number of jobs of every run in
// progress and restores the process's own value when the last run ends.
// GOMAXPROCS is process-wide, so the lease count is too: two runs at once
// in one process each add their jobs.
var procLeases struct {
	mu   sync.Mutex
	jobs int // jobs of the runs in progress
	base int // GOMAXPROCS before the first of them
}

// leaseProcs adds jobs Ps to GOMAXPROCS for a run; the returned func gives
// them back (and restores the process's value after the last run).
func leaseProcs(jobs int) (release func()) {
	if jobs <= 0 {
		return func() {}
	}
	l := &procLeases
	l.mu.Lock()
	if l.jobs == 0 {
		l.base = runtime.GOMAXPROCS(0)
	}
	l.jobs += jobs
	runtime.GOMAXPROCS(l.base + l.jobs)
	l.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.jobs -= jobs
			runtime.GOMAXPROCS(l.base + l.jobs)
		})
	}
}
