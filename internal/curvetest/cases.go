package curvetest

import (
	"math"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// Case is one typical sweep as the diagnosis reads it and the rules it
// must find there, in order. The rules' test (diagnosis) and the words'
// test (report) read the same cases, each adding what it checks by Name.
type Case struct {
	Name  string
	In    diagnosis.DiagnoseInput
	Rules []diagnosis.Rule
}

// The block sizes of the cases, bytes.
const k4, k64 = 4096, 65536

// shapes are the curves of the cases: each a kind of device or engine a
// sweep meets, with the telemetry that goes with it where a rule reads it.
type shapes struct {
	Cloud, Capped, Psync, Buffered []littleslaw.Point
	// Limited and CPUShort are jobs that fell short for a measured cause
	// (the engine's shortfall): a limit, the CPU.
	Limited, CPUShort []littleslaw.Point
	// TagLimited waits for a tag above the device beyond QD 64.
	TagLimited []littleslaw.Point
	TagTel     []diagnosis.StepTelemetry
	// CPUTop is a 20 µs device behind one core that submits 150k IOPS.
	CPUTop []littleslaw.Point
	CPUTel []diagnosis.StepTelemetry
	// PageCache is served from memory: the device sees 120 IOPS.
	PageCache []littleslaw.Point
	PCTel     []diagnosis.StepTelemetry
	NVMe      []littleslaw.Point // κ = 0 USL: a smooth approach to 400k
	Climbing  []littleslaw.Point // still rising at QD 16, latency growing
}

// newShapes builds the shapes, fresh each call.
func newShapes() shapes {
	one := func(float64) float64 { return 1 }
	flat := func(x, r float64) func(float64) (float64, float64) {
		return func(float64) (float64, float64) { return x, r }
	}
	s := shapes{
		Cloud:      CurveOf(32, k4, Throttled(1.3e6, 1e9), nil), // 1.3 ms, no cap within QD 32
		Capped:     CurveOf(256, k4, Throttled(1e6, 25000), nil),
		Psync:      CurveOf(32, k4, flat(5000, 200e3), one),
		Buffered:   CurveOf(32, k4, flat(5200, 190e3), one),
		Limited:    CurveOf(32, k4, flat(5200, 190e3), one),
		CPUShort:   CurveOf(32, k4, flat(5200, 190e3), one),
		TagLimited: CurveOf(1024, k4, Throttled(100e3, 1e9), nil),
		CPUTop: CurveOf(64, k4, func(qd float64) (float64, float64) {
			x := math.Min(qd/20e-6, 150000)
			return x, qd / x * 1e9
		}, nil),
		PageCache: CurveOf(16, k4, func(qd float64) (float64, float64) { return 400000 * math.Min(qd, 2) / 2, 2.5e3 * qd / math.Min(qd, 2) }, nil),
		NVMe: CurveOf(128, k4, func(qd float64) (float64, float64) {
			x := 400000 * qd / (qd + 8)
			return x, qd / x * 1e9
		}, nil),
		Climbing: CurveOf(16, k4, func(qd float64) (float64, float64) {
			x := 10000 * math.Pow(qd, 0.8)
			return x, qd / x * 1e9
		}, nil),
	}
	for i := range s.Limited {
		s.Limited[i].Shortfall, s.CPUShort[i].Shortfall = diagnosis.ShortfallLimit, diagnosis.ShortfallCPU
	}
	for i := range s.TagLimited {
		if s.TagLimited[i].QD > 64 { // requests beyond 64 wait for a tag above the device
			s.TagLimited[i].IOPS = 64 / 100e-6 * 0.98
			s.TagLimited[i].LatMeanNs = s.TagLimited[i].QD / s.TagLimited[i].IOPS * 1e9
		}
	}
	s.TagTel = DeviceLike(s.TagLimited, 0.97, 20)
	for i := range s.TagTel {
		s.TagTel[i].AquSz = math.Min(s.TagLimited[i].QD, 64) * 0.97
	}
	s.CPUTel = DeviceLike(s.CPUTop, 0.3, 99)
	s.PCTel = DeviceLike(s.PageCache, 0.5, 60)
	for i := range s.PCTel {
		s.PCTel[i].DeviceIOPS, s.PCTel[i].DeviceBWBytes = 120, 120*k4
	}
	return s
}

// DiagnoseCases are the typical sweeps, one or more per rule.
func DiagnoseCases() []Case {
	s := newShapes()
	return append(queueCases(s), limitCases(s)...)
}

// one is an input of one curve, randread 4k unless c says otherwise.
func one(target float64, c diagnosis.DiagnoseCurve) diagnosis.DiagnoseInput {
	if c.RW == "" {
		c.RW, c.BS = "randread", k4
	}
	return diagnosis.DiagnoseInput{TargetIOPS: target, Curves: []diagnosis.DiagnoseCurve{c}}
}

// queueCases are the sweeps whose queue is shallower than asked or than
// the device would take.
func queueCases(s shapes) []Case {
	queueNotFull := []diagnosis.Rule{diagnosis.RuleQueueNotFull}
	cpuTop := one(0, diagnosis.DiagnoseCurve{Engine: "libaio", Direct: true, Points: s.CPUTop, Telemetry: s.CPUTel})
	cpuTop.CPUs = 2
	return []Case{
		{"cloud volume short of its target at QD 32",
			one(160000, diagnosis.DiagnoseCurve{Engine: "io_uring", Direct: true, Points: s.Cloud, Telemetry: DeviceLike(s.Cloud, 0.97, 15)}),
			[]diagnosis.Rule{diagnosis.RuleDepthBound}},
		{"rising curve without a target",
			one(0, diagnosis.DiagnoseCurve{Engine: "io_uring", Direct: true, Points: s.Cloud}),
			[]diagnosis.Rule{diagnosis.RuleDepthBound}},
		{"psync ignores iodepth",
			one(0, diagnosis.DiagnoseCurve{Engine: "psync", Synchronous: true, Direct: true, Points: s.Psync, Telemetry: DeviceLike(s.Psync, 1.0/32, 10)}),
			queueNotFull},
		{"libaio without O_DIRECT behaves synchronously",
			one(0, diagnosis.DiagnoseCurve{RW: "randwrite", BS: k4, Engine: "libaio", Points: s.Buffered}),
			queueNotFull},
		{"a limit stopped jobs: the engine's shortfall says so, not 'behaved synchronously'",
			one(0, diagnosis.DiagnoseCurve{Engine: "io_uring", Direct: true, Points: s.Limited}),
			queueNotFull},
		{"CPU-bound jobs: the engine's shortfall says so",
			one(0, diagnosis.DiagnoseCurve{Engine: "io_uring", Direct: true, Points: s.CPUShort}),
			queueNotFull},
		{"nr_requests caps the device queue",
			one(0, diagnosis.DiagnoseCurve{Engine: "io_uring", Direct: true, NrRequests: 64, HWQueues: 1, Points: s.TagLimited, Telemetry: s.TagTel}),
			queueNotFull},
		{"one submitting core tops out", cpuTop, []diagnosis.Rule{diagnosis.RuleQueueNotFull, diagnosis.RuleCPUBound}},
	}
}

// limitCases are the sweeps that reach what serves them (a cache, the
// device, its cap) or that say too little to tell.
func limitCases(s shapes) []Case {
	deviceCap := []diagnosis.Rule{diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap}
	return []Case{
		{"page cache serves buffered reads",
			one(0, diagnosis.DiagnoseCurve{Engine: "io_uring", Points: s.PageCache, Telemetry: s.PCTel}),
			[]diagnosis.Rule{diagnosis.RuleCache}},
		{"tmpfs target",
			one(0, diagnosis.DiagnoseCurve{Engine: "io_uring", Direct: true, NoDevice: "/dev/shm/x is on tmpfs: no block device", Points: s.NVMe}),
			[]diagnosis.Rule{diagnosis.RuleCache}},
		// device-cap already says the device saturated: no healthy beside it.
		{"provisioned IOPS cap",
			one(40000, diagnosis.DiagnoseCurve{Engine: "io_uring", Direct: true, Points: s.Capped, Telemetry: DeviceLike(s.Capped, 0.98, 12)}),
			[]diagnosis.Rule{diagnosis.RuleDeviceCap}},
		{"local device saturating smoothly",
			one(0, diagnosis.DiagnoseCurve{Engine: "io_uring", Direct: true, Points: s.NVMe, Telemetry: DeviceLike(s.NVMe, 0.95, 40)}),
			[]diagnosis.Rule{diagnosis.RuleHealthy}},
		{"still climbing with latency growth",
			one(0, diagnosis.DiagnoseCurve{Engine: "io_uring", Direct: true, Points: s.Climbing}),
			[]diagnosis.Rule{diagnosis.RuleInconclusive}},
		{"no measured steps",
			diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{RW: "read"}}},
			[]diagnosis.Rule{diagnosis.RuleInconclusive}},
		{"IOPS cap across block sizes",
			diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{
				{RW: "randread", BS: k4, Direct: true, Points: CurveOf(256, k4, Throttled(1e6, 25000), nil)},
				{RW: "randread", BS: k64, Direct: true, Points: CurveOf(256, k64, Throttled(1.2e6, 25000), nil)},
			}},
			deviceCap},
		{"throughput cap across block sizes",
			diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{
				{RW: "read", BS: 16384, Direct: true, Points: CurveOf(256, 16384, Throttled(1e6, 15000), nil)},
				{RW: "read", BS: k64, Direct: true, Points: CurveOf(256, k64, Throttled(1.2e6, 3750), nil)},
			}},
			deviceCap},
	}
}

// SharedCase is a curve whose device served other I/O beside the sweep,
// or only looked as if it had, with the rules it must find and whether a
// shared-device fact is among their evidence.
type SharedCase struct {
	Name      string
	Points    []littleslaw.Point
	Telemetry []diagnosis.StepTelemetry
	Rules     []diagnosis.Rule
	Shared    bool
}

// SharedDeviceCases are randread 4k curves on a shared device, and one
// whose requests the block layer split.
func SharedDeviceCases() []SharedCase {
	climbing := CurveOf(64, k4, Throttled(600e3, 1e9), nil)
	saturating := CurveOf(128, k4, func(qd float64) (float64, float64) {
		x := 400000 * qd / (qd + 8)
		return x, qd / x * 1e9
	}, nil)
	other := func(pts []littleslaw.Point) []diagnosis.StepTelemetry {
		tel := DeviceLike(pts, 0.97, 10)
		for i := range tel {
			tel[i].DeviceIOPS += 75000
			tel[i].DeviceBWBytes += 75000 * k4
		}
		return tel
	}
	// A 1 MiB read the block layer splits in two: twice the requests,
	// the same bytes, no other I/O.
	split := CurveOf(128, 1<<20, func(qd float64) (float64, float64) {
		x := 1200 * qd / (qd + 1)
		return x, qd / x * 1e9
	}, nil)
	splitTel := DeviceLike(split, 0.97, 10)
	for i := range splitTel {
		splitTel[i].DeviceIOPS *= 2
	}
	return []SharedCase{
		{"rising curve", climbing, other(climbing), []diagnosis.Rule{diagnosis.RuleDepthBound}, true},
		{"saturating curve", saturating, other(saturating), []diagnosis.Rule{diagnosis.RuleContended}, true},
		{"split requests are not other I/O", split, splitTel, []diagnosis.Rule{diagnosis.RuleDeviceCap}, false},
	}
}

// Input is the case's curve as the diagnosis reads it: randread 4k, direct.
func (c SharedCase) Input() diagnosis.DiagnoseInput {
	return diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
		RW: "randread", BS: k4, Direct: true, Points: c.Points, Telemetry: c.Telemetry,
	}}}
}
