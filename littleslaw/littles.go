package littleslaw

import "math"

// nsPerSec converts nanoseconds to seconds.
const nsPerSec = 1e9

// QueueDepth is Little's Law for storage: the mean number of I/Os in flight
// needed to sustain iops I/Os per second when each takes latNs nanoseconds
// on average (QD = IOPS × latency). It returns a fractional queue depth;
// use CeilQD for the whole number to configure.
func QueueDepth(iops, latNs float64) float64 {
	return iops * latNs / nsPerSec
}

// IOPSAtDepth is Little's Law solved for throughput: I/Os per second that
// qd I/Os in flight deliver at latNs nanoseconds each.
func IOPSAtDepth(qd, latNs float64) float64 {
	if latNs <= 0 {
		return 0
	}
	return qd * nsPerSec / latNs
}

// LatencyNsAtDepth is Little's Law solved for latency: the mean nanoseconds
// per I/O when qd I/Os in flight deliver iops I/Os per second.
func LatencyNsAtDepth(qd, iops float64) float64 {
	if iops <= 0 {
		return 0
	}
	return qd * nsPerSec / iops
}

// ThroughputIOPS converts a throughput in bytes per second at bs bytes per
// I/O into I/Os per second.
func ThroughputIOPS(bwBytes float64, bs int64) float64 {
	if bs <= 0 {
		return 0
	}
	return bwBytes / float64(bs)
}

// CeilQD rounds a fractional queue depth up to the whole number of I/Os to
// keep in flight (at least 1). It forgives floating-point noise, so
// 160000 IOPS × 1.3 ms gives 208, not 209.
func CeilQD(qd float64) int {
	if qd <= 1 || math.IsNaN(qd) {
		return 1
	}
	if qd >= math.MaxInt32 {
		return math.MaxInt32
	}
	return int(math.Ceil(qd - 1e-9*qd))
}

// MeanUncertainty is the standard error of the mean of xs (per-interval
// IOPS, say) as a fraction of the mean, as the sweep's settling rule ends a
// step on it: sampleNoise's RelSE with the lag-1 autocorrelation counted
// from MinNoiseSamples slices on, not only from MinAutocorrSamples as the
// comparison of runs does. A step may end after 3–9 slices, and a disk's
// 100 ms slices are alike (a virtio disk's 4k random reads at QD 1–256, 30
// slices a step, gave ρ +0.29 on average, up to +0.59): counting them as
// independent would call the mean known better than it is. 0 when xs has
// fewer than MinNoiseSamples values or a mean of 0.
func MeanUncertainty(xs []float64) float64 {
	if m := sampleNoise(xs, MinNoiseSamples); m.Samples >= MinNoiseSamples {
		return m.RelSE
	}
	return 0
}
