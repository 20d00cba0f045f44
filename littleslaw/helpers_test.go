package littleslaw_test

import (
	"math"
	"math/rand/v2"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// depths are the powers of two from 1 to 256.
var depths = []float64{1, 2, 4, 8, 16, 32, 64, 128, 256}

// curve builds points from a throughput law with relative noise of up to
// ±noise (seeded, so runs repeat), latency by Little's Law.
func curve(x func(n float64) float64, noise float64, seed uint64, qds ...float64) []littleslaw.Point {
	if len(qds) == 0 {
		qds = depths
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var pts []littleslaw.Point
	for _, n := range qds {
		iops := x(n) * (1 + noise*(2*r.Float64()-1))
		lat := n / iops * 1e9
		pts = append(pts, littleslaw.Point{QD: n, IOPS: iops, LatMeanNs: lat, P99Ns: 2 * lat, InflightMean: n})
	}
	return pts
}

// exampleCurve is the known answer of the spec: saturation 32, efficient 8.
func exampleCurve() []littleslaw.Point {
	qd := []float64{1, 2, 4, 8, 16, 32, 64}
	iops := []float64{20e3, 38e3, 70e3, 110e3, 140e3, 150e3, 151e3}
	latUs := []float64{50, 53, 57, 73, 114, 213, 424}
	var pts []littleslaw.Point
	for i := range qd {
		pts = append(pts, littleslaw.Point{QD: qd[i], IOPS: iops[i], LatMeanNs: latUs[i] * 1e3})
	}
	return pts
}

// within reports whether got is within frac of want.
func within(got, want, frac float64) bool {
	return math.Abs(got-want) <= frac*math.Abs(want)
}

// fit returns the named fit of a.
func fit(a littleslaw.Analysis, name string) (littleslaw.Model, bool) {
	for _, m := range a.Fits {
		if m.Name == name {
			return m, true
		}
	}
	return littleslaw.Model{}, false
}
