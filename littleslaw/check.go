package littleslaw

// Little's-Law check thresholds.
const (
	// FillFlag flags a step whose effective in-flight (IOPS × mean latency)
	// is below this fraction of its configured QD: the queue was not kept
	// full. Explain and the diagnosis use the same line.
	FillFlag = 0.5
	// FullFill is the fraction of the configured QD in flight from which
	// the queue counts as kept full (Explain's depth-bound verdict, the
	// diagnosis's healthy and queue rules).
	FullFill = 0.8
	// MismatchFlag flags a step whose measured in-flight mean differs from
	// IOPS × mean latency by more than this fraction: a measuring error.
	MismatchFlag = 0.25
)

// CheckPoint applies Little's Law to one point: effective in-flight
// IOPS × mean latency against the configured QD and the measured in-flight
// mean.
func CheckPoint(p Point) StepCheck {
	c := StepCheck{QD: p.QD, MeasuredInflight: p.InflightMean}
	c.EffectiveInflight = QueueDepth(p.IOPS, p.LatMeanNs)
	if p.QD > 0 {
		c.Fill = c.EffectiveInflight / p.QD
	}
	switch {
	case p.QD > 0 && c.Fill < FillFlag:
		c.Flagged, c.Reason = true, CheckNotFull
	case p.InflightMean > 0 && relDiff(p.InflightMean, c.EffectiveInflight) > MismatchFlag:
		c.Flagged, c.Reason = true, CheckMismatch
	}
	return c
}

// relDiff is |a − b| / max(a, b).
func relDiff(a, b float64) float64 {
	d, m := a-b, a
	if d < 0 {
		d = -d
	}
	if b > m {
		m = b
	}
	if m == 0 {
		return 0
	}
	return d / m
}
