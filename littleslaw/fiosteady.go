package littleslaw

import "math"

// FioSteady is fio 3.33's steady-state test (its steadystate= option):
// over the last Dur once-a-second samples of IOPS or bandwidth, either the
// least-squares slope (Slope) or the largest deviation from the window's
// mean, in the samples' units or (Pct) as a percent of their mean; the
// job has reached steady state once that criterion is below Limit.
type FioSteady struct {
	BW    bool // bandwidth (bytes/s) rather than IOPS
	Slope bool // least-squares slope rather than the largest deviation
	Pct   bool // the criterion as a percent of the window's mean
	Limit float64
	Dur   int // samples in the window (fio's ss_dur in seconds)
}

// FioSteadyCheck is one evaluation of FioSteady over a full window.
type FioSteadyCheck struct {
	Slope     float64 // least-squares slope per sample (slope modes; else 0)
	Deviation float64 // largest |y − mean| (deviation modes; else 0)
	Criterion float64 // Slope or Deviation, as a percent of the mean with Pct
	Attained  bool    // |Criterion| < Limit
}

// Check evaluates the test over window, the last Dur samples in time
// order, as fio computes it: integer sums, x = 0 … Dur−1 equally spaced,
// and a slope percent taken of the integer mean (fio divides its sums in
// integers there, but not for the deviation's mean). A window of another
// length, or one whose mean is 0, is not attained.
func (s FioSteady) Check(window []uint64) FioSteadyCheck {
	n := uint64(s.Dur)
	if s.Dur <= 0 || len(window) != s.Dur {
		return FioSteadyCheck{}
	}
	var sumY, sumXY uint64
	for i, y := range window {
		sumY += y
		sumXY += uint64(i) * y
	}
	var c FioSteadyCheck
	if s.Slope {
		sumX := n * (n - 1) / 2
		sumXSq := (n - 1) * n * (2*n - 1) / 6
		c.Slope = (float64(sumXY) - float64(sumX)*float64(sumY)/float64(n)) /
			(float64(sumXSq) - float64(sumX)*float64(sumX)/float64(n))
		c.Criterion = c.Slope
		if s.Pct {
			c.Criterion = 100 * c.Slope / float64(sumY/n)
		}
		c.Attained = math.Abs(c.Criterion) < s.Limit
		return c
	}
	mean := float64(sumY) / float64(n)
	for _, y := range window {
		c.Deviation = math.Max(c.Deviation, math.Abs(float64(y)-mean))
	}
	c.Criterion = c.Deviation
	if s.Pct {
		c.Criterion = 100 * c.Deviation / mean
	}
	c.Attained = c.Criterion < s.Limit
	return c
}

// FioSteadyRate is one of fio's steady-state samples: the I/Os (or bytes)
// done since the last sample, per second over ms milliseconds, in fio's
// integers (1000 × delta / ms, rounded down). 0 when ms is not positive.
func FioSteadyRate(delta, ms int64) uint64 {
	if ms <= 0 || delta <= 0 {
		return 0
	}
	return uint64(1000 * delta / ms)
}
