package report_test

import (
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
	// What the findings of each case (curvetest.DiagnoseCases) say:
	// substrings of their summaries, evidence and next steps.
	words := map[string][]string{
		"cloud volume short of its target at QD 32":                                         {"randread 4k: latency stays near R0", "≈ 213", "iodepth 213 × numjobs 1"},
		"rising curve without a target":                                                     {"extend the sweep past QD 32 (e.g. to 128)"},
		"psync ignores iodepth":                                                             {"psync engine is synchronous", "iodepth 32 adds nothing", "numjobs"},
		"libaio without O_DIRECT behaves synchronously":                                     {"behaved synchronously", "direct=1"},
		"a limit stopped jobs: the engine's shortfall says so, not 'behaved synchronously'": {"some jobs could not start (a system limit refused them)", "raise the limit"},
		"CPU-bound jobs: the engine's shortfall says so":                                    {"CPU-bound (running or waiting for a CPU)", "measure on a quieter machine"},
		"nr_requests caps the device queue":                                                 {"nr_requests 64 × 1 hardware queues", "more jobs"},
		"one submitting core tops out": {"CPU-bound", "use io_uring",
			"qdsweep used 99% of a core with 1 job (one submitting thread, at most one core), so the submitter was nearly saturated (99%)"},
		"page cache serves buffered reads":   {"page cache", "0% of the bytes reached it"},
		"tmpfs target":                       {"no block device", "tmpfs"},
		"provisioned IOPS cap":               {"IOPS flat at 24.5k", "from QD 32", "target 40k IOPS is above the cap", "provisioned"},
		"local device saturating smoothly":   {"randread 4k: the device saturates at QD 128", "121.6 in flight at the device"},
		"still climbing with latency growth": {"extend the sweep past QD 16"},
		"no measured steps":                  {"read: no measured steps", "run the sweep again"},
		"IOPS cap across block sizes":        {"randread: IOPS-bound"},
		"throughput cap across block sizes":  {"read: throughput-bound: MiB/s stays at about 230 MiB/s"},
	}
	for _, tc := range curvetest.DiagnoseCases() {
		t.Run(tc.Name, func(t *testing.T) {
			want, ok := words[tc.Name]
			if !ok {
				t.Fatalf("case %q has no words here", tc.Name)
			}
			got := diagnosis.Diagnose(tc.In)
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
			if !reflect.DeepEqual(rules, tc.Rules) {
				t.Errorf("rules %v, want %v\n%s", rules, tc.Rules, text.String())
			}
			for _, s := range want {
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
	// What the findings of each case (curvetest.SharedDeviceCases) say,
	// and what they must not.
	words := map[string]struct{ want, absent []string }{
		"rising curve": {[]string{"other I/O shared the device", "QD 1: the device moved 299 MiB/s, this sweep 6.4 MiB/s"}, nil},
		"saturating curve": {[]string{"randread 4k: the device saturates at QD", "other I/O shared the device", "measure again"},
			[]string{"healthy"}},
		"split requests are not other I/O": {[]string{"randread 4k: IOPS flat at 1.16k–1.19k"}, []string{"shared", "contended", "healthy"}},
	}
	for _, tt := range curvetest.SharedDeviceCases() {
		t.Run(tt.Name, func(t *testing.T) {
			w, ok := words[tt.Name]
			if !ok {
				t.Fatalf("case %q has no words here", tt.Name)
			}
			got := diagnosis.Diagnose(tt.Input())
			var rules []diagnosis.Rule
			var text strings.Builder
			for _, f := range got {
				rules = append(rules, f.Rule)
				text.WriteString(findingText(f))
			}
			if !reflect.DeepEqual(rules, tt.Rules) {
				t.Errorf("rules %v, want %v\n%s", rules, tt.Rules, text.String())
			}
			for _, s := range w.want {
				if !strings.Contains(text.String(), s) {
					t.Errorf("findings do not say %q:\n%s", s, text.String())
				}
			}
			for _, s := range w.absent {
				if strings.Contains(text.String(), s) {
					t.Errorf("findings say %q:\n%s", s, text.String())
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
