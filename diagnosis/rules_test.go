package diagnosis_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/internal/curvetest"
	"github.com/qdsweep/qdsweep/littleslaw"
)

func TestDiagnose(t *testing.T) {
	const k4, k64 = 4096, 65536
	cloud := curvetest.CurveOf(32, k4, curvetest.Throttled(1.3e6, 1e9), nil) // 1.3 ms, no cap within QD 32
	capped := curvetest.CurveOf(256, k4, curvetest.Throttled(1e6, 25000), nil)
	psync := curvetest.CurveOf(32, k4, func(float64) (float64, float64) { return 5000, 200e3 }, func(float64) float64 { return 1 })
	buffered := curvetest.CurveOf(32, k4, func(float64) (float64, float64) { return 5200, 190e3 }, func(float64) float64 { return 1 })
	// Jobs that fell short for a measured cause (the engine's shortfall).
	limited := curvetest.CurveOf(32, k4, func(float64) (float64, float64) { return 5200, 190e3 }, func(float64) float64 { return 1 })
	cpuShort := curvetest.CurveOf(32, k4, func(float64) (float64, float64) { return 5200, 190e3 }, func(float64) float64 { return 1 })
	for i := range limited {
		limited[i].Shortfall, cpuShort[i].Shortfall = diagnosis.ShortfallLimit, diagnosis.ShortfallCPU
	}
	tagLimited := curvetest.CurveOf(1024, k4, curvetest.Throttled(100e3, 1e9), nil)
	for i := range tagLimited {
		if tagLimited[i].QD > 64 { // requests beyond 64 wait for a tag above the device
			tagLimited[i].IOPS = 64 / 100e-6 * 0.98
			tagLimited[i].LatMeanNs = tagLimited[i].QD / tagLimited[i].IOPS * 1e9
		}
	}
	tagTel := curvetest.DeviceLike(tagLimited, 0.97, 20)
	for i := range tagTel {
		tagTel[i].AquSz = math.Min(tagLimited[i].QD, 64) * 0.97
	}
	cpuTop := curvetest.CurveOf(64, k4, func(qd float64) (float64, float64) {
		x := math.Min(qd/20e-6, 150000) // a 20 µs device, one core submits 150k IOPS
		return x, qd / x * 1e9
	}, nil)
	cpuTel := curvetest.DeviceLike(cpuTop, 0.3, 99)
	pageCache := curvetest.CurveOf(16, k4, func(qd float64) (float64, float64) { return 400000 * math.Min(qd, 2) / 2, 2.5e3 * qd / math.Min(qd, 2) }, nil)
	pcTel := curvetest.DeviceLike(pageCache, 0.5, 60)
	for i := range pcTel {
		pcTel[i].DeviceIOPS, pcTel[i].DeviceBWBytes = 120, 120*k4
	}
	nvme := curvetest.CurveOf(128, k4, func(qd float64) (float64, float64) {
		x := 400000 * qd / (qd + 8) // κ = 0 USL: smooth approach to 400k
		return x, qd / x * 1e9
	}, nil)
	climbing := curvetest.CurveOf(16, k4, func(qd float64) (float64, float64) {
		x := 10000 * math.Pow(qd, 0.8)
		return x, qd / x * 1e9
	}, nil)

	tests := []struct {
		name        string
		in          diagnosis.DiagnoseInput
		wantRules   []diagnosis.Rule
		wantReasons []diagnosis.Reason
	}{
		{
			name: "cloud volume short of its target at QD 32",
			in: diagnosis.DiagnoseInput{TargetIOPS: 160000, Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true,
				Points: cloud, Telemetry: curvetest.DeviceLike(cloud, 0.97, 15),
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleDepthBound},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonBelowTarget},
		},
		{
			name: "rising curve without a target",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, Points: cloud,
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleDepthBound},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonRising},
		},
		{
			name: "psync ignores iodepth",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "psync", Synchronous: true, Direct: true,
				Points: psync, Telemetry: curvetest.DeviceLike(psync, 1.0/32, 10),
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleQueueNotFull},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonSyncEngine},
		},
		{
			name: "libaio without direct=1 behaves synchronously",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randwrite", BS: k4, Engine: "libaio", Direct: false, Points: buffered,
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleQueueNotFull},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonBehavedSync},
		},
		{
			name: "a limit stopped jobs: the engine's shortfall says so, not 'behaved synchronously'",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, Points: limited,
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleQueueNotFull},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonJobsLimited},
		},
		{
			name: "CPU-bound jobs: the engine's shortfall says so",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, Points: cpuShort,
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleQueueNotFull},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonJobsCPU},
		},
		{
			name: "nr_requests caps the device queue",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, NrRequests: 64, HWQueues: 1,
				Points: tagLimited, Telemetry: tagTel,
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleQueueNotFull},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonNrRequests},
		},
		{
			name: "one submitting core tops out",
			in: diagnosis.DiagnoseInput{CPUs: 2, Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "libaio", Direct: true, Points: cpuTop, Telemetry: cpuTel,
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleQueueNotFull, diagnosis.RuleCPUBound},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonSubmitterCPU, diagnosis.ReasonSelfCPU},
		},
		{
			name: "page cache serves buffered reads",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: false, Points: pageCache, Telemetry: pcTel,
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleCache},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonPageCache},
		},
		{
			name: "tmpfs target",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, NoDevice: "/dev/shm/x is on tmpfs: no block device",
				Points: nvme,
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleCache},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonNoDevice},
		},
		{
			name: "provisioned IOPS cap",
			in: diagnosis.DiagnoseInput{TargetIOPS: 40000, Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true,
				Points: capped, Telemetry: curvetest.DeviceLike(capped, 0.98, 12),
			}}},
			// device-cap already says the device saturated: no healthy beside it.
			wantRules:   []diagnosis.Rule{diagnosis.RuleDeviceCap},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonPlateau},
		},
		{
			name: "local device saturating smoothly",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, Points: nvme, Telemetry: curvetest.DeviceLike(nvme, 0.95, 40),
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleHealthy},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonSaturated},
		},
		{
			name: "still climbing with latency growth",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, Points: climbing,
			}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleInconclusive},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonNotFlat},
		},
		{
			name:        "no measured steps",
			in:          diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{RW: "read"}}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleInconclusive},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonNoSteps},
		},
		{
			name: "IOPS cap across block sizes",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{
				{RW: "randread", BS: k4, Direct: true, Points: curvetest.CurveOf(256, k4, curvetest.Throttled(1e6, 25000), nil)},
				{RW: "randread", BS: k64, Direct: true, Points: curvetest.CurveOf(256, k64, curvetest.Throttled(1.2e6, 25000), nil)},
			}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonPlateau, diagnosis.ReasonPlateau, diagnosis.ReasonIOPSCap},
		},
		{
			name: "throughput cap across block sizes",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{
				{RW: "read", BS: 16384, Direct: true, Points: curvetest.CurveOf(256, 16384, curvetest.Throttled(1e6, 15000), nil)},
				{RW: "read", BS: k64, Direct: true, Points: curvetest.CurveOf(256, k64, curvetest.Throttled(1.2e6, 3750), nil)},
			}},
			wantRules:   []diagnosis.Rule{diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap},
			wantReasons: []diagnosis.Reason{diagnosis.ReasonPlateau, diagnosis.ReasonPlateau, diagnosis.ReasonThroughputCap},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := diagnosis.Diagnose(tc.in)
			var rules []diagnosis.Rule
			var reasons []diagnosis.Reason
			for _, f := range got {
				rules = append(rules, f.Rule)
				reasons = append(reasons, f.Reason)
				if len(f.Facts) == 0 {
					t.Errorf("finding %q has no facts: %+v", f.Rule, f)
				}
			}
			if !reflect.DeepEqual(rules, tc.wantRules) || !reflect.DeepEqual(reasons, tc.wantReasons) {
				t.Errorf("rules %v %v, want %v %v", rules, reasons, tc.wantRules, tc.wantReasons)
			}
		})
	}
}

// TestDiagnoseFigures pins the numbers the depth-bound next step quotes:
// 160k IOPS at 1.33 ms needs QD 213, one job of iodepth 213.
func TestDiagnoseFigures(t *testing.T) {
	cloud := curvetest.CurveOf(32, 4096, curvetest.Throttled(1.3e6, 1e9), nil)
	got := diagnosis.Diagnose(diagnosis.DiagnoseInput{TargetIOPS: 160000, Curves: []diagnosis.DiagnoseCurve{{
		RW: "randread", BS: 4096, Engine: "io_uring", Direct: true, Points: cloud,
	}}})
	if len(got) != 1 {
		t.Fatalf("%d findings, want 1", len(got))
	}
	g := got[0].Figures
	if g.ToQD != 213 || g.IODepth != 213 || g.NumJobs != 1 || g.TargetIOPS != 160000 || g.QD != 32 {
		t.Errorf("figures %+v, want QD 32, target 160000, depth 213 = 213 × 1", g)
	}
	if got[0].RW != "randread" || got[0].BS != 4096 {
		t.Errorf("curve %s %d, want randread 4096", got[0].RW, got[0].BS)
	}
}

// TestDiagnoseTolerates checks inputs a damaged results file can hold: it
// must not panic and must say something.
func TestDiagnoseTolerates(t *testing.T) {
	pts := []littleslaw.Point{
		{QD: 4, IOPS: 100, LatMeanNs: 40e6},
		{QD: 0, IOPS: 50, LatMeanNs: 1},
		{QD: 1, IOPS: math.NaN(), LatMeanNs: 1e6},
		{QD: 2, IOPS: 80, LatMeanNs: 25e6},
	}
	got := diagnosis.Diagnose(diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{
		{Points: pts, Telemetry: []diagnosis.StepTelemetry{{DeviceKnown: true}}},
	}})
	if len(got) == 0 {
		t.Fatal("no finding")
	}
}

// TestDiagnoseSharedDevice: the device served far more I/O than the sweep,
// so the findings say the figures are contended; a healthy curve on a
// shared device is called contended, not healthy.
func TestDiagnoseSharedDevice(t *testing.T) {
	climbing := curvetest.CurveOf(64, 4096, curvetest.Throttled(600e3, 1e9), nil)
	saturating := curvetest.CurveOf(128, 4096, func(qd float64) (float64, float64) {
		x := 400000 * qd / (qd + 8)
		return x, qd / x * 1e9
	}, nil)
	other := func(pts []littleslaw.Point) []diagnosis.StepTelemetry {
		tel := curvetest.DeviceLike(pts, 0.97, 10)
		for i := range tel {
			tel[i].DeviceIOPS += 75000
			tel[i].DeviceBWBytes += 75000 * 4096
		}
		return tel
	}
	// A 1 MiB read the block layer splits in two: twice the requests,
	// the same bytes, no other I/O.
	split := curvetest.CurveOf(128, 1<<20, func(qd float64) (float64, float64) {
		x := 1200 * qd / (qd + 1)
		return x, qd / x * 1e9
	}, nil)
	splitTel := curvetest.DeviceLike(split, 0.97, 10)
	for i := range splitTel {
		splitTel[i].DeviceIOPS *= 2
	}
	tests := []struct {
		name   string
		pts    []littleslaw.Point
		tel    []diagnosis.StepTelemetry
		rules  []diagnosis.Rule
		shared bool // a shared-device fact is among the evidence
	}{
		{"rising curve", climbing, other(climbing), []diagnosis.Rule{diagnosis.RuleDepthBound}, true},
		{"saturating curve", saturating, other(saturating), []diagnosis.Rule{diagnosis.RuleContended}, true},
		{"split requests are not other I/O", split, splitTel, []diagnosis.Rule{diagnosis.RuleDeviceCap}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := diagnosis.Diagnose(diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: 4096, Direct: true, Points: tt.pts, Telemetry: tt.tel,
			}}})
			var rules []diagnosis.Rule
			shared := false
			for _, f := range got {
				rules = append(rules, f.Rule)
				for _, x := range f.Facts {
					shared = shared || x.Kind == diagnosis.FactSharedBytes || x.Kind == diagnosis.FactSharedIOPS
				}
			}
			if !reflect.DeepEqual(rules, tt.rules) || shared != tt.shared {
				t.Errorf("rules %v, shared %v; want %v, %v: %+v", rules, shared, tt.rules, tt.shared, got)
			}
		})
	}
}

// FuzzDiagnose feeds the rules arbitrary figures, as a damaged or hostile
// results file could hold: no panic, and every curve gets a finding.
func FuzzDiagnose(f *testing.F) {
	f.Add(1.0, 1000.0, 1e6, 32.0, 25000.0, 1.3e6, 0.5, 99.0, 0.0, true)
	f.Add(4.0, 0.0, math.NaN(), -1.0, math.Inf(1), 0.0, 0.0, 0.0, 1e6, false)
	f.Fuzz(func(t *testing.T, q1, x1, r1, q2, x2, r2, aqu, self, target float64, direct bool) {
		pts := []littleslaw.Point{
			{QD: q1, IODepth: int(math.Min(math.Abs(q1), 1e6)), NumJobs: 1, IOPS: x1, BWBytes: x1 * 4096, LatMeanNs: r1},
			{QD: q2, IODepth: int(math.Min(math.Abs(q2), 1e6)), NumJobs: 1, IOPS: x2, BWBytes: x2 * 4096, LatMeanNs: r2},
			{QD: q2 * 2, NumJobs: 0, IOPS: x2, LatMeanNs: r2 * 2},
		}
		tel := []diagnosis.StepTelemetry{{DeviceKnown: true, DeviceIOPS: x1 / 2, AquSz: aqu, CPUKnown: true, SelfCPUPct: self}}
		got := diagnosis.Diagnose(diagnosis.DiagnoseInput{TargetIOPS: target, CPUs: 2, Curves: []diagnosis.DiagnoseCurve{
			{RW: "randread", BS: 4096, Direct: direct, Points: pts, Telemetry: tel},
			{RW: "randread", BS: 65536, Direct: direct, Points: pts, NrRequests: 64},
		}})
		if len(got) < 2 {
			t.Errorf("%d findings for two curves", len(got))
		}
	})
}

// TestDiagnoseCPUGrade: SelfCPUPct is percent of one core; the CPU fact
// grades it against the cores the jobs could use.
func TestDiagnoseCPUGrade(t *testing.T) {
	tests := []struct {
		name      string
		jobs, cpu int
		self      float64 // percent of one core
		hostBusy  float64
		rule      diagnosis.Rule
		want      diagnosis.Reason
		cores     float64
	}{
		{"one job past one core", 1, 2, 169, 97, diagnosis.RuleCPUBound, diagnosis.CPUSaturated, 1},
		{"four jobs on two CPUs", 4, 2, 190, 50, diagnosis.RuleCPUBound, diagnosis.CPUNearlySaturated, 2},
		{"busy host, idle submitter", 1, 2, 19, 97, diagnosis.RuleCPUBound, diagnosis.CPUNotLimit, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pts []littleslaw.Point
			var tel []diagnosis.StepTelemetry
			for qd := 1; qd <= 64; qd *= 2 {
				x := 100000 * float64(qd) / (float64(qd) + 4)
				pts = append(pts, littleslaw.Point{QD: float64(qd * tt.jobs), IODepth: qd, NumJobs: tt.jobs, IOPS: x, BWBytes: x * 4096,
					LatMeanNs: float64(qd*tt.jobs) / x * 1e9})
				tel = append(tel, diagnosis.StepTelemetry{CPUKnown: true, SelfCPUPct: tt.self, HostBusyPct: tt.hostBusy})
			}
			got := diagnosis.Diagnose(diagnosis.DiagnoseInput{CPUs: tt.cpu, Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: 4096, Engine: "io_uring", Direct: true, Points: pts, Telemetry: tel}}})
			found := false
			for _, f := range got {
				for _, x := range f.Facts {
					if f.Rule == tt.rule && x.Kind == diagnosis.FactCPU {
						found = true
						if x.Reason != tt.want || x.Cores != tt.cores || x.SelfCPUPct != tt.self {
							t.Errorf("cpu fact %+v, want grade %s on %g cores", x, tt.want, tt.cores)
						}
					}
				}
			}
			if !found {
				t.Errorf("no %s finding with a CPU fact: %+v", tt.rule, got)
			}
		})
	}
}
