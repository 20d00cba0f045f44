package ioengine

import (
	"cmp"
	"math"
	"slices"
	"time"
)

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
	// Bins are the slice's completion latencies per direction (read,
	// write), in LatBins' buckets, when Control.SeriesBins asked for
	// them; results.json does not keep them.
	Bins [2][]LatBin `json:"-"`
	// DirLatMeanNs is the mean latency of the slice's reads and of its
	// writes (0 for a direction without completions), with Bins.
	DirLatMeanNs [2]float64 `json:"-"`
	// DirLatMaxNs is the largest latency of the slice's reads and of its
	// writes (0 for a direction without completions), e.g. for fio's
	// log_max_value.
	DirLatMaxNs [2]int64 `json:"-"`
	// Ramp marks a slice of the ramp (before the measured window, StartNs
	// negative): IOPS, bandwidth and mean latency only.
	Ramp bool `json:"ramp,omitempty"`
}

// IOPS is the slice's I/Os per second, both directions.
func (iv Interval) IOPS() float64 { return iv.ReadIOPS + iv.WriteIOPS }

// BWBytes is the slice's bytes per second, both directions.
func (iv Interval) BWBytes() float64 { return iv.ReadBWBytes + iv.WriteBWBytes }

// Coarsen joins every k slices of series into one (the last may join
// fewer): its rates and in-flight mean over the joined time, its mean
// latency over the joined completions, its bins summed and its 99th
// percentile from them (0 without bins). k ≤ 1 returns series.
func Coarsen(series []Interval, k int) []Interval {
	if k <= 1 {
		return series
	}
	var out []Interval
	for i := 0; i < len(series); i += k {
		out = append(out, joinSlices(series[i:min(i+k, len(series))]))
	}
	return out
}

// joinSlices is consecutive slices as one.
func joinSlices(ivs []Interval) Interval {
	j := Interval{StartNs: ivs[0].StartNs}
	var latSum, rIOs, wIOs, rB, wB, area float64
	var dirLat, dirN [2]float64 // Σ latency and completions per direction, from each slice's mean and bins
	var bins [2][]LatBin
	for _, iv := range ivs {
		dt := float64(iv.DurNs) / 1e9
		j.DurNs += iv.DurNs
		j.IOs += iv.IOs
		latSum += iv.LatMeanNs * float64(iv.IOs)
		rIOs, wIOs = rIOs+iv.ReadIOPS*dt, wIOs+iv.WriteIOPS*dt
		rB, wB = rB+iv.ReadBWBytes*dt, wB+iv.WriteBWBytes*dt
		area += iv.InflightMean * dt
		j.DirLatMaxNs = [2]int64{max(j.DirLatMaxNs[0], iv.DirLatMaxNs[0]), max(j.DirLatMaxNs[1], iv.DirLatMaxNs[1])}
		for d, bs := range iv.Bins {
			var n int64
			for _, b := range bs {
				n += b.Count
			}
			dirLat[d] += iv.DirLatMeanNs[d] * float64(n)
			dirN[d] += float64(n)
			bins[d] = append(bins[d], bs...)
		}
	}
	if dt := float64(j.DurNs) / 1e9; dt > 0 {
		j.ReadIOPS, j.WriteIOPS, j.ReadBWBytes, j.WriteBWBytes, j.InflightMean = rIOs/dt, wIOs/dt, rB/dt, wB/dt, area/dt
	}
	if j.IOs > 0 {
		j.LatMeanNs = latSum / float64(j.IOs)
	}
	for d, n := range dirN {
		if n > 0 {
			j.DirLatMeanNs[d] = dirLat[d] / n
		}
	}
	if len(bins[0])+len(bins[1]) > 0 {
		j.Bins = [2][]LatBin{sumLatBins(bins[0]), sumLatBins(bins[1])}
		var all []ivBin
		for _, b := range append(slices.Clone(j.Bins[0]), j.Bins[1]...) {
			all = append(all, ivBin{slot: uint16(ivSlot(b.LoNs)), count: uint32(min(b.Count, math.MaxUint32))})
		}
		j.LatP99Ns = ivQuantile(all, 0.99)
	}
	return j
}

// sumLatBins adds up bins of the same bucket, in bucket order.
func sumLatBins(bins []LatBin) []LatBin {
	slices.SortFunc(bins, func(a, b LatBin) int { return cmp.Compare(a.LoNs, b.LoNs) })
	var out []LatBin
	for _, b := range bins {
		if n := len(out); n > 0 && out[n-1].LoNs == b.LoNs {
			out[n-1].Count += b.Count
			continue
		}
		out = append(out, b)
	}
	return out
}

// dirMeans is each direction's mean latency from its sum and count (0
// without completions).
func dirMeans(sum, n [2]int64) [2]float64 {
	var out [2]float64
	for d := range out {
		if n[d] > 0 {
			out[d] = float64(sum[d]) / float64(n[d])
		}
	}
	return out
}
