package sweep

import (
	"math"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// SteadyConfig sets the steady-state criterion, after fio's ss=iops_slope.
//
// IOPS is sampled every Interval. Once the last Window holds
// n = round(Window/Interval) samples (at least 2), the least-squares slope of
// IOPS against time over those n samples, in IOPS per second, is compared with
// their mean: the step is steady when |slope| ≤ Limit × mean, i.e. when IOPS
// drifts by less than Limit (a fraction, 0.02 = 2 %) of its mean per second.
//
// Precision, when > 0, ends a step sooner: from MinWindow on, the step is
// steady as soon as the mean of all its samples is known to within
// Precision (the standard error of the mean, littleslaw.MeanUncertainty,
// as a fraction of it) and the samples show no drift: their slope is
// within Limit per second, or within two standard errors of none.
type SteadyConfig struct {
	Interval  time.Duration // sampling period (fio's ss_interval)
	Window    time.Duration // span the slope is fitted over (fio's ss_dur)
	Limit     float64       // largest |slope| / mean, per second; ≤ 0 disables detection
	Precision float64       // standard error of the step's mean IOPS, a fraction, that ends it (0: only the slope rule)
	MinWindow time.Duration // shortest span judged by Precision
}

// DefaultSteady is the default criterion: 250 ms samples, a 2 s window,
// 2 %/s; or, from 1 s on, the mean known to ±2 % and no drift.
var DefaultSteady = SteadyConfig{Interval: 250 * time.Millisecond, Window: 2 * time.Second, Limit: 0.02,
	Precision: 0.02, MinWindow: time.Second}

// Slots is the number of samples the window holds (≥ 2).
func (c SteadyConfig) Slots() int {
	if c.Interval <= 0 {
		return 2
	}
	return max(2, int(math.Round(float64(c.Window)/float64(c.Interval))))
}

// SteadyDetector turns cumulative samples into per-interval IOPS and tells
// when the criterion of its SteadyConfig holds. It is pure: no clock, no I/O.
type SteadyDetector struct {
	cfg      SteadyConfig
	prev     ioengine.Sample
	ring     []float64 // per-interval IOPS, oldest first
	x        []float64 // interval mid-times, seconds
	slope    float64   // IOPS per second, last fit
	mean     float64   // IOPS, last fit
	fitted   bool      // slope and mean hold a fit
	attained bool
	// all and allX are every per-interval IOPS of the step and its time,
	// for the Precision rule.
	all, allX []float64
}

// NewSteadyDetector returns a detector for c.
func NewSteadyDetector(c SteadyConfig) *SteadyDetector { return &SteadyDetector{cfg: c} }

// Add feeds one cumulative sample (as given to Control.OnSample) and reports
// whether steady state is reached. Samples must come in time order.
func (d *SteadyDetector) Add(s ioengine.Sample) bool {
	dt := s.Elapsed - d.prev.Elapsed
	if dt <= 0 {
		return d.attained
	}
	iops := float64(s.IOs-d.prev.IOs) / dt.Seconds()
	mid := (s.Elapsed - dt/2).Seconds()
	d.prev = s
	d.ring = append(d.ring, iops)
	d.x = append(d.x, mid)
	if n := d.cfg.Slots(); len(d.ring) > n {
		d.ring = d.ring[len(d.ring)-n:]
		d.x = d.x[len(d.x)-n:]
	}
	d.all, d.allX = append(d.all, iops), append(d.allX, mid)
	if len(d.ring) >= d.cfg.Slots() {
		d.slope, d.mean = LeastSquaresSlope(d.x, d.ring)
		d.fitted = true
		d.attained = d.cfg.Limit > 0 && d.mean > 0 && math.Abs(d.slope) <= d.cfg.Limit*d.mean
	}
	if !d.attained && d.meanKnown(s.Elapsed) {
		d.attained = true
	}
	return d.attained
}

// meanKnown is the Precision rule at elapsed: the step's mean known to
// within Precision and no drift its samples can show. It keeps the fit of
// all the step's samples when it holds.
func (d *SteadyDetector) meanKnown(elapsed time.Duration) bool {
	c := d.cfg
	if c.Limit <= 0 || c.Precision <= 0 || elapsed < c.MinWindow || len(d.all) < 3 {
		return false
	}
	if u := littleslaw.MeanUncertainty(d.all); u > c.Precision {
		return false
	}
	slope, mean, se := slopeSE(d.allX, d.all)
	if mean <= 0 || math.Abs(slope) > c.Limit*mean && math.Abs(slope) > 2*se {
		return false
	}
	d.slope, d.mean, d.fitted = slope, mean, true
	return true
}

// slopeSE is LeastSquaresSlope with the standard error of the slope (the
// residuals' spread over √Σ(x−x̄)²; 0 with fewer than 3 points).
func slopeSE(x, y []float64) (slope, meanY, se float64) {
	slope, meanY = LeastSquaresSlope(x, y)
	n := len(y)
	if n < 3 {
		return slope, meanY, 0
	}
	var mx float64
	for _, v := range x {
		mx += v
	}
	mx /= float64(n)
	var rss, sxx float64
	for i := range y {
		r := y[i] - (meanY + slope*(x[i]-mx))
		rss += r * r
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	if sxx == 0 {
		return slope, meanY, 0
	}
	return slope, meanY, math.Sqrt(rss/float64(n-2)) / math.Sqrt(sxx)
}

// Reasons a step is not steady (Step.NotSteady).
const (
	// NotSteadyShort: the measured window held fewer samples than the
	// steady window, so steadiness could not be judged.
	NotSteadyShort = "short"
	// NotSteadyDrift: IOPS still drifted by more than the limit per second
	// when the runtime ran out.
	NotSteadyDrift = "drift"
	// NotSteadyOff: steady-state detection was turned off (Limit ≤ 0).
	NotSteadyOff = "off"
)

// Why returns why the step is not steady (one of the NotSteady
// constants), or "" when it is.
func (d *SteadyDetector) Why() string {
	switch {
	case d.attained:
		return ""
	case d.cfg.Limit <= 0:
		return NotSteadyOff
	case len(d.ring) < d.cfg.Slots():
		return NotSteadyShort
	}
	return NotSteadyDrift
}

// Drift returns |slope| / mean of the last fit (the last full window, or
// all the step's samples when the Precision rule ended it), a fraction per
// second (0 before any fit).
func (d *SteadyDetector) Drift() float64 {
	if !d.fitted || d.mean <= 0 {
		return 0
	}
	return math.Abs(d.slope) / d.mean
}

// CV returns the coefficient of variation (standard deviation / mean) of
// the per-interval IOPS the detector holds (the last window, or fewer
// samples when the step was shorter); 0 with fewer than two samples.
func (d *SteadyDetector) CV() float64 {
	n := float64(len(d.ring))
	if n < 2 {
		return 0
	}
	var sum float64
	for _, v := range d.ring {
		sum += v
	}
	mean := sum / n
	if mean <= 0 {
		return 0
	}
	var ss float64
	for _, v := range d.ring {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss/(n-1)) / mean
}

// Attained reports whether the last Add reached steady state.
func (d *SteadyDetector) Attained() bool { return d.attained }

// LeastSquaresSlope returns the least-squares slope of y against x and the
// mean of y. With fewer than two distinct x the slope is 0.
func LeastSquaresSlope(x, y []float64) (slope, meanY float64) {
	n := float64(len(y))
	if n == 0 || len(x) != len(y) {
		return 0, 0
	}
	var sx, sy float64
	for i := range y {
		sx += x[i]
		sy += y[i]
	}
	mx, my := sx/n, sy/n
	var sxy, sxx float64
	for i := range y {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	if sxx == 0 {
		return 0, my
	}
	return sxy / sxx, my
}
