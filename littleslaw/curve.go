package littleslaw

import (
	"math"
	"sort"
)

// Curve is the one interpolation of a measured curve that every stated
// depth, IOPS and latency comes from (advise, explain, report, diagnosis,
// summaries and charts), so that every triple a reader sees satisfies
// Little's Law: in flight = IOPS × mean latency.
//
// Throughput is interpolated piecewise as a power law between the measured
// points, a straight line on log(QD)–log(IOPS) axes (the sweep's grid is
// geometric): exact on the linear leg (IOPS ∝ QD) and on a plateau, and it
// keeps the derived latency between the two measured ones. Latency is
// never interpolated on its own: it is derived from Little's Law as
// in-flight / IOPS, where in-flight is the configured QD times the queue
// fill (measured IOPS × mean latency / QD), itself interpolated the same
// way. At a measured point every figure is the measured one; between two
// points the triple is exact by construction.
//
// Below the shallowest point the curve is the bound model's first leg:
// latency stays at the shallowest point's and IOPS scale with QD. Above the
// deepest point nothing was measured: IOPSAt stays at the deepest point's
// figure and Beyond reports the extrapolation; QDFor refuses a rate above
// the highest measured one.
type Curve struct {
	q    []float64 // configured QD, ascending, > 0
	x    []float64 // IOPS
	fill []float64 // measured IOPS × mean latency / QD
}

// OperatingPoint is one point read off a Curve. Its figures satisfy
// Inflight = IOPS × LatencyNs / 1e9 exactly.
type OperatingPoint struct {
	QD        float64 `json:"qd"`         // configured queue depth (fractional between measured depths)
	IOPS      float64 `json:"iops"`       // I/Os per second
	LatencyNs float64 `json:"latency_ns"` // mean latency, ns: Inflight / IOPS
	Inflight  float64 `json:"inflight"`   // mean I/Os in flight: QD × queue fill
	// Measured is set when QD is one of the measured depths.
	Measured bool `json:"measured"`
	// Beyond is set when QD is deeper than the deepest measured depth: the
	// figures hold the deepest point's throughput, not a measurement.
	Beyond bool `json:"beyond,omitempty"`
}

// NewCurve builds the interpolation from measured points. Points without a
// positive QD, IOPS and mean latency are left out; several points at one
// QD keep the one with the highest IOPS (as Analyze does).
func NewCurve(pts []Point) Curve {
	best := map[float64]Point{}
	for _, p := range pts {
		if !(p.QD > 0) || !(p.IOPS > 0) || !(p.LatMeanNs > 0) ||
			math.IsInf(p.QD, 0) || math.IsInf(p.IOPS, 0) || math.IsInf(p.LatMeanNs, 0) {
			continue
		}
		if b, ok := best[p.QD]; !ok || p.IOPS > b.IOPS {
			best[p.QD] = p
		}
	}
	qs := make([]float64, 0, len(best))
	for q := range best {
		qs = append(qs, q)
	}
	sort.Float64s(qs)
	var c Curve
	for _, q := range qs {
		p := best[q]
		c.q = append(c.q, q)
		c.x = append(c.x, p.IOPS)
		c.fill = append(c.fill, QueueDepth(p.IOPS, p.LatMeanNs)/q)
	}
	return c
}

// Curve returns the interpolation of a's measured points.
func (a Analysis) Curve() Curve { return NewCurve(a.Points) }

// Len is the number of measured points the curve holds.
func (c Curve) Len() int { return len(c.q) }

// MaxQD is the deepest measured queue depth (0 for an empty curve).
func (c Curve) MaxQD() float64 {
	if len(c.q) == 0 {
		return 0
	}
	return c.q[len(c.q)-1]
}

// MaxIOPS is the highest measured IOPS and the depth it was measured at.
func (c Curve) MaxIOPS() (iops, qd float64) {
	for i, x := range c.x {
		if x > iops {
			iops, qd = x, c.q[i]
		}
	}
	return iops, qd
}

// seg finds qd's segment: i such that q[i] ≤ qd ≤ q[i+1], and the position
// f ∈ [0, 1] of qd in it on a log scale. i = -1 below the first point,
// len-1 at or above the last.
func (c Curve) seg(qd float64) (int, float64) {
	n := len(c.q)
	if qd < c.q[0] {
		return -1, 0
	}
	if qd >= c.q[n-1] {
		return n - 1, 0
	}
	i := sort.SearchFloat64s(c.q, qd)
	if c.q[i] == qd {
		return i, 0
	}
	i--
	return i, math.Log(qd/c.q[i]) / math.Log(c.q[i+1]/c.q[i])
}

// lerp is a + f (b − a) on a log scale: a^(1−f) b^f, for a, b > 0.
func lerp(a, b, f float64) float64 { return a * math.Pow(b/a, f) }

// IOPSAt is the curve's throughput at queue depth qd, I/Os per second.
func (c Curve) IOPSAt(qd float64) float64 {
	return c.At(qd).IOPS
}

// LatencyNsAt is the curve's mean latency at queue depth qd, nanoseconds,
// derived by Little's Law from IOPSAt and the queue fill.
func (c Curve) LatencyNsAt(qd float64) float64 {
	return c.At(qd).LatencyNs
}

// At reads the curve at queue depth qd (zero figures for an empty curve or
// qd ≤ 0).
func (c Curve) At(qd float64) OperatingPoint {
	op := OperatingPoint{QD: qd}
	if len(c.q) == 0 || !(qd > 0) || math.IsInf(qd, 0) {
		return op
	}
	i, f := c.seg(qd)
	var fill float64
	switch {
	case i < 0:
		op.IOPS, fill = c.x[0]*qd/c.q[0], c.fill[0]
	case i == len(c.q)-1:
		// Beyond the deepest point throughput is held and the extra I/Os wait.
		op.IOPS, fill = c.x[i], c.fill[i]
		op.Measured = qd == c.q[i]
		op.Beyond = qd > c.q[i]
	default:
		op.IOPS, fill = lerp(c.x[i], c.x[i+1], f), lerp(c.fill[i], c.fill[i+1], f)
		op.Measured = f == 0
	}
	op.Inflight = fill * qd
	op.LatencyNs = LatencyNsAtDepth(op.Inflight, op.IOPS)
	return op
}

// QDFor is the smallest queue depth at which the curve delivers iops I/Os
// per second, read on the measured curve in QD order (the first crossing,
// so it is monotone in iops and IOPSAt(QDFor(t)) = t). ok is false when
// iops is above every measured point: the curve cannot answer.
func (c Curve) QDFor(iops float64) (qd float64, ok bool) {
	if len(c.q) == 0 || !(iops > 0) {
		return 0, false
	}
	if iops <= c.x[0] {
		return c.q[0] * iops / c.x[0], true
	}
	for i := 0; i+1 < len(c.q); i++ {
		a, b := c.x[i], c.x[i+1]
		if b < iops || b <= a {
			continue
		}
		if iops <= a {
			return c.q[i], true
		}
		f := math.Log(iops/a) / math.Log(b/a)
		return c.q[i] * math.Pow(c.q[i+1]/c.q[i], f), true
	}
	return 0, false
}

// For reads the curve at the depth that delivers iops: the operating point
// a target of iops I/Os per second needs (ok false when no measured depth
// reaches it).
func (c Curve) For(iops float64) (OperatingPoint, bool) {
	qd, ok := c.QDFor(iops)
	if !ok {
		return OperatingPoint{}, false
	}
	op := c.At(qd)
	op.IOPS = iops // exact on the curve; avoids a rounding residue
	op.LatencyNs = LatencyNsAtDepth(op.Inflight, iops)
	return op, true
}
