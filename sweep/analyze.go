package sweep

import (
	"errors"
	"fmt"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// Curve is the steps of one rw × bs, in plan order: the unit analysed.
type Curve struct {
	RW    string `json:"rw"`
	BS    int64  `json:"bs"` // bytes
	Steps []Step `json:"steps"`
}

// Curves groups r's steps by rw and bs, in plan order (the order of
// Plan.RW and Plan.BS, then of first appearance for values the plan does
// not list). Steps keep their order within a curve; skipped and failed
// steps stay in Steps but are left out of Points.
func (r *Result) Curves() []Curve {
	type key struct {
		rw string
		bs int64
	}
	idx := map[key]int{}
	var out []Curve
	add := func(k key) int {
		if i, ok := idx[k]; ok {
			return i
		}
		idx[k] = len(out)
		out = append(out, Curve{RW: k.rw, BS: k.bs})
		return len(out) - 1
	}
	present := map[key]bool{}
	for _, s := range r.Steps {
		present[key{s.RW, s.BS}] = true
	}
	for _, rw := range r.Plan.RW {
		for _, bs := range r.Plan.BS {
			if k := (key{rw, bs}); present[k] {
				add(k)
			}
		}
	}
	for _, s := range r.Steps {
		i := add(key{s.RW, s.BS})
		out[i].Steps = append(out[i].Steps, s)
	}
	return out
}

// Measured reports whether s holds a measurement: it was neither skipped
// nor failed and did I/O (IOPS and a mean latency). The early stop, the
// table and the charts count steps by it; the analysis by Analysable.
func (s Step) Measured() bool {
	return s.Skipped == "" && s.Failed == "" && s.IOPS > 0 && s.Lat.MeanNs > 0
}

// Analysable reports whether s can be a point of the analysis: Measured,
// with a measured latency and a known iodepth × numjobs.
func (s Step) Analysable() bool {
	return s.Measured() && !s.LatNotMeasured && !s.IODepthUnknown
}

// Points returns c's measured steps as littleslaw points (QD, iodepth,
// numjobs, IOPS, bandwidth, latencies in ns, in-flight mean).
func (c Curve) Points() []littleslaw.Point {
	var pts []littleslaw.Point
	for _, s := range c.Steps {
		if !s.Analysable() || s.setAside() {
			continue
		}
		pts = append(pts, littleslaw.Point{
			QD: pointQD(s), OfferedIOPS: s.OfferedIOPS, IOs: openLoopIOs(s), IODepth: s.IODepth, NumJobs: s.NumJobs,
			IOPS: s.IOPS, BWBytes: s.BWBytes,
			LatMeanNs: s.Lat.MeanNs,
			P50Ns:     float64(s.Lat.P50Ns), P90Ns: float64(s.Lat.P90Ns),
			P99Ns: float64(s.Lat.P99Ns), P999Ns: float64(s.Lat.P999Ns),
			InflightMean: s.InflightMean,
			Shortfall:    shortfallCause(s),
			Response:     responseOf(s),
		})
		if s.OfferedIOPS == 0 { // an offered load is measured whole: its rate is the load's
			sustainedPoint(s, &pts[len(pts)-1])
		}
	}
	return pts
}

// Why the analysis sets a measured step aside (Step.SetAsideWhy).
const (
	// AsideNoIODepth: its source did not say its iodepth.
	AsideNoIODepth = "no-iodepth"
	// AsideNoLatency: it measured no latency.
	AsideNoLatency = "no-latency"
	// AsideCredits: it ran on burst credits throughout (its series).
	AsideCredits = "burst-credits"
	// AsideAboveLevel: it ran above the level the device kept (the
	// control step or a later ramp fell).
	AsideAboveLevel = "above-level"
)

// SetAsideWhy says why the analysis leaves out s, a measured step (Aside*),
// "" when it reads s or s was not measured: the one rule for the curve's
// points (Points), its count (Analysis.SetAside, the diagnosis's) and the
// steps the charts and comparisons mark. An offered load is measured
// whole: its series sets it aside for nothing.
func (s Step) SetAsideWhy() string {
	switch {
	case !s.Measured():
		return ""
	case s.IODepthUnknown:
		return AsideNoIODepth
	case s.LatNotMeasured:
		return AsideNoLatency
	case s.OfferedIOPS > 0 || s.Time == nil:
		return ""
	case s.Time.OnCreditsSec > 0:
		return AsideCredits
	case s.Time.AboveControl:
		return AsideAboveLevel
	}
	return ""
}

// setAside reports whether s was measured and the analysis leaves it out
// (SetAsideWhy).
func (s Step) setAside() bool { return s.SetAsideWhy() != "" }

// responseOf is an open-loop step's response times (nil: none measured,
// or a step over depths).
func responseOf(s Step) *littleslaw.Response {
	a := s.ArrivalLat
	if a == nil || s.OfferedIOPS <= 0 {
		return nil
	}
	return &littleslaw.Response{MeanNs: a.MeanNs, P50Ns: float64(a.P50Ns), P90Ns: float64(a.P90Ns), P99Ns: float64(a.P99Ns), P999Ns: float64(a.P999Ns)}
}

// openLoopIOs is the I/Os an open-loop step completed over its window
// (Point.IOs); 0 for a step over depths.
func openLoopIOs(s Step) float64 {
	if s.OfferedIOPS <= 0 {
		return 0
	}
	return s.IOPS * float64(s.RuntimeNs) / 1e9
}

// pointQD is the depth s stands at on its curve: its iodepth × numjobs,
// or for a step offered a load (open loop) the I/Os it kept in flight,
// the engine's mean (else IOPS × mean latency, Little's Law).
func pointQD(s Step) float64 {
	if s.OfferedIOPS > 0 {
		if s.InflightMean > 0 {
			return s.InflightMean
		}
		return littleslaw.QueueDepth(s.IOPS, s.Lat.MeanNs)
	}
	if s.QD == 0 {
		return float64(s.IODepth * s.NumJobs)
	}
	return float64(s.QD)
}

// shortfallCause is the cause of s's in-flight shortfall, "" when none.
func shortfallCause(s Step) string {
	if s.Shortfall == nil {
		return ""
	}
	return string(s.Shortfall.Cause)
}

// Analyze fills r.Analysis with one CurveAnalysis per curve, in Curves
// order, and r.Diagnosis with the verdicts on them (Diagnose). The curve
// options' BS is set per curve. A curve with fewer than two measured points
// still gets an Analysis, whose Warnings say what cannot be told; only bad
// options are an error.
func (r *Result) Analyze(o littleslaw.Options) error {
	if o.CPUs == 0 {
		o.CPUs = r.Meta.CPUs
	}
	if o.Hosts == 0 {
		o.Hosts = r.Plan.Hosts // a fleet: QD is the fleet's, splits per host
	}
	r.AnalyzeTime()
	var out []CurveAnalysis
	for _, c := range r.Curves() {
		co := o
		co.BS = c.BS
		if !r.Plan.OpenLoop() { // loads offered are no level that fell (AnalyzeTime)
			co.SustainedIOPS = r.sustainedLevel(c.RW, c.BS)
		}
		a, err := littleslaw.Analyze(c.Points(), co)
		if err != nil && !errors.Is(err, littleslaw.ErrTooFewPoints) {
			return fmt.Errorf("analyze %s %s=%d: %w", c.RW, fio.OptBS, c.BS, err)
		}
		a.EarlyStopped = earlyStopped(c)
		for _, s := range c.Steps {
			if s.setAside() {
				a.SetAside++
			}
		}
		out = append(out, CurveAnalysis{RW: c.RW, BS: c.BS, Analysis: a, Time: r.curveTime(c)})
	}
	r.Analysis = out
	r.Diagnosis = r.Diagnose(o)
	r.attachCaveats()
	return nil
}

// sustainedLevel is the IOPS curve rw × bs sustains when its level fell
// during the sweep (the control step measured again at the end, or a
// step's ramp, fell): the steps above it are left out of the analysis, and
// no target above it is reachable. 0 when no level fell.
func (r *Result) sustainedLevel(rw string, bs int64) float64 {
	if c := r.Control; c != nil && c.Change == ControlFell && c.RW == rw && c.BS == bs {
		_, level := c.Levels()
		return level
	}
	for _, f := range r.RampFalls() {
		if f.RW == rw && f.BS == bs {
			return f.IOPS
		}
	}
	return 0
}
