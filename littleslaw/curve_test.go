package littleslaw_test

import (
	"math"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// littleHolds reports whether a stated (QD, IOPS, latency) triple satisfies
// Little's Law within rounding to a whole I/O or 5%.
func littleHolds(qd, iops, latNs float64) bool {
	l := littleslaw.QueueDepth(iops, latNs)
	return math.Abs(qd-l) <= math.Max(1, 0.05*qd)
}

func TestCurveMeasuredPointsAreExact(t *testing.T) {
	pts := exampleCurve()
	c := littleslaw.NewCurve(pts)
	for _, p := range pts {
		op := c.At(p.QD)
		if !op.Measured || op.IOPS != p.IOPS || !within(op.LatencyNs, p.LatMeanNs, 1e-12) {
			t.Errorf("At(%g) = %+v, want the measured %g IOPS at %g ns", p.QD, op, p.IOPS, p.LatMeanNs)
		}
	}
}

func TestCurveBetweenPointsIsLittleExact(t *testing.T) {
	c := littleslaw.NewCurve(exampleCurve())
	// Half way between QD 16 (140k) and 32 (150k) on log axes: QD 22.6,
	// √(140k × 150k) = 144.9k IOPS, latency between the two measured.
	op := c.At(math.Sqrt(16 * 32))
	if !within(op.IOPS, math.Sqrt(140e3*150e3), 1e-9) || op.LatencyNs <= 114e3 || op.LatencyNs >= 213e3 {
		t.Errorf("At(22.6) = %+v, want 144.9k IOPS between 114 and 213 µs", op)
	}
	if !within(littleslaw.QueueDepth(op.IOPS, op.LatencyNs), op.Inflight, 1e-9) {
		t.Errorf("in flight %g ≠ IOPS × latency %g", op.Inflight, littleslaw.QueueDepth(op.IOPS, op.LatencyNs))
	}
	// The inverse reads the same curve.
	q, ok := c.QDFor(math.Sqrt(140e3 * 150e3))
	if !ok || !within(q, math.Sqrt(16*32), 1e-9) {
		t.Errorf("QDFor(144.9k) = %g, %v, want 22.6", q, ok)
	}
	if _, ok := c.QDFor(152e3); ok {
		t.Error("QDFor above the highest measured IOPS answered")
	}
	// Below the first point latency stays R0 and IOPS scale with QD.
	if op := c.At(0.5); !within(op.IOPS, 10e3, 1e-9) || !within(op.LatencyNs, 50e3, 1e-9) {
		t.Errorf("At(0.5) = %+v, want 10k IOPS at 50 µs", op)
	}
	if op := c.At(128); !op.Beyond || op.IOPS != 151e3 {
		t.Errorf("At(128) = %+v, want beyond at the deepest point's 151k", op)
	}
}

// TestCurvePropertyLittle checks, over many synthetic curves of every
// shape (hockey stick, smooth USL, retrograde, throttled plateau, noisy,
// partly filled queues), that every operating point the curve gives and
// every target answer states a Little-consistent triple, that QDFor
// inverts IOPSAt, and that the target's depth is monotone in the target.
func TestCurvePropertyLittle(t *testing.T) {
	shapes := map[string]func(n float64) float64{
		"bound":      func(n float64) float64 { return math.Min(n/1.3e-3, 120e3) },
		"usl":        func(n float64) float64 { return 2e4 * n / (1 + 0.05*(n-1)) },
		"retrograde": func(n float64) float64 { return 3e4 * n / (1 + 0.02*(n-1) + 0.0005*n*(n-1)) },
		"flat":       func(n float64) float64 { return 4000 },
		"linear":     func(n float64) float64 { return 900 * n },
	}
	checked := 0
	for name, law := range shapes {
		for seed := uint64(1); seed <= 20; seed++ {
			noise := 0.0
			if seed > 1 {
				noise = 0.08
			}
			pts := curve(law, noise, seed)
			if seed%3 == 0 { // a queue not kept full at the deep end
				for i := range pts {
					if pts[i].QD >= 64 {
						pts[i].LatMeanNs *= 0.6
					}
				}
			}
			c := littleslaw.NewCurve(pts)
			xmax, _ := c.MaxIOPS()
			for q := 1.0; q <= 256; q *= 1.19 {
				op := c.At(q)
				if !within(littleslaw.QueueDepth(op.IOPS, op.LatencyNs), op.Inflight, 1e-9) {
					t.Fatalf("%s/%d: At(%g) = %+v breaks Little", name, seed, q, op)
				}
			}
			a, _ := littleslaw.Analyze(pts, littleslaw.Options{})
			prev := 0.0
			for f := 0.05; f <= 1.0; f += 0.05 {
				target := f * xmax
				q, ok := c.QDFor(target)
				if !ok {
					t.Fatalf("%s/%d: QDFor(%g) found nothing below the max %g", name, seed, target, xmax)
				}
				if got := c.IOPSAt(q); !within(got, target, 1e-9) {
					t.Fatalf("%s/%d: IOPSAt(QDFor(%g)) = %g", name, seed, target, got)
				}
				if q < prev {
					t.Fatalf("%s/%d: QDFor not monotone: %g after %g", name, seed, q, prev)
				}
				prev = q
				tr := a.TargetFor(target, littleslaw.Options{})
				if !tr.Reachable {
					t.Fatalf("%s/%d: target %g below the max %g not reachable: %+v", name, seed, target, xmax, tr)
				}
				// The stated in-flight and latency are Little-exact; the
				// configured QD covers the in-flight figure, rounded up, and
				// exceeds it beyond rounding only when the queue was not full.
				if !within(littleslaw.QueueDepth(target, tr.LatencyNs), tr.Inflight, 1e-9) {
					t.Fatalf("%s/%d: target %g: in flight %g ≠ T × latency %g", name, seed, target, tr.Inflight, littleslaw.QueueDepth(target, tr.LatencyNs))
				}
				if seed%3 != 0 && !littleHolds(tr.QD, target, tr.LatencyNs) {
					t.Fatalf("%s/%d: target %g: QD %g at %g ns breaks Little", name, seed, target, tr.QD, tr.LatencyNs)
				}
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d targets checked", checked)
	}
}
