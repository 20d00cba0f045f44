package ioengine

import "time"

// DefaultSeriesInterval is the period of a run's time series when the caller
// does not choose one (fio's log_avg_msec at 250).
const DefaultSeriesInterval = 250 * time.Millisecond

// Interval is one slice of a run's measured window: the figures of the I/Os
// that completed in it. Rates are per second of the slice.
type Interval struct {
	StartNs      int64   `json:"t_ns"`     // slice start, since the measured window began
	DurNs        int64   `json:"dur_ns"`   // slice length
	IOs          int64   `json:"ios"`      // I/Os completed in the slice, both directions
	ReadIOPS     float64 `json:"r_iops"`   // read I/Os per second
	WriteIOPS    float64 `json:"w_iops"`   // write I/Os per second
	ReadBWBytes  float64 `json:"r_bw"`     // read bytes per second
	WriteBWBytes float64 `json:"w_bw"`     // write bytes per second
	LatMeanNs    float64 `json:"lat_ns"`   // mean latency of the slice's completions, ns
	LatP99Ns     int64   `json:"p99_ns"`   // 99th percentile latency of the slice's completions, ns (±3 %)
	InflightMean float64 `json:"inflight"` // time-weighted mean I/Os in flight over the slice
	// Ramp marks a slice of the ramp (before the measured window, StartNs
	// negative): IOPS, bandwidth and mean latency only.
	Ramp bool `json:"ramp,omitempty"`
}

// IOPS is the slice's I/Os per second, both directions.
func (iv Interval) IOPS() float64 { return iv.ReadIOPS + iv.WriteIOPS }

// BWBytes is the slice's bytes per second, both directions.
func (iv Interval) BWBytes() float64 { return iv.ReadBWBytes + iv.WriteBWBytes }
