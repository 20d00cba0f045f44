// Package curvetest builds synthetic measured curves for the tests of the
// analysis (littleslaw) and of its words (report): points from a model of
// IOPS and latency against queue depth, and device telemetry to go with them.
package curvetest

import (
	"math"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// CurveOf builds the points of QD 1, 2, 4, … maxQD (iodepth = QD, one job)
// of block size bs bytes from a model giving IOPS and mean latency (ns) at
// a QD; in flight follows Little's Law unless inflight is set.
func CurveOf(maxQD int, bs float64, model func(qd float64) (iops, latNs float64), inflight func(qd float64) float64) []littleslaw.Point {
	var pts []littleslaw.Point
	for qd := 1; qd <= maxQD; qd *= 2 {
		q := float64(qd)
		x, r := model(q)
		in := x * r / 1e9
		if inflight != nil {
			in = inflight(q)
		}
		pts = append(pts, littleslaw.Point{QD: q, IODepth: qd, NumJobs: 1, IOPS: x, BWBytes: x * bs, LatMeanNs: r, InflightMean: in})
	}
	return pts
}

// DeviceLike returns telemetry where the device sees what the engine did,
// with aqu-sz at fill × QD and the given self CPU (percent).
func DeviceLike(pts []littleslaw.Point, fill, selfCPU float64) []diagnosis.StepTelemetry {
	tel := make([]diagnosis.StepTelemetry, len(pts))
	for i, p := range pts {
		tel[i] = diagnosis.StepTelemetry{
			DeviceKnown: true, DeviceIOPS: p.IOPS, DeviceBWBytes: p.BWBytes,
			AquSz: fill * p.QD, UtilPct: math.Min(100, 100*fill*p.QD), AwaitMs: p.LatMeanNs / 1e6,
			CPUKnown: true, SelfCPUPct: selfCPU, HostBusyPct: selfCPU / 2,
		}
	}
	return tel
}

// Throttled is a cloud volume with base latency r0 ns capped at xmax IOPS.
func Throttled(r0, xmax float64) func(float64) (float64, float64) {
	return func(qd float64) (float64, float64) {
		x := math.Min(qd/(r0/1e9), xmax) * 0.98
		return x, qd / x * 1e9
	}
}
