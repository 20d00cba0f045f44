package littleslaw

import "math"

// Model names used in Model.Name.
const (
	// ModelBound is the operational-analysis bound model:
	// X(N) = min(N / R0, Xmax), R(N) = max(R0, N / Xmax).
	ModelBound = "bound"
	// ModelUSL is Gunther's Universal Scalability Law:
	// X(N) = λN / (1 + σ(N−1) + κN(N−1)).
	ModelUSL = "usl"
)

// IOPSAt is the model's throughput, I/Os per second, at queue depth qd.
// Bound parameters: r0_ns (base latency, ns) and xmax (IOPS); USL
// parameters: lambda (IOPS at QD 1), sigma and kappa (dimensionless).
func (m Model) IOPSAt(qd float64) float64 {
	if qd <= 0 {
		return 0
	}
	switch m.Name {
	case ModelBound:
		return boundIOPS(qd, m.Params["r0_ns"], m.Params["xmax"])
	case ModelUSL:
		return uslIOPS(qd, m.Params["lambda"], m.Params["sigma"], m.Params["kappa"])
	}
	return 0
}

// LatencyNsAt is the model's mean latency in nanoseconds at queue depth qd,
// by Little's Law from IOPSAt (for the bound model: max(R0, N / Xmax)).
func (m Model) LatencyNsAt(qd float64) float64 {
	x := m.IOPSAt(qd)
	if x <= 0 {
		return 0
	}
	return qd * nsPerSec / x
}

// boundIOPS is min(N / R0, Xmax) with R0 in nanoseconds.
func boundIOPS(n, r0Ns, xmax float64) float64 {
	if r0Ns <= 0 {
		return xmax
	}
	return math.Min(n*nsPerSec/r0Ns, xmax)
}

// uslIOPS is λN / (1 + σ(N−1) + κN(N−1)).
func uslIOPS(n, lambda, sigma, kappa float64) float64 {
	return lambda * n / (1 + sigma*(n-1) + kappa*n*(n-1))
}
