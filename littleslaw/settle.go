package littleslaw

import "math"

// SettleConfidence is the two-sided confidence at which a step's decision
// counts as settled (Settle): its figures' intervals at Student's t for the
// step's samples, TQuantile(n−1), clear of the knee's thresholds.
const SettleConfidence = 0.95

// StepEstimate is a step as it is being measured: its depth, its mean IOPS
// and mean latency so far with their standard errors (fractions of the
// means, MeanUncertainty over its per-interval figures) and how many
// intervals they rest on.
type StepEstimate struct {
	QD      float64
	IOPS    float64
	IOPSErr float64 // standard error of the mean IOPS, a fraction of it
	LatNs   float64
	LatErr  float64 // standard error of the mean latency, a fraction of it
	N       int     // intervals
}

// Settle is the settling rule applied to one step against the step before
// it on its curve (nil for a curve's first step).
//
// The knee (saturationKnee) decides each pair of neighbouring steps: the
// deeper one adds under SaturationGain IOPS at LatGrowthNeed times the
// latency or more. The pair's decision is settled when the gain's
// interval (Gain ± T × GainErr) lies on one side of SaturationGain and
// the gain alone decides (above it: the pair is not flat), or the latency
// ratio's interval lies below LatNeed (latency did not grow enough), or
// both lie clear of their thresholds. A settled decision still needs the
// step's mean known to within the curve's own interpolation error
// between the two steps (Interp, a quarter of the rise in ln IOPS: the
// most a log-log chord strays from a concave curve that flattens within
// the span), at the same confidence: IOPSErr ≤ Need = max(Precision,
// Interp / T). A pair decided flat (Flat: the gain wholly below
// SaturationGain and the latency ratio wholly at or above LatNeed, the
// knee found at the step before) needs no more of the step's mean than
// that decision did: Need is the gain's distance from SaturationGain over
// T (in IOPSErr's terms), which the decision already holds it to. Without
// a decision, or on a curve's first step, a step needs IOPSErr ≤
// Precision (the old rule, which also ends any step).
//
// A step whose decision is still open can also end as undecidable
// (Undecidable): measured to the window cap with its figures where they
// are, neither the pair's decision nor the mean's precision would settle.
type Settle struct {
	Confidence float64 `json:"confidence"` // SettleConfidence
	T          float64 `json:"t"`          // Student's t quantile for the step's intervals
	N          int     `json:"n"`          // the step's intervals
	IOPSErr    float64 `json:"iops_err"`   // standard error of the step's mean IOPS, a fraction
	LatErr     float64 `json:"lat_err"`    // and of its mean latency
	Precision  float64 `json:"precision"`  // the standard error that ends any step (--mean-precision)
	Need       float64 `json:"need"`       // the standard error the step's decisions needed
	// PrevQD is the step before on the curve (0: none); Gain its IOPS
	// gain to this step and GainErr that gain's standard error;
	// LatRatio this step's mean latency over the previous one's, LatNeed
	// what the knee asks of it, LatRatioErr its standard error (a
	// fraction of it).
	PrevQD      float64 `json:"prev_qd,omitempty"`
	PrevIOPS    float64 `json:"prev_iops,omitempty"` // the previous step's IOPS the gain was judged against
	Gain        float64 `json:"gain,omitempty"`
	GainErr     float64 `json:"gain_err,omitempty"`
	GainLimit   float64 `json:"gain_limit,omitempty"` // SaturationGain
	LatRatio    float64 `json:"lat_ratio,omitempty"`
	LatRatioErr float64 `json:"lat_ratio_err,omitempty"`
	LatNeed     float64 `json:"lat_need,omitempty"`
	Interp      float64 `json:"interp,omitempty"` // the curve's interpolation error between the two steps
	// GainClear: Gain ± T × GainErr lies on one side of GainLimit;
	// LatClear: LatRatio's interval (T × LatRatioErr, in ln) on one side
	// of LatNeed.
	GainClear bool `json:"gain_clear,omitempty"`
	LatClear  bool `json:"lat_clear,omitempty"`
	// Decided: the pair's knee decision is settled at Confidence.
	Decided bool `json:"decided"`
	// Rising: settled by the gain alone, wholly above GainLimit (Gain −
	// T × GainErr ≥ GainLimit): the curve still rises at this step and no
	// knee can be at it, so the sweep may end the step from a shorter
	// span (sweep's MinRising).
	Rising bool `json:"rising,omitempty"`
	// Flat: settled by the gain wholly below GainLimit and the latency
	// ratio wholly at or above LatNeed: the knee is at PrevQD at
	// Confidence, the step may end from the sweep's shorter span as a
	// rising one does, and a curve may stop after it (sweep's EarlyStop).
	Flat bool `json:"flat,omitempty"`
	// CapN is, for a step ended as undecidable (By SettledByUndecidable),
	// the intervals its window cap would have held: the projection at
	// which neither its decision nor its precision would have settled.
	CapN int `json:"cap_n,omitempty"`
	// Band is, for a control step (SettleControl), the relative change
	// against the first measurement beyond which it disagrees; Gain is
	// then the control's change and Decided says its verdict (held or
	// changed) is settled.
	Band float64 `json:"band,omitempty"`
	// Lead is, for a step whose window began above its level (Lead: its
	// first intervals each above every later one and above their mean by
	// more than SaturationGain, as a throttle's start-up burst shows),
	// their excess over Level in intervals of it; LeadShare its share of
	// the step's mean (Lead / N); Level the later intervals' mean IOPS.
	// Where LeadShare exceeds Need (LeadMoves), a sweep measures a step's
	// first measurement again at once, its burst spent (NoteLead); any
	// other such step may end only once LeadShare is within Need: the
	// burst moves its mean no more than its decisions allow (else it runs
	// to its window cap, and LeadHeld says the lead held it, HoldForLead).
	// FirstIOPS is, for a step measured again (sweep's rules: its window
	// began with a start-up lead that moved its mean, LeadMoves, or the
	// next deeper step gave fewer IOPS than it by more than
	// SaturationGain: its window carried a burst that ran out, or it is
	// its curve's top and the curve's last step gave fewer IOPS than it
	// by more than SaturationGain), the IOPS
	// of its first measurement, which this one replaced. FirstNs and
	// FirstIOs are that measurement's ramp and window time and the I/Os it
	// completed (what it cost, which the step's own figures no longer
	// show); Again says why it was measured again (AgainLead, AgainFell,
	// AgainBefore, AgainTop); for AgainFell, FellQD is the deeper step and
	// FellIOPS the figure of it that fell clear below FirstIOPS (its mean,
	// or its level after a start-up lead); for AgainTop, the curve's last
	// step and its figure. FellOf says which figure of that step FellIOPS
	// is: "" its mean IOPS, FellLevel or FellSustained.
	FirstIOPS float64 `json:"first_iops,omitempty"`
	FirstNs   int64   `json:"first_ns,omitempty"`
	FirstIOs  int64   `json:"first_ios,omitempty"`
	Again     string  `json:"again,omitempty"`
	FellQD    float64 `json:"fell_qd,omitempty"`
	FellIOPS  float64 `json:"fell_iops,omitempty"`
	FellOf    string  `json:"fell_of,omitempty"`
	Lead      float64 `json:"lead,omitempty"`
	LeadShare float64 `json:"lead_share,omitempty"`
	Level     float64 `json:"level,omitempty"`
	// LevelN is the intervals after the lead and LevelErr the standard
	// error of their mean (MeanUncertainty, a fraction): the level as a
	// measurement of its own, which a sweep compares with the step before
	// (a fall the lead's scatter would hide).
	LevelN   int     `json:"level_n,omitempty"`
	LevelErr float64 `json:"level_err,omitempty"`
	LeadHeld bool    `json:"lead_held,omitempty"`
	// Settled: the step may end (by "decision" or "precision").
	Settled bool   `json:"settled"`
	By      string `json:"by,omitempty"`
}

// Why a step was measured again (Settle.Again).
const (
	// AgainLead: its window began with a start-up burst that moved its
	// mean more than its decisions allow (LeadMoves).
	AgainLead = "lead"
	// AgainFell: the next deeper step gave fewer IOPS than it by more
	// than SaturationGain at SettleConfidence: its window carried a burst
	// that ran out.
	AgainFell = "fell"
	// AgainBefore: the step before it was measured again, and its own
	// window began with a start-up burst, judged against the old figure.
	AgainBefore = "before"
	// AgainTop: it was its curve's top (the most IOPS) and the curve's
	// last step, deeper, gave fewer IOPS than it by more than
	// SaturationGain: the top is what the analysis reads the saturation
	// and the cap at, and a flat top is judged against it to that 5%, so
	// a short window that carried a burst there would turn a cap into a
	// retrograde curve.
	AgainTop = "top"
)

// Which figure of the deeper step Settle.FellIOPS is, when not its mean
// (Settle.FellOf).
const (
	// FellLevel: its level after a start-up lead (Settle.Level).
	FellLevel = "level"
	// FellSustained: its sustained level, the IOPS the analysis reads it
	// at when its time series shows a burst or a warm-up.
	FellSustained = "sustained"
)

// Ways a step settles (Settle.By).
const (
	SettledByDecision  = "decision"
	SettledByPrecision = "precision"
	// SettledByUndecidable: the step's decision and precision were still
	// open and, at its figures' spread, would still be open at the window
	// cap (Settle.Undecidable): more time would not settle them.
	SettledByUndecidable = "undecidable"
)

// SettleStep applies the settling rule (Settle) to cur against prev, the
// step before it on its curve (nil: none), with precision the standard
// error that ends any step (≤ 0: only decisions end it).
func SettleStep(prev *StepEstimate, cur StepEstimate, precision float64) Settle {
	s := Settle{Confidence: SettleConfidence, N: cur.N, IOPSErr: cur.IOPSErr, LatErr: cur.LatErr, Precision: max(0, precision), Need: max(0, precision)}
	if cur.N < 3 || cur.IOPS <= 0 {
		return s
	}
	s.T = TQuantile(cur.N - 1)
	if prev != nil && prev.IOPS > 0 && prev.QD > 0 && cur.QD > prev.QD {
		s.decide(*prev, cur)
	}
	switch {
	case s.Decided && cur.IOPSErr <= s.Need:
		s.Settled, s.By = true, SettledByDecision
		s.Rising = s.GainClear && s.Gain >= s.GainLimit
		s.Flat = s.GainClear && s.Gain < s.GainLimit && s.LatClear && s.LatRatio >= s.LatNeed
	case precision > 0 && cur.IOPSErr <= precision:
		s.Settled, s.By = true, SettledByPrecision
	}
	return s
}

// Undecidable reports whether s, a step's verdict that did not settle
// after its N intervals, would still not settle after capN (the window
// cap's intervals) with its figures where they are and their standard
// errors shrinking as 1/√n: neither the gain's nor the latency ratio's
// interval, at Student's t for capN intervals, would clear its threshold
// so as to decide the pair with the mean known to what that decision
// needs (Need, at that t), nor would the mean be known to Precision. Such
// a step may end: the rest of its window would not change what is
// decided. A settled verdict, one on fewer than three intervals, or a
// capN no larger than N is never undecidable.
func (s Settle) Undecidable(capN int) bool {
	if s.Settled || s.N < 3 || capN <= s.N {
		return false
	}
	k := math.Sqrt(float64(s.N) / float64(capN))
	t := TQuantile(capN - 1)
	if s.Precision > 0 && s.IOPSErr*k <= s.Precision {
		return false
	}
	if s.PrevQD == 0 && s.Band == 0 {
		return true // only the precision rule can end a first step
	}
	if s.Band > 0 {
		return math.Abs(math.Abs(s.Gain)-s.Band) < t*s.GainErr*k
	}
	gain := math.Abs(s.Gain-s.GainLimit) >= t*s.GainErr*k
	lat := s.LatNeed > 0 && math.Abs(math.Log(s.LatRatio/s.LatNeed)) >= t*s.LatRatioErr*k
	if !(gain && s.Gain >= s.GainLimit || lat && s.LatRatio < s.LatNeed || gain && lat) {
		return true
	}
	// Decided there: would the mean be known to what the decision needs?
	need := max(s.Precision, s.Interp/t)
	if gain && lat && s.Gain < s.GainLimit && s.LatRatio >= s.LatNeed {
		need = max(need, (s.GainLimit-s.Gain)/(t*(1+s.Gain)))
	}
	return s.IOPSErr*k > need
}

// EndUndecidable marks s, found Undecidable at capN, as settled by it.
func (s *Settle) EndUndecidable(capN int) {
	s.Settled, s.By, s.CapN = true, SettledByUndecidable, capN
}

// SettleControl applies the settling rule to a control step (cur, the
// step measured again at the end of a sweep) against its first
// measurement (was): the control disagrees when its IOPS differ from
// was's by more than band (a fraction). Its verdict is settled when the
// change's interval, Gain ± T × GainErr at Student's t for cur's
// intervals, lies wholly inside the band (held) or wholly outside it
// (changed), or its mean is known to precision.
func SettleControl(was, cur StepEstimate, band, precision float64) Settle {
	s := Settle{Confidence: SettleConfidence, N: cur.N, IOPSErr: cur.IOPSErr, LatErr: cur.LatErr, Precision: max(0, precision), Need: max(0, precision), Band: band}
	if cur.N < 3 || cur.IOPS <= 0 || was.IOPS <= 0 {
		return s
	}
	s.T = TQuantile(cur.N - 1)
	s.PrevQD = was.QD
	s.Gain = cur.IOPS/was.IOPS - 1
	s.GainErr = (1 + s.Gain) * math.Hypot(was.IOPSErr, cur.IOPSErr)
	s.GainClear = math.Abs(math.Abs(s.Gain)-band) >= s.T*s.GainErr
	s.Decided = s.GainClear
	switch {
	case s.Decided:
		s.Need = max(s.Need, math.Abs(math.Abs(s.Gain)-band)/(s.T*(1+s.Gain)))
		s.Settled, s.By = true, SettledByDecision
	case precision > 0 && cur.IOPSErr <= precision:
		s.Settled, s.By = true, SettledByPrecision
	}
	return s
}

// Lead reports whether a step's per-interval IOPS (xs, in time order)
// began above the step's level: its first k intervals (a burst that ran
// out within them) each above every later one, their mean above the later
// ones' mean by more than SaturationGain and by more than the later
// ones' own scatter allows at SettleConfidence (Student's t for their
// spread, a two-sample difference of k and the rest: on a device whose
// intervals scatter by tens of percent a first interval above the few
// after it is chance, not a burst), with at least two later
// intervals (the longest such k). lead is the leading intervals' excess
// I/Os over that mean as intervals of it (Σ(x_i − level) / level over the
// first k), level the later ones' mean; lead / len(xs) is the share of
// the step's mean the burst makes. A step of fewer than three intervals
// has none.
func Lead(xs []float64) (lead, level float64, ok bool) {
	_, lead, level, ok = leadSplit(xs)
	return lead, level, ok
}

// leadSplit is Lead with k, the number of leading intervals.
func leadSplit(xs []float64) (k int, lead, level float64, ok bool) {
	for k = len(xs) - 2; k >= 1; k-- {
		hi, lo, sum, rest := math.Inf(1), 0.0, 0.0, 0.0
		for _, v := range xs[:k] {
			hi, sum = min(hi, v), sum+v
		}
		for _, v := range xs[k:] {
			lo, rest = max(lo, v), rest+v
		}
		level = rest / float64(len(xs)-k)
		if level > 0 && hi > lo && sum/float64(k) > level*(1+SaturationGain) && beyondScatter(sum/float64(k), xs[k:], k) {
			return k, sum/level - float64(k), level, true
		}
	}
	return 0, 0, 0, false
}

// beyondScatter reports whether mean, of k leading intervals, lies above
// the mean of later (at least two intervals) by more than Student's t at
// SettleConfidence times the standard error of the difference, from the
// later intervals' sample spread.
func beyondScatter(mean float64, later []float64, k int) bool {
	lm, sd, _ := moments(later)
	return mean-lm > TQuantile(len(later)-1)*sd*math.Sqrt(1/float64(k)+1/float64(len(later)))
}

// HoldForLead applies a start-up lead (Lead over xs, the step's
// per-interval IOPS) to s, the settling rule's verdict over them: it
// records the lead, and a settled step whose lead's share of its mean
// (lead / intervals) exceeds what its decisions need (Need) is held
// open (LeadHeld): its mean still carries more of the start-up burst
// than its decisions allow.
func (s *Settle) HoldForLead(xs []float64) {
	if s.NoteLead(xs) && s.Settled && s.LeadMoves() {
		s.Settled, s.By, s.LeadHeld = false, "", true
	}
}

// NoteLead records a start-up lead (Lead over xs, the step's per-interval
// IOPS) in s without holding the step open, and reports whether there was
// one: for a first measurement the sweep measures again once its burst is
// spent (LeadMoves), rather than waiting for the burst's share to wear off.
func (s *Settle) NoteLead(xs []float64) bool {
	k, lead, level, ok := leadSplit(xs)
	if ok {
		s.Lead, s.Level, s.LeadShare = lead, level, lead/float64(len(xs))
		s.LevelN, s.LevelErr = len(xs)-k, MeanUncertainty(xs[k:])
	}
	return ok
}

// LeadMoves reports whether the step's start-up lead moves its mean more
// than its decisions allow: the burst's share of the mean (LeadShare)
// above what they need (Need).
func (s *Settle) LeadMoves() bool { return s.Lead > 0 && s.LeadShare > s.Need }

// decide fills the pair's figures and whether its decision is settled.
func (s *Settle) decide(p, q StepEstimate) {
	s.PrevQD, s.PrevIOPS, s.GainLimit = p.QD, p.IOPS, SaturationGain
	s.Gain = q.IOPS/p.IOPS - 1
	s.GainErr = (1 + s.Gain) * math.Hypot(p.IOPSErr, q.IOPSErr)
	s.GainClear = math.Abs(s.Gain-SaturationGain) >= s.T*s.GainErr
	if p.LatNs > 0 && q.LatNs > 0 {
		s.LatRatio, s.LatNeed = q.LatNs/p.LatNs, LatGrowthNeed(q.QD/p.QD)
		s.LatRatioErr = math.Hypot(p.LatErr, q.LatErr)
		s.LatClear = math.Abs(math.Log(s.LatRatio/s.LatNeed)) >= s.T*s.LatRatioErr
	}
	s.Decided = s.GainClear && s.Gain >= SaturationGain ||
		s.LatClear && s.LatRatio < s.LatNeed ||
		s.GainClear && s.LatClear
	s.Interp = math.Abs(math.Log(q.IOPS/p.IOPS)) / 4
	if s.Decided {
		s.Need = max(s.Need, s.Interp/s.T)
	}
	if s.GainClear && s.Gain < SaturationGain && s.LatClear && s.LatRatio >= s.LatNeed {
		// Flat: the mean is held by the gain's own interval.
		s.Need = max(s.Need, (SaturationGain-s.Gain)/(s.T*(1+s.Gain)))
	}
}

// TQuantile is Student's t quantile for a two-sided SettleConfidence
// (95 %: the 97.5th percentile) with df degrees of freedom (df < 1 counts
// as 1).
func TQuantile(df int) float64 {
	t975 := [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	switch {
	case df < 1:
		return t975[0]
	case df <= len(t975):
		return t975[df-1]
	}
	// Beyond 30: the normal quantile with the first term of the
	// Cornish–Fisher expansion, within 0.001 of the table's values.
	const z = 1.959964
	return z + (z*z*z+z)/(4*float64(df))
}

// RampSlice is a span of a step's ramp: its completions, their summed
// latency, and the I/Os in flight at its end.
type RampSlice struct {
	IOs, LatSumNs, Inflight int64
}

// RampMinIOs is the fewest completions a ramp slice of a queue qd deep
// must hold for its mean latency to be compared: every I/O slot turned
// over twice, and at least 64.
func RampMinIOs(qd int) int64 { return max(64, 2*int64(qd)) }

// RampLatRise is how much a ramp slice's mean latency may exceed the one
// before it and still count as no longer climbing: SaturationGain, the
// change the knee resolves.
const RampLatRise = SaturationGain

// RampFull reports whether a ramp of a queue qd deep has done its work:
// the queue is full at last's end (at most max(1, qd/8) short of qd: the
// jobs count what is in flight between a reap and the resubmission of
// what it reaped), and latency has stopped climbing (the mean latency of
// last, within RampLatRise of prev's or below it, each holding
// RampMinIOs completions).
func RampFull(prev, last RampSlice, qd int) bool {
	if qd < 1 || last.Inflight < int64(qd-max(1, qd/8)) {
		return false
	}
	if least := RampMinIOs(qd); prev.IOs < least || last.IOs < least {
		return false
	}
	lp := float64(prev.LatSumNs) / float64(prev.IOs)
	ll := float64(last.LatSumNs) / float64(last.IOs)
	return ll <= lp*(1+RampLatRise)
}
