package report_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/internal/curvetest"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
)

// findingText is a finding as report words it: verdict, facts, next step.
func findingText(f diagnosis.Finding) string {
	return report.FindingSummary(f) + "\n" + strings.Join(report.FindingEvidence(f), "\n") + "\n" + report.FindingNext(f) + "\n"
}

// TestDiagnoseWords renders the findings of typical curves and checks
// that the words say what the rules found.
func TestDiagnoseWords(t *testing.T) {
	const k4, k64 = 4096, 65536
	cloud := curvetest.CurveOf(32, k4, curvetest.Throttled(1.3e6, 1e9), nil) // 1.3 ms, no cap within QD 32
	capped := curvetest.CurveOf(256, k4, curvetest.Throttled(1e6, 25000), nil)
	psync := curvetest.CurveOf(32, k4, func(float64) (float64, float64) { return 5000, 200e3 }, func(float64) float64 { return 1 })
	buffered := curvetest.CurveOf(32, k4, func(float64) (float64, float64) { return 5200, 190e3 }, func(float64) float64 { return 1 })
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
		name      string
		in        diagnosis.DiagnoseInput
		wantRules []diagnosis.Rule
		wantIn    []string // substrings of summaries + next steps
	}{
		{
			name: "cloud volume short of its target at QD 32",
			in: diagnosis.DiagnoseInput{TargetIOPS: 160000, Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true,
				Points: cloud, Telemetry: curvetest.DeviceLike(cloud, 0.97, 15),
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleDepthBound},
			wantIn:    []string{"randread 4k: latency stays near R0", "≈ 213", "iodepth 213 × numjobs 1"},
		},
		{
			name: "rising curve without a target",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, Points: cloud,
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleDepthBound},
			wantIn:    []string{"extend the sweep past QD 32 (e.g. to 128)"},
		},
		{
			name: "psync ignores iodepth",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "psync", Synchronous: true, Direct: true,
				Points: psync, Telemetry: curvetest.DeviceLike(psync, 1.0/32, 10),
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleQueueNotFull},
			wantIn:    []string{"psync engine is synchronous", "iodepth 32 adds nothing", "numjobs"},
		},
		{
			name: "libaio without direct=1 behaves synchronously",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randwrite", BS: k4, Engine: "libaio", Direct: false, Points: buffered,
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleQueueNotFull},
			wantIn:    []string{"behaved synchronously", "direct=1"},
		},
		{
			name: "nr_requests caps the device queue",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, NrRequests: 64, HWQueues: 1,
				Points: tagLimited, Telemetry: tagTel,
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleQueueNotFull},
			wantIn:    []string{"nr_requests 64 × 1 hardware queues", "more jobs"},
		},
		{
			name: "one submitting core tops out",
			in: diagnosis.DiagnoseInput{CPUs: 2, Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "libaio", Direct: true, Points: cpuTop, Telemetry: cpuTel,
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleQueueNotFull, diagnosis.RuleCPUBound},
			wantIn: []string{"CPU-bound", "use io_uring",
				"qdsweep used 99% of a core with 1 job (one submitting thread, at most one core), so the submitter was nearly saturated (99%)"},
		},
		{
			name: "page cache serves buffered reads",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: false, Points: pageCache, Telemetry: pcTel,
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleCache},
			wantIn:    []string{"page cache", "0% of the bytes reached it"},
		},
		{
			name: "tmpfs target",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, NoDevice: "/dev/shm/x is on tmpfs: no block device",
				Points: nvme,
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleCache},
			wantIn:    []string{"no block device", "tmpfs"},
		},
		{
			name: "provisioned IOPS cap",
			in: diagnosis.DiagnoseInput{TargetIOPS: 40000, Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true,
				Points: capped, Telemetry: curvetest.DeviceLike(capped, 0.98, 12),
			}}},
			// device-cap already says the device saturated: no healthy beside it.
			wantRules: []diagnosis.Rule{diagnosis.RuleDeviceCap},
			wantIn:    []string{"IOPS flat at 24.5k", "from QD 32", "target 40k IOPS is above the cap", "provisioned"},
		},
		{
			name: "local device saturating smoothly",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, Points: nvme, Telemetry: curvetest.DeviceLike(nvme, 0.95, 40),
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleHealthy},
			wantIn:    []string{"randread 4k: the device saturates at QD 128", "121.6 in flight at the device"},
		},
		{
			name: "still climbing with latency growth",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: k4, Engine: "io_uring", Direct: true, Points: climbing,
			}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleInconclusive},
			wantIn:    []string{"extend the sweep past QD 16"},
		},
		{
			name:      "no measured steps",
			in:        diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{RW: "read"}}},
			wantRules: []diagnosis.Rule{diagnosis.RuleInconclusive},
		},
		{
			name: "IOPS cap across block sizes",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{
				{RW: "randread", BS: k4, Direct: true, Points: curvetest.CurveOf(256, k4, curvetest.Throttled(1e6, 25000), nil)},
				{RW: "randread", BS: k64, Direct: true, Points: curvetest.CurveOf(256, k64, curvetest.Throttled(1.2e6, 25000), nil)},
			}},
			wantRules: []diagnosis.Rule{diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap},
			wantIn:    []string{"randread: IOPS-bound"},
		},
		{
			name: "throughput cap across block sizes",
			in: diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{
				{RW: "read", BS: 16384, Direct: true, Points: curvetest.CurveOf(256, 16384, curvetest.Throttled(1e6, 15000), nil)},
				{RW: "read", BS: k64, Direct: true, Points: curvetest.CurveOf(256, k64, curvetest.Throttled(1.2e6, 3750), nil)},
			}},
			wantRules: []diagnosis.Rule{diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap, diagnosis.RuleDeviceCap},
			wantIn:    []string{"read: throughput-bound: MiB/s stays at about 230 MiB/s"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := diagnosis.Diagnose(tc.in)
			var rules []diagnosis.Rule
			var text strings.Builder
			for _, f := range got {
				rules = append(rules, f.Rule)
				text.WriteString(findingText(f))
				if strings.HasPrefix(report.FindingSummary(f), report.FindingCurveForTest(f)+string(f.Rule)+": ") {
					t.Errorf("summary %q repeats the rule %q", report.FindingSummary(f), f.Rule)
				}
				if report.FindingSummary(f) == "" || report.FindingNext(f) == "" || len(report.FindingEvidence(f)) == 0 {
					t.Errorf("finding %q lacks a summary, evidence or next step: %+v", f.Rule, f)
				}
			}
			if !reflect.DeepEqual(rules, tc.wantRules) {
				t.Errorf("rules %v, want %v\n%s", rules, tc.wantRules, text.String())
			}
			for _, s := range tc.wantIn {
				if !strings.Contains(text.String(), s) {
					t.Errorf("findings do not say %q:\n%s", s, text.String())
				}
			}
		})
	}
}

// TestDiagnoseSharedDeviceWords: the device served far more I/O than the sweep,
// so the findings say the figures are contended; a healthy curve on a
// shared device is called contended, not healthy.
func TestDiagnoseSharedDeviceWords(t *testing.T) {
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
		want   []string
		absent []string
	}{
		{"rising curve", climbing, other(climbing), []diagnosis.Rule{diagnosis.RuleDepthBound},
			[]string{"other I/O shared the device", "QD 1: the device moved 299 MiB/s, this sweep 6.4 MiB/s"}, nil},
		{"saturating curve", saturating, other(saturating), []diagnosis.Rule{diagnosis.RuleContended},
			[]string{"randread 4k: the device saturates at QD", "other I/O shared the device", "measure again"}, []string{"healthy"}},
		{"split requests are not other I/O", split, splitTel, []diagnosis.Rule{diagnosis.RuleDeviceCap},
			[]string{"randread 4k: IOPS flat at 1.16k–1.19k"}, []string{"shared", "contended", "healthy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := diagnosis.Diagnose(diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{{
				RW: "randread", BS: 4096, Direct: true, Points: tt.pts, Telemetry: tt.tel,
			}}})
			var rules []diagnosis.Rule
			var text strings.Builder
			for _, f := range got {
				rules = append(rules, f.Rule)
				text.WriteString(findingText(f))
			}
			if !reflect.DeepEqual(rules, tt.rules) {
				t.Errorf("rules %v, want %v\n%s", rules, tt.rules, text.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(text.String(), w) {
					t.Errorf("findings do not say %q:\n%s", w, text.String())
				}
			}
			for _, w := range tt.absent {
				if strings.Contains(text.String(), w) {
					t.Errorf("findings say %q:\n%s", w, text.String())
				}
			}
		})
	}
}

// TestDiagnoseCPUEvidenceWords: SelfCPUPct is percent of one core; the evidence
// says how many cores that is and how many the jobs could use.
func TestDiagnoseCPUEvidenceWords(t *testing.T) {
	tests := []struct {
		name      string
		jobs, cpu int
		self      float64 // percent of one core
		hostBusy  float64
		rule      diagnosis.Rule
		want      string
	}{
		{"one job past one core", 1, 2, 169, 97, diagnosis.RuleCPUBound,
			"qdsweep used 1.69 cores with 1 job (one submitting thread, at most one core), so the submitter was saturated (CPU beyond that is kernel and runtime work on its behalf)"},
		{"four jobs on two CPUs", 4, 2, 190, 50, diagnosis.RuleCPUBound,
			"qdsweep used 1.90 cores with 4 jobs (one submitting thread each, at most 2 cores: the machine has 2 CPUs), so the submitters were nearly saturated (95%)"},
		{"busy host, idle submitter", 1, 2, 19, 97, diagnosis.RuleCPUBound,
			"qdsweep used 19% of a core with 1 job (one submitting thread, at most one core), so qdsweep's own CPU was not the limit"},
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
			var text strings.Builder
			found := false
			for _, f := range got {
				text.WriteString(string(f.Rule) + ": " + strings.Join(report.FindingEvidence(f), "\n") + "\n")
				if f.Rule == tt.rule {
					found = found || strings.Contains(strings.Join(report.FindingEvidence(f), "\n"), tt.want)
				}
			}
			if !found {
				t.Errorf("no %s finding says %q:\n%s", tt.rule, tt.want, text.String())
			}
		})
	}
}
