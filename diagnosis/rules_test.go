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
	// The reasons of each rule found, by case (curvetest.DiagnoseCases).
	reasons := map[string][]diagnosis.Reason{
		"cloud volume short of its target at QD 32":                                         {diagnosis.ReasonBelowTarget},
		"rising curve without a target":                                                     {diagnosis.ReasonRising},
		"psync ignores iodepth":                                                             {diagnosis.ReasonSyncEngine},
		"libaio without O_DIRECT behaves synchronously":                                     {diagnosis.ReasonBehavedSync},
		"a limit stopped jobs: the engine's shortfall says so, not 'behaved synchronously'": {diagnosis.ReasonJobsLimited},
		"CPU-bound jobs: the engine's shortfall says so":                                    {diagnosis.ReasonJobsCPU},
		"nr_requests caps the device queue":                                                 {diagnosis.ReasonNrRequests},
		"one submitting core tops out":                                                      {diagnosis.ReasonSubmitterCPU, diagnosis.ReasonSelfCPU},
		"page cache serves buffered reads":                                                  {diagnosis.ReasonPageCache},
		"tmpfs target":                                                                      {diagnosis.ReasonNoDevice},
		"provisioned IOPS cap":                                                              {diagnosis.ReasonPlateau},
		"local device saturating smoothly":                                                  {diagnosis.ReasonSaturated},
		"still climbing with latency growth":                                                {diagnosis.ReasonNotFlat},
		"no measured steps":                                                                 {diagnosis.ReasonNoSteps},
		"IOPS cap across block sizes":                                                       {diagnosis.ReasonPlateau, diagnosis.ReasonPlateau, diagnosis.ReasonIOPSCap},
		"throughput cap across block sizes":                                                 {diagnosis.ReasonPlateau, diagnosis.ReasonPlateau, diagnosis.ReasonThroughputCap},
	}
	for _, tc := range curvetest.DiagnoseCases() {
		t.Run(tc.Name, func(t *testing.T) {
			want, ok := reasons[tc.Name]
			if !ok {
				t.Fatalf("case %q has no reasons here", tc.Name)
			}
			got := diagnosis.Diagnose(tc.In)
			var rules []diagnosis.Rule
			var found []diagnosis.Reason
			for _, f := range got {
				rules = append(rules, f.Rule)
				found = append(found, f.Reason)
				if len(f.Facts) == 0 {
					t.Errorf("finding %q has no facts: %+v", f.Rule, f)
				}
			}
			if !reflect.DeepEqual(rules, tc.Rules) || !reflect.DeepEqual(found, want) {
				t.Errorf("rules %v %v, want %v %v", rules, found, tc.Rules, want)
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
	for _, tt := range curvetest.SharedDeviceCases() {
		t.Run(tt.Name, func(t *testing.T) {
			got := diagnosis.Diagnose(tt.Input())
			var rules []diagnosis.Rule
			shared := false
			for _, f := range got {
				rules = append(rules, f.Rule)
				for _, x := range f.Facts {
					shared = shared || x.Kind == diagnosis.FactSharedBytes || x.Kind == diagnosis.FactSharedIOPS
				}
			}
			if !reflect.DeepEqual(rules, tt.Rules) || shared != tt.Shared {
				t.Errorf("rules %v, shared %v; want %v, %v: %+v", rules, shared, tt.Rules, tt.Shared, got)
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
