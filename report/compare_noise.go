package report

import (
	"math"

	"github.com/qdsweep/qdsweep/sweep"
)

// Run-to-run noise of a comparison. Two sweeps of one device differ by
// more than their own step-to-step variability only when something
// changed, so a difference inside that variability is shown as "≈", not as
// a percentage.
//
// A step's noise σ is, in order of preference:
//   - the coefficient of variation of its per-interval IOPS over the
//     steady window (Step.IOPSCV), measured by the sweep itself;
//   - the curve's scatter around its fitted model (Model.RelRMS), when the
//     fit is drawn as earned (fitMinPoints points, fitMaxErr error): how far
//     steps stray from a smooth curve, which is noise and any misfit;
//   - the other input's σ at that depth (the same device and engine are
//     the usual case);
//   - noiseDefault when neither input says.
//
// A difference in IOPS or mean latency is "≈" when |B/A − 1| ≤ 2·√(σA² +
// σB²) (two standard deviations of a difference of two noisy values); a
// difference in p99 latency, which varies more from run to run than the
// mean, when it is within twice that.
const noiseDefault = 0.05

// noiseOf returns the noise σ of step st of curve s (a fraction), or 0
// when st and its curve carry none.
func noiseOf(st sweep.Step, s *series) float64 {
	if st.IOPSCV > 0 {
		return st.IOPSCV
	}
	if s != nil && fitGradeOf(*s) == fitBand {
		return s.Analysis.Model.RelRMS
	}
	return 0
}

// noiseBand is the largest relative difference of two values with noise
// sa and sb that counts as "≈": 2·√(sa² + sb²). An unknown σ (0) takes
// the other's; both unknown take noiseDefault.
func noiseBand(sa, sb float64) float64 {
	switch {
	case sa <= 0 && sb <= 0:
		sa, sb = noiseDefault, noiseDefault
	case sa <= 0:
		sa = sb
	case sb <= 0:
		sb = sa
	}
	return 2 * math.Sqrt(sa*sa+sb*sb)
}

// noisyDelta formats (b − a) / a as relDelta does, or "≈" when it lies
// within band.
func noisyDelta(a, b, band float64) string {
	if a > 0 && b > 0 && math.Abs(b/a-1) <= band {
		return "≈"
	}
	return relDelta(a, b)
}
