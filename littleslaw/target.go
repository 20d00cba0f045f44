package littleslaw

// AdviseTarget is pure Little's Law with no measured curve: the queue depth
// that sustains targetIOPS at latNs nanoseconds per I/O, and its split.
// It is the answer of `qdsweep advise --target-iops T --latency L`.
func AdviseTarget(targetIOPS, latNs float64, o Options) TargetResult {
	o = o.withDefaults()
	qd := QueueDepth(targetIOPS, latNs)
	r := TargetResult{TargetIOPS: targetIOPS, Reachable: true, QD: float64(CeilQD(qd)), NaiveQD: qd, LatencyNs: latNs, Reason: TargetLittle}
	r.setSplit(CeilQD(qd), o)
	r.limitSplit(o)
	return r
}

// setSplit splits qd by SplitFor within o's limits.
func (r *TargetResult) setSplit(qd int, o Options) {
	sa := fleetSplit(qd, o)
	r.Split, r.AltSplits, r.JobsBy, r.OverLimit = sa.Best, sa.Alts, sa.JobsBy, sa.OverLimit
}

// limitSplit records the per-job depth limit (OverLimit: the job limit
// could not hold the split, set by setSplit).
func (r *TargetResult) limitSplit(o Options) {
	r.MaxIODepth = o.MaxIODepth
}

// TargetFor answers "what QD for t IOPS" on a's measured curve, as Analyze
// does for Options.TargetIOPS, without refitting.
func (a Analysis) TargetFor(t float64, o Options) TargetResult {
	o = o.withDefaults()
	if len(a.Points) == 0 {
		return TargetResult{TargetIOPS: t, Reason: TargetNoPoints}
	}
	xmax, xmaxQD := a.MaxIOPS, a.MaxIOPSQD
	held := a.SustainedIOPS > 0 && a.SustainedIOPS < xmax
	if held {
		// The device did not hold still: what it sustains is the most any
		// target gets, whatever the earlier steps measured.
		xmax = a.SustainedIOPS
	}
	r := targetOnCurve(a.Points, t, a.BaseLatencyNs, xmax, xmaxQD, a.Saturation, a.Model, o)
	r.Sustained = held && t > xmax*(1-ReachSlack)
	if r.Reachable {
		r.ResponseNs = responseAt(a.Points, t)
	}
	if held && !r.Reachable {
		r.MaxIOPS = a.MaxIOPS
	}
	return r
}

// responseAt is the mean response time (from each I/O's scheduled
// arrival) an application offering t IOPS sees on an open-loop curve:
// interpolated linearly between the loads offered around t that measured
// response times, the nearest load's beyond them; 0 on a curve without
// response times.
func responseAt(pts []Point, t float64) float64 {
	var lo, hi *Point
	for i := range pts {
		p := &pts[i]
		if p.OfferedIOPS <= 0 || p.Response == nil || p.Response.MeanNs <= 0 {
			continue
		}
		if p.OfferedIOPS <= t && (lo == nil || p.OfferedIOPS > lo.OfferedIOPS) {
			lo = p
		}
		if p.OfferedIOPS >= t && (hi == nil || p.OfferedIOPS < hi.OfferedIOPS) {
			hi = p
		}
	}
	switch {
	case lo == nil && hi == nil:
		return 0
	case lo == nil:
		return hi.Response.MeanNs
	case hi == nil || hi.OfferedIOPS == lo.OfferedIOPS:
		return lo.Response.MeanNs
	}
	f := (t - lo.OfferedIOPS) / (hi.OfferedIOPS - lo.OfferedIOPS)
	return lo.Response.MeanNs + f*(hi.Response.MeanNs-lo.Response.MeanNs)
}

// targetOnCurve answers "what QD for T IOPS" from the measured curve.
func targetOnCurve(pts []Point, t, r0, xmax, xmaxQD float64, sat Knee, m *Model, o Options) TargetResult {
	r := TargetResult{TargetIOPS: t, NaiveQD: QueueDepth(t, r0), MaxIOPS: xmax, MaxIOPSQD: xmaxQD}
	// A target within ReachSlack of the measured maximum is reached: the
	// difference is measurement noise (a device capped at exactly T measures
	// a hair under T).
	atLimit := t > xmax && t <= xmax*(1+ReachSlack)
	if t > xmax && !atLimit {
		r.ReachableIOPS = xmax
		if sat.Found {
			r.QD, r.LatencyNs, r.Reason = sat.QD, sat.LatNsMean, TargetSaturated
			r.Inflight = QueueDepth(sat.IOPS, sat.LatNsMean)
		} else {
			last := pts[len(pts)-1]
			r.QD, r.LatencyNs, r.Reason = last.QD, last.LatMeanNs, TargetNotReached
			r.Inflight = QueueDepth(last.IOPS, last.LatMeanNs)
			if q, ok := modelQDFor(m, t, 64*last.QD); ok {
				r.QD, r.LatencyNs, r.Inflight = q, LatencyNsAtDepth(q, t), q
				r.ModelName, r.ModelQD = m.Name, q
			}
		}
		r.setSplit(CeilQD(r.QD), o)
		return r
	}
	r.Reachable = true
	// One interpolation (Curve): the depth where the measured curve delivers
	// t, and the latency Little's Law gives there, so t × latency is the
	// in-flight figure and the configured QD is it rounded up to a whole I/O
	// (divided by the queue fill when the queue was not kept full).
	op, _ := NewCurve(pts).For(min(t, xmax))
	// A target within ReachSlack above the most measured is read at that
	// point: its latency, and t × that latency in flight, so the triple
	// quoted closes Little's Law for t itself.
	r.LatencyNs, r.Inflight = op.LatencyNs, QueueDepth(t, op.LatencyNs)
	qd := max(op.QD, r.Inflight)
	if t <= xmax {
		r.Inflight, qd = op.Inflight, op.QD
	}
	r.QD = float64(CeilQD(qd))
	r.setSplit(CeilQD(qd), o)
	r.Reason = TargetReachable
	r.limitSplit(o)
	r.NoHeadroom = atLimit || t >= xmax*(1-ReachSlack)
	return r
}

// ReachSlack is the relative distance below a target within which the
// measured maximum still counts as reaching it.
const ReachSlack = 0.01

// modelQDFor inverts m by bisection: the smallest QD ≤ limit where the
// model reaches t IOPS.
func modelQDFor(m *Model, t, limit float64) (float64, bool) {
	if m == nil || m.IOPSAt(limit) < t {
		return 0, false
	}
	lo, hi := 0.0, limit
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if m.IOPSAt(mid) >= t {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}
