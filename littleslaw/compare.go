package littleslaw

import "math"

// The statistics of a comparison of two runs (report/compare_noise.go
// words them). A step's mean IOPS is known only as well as its own slices
// say: the standard error of their mean, with no floor and no cap. Two
// steps differ for real only when the difference of their means is beyond
// both errors together: Welch's t-test,
//
//	|B − A| > t · √(seA² + seB²)
//
// where se is a step's standard error in IOPS and t Student's quantile at
// CompareConfidence (two-sided) for the Welch–Satterthwaite degrees of
// freedom of the two steps (1.96 with many slices, 4.30 with three). A step
// with fewer than MinNoiseSamples slices, or slices worth fewer than two
// independent ones, has no known noise, and nothing is called real against
// it.

// CompareConfidence is the two-sided confidence at which a difference is
// called real.
const CompareConfidence = 0.95

// MinNoiseSamples is the fewest slices whose spread estimates a step's
// noise.
const MinNoiseSamples = 3

// MinAutocorrSamples is the fewest slices whose lag-1 autocorrelation the
// comparison of runs estimates; fewer count as independent (with a handful
// of slices the estimate is mostly noise, and would as often call a steady
// step's slices too alike to judge). The sweep's settling rule
// (MeanUncertainty) counts it from MinNoiseSamples on instead.
const MinAutocorrSamples = 10

// MeanNoise is what a step's own samples (per-slice IOPS) say of the
// uncertainty of their mean.
type MeanNoise struct {
	// Samples is how many samples there were.
	Samples int `json:"samples"`
	// Independent is how many independent samples they are worth:
	// n·(1−ρ)/(1+ρ) for a positive lag-1 autocorrelation ρ of at least
	// MinAutocorrSamples slices (neighbouring slices of one run are alike),
	// n otherwise.
	Independent float64 `json:"independent"`
	// RelSE is the standard error of the mean, a fraction of the mean.
	RelSE float64 `json:"rel_se"`
}

// Known reports whether the samples estimate the noise: at least
// MinNoiseSamples of them, worth at least two independent ones.
func (m MeanNoise) Known() bool {
	return m.Samples >= MinNoiseSamples && m.Independent >= 2 && m.RelSE >= 0 && !math.IsNaN(m.RelSE)
}

// SampleNoise is the noise of the mean of xs (one step's per-slice IOPS)
// as the comparison of runs judges it: the sample standard deviation over
// √n_eff, a fraction of the mean, with n_eff = n·(1−ρ)/(1+ρ) shrunk for a
// positive lag-1 autocorrelation ρ from MinAutocorrSamples slices on.
// Fewer than MinNoiseSamples values, or a mean of 0 or less, give a
// MeanNoise that is not Known.
func SampleNoise(xs []float64) MeanNoise { return sampleNoise(xs, MinAutocorrSamples) }

// sampleNoise is the noise of the mean of xs, ρ counted from minAutocorr
// slices on: the one computation behind SampleNoise and MeanUncertainty.
func sampleNoise(xs []float64, minAutocorr int) MeanNoise {
	m := MeanNoise{Samples: len(xs)}
	if m.Samples < MinNoiseSamples {
		return m
	}
	mean, sd, rho := moments(xs)
	if mean <= 0 {
		m.Samples = 0
		return m
	}
	m.Independent = float64(m.Samples)
	if rho > 0 && m.Samples >= minAutocorr {
		m.Independent = max(1, m.Independent*(1-rho)/(1+rho))
	}
	m.RelSE = sd / math.Sqrt(m.Independent) / mean
	return m
}

// moments are the mean of xs (two values at least), their sample standard
// deviation and their lag-1 autocorrelation (0 when they do not spread).
func moments(xs []float64) (mean, sd, rho float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss, lag float64
	for i, x := range xs {
		d := x - mean
		ss += d * d
		if i > 0 {
			lag += d * (xs[i-1] - mean)
		}
	}
	if ss > 0 {
		rho = lag / ss
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1)), rho
}

// SummaryNoise is the noise of a mean reported as a coefficient of
// variation (standard deviation / mean) over n samples, as fio reports
// iops_stddev over iops_samples: cv / √n, the samples counted as
// independent (their order is not known).
func SummaryNoise(cv float64, n int) MeanNoise {
	m := MeanNoise{Samples: n, Independent: float64(n)}
	if n < MinNoiseSamples || cv < 0 || math.IsNaN(cv) {
		m.Independent = 0
		return m
	}
	m.RelSE = cv / math.Sqrt(float64(n))
	return m
}

// Difference is the verdict on two means a and b (b against a) with their
// noise.
type Difference struct {
	// Rel is (b − a) / a.
	Rel float64 `json:"rel"`
	// Known is false when either mean's noise is unknown: then Band, T, DF
	// are 0 and Real is false.
	Known bool `json:"known"`
	// Band is t·√(seA² + seB²) / a: the smallest |Rel| called real.
	Band float64 `json:"band"`
	// T is Student's quantile for CompareConfidence at DF degrees of
	// freedom (Welch–Satterthwaite).
	T  float64 `json:"t"`
	DF float64 `json:"df"`
	// Real is |Rel| > Band: b differs from a beyond both runs' noise.
	Real bool `json:"real"`
}

// CompareMeans judges b against a, two means with the relative noise na
// and nb (Welch's t-test at CompareConfidence). Nonpositive means give an
// unknown Difference.
func CompareMeans(a, b float64, na, nb MeanNoise) Difference {
	d := Difference{}
	if a <= 0 || b <= 0 || math.IsNaN(a) || math.IsNaN(b) {
		return d
	}
	d.Rel = b/a - 1
	if !na.Known() || !nb.Known() {
		return d
	}
	d.Known = true
	sa, sb := na.RelSE*a, nb.RelSE*b // standard errors in the means' unit
	va, vb := sa*sa, sb*sb
	se := math.Sqrt(va + vb)
	if se == 0 {
		// Both steps' slices were identical: no noise at all, so any
		// difference is real.
		d.Real = a != b
		return d
	}
	dfa, dfb := na.Independent-1, nb.Independent-1
	d.DF = (va + vb) * (va + vb) / (va*va/dfa + vb*vb/dfb)
	d.T = StudentQuantile((1+CompareConfidence)/2, d.DF)
	d.Band = d.T * se / a
	d.Real = math.Abs(b-a) > d.T*se
	return d
}

// StudentQuantile is the p-quantile (0 < p < 1) of Student's t
// distribution with df > 0 degrees of freedom (df may be fractional, as
// Welch–Satterthwaite's is): 12.71 for p = 0.975 at df 1, 4.30 at 2, 2.23
// at 10, 1.96 as df grows. NaN for p or df out of range.
func StudentQuantile(p, df float64) float64 {
	if !(p > 0 && p < 1) || !(df > 0) {
		return math.NaN()
	}
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -StudentQuantile(1-p, df)
	}
	if math.IsInf(df, 1) || df > 1e7 {
		return math.Sqrt2 * math.Erfinv(2*p-1)
	}
	// Bisection on the CDF: the upper tail 1 − p is ½·I_x(df/2, ½) with
	// x = df / (df + t²), which falls as t grows.
	tail := 1 - p
	lo, hi := 0.0, 1.0
	for studentUpperTail(hi, df) > tail {
		hi *= 2
		if hi > 1e12 {
			return math.Inf(1)
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := (lo + hi) / 2
		if studentUpperTail(mid, df) > tail {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// studentUpperTail is P(T > t) for t ≥ 0 under Student's t with df
// degrees of freedom.
func studentUpperTail(t, df float64) float64 {
	return 0.5 * regIncBeta(df/(df+t*t), df/2, 0.5)
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by
// its continued fraction (Lentz's method), using the symmetry
// I_x(a, b) = 1 − I_{1−x}(b, a) where the fraction converges slowly.
func regIncBeta(x, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(x, a, b) / a
	}
	return 1 - front*betaFraction(1-x, b, a)/b
}

// betaFraction evaluates the continued fraction of the incomplete beta
// function (modified Lentz).
func betaFraction(x, a, b float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 500; m++ {
		fm := float64(m)
		// Even step.
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		// Odd step.
		num = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return h
}
