package littleslaw

import (
	"math"

	"gonum.org/v1/gonum/optimize"
)

// Fitting works on log IOPS, so a residual is a relative error and QD 1
// counts as much as QD 256. Parameters are reparametrised so the optimiser
// cannot leave their bounds: positive quantities as exp(u), USL's σ and κ
// as a logistic of u, which keeps them in [0, 1].

// retrogradeReach is how far past the deepest measured QD a USL peak may lie
// and still be reported as retrograde (N_max); further out, κ ≈ 0 and the
// curve is read as a plateau at X_roof = λ/σ.
const retrogradeReach = 2.0

// fitBound builds the operational-analysis bound model
// X(N) = min(N / R0, Xmax) from pts (at least 2, sorted by QD). Its two
// parameters are not fitted: R0 is the measured base latency (the mean
// latency at the lowest QD) and Xmax the highest measured IOPS, so the
// ceiling never lies below the data and N* = Xmax × R0 follows. A least-
// squares fit of min() on a noisy plateau lands its ceiling below the
// measured peak, which reads as a contradiction. The residuals are reported
// as they fall.
func fitBound(pts []Point) (Model, bool) {
	if len(pts) < 2 {
		return Model{}, false
	}
	r0Ns := pts[0].LatMeanNs
	xmax := 0.0
	for _, p := range pts {
		xmax = math.Max(xmax, p.IOPS)
	}
	if !(r0Ns > 0) || !(xmax > 0) {
		return Model{}, false
	}
	m := Model{
		Name:   ModelBound,
		Params: map[string]float64{"r0_ns": r0Ns, "xmax": xmax},
		KneeQD: xmax * r0Ns / nsPerSec,
		XRoof:  xmax,
	}
	scoreModel(&m, pts, 2)
	return m, true
}

// fitUSL fits X(N) = λN / (1 + σ(N−1) + κN(N−1)) with λ ≥ 0 and σ, κ in
// [0, 1] to pts (at least 3, sorted by QD). For given σ and κ the best λ in
// log space is closed-form, so the search is over σ and κ only; the κ = 0
// and σ = 0 edges are searched too, so a plateau gets κ exactly 0.
func fitUSL(pts []Point) (Model, bool) {
	if len(pts) < 3 {
		return Model{}, false
	}
	lambdaFor := func(sigma, kappa float64) float64 {
		var s float64
		for _, p := range pts {
			s += math.Log(p.IOPS) - math.Log(p.QD/(1+sigma*(p.QD-1)+kappa*p.QD*(p.QD-1)))
		}
		return math.Exp(s / float64(len(pts)))
	}
	sse := func(sigma, kappa float64) float64 {
		l := lambdaFor(sigma, kappa)
		var s float64
		for _, p := range pts {
			d := math.Log(p.IOPS) - math.Log(uslIOPS(p.QD, l, sigma, kappa))
			s += d * d
		}
		return s
	}
	type cand struct{ sigma, kappa, f float64 }
	var cands []cand
	// Interior: both free.
	starts := [][]float64{}
	for _, a := range []float64{-6, -2, 1} {
		for _, b := range []float64{-16, -9, -4} {
			starts = append(starts, []float64{a, b})
		}
	}
	if u, ok := minimizeFrom(func(u []float64) float64 { return sse(logistic(u[0]), logistic(u[1])) }, starts); ok {
		cands = append(cands, cand{logistic(u[0]), logistic(u[1]), sse(logistic(u[0]), logistic(u[1]))})
	}
	// Edge κ = 0 (a plateau).
	if u, ok := minimizeFrom(func(u []float64) float64 { return sse(logistic(u[0]), 0) }, [][]float64{{-6}, {-2}, {1}}); ok {
		cands = append(cands, cand{logistic(u[0]), 0, sse(logistic(u[0]), 0)})
	}
	// Edge σ = 0 (pure crosstalk).
	if u, ok := minimizeFrom(func(u []float64) float64 { return sse(0, logistic(u[0])) }, [][]float64{{-16}, {-9}, {-4}}); ok {
		cands = append(cands, cand{0, logistic(u[0]), sse(0, logistic(u[0]))})
	}
	if len(cands) == 0 {
		return Model{}, false
	}
	b := cands[0]
	for _, c := range cands[1:] {
		// Prefer the simpler edge unless the interior is clearly better.
		if c.f < b.f*(1-1e-6) || (c.kappa == 0 && c.f <= b.f*(1+1e-6)) {
			b = c
		}
	}
	l := lambdaFor(b.sigma, b.kappa)
	m := Model{
		Name:   ModelUSL,
		Params: map[string]float64{"lambda": l, "sigma": b.sigma, "kappa": b.kappa},
	}
	deepest := pts[len(pts)-1].QD
	if b.kappa > 0 {
		nmax := math.Sqrt((1 - b.sigma) / b.kappa)
		if nmax <= retrogradeReach*deepest {
			// Retrograde: no asymptote (XRoof stays 0); the peak is
			// IOPSAt(NMax).
			m.NMax = nmax
			m.KneeQD = nmax
		}
	}
	if m.NMax == 0 && b.sigma > 0 {
		m.XRoof = l / b.sigma
		m.KneeQD = 1 / b.sigma // X_roof × R0 with R0 = 1/λ
	}
	scoreModel(&m, pts, 3)
	return m, true
}

// scoreModel fills m's Residuals, RelRMS and AIC (on log residuals, k
// parameters).
func scoreModel(m *Model, pts []Point, k int) {
	var rel, sse float64
	m.Residuals = make([]float64, 0, len(pts))
	for _, p := range pts {
		x := m.IOPSAt(p.QD)
		r := x/p.IOPS - 1
		m.Residuals = append(m.Residuals, r)
		rel += r * r
		d := math.Log(p.IOPS) - math.Log(x)
		sse += d * d
	}
	n := float64(len(pts))
	m.RelRMS = math.Sqrt(rel / n)
	// Floor the error so a perfect synthetic fit does not give −Inf.
	m.AIC = n*math.Log(math.Max(sse/n, 1e-12)) + 2*float64(k)
}

// minimizeFrom runs Nelder–Mead from each start and returns the best point.
func minimizeFrom(f func([]float64) float64, starts [][]float64) ([]float64, bool) {
	var best []float64
	bestF := math.Inf(1)
	for _, s := range starts {
		p := optimize.Problem{Func: func(u []float64) float64 {
			v := f(u)
			if math.IsNaN(v) {
				return math.Inf(1)
			}
			return v
		}}
		set := &optimize.Settings{
			FuncEvaluations: 4000,
			Converger:       &optimize.FunctionConverge{Absolute: 1e-14, Relative: 1e-12, Iterations: 300},
		}
		res, err := optimize.Minimize(p, append([]float64(nil), s...), set, &optimize.NelderMead{})
		if err != nil && res == nil {
			continue
		}
		if res != nil && res.F < bestF && !math.IsInf(res.F, 0) {
			bestF, best = res.F, res.X
		}
	}
	return best, best != nil
}

// logistic maps the real line onto (0, 1).
func logistic(u float64) float64 { return 1 / (1 + math.Exp(-u)) }
