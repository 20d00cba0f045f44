package ioengine

import (
	"math/bits"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Latency summarises per-I/O latencies (submit → completion) in nanoseconds.
type Latency struct {
	MinNs  int64   `json:"min"`
	MeanNs float64 `json:"mean"`
	P50Ns  int64   `json:"p50"`
	P90Ns  int64   `json:"p90"`
	P99Ns  int64   `json:"p99"`
	P999Ns int64   `json:"p999"`
	MaxNs  int64   `json:"max"`
	// StddevNs is the latencies' standard deviation as an engine that
	// keeps no histogram reports it (fio's stddev); 0 when not reported,
	// an engine's histogram (DirStats.Hist) having it. Not saved.
	StddevNs float64 `json:"-"`
	// Bins is the latency histogram of an engine that keeps no
	// HdrHistogram but reports its own buckets (fio's json+ bins: each a
	// value inside the bucket and its I/Os), ascending; for writers that
	// need other percentiles or fio's latency buckets. Not saved.
	Bins []LatencyBin `json:"-"`
}

// LatencyBin is one bucket of a reported latency histogram: Count I/Os
// near Ns nanoseconds.
type LatencyBin struct {
	Ns    float64
	Count int64
}

// DirStats are the figures of one direction (or of all I/Os) over the measured window.
type DirStats struct {
	TotalIOs int64   `json:"total_ios"`
	Bytes    int64   `json:"io_bytes"`
	IOPS     float64 `json:"iops"`     // I/Os per second
	BWBytes  float64 `json:"bw_bytes"` // bytes per second
	Lat      Latency `json:"lat_ns"`
	// Hist is the per-I/O latency histogram (ns) the percentiles come
	// from, for writers that need other percentiles or fio's latency
	// buckets; nil when the engine keeps none (fio, imported results).
	Hist *hdrhistogram.Histogram `json:"-"`
	// Prios are the figures of each priority the direction's I/Os went
	// at, when some had a per-command one (Workload.Prio), in
	// IOPrio.Values' order, those of no I/O left out; nil otherwise.
	Prios []PrioStats `json:"prios,omitempty"`
	// Slat and Clat are the submission and completion latencies of an
	// engine that times them apart (fio, when it runs a job), for writers
	// of fio's reports; nil for qdsweep's engines, which time each I/O
	// whole (Lat). Not saved.
	Slat, Clat *Latency `json:"-"`
}

// CPU is the process CPU time spent during the run, in seconds.
type CPU struct {
	UsrS float64 `json:"usr_s"`
	SysS float64 `json:"sys_s"`
}

// IOError records I/O errors of one kind: errno (or "short") with the first offset seen.
type IOError struct {
	Errno       string `json:"errno"`        // e.g. "EIO", "ENOSPC", "short"
	Op          string `json:"op"`           // "read" or "write"
	FirstOffset int64  `json:"first_offset"` // bytes
	Count       int64  `json:"count"`
}

// Stats is the measured result of one run, merged over its jobs.
type Stats struct {
	Engine         string `json:"engine"`
	FallbackReason string `json:"engine_fallback_reason,omitempty"`
	// FioIOEngine is, for the fio engine, the ioengine fio ran (psync,
	// libaio, io_uring …); "" for the others.
	FioIOEngine string        `json:"fio_ioengine,omitempty"`
	Runtime     time.Duration `json:"runtime_ns"` // measured window, from its start to its end as the run paced them
	All         DirStats      `json:"all"`
	Read        *DirStats     `json:"read,omitempty"`  // set when the workload reads
	Write       *DirStats     `json:"write,omitempty"` // set when the workload writes
	// Arrival is the response time of a paced run's I/Os (Workload.RateIOPS,
	// linear or poisson): from each I/O's scheduled arrival, its due time
	// under the rate, to its completion, so the wait of an arrival the job
	// could not issue yet (every slot busy, the device behind) is in it;
	// All.Lat runs from issue to completion, as fio's clat and lat. Nil
	// without a rate.
	Arrival *Latency `json:"arrival_lat_ns,omitempty"`
	// Sync is the window's fsync/fdatasync calls (Workload.SyncEvery):
	// count, rate per second and latency; Bytes and BWBytes stay 0. Nil
	// when the workload does not sync.
	Sync *DirStats `json:"sync,omitempty"`
	// InflightMean is the time-weighted mean of I/Os in flight over the
	// window, all jobs, counting the I/Os that completed in it (as IOPS and
	// latency do) over their whole latency: IOPS × mean latency equals it,
	// and the I/Os in flight when the window opened may lift it above
	// iodepth × numjobs by at most the depth × the longest latency / Runtime.
	InflightMean float64 `json:"inflight_mean"`
	// IODepths is fio's "IO depths": the window's submissions counted by
	// how many of their job's I/Os were in flight right after each, in
	// buckets 1, 2–3, 4–7, 8–15, 16–31, 32–63, ≥ 64 (DepthBucket); all
	// zero when the engine does not count them.
	IODepths [DepthBuckets]int64 `json:"iodepths"`
	// Submits and Completes are fio's "submit" and "complete": the
	// window's submission calls and reaps counted by how many I/Os each
	// handled (BatchBucket); all zero when the engine does not count them.
	Submits   [DepthBuckets]int64 `json:"submits"`
	Completes [DepthBuckets]int64 `json:"completes"`
	CPU       CPU                 `json:"cpu"`
	Errors    []IOError           `json:"errors"`
	ShortIOs  int64               `json:"short_ios"`
	// Buffers says how the engine's I/O buffers were used: "registered"
	// (io_uring fixed buffers), "unregistered: <why>" or "" (engine without the notion).
	Buffers string `json:"buffers,omitempty"`
	// Hosts holds each host's share of a multi-host run (fio client/server);
	// nil for a local run.
	Hosts []HostStats `json:"hosts,omitempty"`
	// Series holds the measured window in slices of Control.SeriesInterval
	// (nil when none was asked for or the engine cannot slice its window).
	Series []Interval `json:"series,omitempty"`
	// JobSeries holds each job's own series, in job order, when
	// Control.SeriesPerJob asked for them and the run had several jobs
	// (nil for a job without one); results.json does not keep them.
	JobSeries [][]Interval `json:"-"`
	// IOLog holds, when Control.IOLog asked for it, each job's I/Os in
	// the order they completed, in job order; results.json does not keep
	// them. The fio engine keeps none (fio writes its own logs): nil.
	IOLog [][]IORecord `json:"-"`
	// HistLog holds, when Control.HistWindow asked for it, each job's
	// histogram windows in the order they closed, in job order: each
	// Interval's Bins hold one direction's completions, StartNs and DurNs
	// its span (ns since the job's window began) up to the completion that
	// closed it. Nil from engines that keep none.
	HistLog [][]Interval `json:"-"`
	// Ramp holds the ramp in slices of Control.SeriesInterval (Interval.Ramp
	// set, StartNs negative), so a level that changed before the window is
	// seen; nil without a ramp or a series.
	Ramp []Interval `json:"ramp,omitempty"`
	// Shortfall, when set, says that the run kept fewer than
	// ShortfallFraction × iodepth × numjobs I/Os in flight, and why.
	Shortfall *Shortfall `json:"inflight_shortfall,omitempty"`
	// LatencyDepth is the queue depth the latency target's search
	// (Workload.LatTarget) ended at, fio's latency_depth: the last job's,
	// as fio reports a group; 0 without a target.
	LatencyDepth int `json:"latency_depth,omitempty"`
	// PerJob holds each job's own figures, in job order, when
	// Control.PerJob asked for them and the run had several jobs: each
	// over its own window, its CPU its share of the process's by I/O count
	// (no series, no shortfall). Nil otherwise.
	PerJob []Stats `json:"per_job,omitempty"`
}

// HostStats is one host's figures in a multi-host run.
type HostStats struct {
	Host    string  `json:"host"`     // host[:port] as the client named it
	IOPS    float64 `json:"iops"`     // I/Os per second
	BWBytes float64 `json:"bw_bytes"` // bytes per second
	Lat     Latency `json:"lat_ns"`
	// TotalIOs is the I/Os the host completed in its own runtime.
	TotalIOs int64 `json:"total_ios,omitempty"`
}

// ShortfallFraction is the share of iodepth × numjobs a run must keep in
// flight on average; below it Stats.Shortfall says by how much and why.
const ShortfallFraction = 0.97

// ShortfallCause is why a run kept fewer I/Os in flight than asked for.
type ShortfallCause string

// Shortfall causes.
const (
	// ShortfallLimit: some jobs could not start; Shortfall.Limit names the
	// limit (one of the Limit* names) and Shortfall.Err the kernel's error.
	ShortfallLimit ShortfallCause = "limit"
	// ShortfallCPU: the jobs' threads were on a CPU or waiting for one
	// nearly all the window (a target that completes I/Os on the CPU, such
	// as tmpfs or the page cache), or waited for a CPU (busy with other
	// work) at least as long as the missing in-flight time: a job between
	// two I/Os, running or waiting for a CPU, has none in flight.
	ShortfallCPU ShortfallCause = "cpu"
	// ShortfallRate: the jobs held I/Os back to keep to Workload.RateIOPS
	// (fio's rate_iops): the cap, not the machine, set the depth.
	ShortfallRate ShortfallCause = "rate"
	// ShortfallThink: the jobs paused with nothing in flight between
	// their I/Os (Workload.Think, fio's thinktime).
	ShortfallThink ShortfallCause = "think"
	// ShortfallLatencyTarget: the jobs searched for the deepest queue
	// within their latency target (Workload.LatTarget), below iodepth
	// while they did, and settled at Stats.LatencyDepth.
	ShortfallLatencyTarget ShortfallCause = "latency_target"
	// ShortfallFlow: the jobs held I/Os back to keep to their share of
	// their flow (Workload.Flow, fio's flow).
	ShortfallFlow ShortfallCause = "flow"
	// ShortfallSync: the jobs spent part of the window in fsync or
	// fdatasync (Workload.SyncEvery), with no I/O in flight meanwhile.
	ShortfallSync ShortfallCause = "sync"
	// ShortfallUnexplained: none of the above was measured.
	ShortfallUnexplained ShortfallCause = "unexplained"
)

// Shortfall describes a run whose mean in flight stayed below
// ShortfallFraction × iodepth × numjobs.
type Shortfall struct {
	QD           int            `json:"qd"`            // iodepth × numjobs asked for
	InflightMean float64        `json:"inflight_mean"` // measured mean I/Os in flight
	JobsAsked    int            `json:"jobs_asked"`    // numjobs
	JobsRun      int            `json:"jobs_run"`      // jobs that ran (fewer when a limit stopped some)
	Cause        ShortfallCause `json:"cause"`
	// Limit names the limit that stopped jobs (ShortfallLimit): RLIMIT_NPROC,
	// pids.max, threads-max, RLIMIT_NOFILE, RLIMIT_MEMLOCK, memory,
	// fs.aio-max-nr, fs.file-max or resource.
	Limit      string `json:"limit,omitempty"`
	LimitValue int64  `json:"limit_value,omitempty"` // the limit's value when known (threads, files)
	Err        string `json:"error,omitempty"`       // the kernel's error for the first job that could not start
	// CPUBusy is the share of the window the jobs' threads were running or
	// waiting for a CPU (0..1, mean over jobs; 0 when not measured).
	CPUBusy float64 `json:"cpu_busy"`
	// CPUWait is the mean number of job threads waiting for a CPU (run
	// queue delay over the window).
	CPUWait float64 `json:"cpu_wait"`
	// SyncData says, for ShortfallSync, that the syncs were fdatasync
	// (else fsync).
	SyncData bool `json:"sync_data,omitempty"`
}

// DepthBuckets is how many buckets fio's "IO depths" distribution has:
// 1, 2–3, 4–7, 8–15, 16–31, 32–63 and 64 or more in flight.
const DepthBuckets = 7

// DepthBucket is the bucket of fio's "IO depths" that n in flight falls in.
func DepthBucket(n int64) int {
	return min(bits.Len64(uint64(max(n, 1)))-1, DepthBuckets-1)
}

// BatchBucket is the bucket of fio's "submit" and "complete" distributions
// that a call handling n I/Os falls in: 0, 1–4, 5–8, 9–16, 17–32, 33–64,
// more than 64 (fio's keys 0, 4, 8, 16, 32, 64, >=64).
func BatchBucket(n int) int {
	if n <= 0 {
		return 0
	}
	return min(max(1, bits.Len(uint(n-1))-1), DepthBuckets-1)
}
