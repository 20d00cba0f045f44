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
// IOPS, say) as a fraction of the mean: the sample standard deviation over
// √n_eff, where n_eff = n·(1−ρ)/(1+ρ) shrinks n for the lag-1
// autocorrelation ρ of xs (neighbouring slices of one run are alike, so
// they count as fewer independent samples; ρ ≤ 0 counts n). 0 when xs has
// fewer than 3 values or a mean of 0.
func MeanUncertainty(xs []float64) float64 {
	n := len(xs)
	if n < 3 {
		return 0
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if mean <= 0 {
		return 0
	}
	var ss, lag float64
	for i, x := range xs {
		d := x - mean
		ss += d * d
		if i > 0 {
			lag += d * (xs[i-1] - mean)
		}
	}
	if ss == 0 {
		return 0
	}
	rho := lag / ss
	neff := float64(n)
	if rho > 0 {
		neff = max(1, neff*(1-rho)/(1+rho))
	}
	sd := math.Sqrt(ss / float64(n-1))
	return sd / math.Sqrt(neff) / mean
}
