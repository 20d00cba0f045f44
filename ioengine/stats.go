package ioengine

import (
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
	Engine         string        `json:"engine"`
	FallbackReason string        `json:"engine_fallback_reason,omitempty"`
	Runtime        time.Duration `json:"runtime_ns"` // measured window
	All            DirStats      `json:"all"`
	Read           *DirStats     `json:"read,omitempty"`  // set when the workload reads
	Write          *DirStats     `json:"write,omitempty"` // set when the workload writes
	InflightMean   float64       `json:"inflight_mean"`   // time-weighted mean I/Os in flight, all jobs
	CPU            CPU           `json:"cpu"`
	Errors         []IOError     `json:"errors"`
	ShortIOs       int64         `json:"short_ios"`
	// Buffers says how the engine's I/O buffers were used: "registered"
	// (io_uring fixed buffers), "unregistered: <why>" or "" (engine without the notion).
	Buffers string `json:"buffers,omitempty"`
	// Hosts holds each host's share of a multi-host run (fio client/server);
	// nil for a local run.
	Hosts []HostStats `json:"hosts,omitempty"`
	// Series holds the measured window in slices of Control.SeriesInterval
	// (nil when none was asked for or the engine cannot slice its window).
	Series []Interval `json:"series,omitempty"`
}

// HostStats is one host's figures in a multi-host run.
type HostStats struct {
	Host    string  `json:"host"`     // host[:port] as the client named it
	IOPS    float64 `json:"iops"`     // I/Os per second
	BWBytes float64 `json:"bw_bytes"` // bytes per second
	Lat     Latency `json:"lat_ns"`
}
