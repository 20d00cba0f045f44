package sweep_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// throttledResult is a 4 KiB randread sweep of a volume with base latency
// r0Ns capped at xmax IOPS, QD 1…256, with the device seeing every I/O at
// aqu-sz fill × QD. Every third step is followed by a skipped one.
func throttledResult(engine string, r0Ns, xmax, fill, selfCPU float64) *sweep.Result {
	r := &sweep.Result{Schema: sweep.Schema, Meta: sweep.Meta{Engine: engine, CPUs: 2,
		Device:   &sweep.DeviceInfo{Name: "vdb", NrRequests: 256, HWQueues: 2},
		Workload: sweep.Workload{Direct: true}}}
	r.Plan = sweep.Plan{RW: []string{"randread"}, BS: []int64{4096}}
	for qd := 1; qd <= 256; qd *= 2 {
		x := math.Min(float64(qd)/(r0Ns/1e9), xmax) * 0.98
		lat := float64(qd) / x * 1e9
		s := sweep.Step{RW: "randread", BS: 4096, IODepth: qd, NumJobs: 1, QD: qd, IOPS: x, BWBytes: x * 4096,
			Lat: ioengine.Latency{MeanNs: lat}, InflightMean: float64(qd) * 0.99, RuntimeNs: 1e9,
			Device: &sweep.DeviceStats{ReadsPerSec: x, ReadMBps: x * 4096 / (1 << 20), ReadAwaitMs: lat / 1e6,
				AquSz: fill * float64(qd), UtilPct: 100, RareqSzKB: 4},
			HostCPU: &sweep.HostCPU{UserPct: 5, SystemPct: 10, SelfPct: selfCPU}}
		r.Steps = append(r.Steps, s)
		if qd%8 == 4 {
			r.Steps = append(r.Steps, sweep.Step{RW: "randread", BS: 4096, IODepth: qd * 3, NumJobs: 1, QD: qd * 3, Skipped: "resumed"})
		}
	}
	return r
}

func TestResultDiagnose(t *testing.T) {
	capped := throttledResult("io_uring", 1e6, 25000, 0.97, 12)

	onTmpfs := throttledResult("io_uring", 20e3, 1e6, 0.97, 40)
	onTmpfs.Meta.Device, onTmpfs.Meta.DeviceOff = nil, "/dev/shm/t is on tmpfs: no block device"
	for i := range onTmpfs.Steps {
		onTmpfs.Steps[i].Device = nil
	}

	psync := throttledResult("psync", 200e3, 1e9, 0.97, 10)
	for i := range psync.Steps { // one job: one I/O in flight whatever the iodepth
		s := &psync.Steps[i]
		if s.Skipped == "" {
			s.IOPS, s.BWBytes, s.Lat.MeanNs, s.InflightMean = 4900, 4900*4096, 204e3, 1
			s.Device.ReadsPerSec, s.Device.AquSz = 4900, 0.98
		}
	}

	cpuOnly := throttledResult("libaio", 20e3, 90000, 0.3, 0)
	for i := range cpuOnly.Steps { // no host CPU: the engine's CPU time speaks
		s := &cpuOnly.Steps[i]
		s.HostCPU = nil
		s.CPU = ioengine.CPU{UsrS: 0.3, SysS: 0.68}
	}

	hasFact := func(k diagnosis.FactKind, ok func(diagnosis.Fact) bool) func([]diagnosis.Finding) bool {
		return func(fs []diagnosis.Finding) bool {
			for _, f := range fs {
				for _, x := range f.Facts {
					if x.Kind == k && ok(x) {
						return true
					}
				}
			}
			return false
		}
	}
	tests := []struct {
		name string
		r    *sweep.Result
		o    littleslaw.Options
		want []diagnosis.Rule
		// says checks the numbers the findings carry.
		says func([]diagnosis.Finding) bool
	}{
		{"provisioned cap", capped, littleslaw.Options{}, []diagnosis.Rule{diagnosis.RuleDeviceCap}, func(fs []diagnosis.Finding) bool {
			g := fs[0].Figures
			return fs[0].Reason == diagnosis.ReasonPlateau && fs[0].RW == "randread" && fs[0].BS == 4096 && math.Round(g.ToIOPS/100) == 245
		}},
		{"short of target", capped, littleslaw.Options{TargetIOPS: 50000}, []diagnosis.Rule{diagnosis.RuleDeviceCap},
			hasFact(diagnosis.FactTargetAbove, func(x diagnosis.Fact) bool { return x.TargetIOPS == 50000 })},
		{"tmpfs", onTmpfs, littleslaw.Options{}, []diagnosis.Rule{diagnosis.RuleCache},
			hasFact(diagnosis.FactNoDevice, func(x diagnosis.Fact) bool { return x.Detail == onTmpfs.Meta.DeviceOff })},
		{"psync", psync, littleslaw.Options{}, []diagnosis.Rule{diagnosis.RuleQueueNotFull}, func(fs []diagnosis.Finding) bool {
			return fs[0].Reason == diagnosis.ReasonSyncEngine && fs[0].Figures.Engine == "psync"
		}},
		{"cpu from engine", cpuOnly, littleslaw.Options{}, []diagnosis.Rule{diagnosis.RuleQueueNotFull, diagnosis.RuleCPUBound},
			hasFact(diagnosis.FactCPU, func(x diagnosis.Fact) bool { return math.Round(x.SelfCPUPct) == 98 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.r.Diagnose(tc.o)
			var rules []diagnosis.Rule
			for _, f := range got {
				rules = append(rules, f.Rule)
			}
			if !reflect.DeepEqual(rules, tc.want) {
				t.Fatalf("rules %v, want %v\n%+v", rules, tc.want, got)
			}
			if !tc.says(got) {
				t.Errorf("findings lack the expected figures: %+v", got)
			}
		})
	}
}

// TestDiagnoseCPUThroughFio: a step that ran through fio states fio's CPU
// (its usr_cpu + sys_cpu), the process that did the I/O, never qdsweep's,
// which only waited on fio (0 % of a core, on a host 95 % busy); without
// fio's CPU figures no CPU fact is stated.
func TestDiagnoseCPUThroughFio(t *testing.T) {
	r := throttledResult(ioengine.EngineFio, 20e3, 90000, 0.3, 0)
	for i := range r.Steps {
		if s := &r.Steps[i]; s.Skipped == "" {
			s.HostCPU = &sweep.HostCPU{UserPct: 40, SystemPct: 55, SelfPct: 0}
			s.CPU = ioengine.CPU{UsrS: 0.3, SysS: 0.68} // fio's usr_cpu 30 %, sys_cpu 68 % over 1 s
		}
	}
	n := 0
	for _, f := range r.Diagnose(littleslaw.Options{}) {
		for _, x := range f.Facts {
			if x.Kind != diagnosis.FactCPU {
				continue
			}
			n++
			if !x.CPUOfFio || math.Round(x.SelfCPUPct) != 98 {
				t.Errorf("CPU fact %+v: want fio's 98 %% of a core", x)
			}
			for _, e := range report.FindingEvidence(f) {
				if strings.Contains(e, "qdsweep used") {
					t.Errorf("through fio, the evidence says %q", e)
				}
			}
		}
	}
	if n == 0 {
		t.Fatalf("no CPU fact on a host 95 %% busy with fio at 98 %% of a core")
	}
	for i := range r.Steps {
		r.Steps[i].CPU = ioengine.CPU{}
	}
	for _, f := range r.Diagnose(littleslaw.Options{}) {
		for _, x := range f.Facts {
			if x.Kind == diagnosis.FactCPU {
				t.Errorf("a CPU fact without fio's CPU figures: %+v", x)
			}
		}
	}
}

// TestDeepestCountsMeasuredAndAnalysed: whatever steps a sweep's analysis
// leaves out (a deeper level that did not last, steps on credits) and
// whatever it skipped, the diagnosis's step count names the steps it
// analysed and, when some measured ones were left out, how many were
// measured: the fact's figures add up to the measured steps and its
// sentence quotes both.
func TestDeepestCountsMeasuredAndAnalysed(t *testing.T) {
	for n := 3; n <= 9; n++ {
		for out := 0; out < n-1; out++ {
			r := &sweep.Result{Schema: sweep.Schema, Meta: sweep.Meta{Engine: "io_uring", CPUs: 2, Workload: sweep.Workload{Direct: true}}}
			r.Plan = sweep.Plan{RW: []string{"randread"}, BS: []int64{4096}}
			for i := range n {
				qd := 1 << i
				x := 1000 * math.Pow(1.3, float64(i)) // latency climbs, IOPS too: no knee, no plateau
				s := sweep.Step{RW: "randread", BS: 4096, IODepth: qd, NumJobs: 1, QD: qd, IOPS: x, BWBytes: x * 4096,
					Lat: ioengine.Latency{MeanNs: float64(qd) / x * 1e9}, InflightMean: float64(qd), RuntimeNs: 1e9}
				if i >= n-out {
					s.Time = &diagnosis.StepTime{AboveControl: i%2 == 0}
					if i%2 == 1 {
						s.Time.OnCreditsSec = 5
					}
				}
				r.Steps = append(r.Steps, s)
				if i == 1 {
					r.Steps = append(r.Steps, sweep.Step{RW: "randread", BS: 4096, IODepth: 3, NumJobs: 1, QD: 3, Skipped: "resumed"})
				}
			}
			var deepest *diagnosis.Fact
			for _, f := range r.Diagnose(littleslaw.Options{}) {
				for i, x := range f.Facts {
					if x.Kind == diagnosis.FactDeepest {
						deepest = &f.Facts[i]
					}
				}
			}
			if deepest == nil {
				t.Fatalf("%d steps, %d left out: no deepest-step fact", n, out)
			}
			if deepest.Count != n-out || deepest.Count+deepest.LeftOut != n {
				t.Errorf("%d measured, %d left out: fact counts %d analysed and %d left out", n, out, deepest.Count, deepest.LeftOut)
			}
			text := report.FindingEvidence(diagnosis.Finding{Facts: []diagnosis.Fact{*deepest}})[0]
			want := fmt.Sprintf("%d measured steps;", n)
			if out > 0 {
				want = fmt.Sprintf("%d steps analysed of %d measured;", n-out, n)
			}
			if !strings.HasPrefix(text, want) {
				t.Errorf("%d measured, %d left out: %q, want it to begin %q", n, out, text, want)
			}
		}
	}
}
