package report_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

func TestTable(t *testing.T) {
	slo, err := littleslaw.ParseSLO("p99=5ms")
	if err != nil {
		t.Fatal(err)
	}
	goals := littleslaw.Options{TargetIOPS: 160000, SLO: &slo}
	tests := []struct {
		name    string
		r       func() *sweep.Result
		o       report.Options
		want    []string
		notWant []string
		maxCols int // 0: no limit
	}{
		{
			name:    "one curve with target and SLO",
			r:       func() *sweep.Result { return oneCurve(goals) },
			o:       report.Options{TargetIOPS: 160000, SLO: &slo},
			want:    []string{"depth×jobs", "lat mean", "in-flight", "Saturates at", "QD 128", "For 160,000 IOPS", "p99 ≤ 5 ms", "/dev/nvme0n2", "engine io_uring"},
			notWant: []string{"SIMULATED", "r_await"},
			maxCols: 80,
		},
		{
			name: "simulated",
			r: func() *sweep.Result {
				return fixture(true, littleslaw.Options{}, curveSpec{rw: "randread", bs: 4096, xmax: 50000, k: 4, depths: pow2to256})
			},
			want:    []string{"SIMULATED", "engine sim"},
			maxCols: 80,
		},
		{
			name: "skipped and failed steps",
			r: func() *sweep.Result {
				r := oneCurve(littleslaw.Options{})
				r.Steps = append(r.Steps,
					sweep.Step{RW: "randread", BS: 4096, IODepth: 512, NumJobs: 1, QD: 512, Skipped: "early stop"},
					sweep.Step{RW: "randread", BS: 4096, IODepth: 1024, NumJobs: 1, QD: 1024, Failed: "EIO at offset 4096"})
				return r
			},
			want:    []string{"skipped: early stop", "failed: EIO at offset 4096"},
			maxCols: 80,
		},
		{
			name: "device stats",
			r:    func() *sweep.Result { return oneCurve(littleslaw.Options{}) },
			o:    report.Options{DeviceStats: true},
			want: []string{"r/s", "aqu-sz", "%util", "r_await"},
		},
		{
			name: "diagnosis",
			r: func() *sweep.Result {
				r := oneCurve(littleslaw.Options{})
				r.Diagnosis = []diagnosis.Finding{{Rule: "device-cap", Reason: diagnosis.ReasonPlateau, RW: "randread", BS: 4096,
					Figures: diagnosis.Fact{IOPS: 91000, ToIOPS: 91000, BWBytes: 91000 * 4096, QD: 64},
					Facts:   []diagnosis.Fact{{Kind: diagnosis.FactDeviceQueue, AquSz: 62, QD: 64, UtilPct: 100}}}}
				return r
			},
			want: []string{"Diagnosis (device-cap): IOPS flat at 91k (up to 355 MiB/s) from QD 64 while",
				"- device: aqu-sz 62.0 of QD 64, %util 100", "Next: compare 91k IOPS and 355 MiB/s with the volume"},
		},
		{
			name: "reachable target says so once, with Little's Law beside it",
			r: func() *sweep.Result {
				r := oneCurve(littleslaw.Options{TargetIOPS: 50000})
				r.Diagnosis = []diagnosis.Finding{{Rule: "device-cap", Reason: diagnosis.ReasonPlateau, RW: "randread", BS: 4096,
					Figures: diagnosis.Fact{IOPS: 91000, ToIOPS: 91000, BWBytes: 91000 * 4096, QD: 64},
					Facts: []diagnosis.Fact{{Kind: diagnosis.FactDeviceQueue, AquSz: 62, QD: 64, UtilPct: 100},
						{Kind: diagnosis.FactTargetAbove, TargetIOPS: 50000},
						{Kind: diagnosis.FactNoDevice, Detail: "/dev/shm/x is on tmpfs: no block device"}}}}
				return r
			},
			o:       report.Options{TargetIOPS: 50000},
			want:    []string{"50,000 IOPS needs ", "Reachable.", "Little's Law at R0 = ", "Diagnosis (device-cap): IOPS flat at 91k", "- device: aqu-sz 62.0", "- target: /dev/shm/x is on tmpfs"},
			notWant: []string{"not reachable", "no queue depth reaches", "device cap: IOPS", "randread 4k: device cap"},
			maxCols: 80,
		},
		{
			name: "a fleet's split names its hosts",
			r: func() *sweep.Result {
				r := oneCurve(littleslaw.Options{})
				for i := range r.Steps {
					s := &r.Steps[i]
					s.Hosts = []sweep.HostStep{{Host: "h1"}, {Host: "h2"}}
					s.QD = 2 * s.IODepth * s.NumJobs
				}
				return r
			},
			want:    []string{"hosts×d×j", "2×64×1"},
			notWant: []string{"depth×jobs"},
			maxCols: 80,
		},
		{
			name:    "unreachable target names Little's Law's depth",
			r:       func() *sweep.Result { return oneCurve(littleslaw.Options{TargetIOPS: 300000}) },
			o:       report.Options{TargetIOPS: 300000},
			want:    []string{"For 300,000 IOPS", "Little's Law at R0"},
			notWant: []string{"Reachable."},
			maxCols: 80,
		},
		{
			name:    "several curves",
			r:       func() *sweep.Result { return fourCurves(littleslaw.Options{}, pow2to256) },
			want:    []string{"randread 16k\n", "randwrite 4k\n", "randwrite 16k:\n  Saturates at"},
			maxCols: 80,
		},
		{
			name: "one measured step",
			r: func() *sweep.Result {
				return fixture(false, littleslaw.Options{}, curveSpec{rw: "randread", bs: 4096, xmax: 50000, k: 4, depths: []int{1}})
			},
			want: []string{"Only one measured step"},
		},
		{
			name: "interrupted",
			r: func() *sweep.Result {
				r := oneCurve(littleslaw.Options{})
				r.Interrupted = true
				return r
			},
			want: []string{"Interrupted"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.Table(&buf, tc.r(), tc.o); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("table lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("table has %q:\n%s", w, out)
				}
			}
			if tc.maxCols > 0 {
				for _, l := range strings.Split(out, "\n") {
					if n := utf8.RuneCountInString(l); n > tc.maxCols {
						t.Errorf("line of %d columns > %d: %q", n, tc.maxCols, l)
					}
				}
			}
		})
	}
}

// TestTableRowsMatchSteps checks that every measured step has a row with its
// QD and split, in QD order.
func TestTableRowsMatchSteps(t *testing.T) {
	r := oneCurve(littleslaw.Options{})
	var buf bytes.Buffer
	if err := report.Table(&buf, r, report.Options{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	row := 0
	for _, l := range lines {
		f := strings.Fields(l)
		if _, err := strconv.Atoi(firstField(f)); err == nil && len(f) >= 2 && strings.Contains(f[1], "×") {
			st := r.Steps[row]
			if f[0] != strconv.Itoa(st.QD) || f[1] != strconv.Itoa(st.IODepth)+"×"+strconv.Itoa(st.NumJobs) {
				t.Errorf("row %d = %q, want QD %d split %d×%d", row, l, st.QD, st.IODepth, st.NumJobs)
			}
			row++
		}
	}
	if row != len(r.Steps) {
		t.Errorf("%d rows for %d steps", row, len(r.Steps))
	}
}

// firstField returns f[0], or "" when f is empty.
func firstField(f []string) string {
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// TestLittleGapNamedByCause: a Little's-Law gap is named by its direction:
// more measured in flight than completions account for is I/Os still
// waiting when the window closed (a throttle, a growing queue), not a
// measuring error; only the other direction is.
func TestLittleGapNamedByCause(t *testing.T) {
	a := littleslaw.Analysis{Checks: []littleslaw.StepCheck{
		{QD: 64, MeasuredInflight: 60, EffectiveInflight: 40, Flagged: true, Reason: littleslaw.CheckMismatch},
		{QD: 8, MeasuredInflight: 5, EffectiveInflight: 8, Flagged: true, Reason: littleslaw.CheckMismatch},
	}}
	report.AnnotateAnalysis(&a)
	if n := a.Checks[0].Note; !strings.Contains(n, "still waiting when the window closed") || strings.Contains(n, "measuring error") {
		t.Errorf("more in flight than IOPS × latency: %q", n)
	}
	if n := a.Checks[1].Note; !strings.Contains(n, "measuring error") {
		t.Errorf("less in flight than IOPS × latency: %q", n)
	}
}
