package ioengine

// job is the state one job's goroutine owns: its region, offsets, buffers and meter.
type job struct {
	idx    int
	w      *Workload
	fd     int
	depth  int
	bs     int64
	gen    offsetGen
	m      meter
	verify bool
	// buffers says how the engine uses its buffers ("registered",
	// "unregistered: <why>"); set by newLoop.
	buffers string
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
