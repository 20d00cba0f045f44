// Package ioengine runs one workload against a file or block device and
// measures it as fio would: Engine.Run takes a Workload (fio's rw, bs,
// iodepth, numjobs and target) and a Control (ramp, runtime, live samples,
// time series) and returns Stats whose IOPS, mean latency and mean I/Os in
// flight close Little's Law over the measured window.
//
// The engines are io_uring, libaio and psync (New: the kernel's, on Linux,
// where io_uring falls back to libaio when the kernel refuses it), sim (NewSim:
// a remote disk simulated in virtual time, touching no file, on any system)
// and fio (package fioadapt/fioengine: the installed binary). Validate refuses a
// workload an engine cannot run before anything is opened, in one line
// naming the flag to change. Only this package's Linux files make system
// calls or use unsafe.
//
// A kernel engine's run, from the top (runWorkload, runner.go), each part
// in a file of its own:
//
//   - Jobs (runner.go, job.go). openRun validates the workload (validate.go;
//     a refusal is a SettingError, settingerror.go, naming Workload's
//     settings, which its caller names as its options) and opens its target past the write guard; startJobs starts one
//     goroutine per job, locked to an OS thread of its own, with one more P
//     per job while the run lasts (procs.go), so that a job blocked in the
//     kernel keeps its I/Os in flight. Jobs a limit would refuse (threads,
//     open files, memory, AIO events; limits.go) are not started; the
//     others run, and Stats.Shortfall says why fewer I/Os were in flight
//     than asked. A job draws its offsets from offsets.go, through fio's
//     random map (randmap.go) unless norandommap, one strided zone at a
//     time with zones (zones.go, zones_linux.go); its verify blocks are
//     verify.go's, and verify_backlog's reads back backlog.go's.
//   - Rings. Each job builds its loop on its own thread: an io_uring ring
//     (uring_ring.go: setup, mapping, get_sqe, flush, peek and advance of
//     the CQ, enter and register, named after liburing's primitives, over
//     kernel structures laid out by hand in uring_abi.go and checked as the
//     package compiles in abi_layout.go; uring.go: the job loop on it), a
//     libaio context (aio.go), or one pread/pwrite at a time (psync.go:
//     a read that follows a fast one is a raw system call, rawReadMax).
//     Buffers live in an arena mapped outside the Go heap (arena.go); what
//     writes carry (zeros, or fio's random, compressible, deduplicable or
//     patterned data) is content.go's, filled through contentjob.go. A
//     loop keeps iodepth I/Os in flight and, as fio does, submits each
//     completion's replacement in a call of its own, batching only when
//     the target completes I/Os inside the submitting call (cached pages)
//     or an io_uring job's I/O is done by io-wq workers (iowq.go: zram,
//     tmpfs), which its first completions show; such a job then waits for
//     several completions at a time and, shallow, runs beside its workers.
//     A job's priorities (Workload.Prio, prio.go) are cmdprio.go's: its
//     thread takes the job's own with ioprio_set, and each I/O's is drawn
//     as fio's cmdprio draws it, carried in io_uring's SQE or libaio's
//     iocb, logged with the I/O and counted apart by the meter.
//   - Pacing (pace.go). The coordinator (measure, pace) publishes the phase
//     (ramp, measure, stop), opens and closes the window, calls OnSample
//     and ticks the series, and ends a run whose device completes nothing
//     for Workload.IOTimeout while I/Os are outstanding (ErrStalled). A job
//     with a rate (Workload.RateIOPS) holds each I/O until it is due,
//     outside its latency, as fio's rate_iops does (job.go's pacer; its
//     gaps exponential under Workload.Poisson, fio's rate_process=poisson).
//     A job's gate (gate.go) holds it to fio's thinktime, latency_target
//     search and rate floors (Workload.Think, LatTarget, RateMin; their
//     types and checks in pacing.go) and to its share of its flow
//     (Workload.Flow, fio's flow: flow.go's counter, shared with the jobs
//     of other runs beside it, and flowgate.go): the loops ask it before
//     each I/O.
//   - Meter (meter.go, series.go). Each job counts its own I/Os in a meter
//     no other goroutine touches (no lock or atomic per I/O): counts and
//     latency histograms per direction, and the area under its in-flight
//     count, the window's edges included, so that the time counted belongs
//     to the I/Os counted. Once per batch it publishes the few totals the
//     coordinator reads.
//   - Merge (merge.go). finish (runner.go) collects the meters and
//     mergeStats adds them up over the coordinator's one window: IOPS is
//     every job's I/Os over it and the in-flight mean their time in flight
//     over it, so IOPS × mean latency is the in-flight mean; shortfallOf
//     says why fewer were in flight than asked. series.go merges the jobs.
//     time series the same way. Stats.PerJob keeps each job's own figures
//     when Control.PerJob asks; MergeGroup (group.go) adds up runs that ran
//     as one group.
//
// LayOut and Scratch create the files a run needs and remove only the files
// they created (by inode, never another process's file at the same path).
package ioengine
