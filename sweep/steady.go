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
// Precision, when > 0, ends a step sooner by the settling rule
// (littleslaw.Settle): from MinWindow on, with samples that show no drift
// (their slope within Limit per second, or within two standard errors of
// none), the step is steady as soon as the decisions that rest on it are
// settled at littleslaw.SettleConfidence (its gain over the curve's
// previous step clear of the knee's thresholds, and its mean IOPS known to
// within the curve's interpolation error there), or its mean is known to
// within Precision (the standard error of the mean,
// littleslaw.MeanUncertainty, as a fraction of it), whichever comes first.
// A step whose gain over the previous one is settled wholly above the
// knee's 5 % (littleslaw.Settle.Rising: the curve still rises there, and
// no knee can be at it) may end from MinRising on instead; one whose pair
// is settled flat (Settle.Flat: the knee is at the step before, unless the
// next deeper step rises again) from MinFlat on. From
// MinUndecided on, a step whose decision and precision are still open
// and would still be open at the window cap (littleslaw.Settle.Undecidable
// for Runtime / Interval intervals, told by Cap) ends too: the rest of
// its window would not settle them.
//
// With Limit > 0 and Precision > 0 the ramp ends early too, at most Ramp
// after it began: once the queue is full and latency stopped climbing
// (littleslaw.RampFull), judged every RampInterval.
type SteadyConfig struct {
	Interval  time.Duration // sampling period (fio's ss_interval)
	Window    time.Duration // span the slope is fitted over (fio's ss_dur)
	Limit     float64       // largest |slope| / mean, per second; ≤ 0 disables detection
	Precision float64       // standard error of the step's mean IOPS, a fraction, that ends it (0: only the slope rule)
	MinWindow time.Duration // shortest span judged by Precision
	// MinRising is the shortest span of a step settled on a rising curve
	// (0: MinWindow).
	MinRising time.Duration
	// MinFlat is the shortest span of a step whose pair is settled flat
	// (0: as MinRising). Such a step is on the curve's top, which the
	// plateau and the diagnosis read: its mean must span the dips a
	// device's 100 ms slices show for a few hundred ms at a time. On the
	// virtio disk, QD 256 ended flat after 3 slices at 70.9k IOPS, 0.80 of
	// its sweep's highest, where fixed 3 s steps gave it 0.94–0.99 and
	// four 2 s runs of QD 256 alone 86–88k (slices 74–95k).
	MinFlat time.Duration
	// MinUndecided is the shortest span of a step ended as undecidable
	// (0: never ended so).
	MinUndecided time.Duration
	// RampInterval is how often the ramp is judged (0: the ramp runs its
	// whole length).
	RampInterval time.Duration
}

// DefaultSteady is the default criterion: 100 ms samples, a 2 s window,
// 2 %/s; or, from 0.5 s on and without drift, the step's decisions
// settled at 95 % or its mean known to ±2 %, from 0.3 s (three samples)
// on a step settled rising, and from 1 s (ten samples) on a step settled
// flat or whose decision would still be open at the window cap; the ramp
// judged every 10 ms.
var DefaultSteady = SteadyConfig{Interval: 100 * time.Millisecond, Window: 2 * time.Second, Limit: 0.02,
	Precision: 0.02, MinWindow: 500 * time.Millisecond, MinRising: 300 * time.Millisecond, MinFlat: time.Second,
	MinUndecided: time.Second, RampInterval: 10 * time.Millisecond}

// Settles reports whether c's settling rule and early ramp end are on.
func (c SteadyConfig) Settles() bool { return c.Limit > 0 && c.Precision > 0 }

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
	// lats every interval's mean latency, for the settling rule.
	all, allX, lats []float64
	lat             latSum
	qd              float64
	prevStep        *littleslaw.StepEstimate
	settle          littleslaw.Settle // the settling rule's last verdict
	ended           bool              // the settling rule ended the step (settle is its verdict)
	capN            int               // intervals the window cap holds (0: unknown, never undecidable)
	// control, when set, is the first measurement of a control step:
	// the step is judged by littleslaw.SettleControl against it.
	control          *littleslaw.StepEstimate
	bandMin, bandMax float64
	// leadAgain: a start-up lead is recorded (Settle.NoteLead), not held
	// (Settle.HoldForLead): the sweep measures such a step again at once,
	// its burst spent (a first measurement on a curve; LeadAgain).
	leadAgain bool
}

// latSum is the cumulative latency sum and I/Os of the last sample.
type latSum struct{ ns, ios int64 }

// NewSteadyDetector returns a detector for c.
func NewSteadyDetector(c SteadyConfig) *SteadyDetector { return &SteadyDetector{cfg: c} }

// Against sets the step's depth and the step before it on its curve
// (nil: none), which the settling rule judges it against.
func (d *SteadyDetector) Against(qd int, prev *littleslaw.StepEstimate) {
	d.qd, d.prevStep = float64(qd), prev
}

// Cap tells the detector the step's window cap (Runtime): a step whose
// decision would still be open there may end from MinUndecided on.
func (d *SteadyDetector) Cap(runtime time.Duration) {
	if d.cfg.Interval > 0 && runtime > 0 {
		d.capN = int(runtime / d.cfg.Interval)
	}
}

// AgainstControl makes the detector judge a control step: its change
// against was, its first measurement, by littleslaw.SettleControl, with the
// band 3 × the change's standard error within [minBand, maxBand]
// (sweep's ControlBand).
func (d *SteadyDetector) AgainstControl(qd int, was littleslaw.StepEstimate, minBand, maxBand float64) {
	d.qd, d.prevStep, d.control, d.bandMin, d.bandMax = float64(qd), nil, &was, minBand, maxBand
}

// LeadAgain makes the detector record a start-up lead without holding the
// step open for it: the sweep measures a step whose lead moves its mean
// more than its decisions allow again at once (sweep's gridRun.again),
// and that second measurement is held by its own lead, if any.
func (d *SteadyDetector) LeadAgain() { d.leadAgain = true }

// holdForLead applies the step's start-up lead to s: held open while it
// moves the mean too much, or only recorded under LeadAgain.
func (d *SteadyDetector) holdForLead(s *littleslaw.Settle) {
	if d.leadAgain {
		s.NoteLead(d.all)
		return
	}
	s.HoldForLead(d.all)
}

// verdict is the settling rule over the step's samples so far. A step
// whose window began above its level (littleslaw.Lead: a throttle's
// start-up burst) is held open while the burst's share of its mean
// exceeds what its decisions need (Settle.HoldForLead); a control step
// is judged on its level, the intervals after the lead, against its first
// measurement's level.
func (d *SteadyDetector) verdict() littleslaw.Settle {
	cur := d.Estimate()
	if w := d.control; w != nil {
		lead, level, ok := littleslaw.Lead(d.all)
		if ok {
			cur.IOPS, cur.IOPSErr = level, littleslaw.MeanUncertainty(d.all[1:])
		}
		band := min(d.bandMax, max(d.bandMin, 3*math.Hypot(w.IOPSErr, cur.IOPSErr)))
		s := littleslaw.SettleControl(*w, cur, band, d.cfg.Precision)
		if ok {
			s.Lead, s.Level, s.LeadShare = lead, level, lead/float64(len(d.all))
		}
		return s
	}
	s := littleslaw.SettleStep(d.prevStep, cur, d.cfg.Precision)
	d.holdForLead(&s)
	return s
}

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
	if n := s.IOs - d.lat.ios; n > 0 {
		d.lats = append(d.lats, float64(s.LatSumNs-d.lat.ns)/float64(n))
	}
	d.lat = latSum{ns: s.LatSumNs, ios: s.IOs}
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

// meanKnown is the settling rule at elapsed: the step's decisions settled
// or its mean known to within Precision (littleslaw.SettleStep), and no
// drift its samples can show. It keeps the fit of all the step's samples
// when it holds.
func (d *SteadyDetector) meanKnown(elapsed time.Duration) bool {
	c := d.cfg
	earliest := c.MinWindow
	if c.MinRising > 0 {
		earliest = min(earliest, c.MinRising)
	}
	if !c.Settles() || elapsed < earliest || len(d.all) < 3 {
		return false
	}
	d.settle = d.verdict()
	if !d.settle.Settled && c.MinUndecided > 0 && elapsed >= c.MinUndecided && d.settle.Undecidable(d.capN) {
		d.settle.EndUndecidable(d.capN)
		if d.control == nil {
			d.holdForLead(&d.settle) // undecided, yet its burst's share still to wear off
		}
	}
	if !d.settle.Settled || elapsed < c.shortest(d.settle) {
		return false
	}
	slope, mean, se := slopeSE(d.allX, d.all)
	if mean <= 0 || math.Abs(slope) > c.Limit*mean && math.Abs(slope) > 2*se {
		return false
	}
	d.slope, d.mean, d.fitted, d.ended = slope, mean, true, true
	return true
}

// shortest is the shortest span of a step whose verdict is st: MinFlat
// for a pair settled flat, MinRising for one settled rising, MinWindow
// otherwise (each 0: the next).
func (c SteadyConfig) shortest(st littleslaw.Settle) time.Duration {
	rising := c.MinWindow
	if c.MinRising > 0 {
		rising = c.MinRising
	}
	switch {
	case st.Flat && c.MinFlat > 0:
		return c.MinFlat
	case st.Rising || st.Flat:
		return rising
	}
	return c.MinWindow
}

// Estimate is the step as measured so far: its mean IOPS and latency with
// their standard errors (littleslaw.MeanUncertainty of the per-interval
// figures) over its intervals.
func (d *SteadyDetector) Estimate() littleslaw.StepEstimate {
	e := littleslaw.StepEstimate{QD: d.qd, N: len(d.all), IOPSErr: littleslaw.MeanUncertainty(d.all), LatErr: littleslaw.MeanUncertainty(d.lats)}
	for _, v := range d.all {
		e.IOPS += v
	}
	if e.N > 0 {
		e.IOPS /= float64(e.N)
	}
	if d.lat.ios > 0 {
		e.LatNs = float64(d.lat.ns) / float64(d.lat.ios)
	}
	return e
}

// Settle returns the settling rule's verdict over all the step's samples
// (at its end: the judgement that ended it, when it did); ok is false when
// the rule is off.
func (d *SteadyDetector) Settle() (s littleslaw.Settle, ok bool) {
	if !d.cfg.Settles() {
		return s, false
	}
	if d.ended {
		return d.settle, true
	}
	return d.verdict(), true
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

// Why a step's ramp ended (Step.RampEnd).
const (
	RampEndFull = "full" // the queue was full and latency had stopped climbing (littleslaw.RampFull)
	RampEndTime = "time" // the ramp ran its whole length (--ramp_time)
)

// rampDetector ends a step's ramp (ioengine.Control.OnRampSample) once
// littleslaw.RampFull holds of its last two slices: the ramp's cumulative
// samples cut into slices of at least littleslaw.RampMinIOs completions.
type rampDetector struct {
	qd         int
	mark       ioengine.Sample // where the last slice ended
	prev, last littleslaw.RampSlice
	slices     int
	ended      time.Duration // when the rule held (0: it did not)
}

// Add feeds one cumulative ramp sample and reports whether the ramp may end.
func (r *rampDetector) Add(s ioengine.Sample) bool {
	if r.ended > 0 {
		return true
	}
	n := s.IOs - r.mark.IOs
	if n < littleslaw.RampMinIOs(r.qd) {
		return false
	}
	r.prev, r.last = r.last, littleslaw.RampSlice{IOs: n, LatSumNs: s.LatSumNs - r.mark.LatSumNs, Inflight: s.Inflight}
	r.mark = s
	if r.slices++; r.slices >= 2 && littleslaw.RampFull(r.prev, r.last, r.qd) {
		r.ended = max(s.Elapsed, 1)
		return true
	}
	return false
}
