package report

import (
	"math"

	"github.com/qdsweep/qdsweep/sweep"
)

// The noise of a comparison. Two sweeps of one device differ by more than
// the uncertainty of their steps' means only when something changed, so a
// difference inside it is shown as "≈", not as a percentage.
//
// A step's noise σ is the standard error of its mean IOPS, a fraction
// (Step.IOPSUncertainty: the spread of its slices over the square root of
// how many independent ones they are worth), or noiseDefault when the
// input does not say. At one QD, IOPS and mean latency are one fact
// (Little's Law), so a row is "≈" in both or in neither: both are within
// 2·√(σA² + σB²) (two standard errors of a difference), which is never
// wider than noiseMaxBand. A p99, which varies more from run to run than a
// mean, is "≈" within twice that.
const (
	noiseDefault = 0.02
	noiseMaxBand = 0.10
)

// noiseOf returns the noise σ of step st (a fraction), or 0 when it
// carries none.
func noiseOf(st sweep.Step) float64 { return st.IOPSUncertainty() }

// noiseBand is the largest relative difference of two values with noise
// sa and sb that counts as "≈": 2·√(sa² + sb²), at most noiseMaxBand. An
// unknown σ (0) takes the other's; both unknown take noiseDefault.
func noiseBand(sa, sb float64) float64 {
	switch {
	case sa <= 0 && sb <= 0:
		sa, sb = noiseDefault, noiseDefault
	case sa <= 0:
		sa = sb
	case sb <= 0:
		sb = sa
	}
	return min(2*math.Sqrt(sa*sa+sb*sb), noiseMaxBand)
}

// within reports whether b differs from a by at most band (relative).
func within(a, b, band float64) bool {
	return a > 0 && b > 0 && math.Abs(b/a-1) <= band
}

// noisyDelta formats (b − a) / a as relDelta does, or "≈" when it lies
// within band.
func noisyDelta(a, b, band float64) string {
	if within(a, b, band) {
		return "≈"
	}
	return relDelta(a, b)
}
