package diagnosis

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/stat"
)

// Time inside a step: the rules that read a step's per-interval series
// (burst credits, periodic throttling, warm-up or cache fill, noisy
// neighbours), the sustained level the analysis uses instead of the step's
// mean, how long a step must run to see it, and why the steady-state test
// did or did not hold. Typed kinds and numbers only; report words them.

// TimeKind names a pattern found in a step's series.
type TimeKind string

// Time kinds, the values of TimeFinding.Kind.
const (
	// TimeBurst: IOPS fell by at least BurstFactor within the step at a
	// constant queue and stayed at the lower level (burst credits spent).
	TimeBurst TimeKind = "burst-credits"
	// TimeThrottle: IOPS oscillates with a stable period (a windowed or
	// per-second token bucket).
	TimeThrottle TimeKind = "periodic-throttle"
	// TimeWarmup: latency fell gradually to a plateau (caches warming,
	// thin-provisioned extents allocated, a device waking).
	TimeWarmup TimeKind = "warm-up"
	// TimeCacheFill: latency rose gradually to a plateau (a write cache
	// filled, the page cache stopped absorbing).
	TimeCacheFill TimeKind = "cache-fill"
	// TimeNoisy: IOPS varies without a period or a trend (other tenants on
	// shared hardware).
	TimeNoisy TimeKind = "noisy-neighbours"
)

// Thresholds of the time rules.
const (
	// BurstFactor: the burst level is at least this many times the sustained level.
	BurstFactor = 1.5
	// ThrottleACF: the autocorrelation peak at the period is at least this.
	ThrottleACF = 0.5
	// ThrottleCV: IOPS varies by at least this (σ / mean) for a throttle to matter.
	ThrottleCV = 0.1
	// ThrottlePeriods: whole periods the series must hold to call one.
	ThrottlePeriods = 3
	// TransientChange: latency moves by at least this fraction of its plateau.
	TransientChange = 0.3
	// PlateauBand: a plateau stays within this fraction of its median.
	PlateauBand = 0.15
	// NoisyCV: IOPS σ / mean above this, without period or trend, is noise.
	NoisyCV = 0.15
	// NoisyACF: the highest autocorrelation of noise stays below this.
	NoisyACF = 0.3
	// minTimeSamples: fewer usable intervals than this give no time findings.
	minTimeSamples = 8
)

// TimeSample is one interval of a step's series. Times are seconds since the
// measured window began; rates per second; latencies ns.
type TimeSample struct {
	TSec      float64 // interval start
	DurSec    float64 // interval length
	IOs       float64 // I/Os completed in it
	IOPS      float64
	BWBytes   float64 // bytes per second
	LatMeanNs float64
	P99Ns     float64
	Inflight  float64 // time-weighted mean in flight
}

// TimeFinding is one pattern found in a step's series with its evidence.
// Kind says which fields are set; the others are zero.
type TimeFinding struct {
	Kind TimeKind `json:"kind"`
	// Burst: BurstIOPS until BurstSec (since the window began), then
	// SustainedIOPS; Factor = BurstIOPS / SustainedIOPS. The latencies and
	// in-flight means of both levels show the queue stayed as deep.
	BurstIOPS         float64 `json:"burst_iops,omitempty"`
	BurstSec          float64 `json:"burst_s,omitempty"`
	SustainedIOPS     float64 `json:"sustained_iops,omitempty"`
	Factor            float64 `json:"factor,omitempty"`
	BurstLatNs        float64 `json:"burst_lat_ns,omitempty"`
	SustainedLatNs    float64 `json:"sustained_lat_ns,omitempty"`
	BurstInflight     float64 `json:"burst_inflight,omitempty"`
	SustainedInflight float64 `json:"sustained_inflight,omitempty"`
	// Throttle: PeriodSec with autocorrelation ACF at that lag; PeakIOPS and
	// TroughIOPS are the highest and lowest interval of the mean period;
	// MeanIOPS is the mean over whole periods.
	PeriodSec  float64 `json:"period_s,omitempty"`
	ACF        float64 `json:"acf,omitempty"`
	PeakIOPS   float64 `json:"peak_iops,omitempty"`
	TroughIOPS float64 `json:"trough_iops,omitempty"`
	MeanIOPS   float64 `json:"mean_iops,omitempty"`
	// Warm-up / cache fill: latency went from FromLatNs (first intervals) to
	// PlateauLatNs, reached at PlateauSec.
	FromLatNs    float64 `json:"from_lat_ns,omitempty"`
	PlateauLatNs float64 `json:"plateau_lat_ns,omitempty"`
	PlateauSec   float64 `json:"plateau_s,omitempty"`
	// Noisy: CV = σ / mean of IOPS, its range MinIOPS..MaxIOPS, and the
	// highest autocorrelation at any lag (ACF, low: no pattern).
	CV      float64 `json:"cv,omitempty"`
	MinIOPS float64 `json:"min_iops,omitempty"`
	MaxIOPS float64 `json:"max_iops,omitempty"`
}

// Sustained is the level a step holds after its burst or warm-up: the
// figures of its intervals from FromSec on. Little's Law holds for it as
// for the step (in-flight mean ≈ IOPS × mean latency).
type Sustained struct {
	FromSec   float64 `json:"from_s"`
	IOPS      float64 `json:"iops"`
	BWBytes   float64 `json:"bw_bytes"`
	LatMeanNs float64 `json:"lat_mean_ns"`
	// P99Ns is the median of the intervals' p99 latencies.
	P99Ns    float64 `json:"p99_ns"`
	Inflight float64 `json:"inflight_mean"`
}

// SteadyWhy says why the steady-state test did or did not hold at a step,
// read from its series: the least-squares slope of IOPS over the last
// WindowSec of the window as a fraction of the mean per second, against
// Limit, and the pattern that moved it (Cause, "" when none).
type SteadyWhy struct {
	Attained    bool    `json:"attained"`
	SlopePerSec float64 `json:"slope_per_s"` // fraction of the mean, per second (signed)
	Limit       float64 `json:"limit"`       // fraction per second
	WindowSec   float64 `json:"window_s"`
	RanSec      float64 `json:"ran_s"` // measured window length
	Samples     int     `json:"samples"`
	// CV is σ / mean of the window's interval IOPS: a flat slope over a
	// window with a large CV is a coincidence of where the window fell.
	CV    float64  `json:"cv,omitempty"`
	Cause TimeKind `json:"cause,omitempty"`
	// WholePeriods is the window length in throttle periods when Cause is
	// a throttle (not whole: the slope sees part of a cycle).
	WholePeriods float64 `json:"periods,omitempty"`
}

// StepTime is what a step's series shows: findings, the sustained level
// when it differs from the step's mean, and how long the step must run.
type StepTime struct {
	Findings  []TimeFinding `json:"findings,omitempty"`
	Sustained *Sustained    `json:"sustained,omitempty"`
	// MinRuntimeSec is how long a step must run to measure the sustained
	// level (burst or warm-up over, then the steady window), or to hold
	// ThrottlePeriods whole periods; 0 when nothing asks for more.
	MinRuntimeSec float64    `json:"min_runtime_s,omitempty"`
	Steady        *SteadyWhy `json:"steady,omitempty"`
	// OnCreditsSec is set when the step ran above its curve's sustained
	// level without falling (CurveBurst.OnCredits): how long the credits
	// would last at its rate. Its figures are a burst level, not sustained.
	OnCreditsSec float64 `json:"on_credits_s,omitempty"`
	// AboveControl is set when the step ran above what its curve's control
	// step (re-measured at the end of the sweep) still delivered: a level
	// that did not last, left out of the analysis.
	AboveControl bool `json:"above_control,omitempty"`
}

// Has reports whether t holds a finding of kind k.
func (t *StepTime) Has(k TimeKind) bool { return t.Find(k) != nil }

// Find returns t's finding of kind k, or nil.
func (t *StepTime) Find(k TimeKind) *TimeFinding {
	if t == nil {
		return nil
	}
	for i := range t.Findings {
		if t.Findings[i].Kind == k {
			return &t.Findings[i]
		}
	}
	return nil
}

// SteadyCriterion is the steady-state test a step ran under (fio's
// ss=iops_slope): |slope| ≤ Limit × mean per second over the last WindowSec.
type SteadyCriterion struct {
	WindowSec float64
	Limit     float64 // ≤ 0: steady-state detection was off
}

// AnalyzeTime applies the time rules to one step's series (in time order)
// under the steady criterion ss, with attained the engine's verdict. It
// returns nil when the series is too short to tell anything.
func AnalyzeTime(series []TimeSample, ss SteadyCriterion, attained bool) *StepTime {
	xs := usable(series)
	if len(xs) < 2 {
		return nil
	}
	t := &StepTime{}
	iops := column(xs, func(s TimeSample) float64 { return s.IOPS })
	if len(xs) >= minTimeSamples {
		from := 0
		if b, at := burst(xs, iops); b != nil {
			t.Findings = append(t.Findings, *b)
			from = at
		}
		th := throttle(xs[from:], iops[from:])
		if th != nil {
			t.Findings = append(t.Findings, *th)
		} else if from == 0 {
			if w, at := transient(xs); w != nil {
				t.Findings = append(t.Findings, *w)
				from = at
			} else if n := noisy(iops); n != nil {
				t.Findings = append(t.Findings, *n)
			}
		}
		if from > 0 {
			s := sustainedOf(xs[from:])
			t.Sustained = &s
		}
	}
	t.MinRuntimeSec = minRuntime(t, ss)
	t.Steady = steadyWhy(xs, iops, ss, attained, t)
	if len(t.Findings) == 0 && t.Steady == nil {
		return nil
	}
	return t
}

// usable drops intervals shorter than half the typical one (a tail).
func usable(series []TimeSample) []TimeSample {
	if len(series) == 0 {
		return nil
	}
	durs := make([]float64, len(series))
	for i, s := range series {
		durs[i] = s.DurSec
	}
	med := median(durs)
	var out []TimeSample
	for _, s := range series {
		if s.DurSec > 0 && s.DurSec >= med/2 {
			out = append(out, s)
		}
	}
	return out
}

func column(xs []TimeSample, f func(TimeSample) float64) []float64 {
	out := make([]float64, len(xs))
	for i, s := range xs {
		out[i] = f(s)
	}
	return out
}

// median is the middle of v (the mean of the two middle values for an even
// count; 0 when v is empty). v is not changed.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// burst looks for one abrupt fall of IOPS that stays down: the split that
// minimises the two segments' squared error, with both levels taken as
// medians away from the transition interval. It returns the finding and
// the index of the first sustained interval.
func burst(xs []TimeSample, iops []float64) (*TimeFinding, int) {
	n := len(iops)
	minSeg := 3
	best, bestK := math.Inf(1), -1
	for k := minSeg; k <= n-minSeg; k++ {
		e := sse(iops[:k]) + sse(iops[k:])
		if e < best {
			best, bestK = e, k
		}
	}
	if bestK < 0 {
		return nil, 0
	}
	// Levels away from the split: the transition interval mixes both.
	hi := median(iops[:max(1, bestK-1)])
	lo := median(iops[min(n-1, bestK+1):])
	if lo <= 0 || hi/lo < BurstFactor {
		return nil, 0
	}
	// The low level holds: its last third is not back up, and the high
	// level was a level too (not a slope).
	tail := iops[n-max(2, (n-bestK)/3):]
	if median(tail) > lo*(1+PlateauBand) || !flat(iops[:max(1, bestK-1)], hi) {
		return nil, 0
	}
	// Find the transition interval: the first from which IOPS stays below
	// the midpoint; the burst ends inside it at the fraction that matches
	// its IOPS.
	mid := (hi + lo) / 2
	k := n
	for i := n - 1; i >= 0 && iops[i] < mid; i-- {
		k = i
	}
	// The burst ends inside interval k when k is still above the low
	// level, else inside k-1, at the fraction of it that matches its IOPS.
	frac := func(i int) float64 { return math.Min(1, math.Max(0, (iops[i]-lo)/(hi-lo))) }
	var end float64
	switch {
	case k >= n:
		return nil, 0
	case iops[k] > lo*(1+PlateauBand):
		end = xs[k].TSec + frac(k)*xs[k].DurSec
	case k > 0:
		end = xs[k-1].TSec + frac(k-1)*xs[k-1].DurSec
	}
	from := min(n-1, k+1) // the sustained level starts after the transition
	if from >= n-1 || k < 2 {
		return nil, 0
	}
	before := xs[:max(1, k-1)]
	after := xs[from:]
	s := sustainedOf(after)
	b := sustainedOf(before)
	// At a constant queue: the in-flight mean did not fall with IOPS (else
	// the submitter, not the device, slowed down).
	if b.Inflight > 0 && s.Inflight < 0.8*b.Inflight {
		return nil, 0
	}
	return &TimeFinding{
		Kind: TimeBurst, BurstIOPS: b.IOPS, BurstSec: end, SustainedIOPS: s.IOPS, Factor: b.IOPS / s.IOPS,
		BurstLatNs: b.LatMeanNs, SustainedLatNs: s.LatMeanNs, BurstInflight: b.Inflight, SustainedInflight: s.Inflight,
	}, from
}

// flat reports whether v stays within PlateauBand of level for most (80%) of its values.
func flat(v []float64, level float64) bool {
	if len(v) == 0 || level <= 0 {
		return false
	}
	in := 0
	for _, x := range v {
		if math.Abs(x-level) <= PlateauBand*level {
			in++
		}
	}
	return float64(in) >= 0.8*float64(len(v))
}

func sse(v []float64) float64 {
	m := stat.Mean(v, nil)
	var s float64
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return s
}

// transient looks for latency moving gradually to a plateau: the plateau
// is the median of the last third; it begins at the first interval from
// which every later one stays within PlateauBand of it.
func transient(xs []TimeSample) (*TimeFinding, int) {
	lat := column(xs, func(s TimeSample) float64 { return s.LatMeanNs })
	n := len(lat)
	plateau := median(lat[n-n/3:])
	if plateau <= 0 {
		return nil, 0
	}
	k := n
	for i := n - 1; i >= 0 && math.Abs(lat[i]-plateau) <= PlateauBand*plateau; i-- {
		k = i
	}
	if k < 2 || k > n-n/3 {
		return nil, 0 // settled from the start, or no plateau to speak of
	}
	from := median(lat[:2])
	if math.Abs(from-plateau) < TransientChange*plateau {
		return nil, 0
	}
	kind := TimeWarmup
	if from < plateau {
		kind = TimeCacheFill
	}
	return &TimeFinding{Kind: kind, FromLatNs: from, PlateauLatNs: plateau, PlateauSec: xs[k].TSec}, k
}

// acf returns the autocorrelation of v at lags 0..len(v)-1, computed
// through an FFT (Wiener–Khinchin) of the zero-padded, mean-removed series.
func acf(v []float64) []float64 {
	n := len(v)
	m := stat.Mean(v, nil)
	size := 1
	for size < 2*n {
		size *= 2
	}
	pad := make([]float64, size)
	for i, x := range v {
		pad[i] = x - m
	}
	fft := fourier.NewFFT(size)
	coef := fft.Coefficients(nil, pad)
	for i, c := range coef {
		coef[i] = complex(real(c)*real(c)+imag(c)*imag(c), 0)
	}
	raw := fft.Sequence(nil, coef)
	out := make([]float64, n)
	if raw[0] == 0 {
		return out
	}
	for lag := range out {
		out[lag] = raw[lag] / raw[0]
	}
	return out
}

// throttle looks for a stable period: the first local maximum of the
// autocorrelation at a lag of 2 or more intervals, high enough, with at
// least ThrottlePeriods periods in the series and enough variation to matter.
func throttle(xs []TimeSample, iops []float64) *TimeFinding {
	n := len(iops)
	mean := stat.Mean(iops, nil)
	if n < 2*ThrottlePeriods || mean <= 0 || stat.StdDev(iops, nil)/mean < ThrottleCV {
		return nil
	}
	r := acf(iops)
	lag := 0
	for l := 2; l <= n/ThrottlePeriods; l++ {
		if r[l] > r[l-1] && (l+1 >= n || r[l] >= r[l+1]) {
			lag = l
			break
		}
	}
	if lag == 0 || r[lag] < ThrottleACF {
		return nil
	}
	// Sub-interval period: a parabola through the peak and its neighbours.
	p := float64(lag)
	if lag+1 < n {
		if d := r[lag-1] - 2*r[lag] + r[lag+1]; d < 0 {
			p += 0.5 * (r[lag-1] - r[lag+1]) / d
		}
	}
	dt := median(column(xs, func(s TimeSample) float64 { return s.DurSec }))
	// The mean cycle over whole periods.
	whole := (n / lag) * lag
	prof := make([]float64, lag)
	for i := 0; i < whole; i++ {
		prof[i%lag] += iops[i] / float64(whole/lag)
	}
	lo, hi := prof[0], prof[0]
	for _, v := range prof {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return &TimeFinding{Kind: TimeThrottle, PeriodSec: p * dt, ACF: r[lag], PeakIOPS: hi, TroughIOPS: lo,
		MeanIOPS: stat.Mean(iops[:whole], nil)}
}

// noisy calls variance without a period or a trend noise.
func noisy(iops []float64) *TimeFinding {
	n := len(iops)
	mean := stat.Mean(iops, nil)
	if n < minTimeSamples || mean <= 0 {
		return nil
	}
	cv := stat.StdDev(iops, nil) / mean
	if cv < NoisyCV {
		return nil
	}
	r := acf(iops)
	top := 0.0
	for l := 1; l <= n/2; l++ {
		top = math.Max(top, math.Abs(r[l]))
	}
	if top >= NoisyACF {
		return nil
	}
	lo, hi := iops[0], iops[0]
	for _, v := range iops {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return &TimeFinding{Kind: TimeNoisy, CV: cv, ACF: top, MinIOPS: lo, MaxIOPS: hi}
}

// sustainedOf sums intervals into one level: IOPS and bandwidth over their
// time, mean latency over their I/Os, in flight over their time.
func sustainedOf(xs []TimeSample) Sustained {
	var dur, ios, bytes, latIOs, area float64
	p99 := make([]float64, 0, len(xs))
	for _, s := range xs {
		dur += s.DurSec
		n := s.IOs
		if n == 0 {
			n = s.IOPS * s.DurSec
		}
		ios += n
		bytes += s.BWBytes * s.DurSec
		latIOs += s.LatMeanNs * n
		area += s.Inflight * s.DurSec
		if s.P99Ns > 0 {
			p99 = append(p99, s.P99Ns)
		}
	}
	out := Sustained{}
	if len(xs) > 0 {
		out.FromSec = xs[0].TSec
	}
	if dur > 0 {
		out.IOPS, out.BWBytes, out.Inflight = ios/dur, bytes/dur, area/dur
	}
	if ios > 0 {
		out.LatMeanNs = latIOs / ios
	}
	out.P99Ns = median(p99)
	return out
}

// minRuntime is how long a step must run: past the burst or the warm-up
// with the steady window after it; ThrottlePeriods whole periods (and a
// steady window of whole periods).
func minRuntime(t *StepTime, ss SteadyCriterion) float64 {
	win := ss.WindowSec
	var need float64
	if b := t.Find(TimeBurst); b != nil {
		need = math.Max(need, b.BurstSec+win)
	}
	for _, k := range []TimeKind{TimeWarmup, TimeCacheFill} {
		if w := t.Find(k); w != nil {
			need = math.Max(need, w.PlateauSec+win)
		}
	}
	if th := t.Find(TimeThrottle); th != nil && th.PeriodSec > 0 {
		need = math.Max(need, math.Max(ThrottlePeriods*th.PeriodSec, math.Ceil(win/th.PeriodSec)*th.PeriodSec))
	}
	return need
}

// steadyWhy fits the slope of the last window as the steady-state test does
// and names the pattern that moved it.
func steadyWhy(xs []TimeSample, iops []float64, ss SteadyCriterion, attained bool, t *StepTime) *SteadyWhy {
	if ss.Limit <= 0 || ss.WindowSec <= 0 {
		return nil
	}
	last := xs[len(xs)-1]
	ran := last.TSec + last.DurSec
	var x, y []float64
	for i, s := range xs {
		if s.TSec+s.DurSec >= ran-ss.WindowSec-1e-9 && s.TSec >= ran-ss.WindowSec-s.DurSec/2 {
			x = append(x, s.TSec+s.DurSec/2)
			y = append(y, iops[i])
		}
	}
	w := &SteadyWhy{Attained: attained, Limit: ss.Limit, WindowSec: ss.WindowSec, RanSec: ran, Samples: len(y)}
	if len(y) >= 2 {
		_, beta := stat.LinearRegression(x, y, nil, false)
		if m := stat.Mean(y, nil); m > 0 {
			w.SlopePerSec = beta / m
			w.CV = stat.StdDev(y, nil) / m
		}
	}
	switch {
	case t.Has(TimeBurst) && t.Find(TimeBurst).BurstSec > ran-ss.WindowSec:
		w.Cause = TimeBurst
	case t.Has(TimeThrottle):
		w.Cause = TimeThrottle
		if p := t.Find(TimeThrottle).PeriodSec; p > 0 {
			w.WholePeriods = ss.WindowSec / p
		}
	case t.Has(TimeWarmup) && t.Find(TimeWarmup).PlateauSec > ran-ss.WindowSec:
		w.Cause = TimeWarmup
	case t.Has(TimeCacheFill) && t.Find(TimeCacheFill).PlateauSec > ran-ss.WindowSec:
		w.Cause = TimeCacheFill
	case t.Has(TimeNoisy):
		w.Cause = TimeNoisy
	}
	return w
}

// CurveTime sums up the time findings of one curve's steps: what the
// recommendations built on the curve must carry, and how long its steps
// must run.
type CurveTime struct {
	// Burst is set when some step spent its burst credits.
	Burst *CurveBurst `json:"burst,omitempty"`
	// ThrottlePeriodSec is the longest throttle period seen (0: none), at
	// ThrottleQD.
	ThrottlePeriodSec float64 `json:"throttle_period_s,omitempty"`
	ThrottleQD        float64 `json:"throttle_qd,omitempty"`
	// WarmupQD, CacheFillQD and NoisyQD list the steps showing each pattern.
	WarmupQD    []float64 `json:"warmup_qd,omitempty"`
	CacheFillQD []float64 `json:"cache_fill_qd,omitempty"`
	NoisyQD     []float64 `json:"noisy_qd,omitempty"`
	// RuntimeSec is how long every step of the curve must run to measure
	// its sustained level (the longest any step needs); RanSec is the
	// longest a step ran. 0: nothing asks for more.
	RuntimeSec float64 `json:"runtime_s,omitempty"`
	RanSec     float64 `json:"ran_s,omitempty"`
}

// CurveBurst is a curve's burst: the step where it showed first (QD) with
// its levels and length, the credit bucket that implies, and the steps
// that ran above the sustained level without falling: measured on credits
// that had not run out.
type CurveBurst struct {
	QD            float64 `json:"qd"`
	BurstIOPS     float64 `json:"burst_iops"`
	SustainedIOPS float64 `json:"sustained_iops"`
	BurstSec      float64 `json:"burst_s"`
	// CreditsIOs estimates the bucket: (BurstIOPS − SustainedIOPS) × BurstSec.
	CreditsIOs float64       `json:"credits_ios"`
	OnCredits  []CreditsStep `json:"on_credits,omitempty"`
}

// CreditsStep is a step that ran above a curve's sustained level without
// its IOPS falling: at its rate the credits would last Sec.
type CreditsStep struct {
	QD   float64 `json:"qd"`
	IOPS float64 `json:"iops"`
	Sec  float64 `json:"s"` // CreditsIOs / (IOPS − SustainedIOPS)
}

// CurveTimeOf sums up the steps of a curve: qd, iops and ran (seconds
// measured) per step, times the steps' StepTime (nil entries allowed), win
// the steady window in seconds. It returns nil when no step shows anything.
func CurveTimeOf(qd, iops, ran []float64, times []*StepTime, win float64) *CurveTime {
	c := &CurveTime{}
	found := false
	for i, t := range times {
		c.RanSec = math.Max(c.RanSec, ran[i])
		if t == nil {
			continue
		}
		c.RuntimeSec = math.Max(c.RuntimeSec, t.MinRuntimeSec)
		for _, f := range t.Findings {
			found = true
			switch f.Kind {
			case TimeBurst:
				if c.Burst == nil {
					c.Burst = &CurveBurst{QD: qd[i], BurstIOPS: f.BurstIOPS, SustainedIOPS: f.SustainedIOPS, BurstSec: f.BurstSec,
						CreditsIOs: (f.BurstIOPS - f.SustainedIOPS) * f.BurstSec}
				}
			case TimeThrottle:
				if f.PeriodSec > c.ThrottlePeriodSec {
					c.ThrottlePeriodSec, c.ThrottleQD = f.PeriodSec, qd[i]
				}
			case TimeWarmup:
				c.WarmupQD = append(c.WarmupQD, qd[i])
			case TimeCacheFill:
				c.CacheFillQD = append(c.CacheFillQD, qd[i])
			case TimeNoisy:
				c.NoisyQD = append(c.NoisyQD, qd[i])
			}
		}
	}
	if !found {
		return nil
	}
	if b := c.Burst; b != nil {
		for i := range qd {
			if times[i].Has(TimeBurst) || iops[i] <= b.SustainedIOPS*(1+PlateauBand) {
				continue
			}
			sec := b.CreditsIOs / (iops[i] - b.SustainedIOPS)
			b.OnCredits = append(b.OnCredits, CreditsStep{QD: qd[i], IOPS: iops[i], Sec: sec})
			c.RuntimeSec = math.Max(c.RuntimeSec, sec+win)
		}
	}
	return c
}

// Diagnosis rules of the time findings, the values of Finding.Rule.
const (
	// RuleNotStationary: the control step, an early step measured again at
	// the end of the sweep, disagreed with itself beyond noise: burst
	// credits spent, a throttle that began or a neighbour that arrived
	// between the two (ReasonControlFell), or a warm-up (ReasonControlRose).
	RuleNotStationary Rule = "not-stationary"
	RuleBurst         Rule = "burst-credits"
	RuleThrottle      Rule = "periodic-throttle"
	RuleWarmup        Rule = "warm-up"
	RuleCacheFill     Rule = "cache-fill"
	RuleNoisy         Rule = "noisy-neighbours"
)

// Reasons of the time findings.
const (
	ReasonBurstSpent  Reason = "burst-spent"  // IOPS fell to a sustained level within a step
	ReasonControlFell Reason = "control-fell" // the control step gave less IOPS at the end than at first
	ReasonControlRose Reason = "control-rose" // the control step gave more IOPS at the end than at first
	ReasonRampFell    Reason = "ramp-fell"    // IOPS fell during a step's ramp, below what earlier steps ran at
	ReasonThrottled   Reason = "throttled"    // IOPS cycles with a stable period
	ReasonWarmup      Reason = "latency-fell"
	ReasonCacheFill   Reason = "latency-rose"
	ReasonNoisy       Reason = "no-pattern" // variance without period or trend
)

// Fact kinds of the time findings. Seconds are since the step's measured
// window began unless said otherwise.
const (
	FactBurstLevel     FactKind = "burst-level"       // QD: IOPS at LatNs, Inflight in flight, until Seconds
	FactSustainedLevel FactKind = "sustained-level"   // QD: IOPS at LatNs, Inflight in flight, from Seconds
	FactCredits        FactKind = "credits"           // Count I/Os of credit: (burst − sustained IOPS) × burst Seconds
	FactOnCredits      FactKind = "on-credits"        // QD: IOPS above the sustained ToIOPS all step; credits last Seconds
	FactPeriod         FactKind = "period"            // QD: period Seconds, autocorrelation Ratio, cycle IOPS → ToIOPS, mean BWBytes unused
	FactTransient      FactKind = "latency-transient" // QD: mean latency LatNs → plateau ToLatNs, reached at Seconds
	FactSpread         FactKind = "iops-spread"       // QD: σ/mean Ratio, range IOPS → ToIOPS, highest autocorrelation Share
	FactRuntime        FactKind = "runtime"           // steps need Seconds; the longest ran ToSeconds
	FactControl        FactKind = "control"           // QD: IOPS at LatNs at first, ToIOPS at ToLatNs at the end; Ratio the change, Share the noise band
	FactAboveControl   FactKind = "above-control"     // QD: IOPS, above the control's ToIOPS: left out of the analysis
	FactRampFell       FactKind = "ramp-fell"         // QD: the ramp ran at IOPS, the window at ToIOPS (ToLatNs); the last slice above ended Seconds before the window
)

// TimeFindings turns one curve's time findings into diagnosis findings,
// one per rule, led by the step that shows it first; qd and times are the
// curve's measured steps in order, ct their summary (CurveTimeOf); offered
// is each step's offered load in an open-loop sweep (nil: a sweep over
// depths), which names the step where its QD does not.
func TimeFindings(rw string, bs int64, qd, offered []float64, times []*StepTime, ct *CurveTime) []Finding {
	if ct == nil {
		return nil
	}
	byRule := map[Rule]*Finding{}
	var order []Rule
	add := func(rule Rule, r Reason, figures Fact, facts ...Fact) {
		f, ok := byRule[rule]
		if !ok {
			f = &Finding{Rule: rule, Reason: r, RW: rw, BS: bs, Figures: figures}
			byRule[rule] = f
			order = append(order, rule)
		}
		f.Facts = append(f.Facts, facts...)
	}
	for i, t := range times {
		if t == nil {
			continue
		}
		at := 0.0
		if i < len(offered) {
			at = offered[i]
		}
		for _, x := range t.Findings {
			switch x.Kind {
			case TimeBurst:
				fig := Fact{QD: qd[i], OfferedIOPS: at, IOPS: x.BurstIOPS, ToIOPS: x.SustainedIOPS, Ratio: x.Factor, Seconds: x.BurstSec}
				add(RuleBurst, ReasonBurstSpent, fig,
					Fact{Kind: FactBurstLevel, QD: qd[i], OfferedIOPS: at, IOPS: x.BurstIOPS, LatNs: x.BurstLatNs, Inflight: x.BurstInflight, Seconds: x.BurstSec},
					Fact{Kind: FactSustainedLevel, QD: qd[i], OfferedIOPS: at, IOPS: x.SustainedIOPS, LatNs: x.SustainedLatNs, Inflight: x.SustainedInflight, Seconds: x.BurstSec})
			case TimeThrottle:
				fig := Fact{QD: qd[i], OfferedIOPS: at, Seconds: x.PeriodSec, IOPS: x.PeakIOPS, ToIOPS: x.TroughIOPS, Ratio: x.ACF}
				add(RuleThrottle, ReasonThrottled, fig, Fact{Kind: FactPeriod, QD: qd[i], OfferedIOPS: at, Seconds: x.PeriodSec, Ratio: x.ACF, IOPS: x.PeakIOPS, ToIOPS: x.TroughIOPS})
			case TimeWarmup, TimeCacheFill:
				rule, r := RuleWarmup, ReasonWarmup
				if x.Kind == TimeCacheFill {
					rule, r = RuleCacheFill, ReasonCacheFill
				}
				fig := Fact{QD: qd[i], OfferedIOPS: at, LatNs: x.FromLatNs, ToLatNs: x.PlateauLatNs, Seconds: x.PlateauSec}
				add(rule, r, fig, Fact{Kind: FactTransient, QD: qd[i], OfferedIOPS: at, LatNs: x.FromLatNs, ToLatNs: x.PlateauLatNs, Seconds: x.PlateauSec})
			case TimeNoisy:
				fig := Fact{QD: qd[i], OfferedIOPS: at, Ratio: x.CV, IOPS: x.MinIOPS, ToIOPS: x.MaxIOPS, Share: x.ACF}
				add(RuleNoisy, ReasonNoisy, fig, Fact{Kind: FactSpread, QD: qd[i], OfferedIOPS: at, Ratio: x.CV, IOPS: x.MinIOPS, ToIOPS: x.MaxIOPS, Share: x.ACF})
			}
		}
	}
	if b := ct.Burst; b != nil {
		if f := byRule[RuleBurst]; f != nil {
			f.Facts = append(f.Facts, Fact{Kind: FactCredits, Count: int(math.Round(b.CreditsIOs)), Seconds: b.BurstSec})
			for _, s := range b.OnCredits {
				f.Facts = append(f.Facts, Fact{Kind: FactOnCredits, QD: s.QD, IOPS: s.IOPS, ToIOPS: b.SustainedIOPS, Seconds: s.Sec})
			}
		}
	}
	if ct.RuntimeSec > ct.RanSec+0.05 {
		for _, rule := range []Rule{RuleBurst, RuleThrottle, RuleWarmup, RuleCacheFill} {
			if f := byRule[rule]; f != nil {
				f.Facts = append(f.Facts, Fact{Kind: FactRuntime, Seconds: ct.RuntimeSec, ToSeconds: ct.RanSec})
				f.Figures.ToSeconds = ct.RuntimeSec
			}
		}
	}
	out := make([]Finding, 0, len(order))
	for _, rule := range order {
		f := *byRule[rule]
		f.Evidence = []string{}
		out = append(out, f)
	}
	return out
}
