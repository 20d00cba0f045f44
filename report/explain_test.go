package report_test

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
)

// networkDisk is the design's example: 32 deep, one job, 24.1k IOPS at 1.31 ms.
func networkDisk() []fio.Output {
	return []fio.Output{{Format: "json", Jobs: []fio.Job{{
		Name: "nd", RW: "randread", BS: 4096, IOEngine: "libaio", IODepth: 32, IODepthFrom: "options", NumJobs: 1, NumJobsFrom: "default",
		Read: &fio.Dir{IOPS: 24100, BWBytes: 24100 * 4096, TotalIOs: 1446000, RuntimeMs: 60000,
			Lat: fio.LatStat{MeanNs: 1.31e6, MinNs: 1.1e6, N: 1446000}},
	}}}}
}

// oneJobNumjobs1 is a job whose options say numjobs=1 without
// group_reporting: fio reports it once, and it is the whole job.
func oneJobNumjobs1() []fio.Output {
	o := networkDisk()
	o[0].Jobs[0].NumJobsFrom = "one clone of numjobs=1"
	return o
}

func explainText(t *testing.T, outs []fio.Output, o fioadapt.ExplainOptions) (string, []fioadapt.ExplainedJob) {
	t.Helper()
	jobs := fioadapt.ExplainFio(outs, o)
	var b bytes.Buffer
	if err := report.WriteExplain(&b, report.ExplainDoc{Jobs: jobs}); err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(b.String(), "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line %d has %d columns: %q", i+1, n, l)
		}
	}
	return b.String(), jobs
}

func TestExplainFio(t *testing.T) {
	fioData := func(name string) []fio.Output {
		outs, err := fio.ReadOutput(filepath.Join("..", "fio", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return outs
	}
	tests := []struct {
		name    string
		outs    []fio.Output
		target  float64
		jobs    int
		verdict string
		want    []string // phrases of the text, in any order
		not     []string // phrases the text must not hold
	}{
		{name: "design example", outs: networkDisk(), target: 160000, jobs: 1, verdict: littleslaw.VerdictDepthBound,
			want: []string{"24.1k IOPS", "1.31 ms", "31.6 I/Os in flight", "Depth-bound", "24.4k IOPS", "QD ≈ 210", "iodepth 210 × numjobs 1", "or 105 × 2, or 70 × 3, or 42 × 5: the same depth over more jobs"}},
		{name: "libaio 32 deep", outs: fioData("randread-libaio-qd32-normal.txt"), jobs: 1, verdict: littleslaw.VerdictUndetermined,
			want: []string{"87.8k IOPS", "364 µs", "p99 424 µs", "32 configured", "cannot be told from one run", "Sweep it"},
			not:  []string{"Depth-bound:", "Device-bound:"}},
		{name: "psync with iodepth 8", outs: fioData("pasted-psync-qd8-json.txt"), target: 100000, jobs: 1, verdict: littleslaw.VerdictDepthBound,
			want: []string{"psync is synchronous", "iodepth=8 is meaningless", "numjobs = 1", "QD ≈ 5", "with psync it takes numjobs 5"}},
		{name: "status interval keeps the final report", outs: fioData("randread-status-interval.json"), jobs: 1, verdict: littleslaw.VerdictUndetermined,
			want: []string{"35.6k IOPS"}},
		{name: "terse without options", outs: fioData("randread-psync-terse.txt"), jobs: 1, verdict: littleslaw.VerdictDepthBound,
			want: []string{"busiest bucket", "ioengine is not in this output"}},
		{name: "clones listed apart", outs: fioData("randwrite-libaio-nj2-json.json"), target: 20000, jobs: 2, verdict: littleslaw.VerdictDeviceBound,
			want: []string{"one clone of numjobs=2", "group_reporting", "share of 20,000 IOPS over 2 jobs, 10,000 IOPS"}},
		{name: "one job with numjobs=1 is no clone", outs: oneJobNumjobs1(), jobs: 1, verdict: littleslaw.VerdictDepthBound,
			not: []string{"clone", "group_reporting"}},
		{name: "queued run short of its target: Little's Law at its own latency, a floor above its depth", outs: fioData("point-randread-qd8.json"), target: 175000, jobs: 1, verdict: littleslaw.VerdictUndetermined,
			want: []string{"QD ≈ 22 if the volume keeps this run's 122 µs", "(175k × 122 µs)", "iodepth 22 × numjobs 1", "or 11 × 2", "At least 9 in any case: this run's full queue of 8 fell short"},
			not:  []string{"QD ≥", "QD ≈ 8"}},
		{name: "client/server", outs: fioData("clientserver-json.json"), jobs: 3, verdict: littleslaw.VerdictUndetermined,
			want: []string{"on 127.0.0.1:8766", "on 127.0.0.1:8767", "Job \"All clients\" (randread", "iodepth 4 × numjobs 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, jobs := explainText(t, tt.outs, fioadapt.ExplainOptions{TargetIOPS: tt.target})
			for _, bad := range tt.not {
				if strings.Contains(strings.Join(strings.Fields(text), " "), bad) {
					t.Errorf("text says %q:\n%s", bad, text)
				}
			}
			if len(jobs) != tt.jobs {
				t.Fatalf("%d jobs, want %d\n%s", len(jobs), tt.jobs, text)
			}
			if v := jobs[0].Explanation.Verdict; v != tt.verdict {
				t.Errorf("verdict %s, want %s\n%s", v, tt.verdict, text)
			}
			flat := strings.Join(strings.Fields(text), " ")
			for _, w := range tt.want {
				if !strings.Contains(flat, w) {
					t.Errorf("text lacks %q:\n%s", w, text)
				}
			}
			var b bytes.Buffer
			if err := report.WriteExplainJSON(&b, report.ExplainDoc{Jobs: jobs}); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Schema string                  `json:"schema"`
				Jobs   []fioadapt.ExplainedJob `json:"jobs"`
			}
			if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.Schema != report.ExplainSchema || len(doc.Jobs) != tt.jobs {
				t.Errorf("JSON %v schema %q jobs %d", err, doc.Schema, len(doc.Jobs))
			}
		})
	}
}

// examples/fio's four runs of one disk: alone, QD 64 is device-bound (its
// typical I/O waited), and a target above it is likely beyond the device
// (one run shows no ceiling, so no more is claimed); together they are a
// curve, and a run is device-bound only when no deeper run gained beyond
// the knee's 5%: QD 16 is not (QD 64 gave 18% more), QD 64 is.
func TestExplainExampleRuns(t *testing.T) {
	var all []fio.Output
	for _, n := range []string{"fio-qd1.json", "fio-qd4.json", "fio-qd16.json", "fio-qd64.json"} {
		outs, err := fio.ReadOutput(filepath.Join("..", "examples", "fio", n))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, outs...)
	}
	text, jobs := explainText(t, all[3:], fioadapt.ExplainOptions{TargetIOPS: 160000})
	if len(jobs) != 1 || jobs[0].Explanation.Verdict != littleslaw.VerdictDeviceBound || !strings.Contains(text, "likely beyond this device") ||
		strings.Contains(text, "not reachable") {
		t.Errorf("QD 64 alone:\n%s", text)
	}
	text, jobs = explainText(t, all, fioadapt.ExplainOptions{TargetIOPS: 60000})
	if len(jobs) != 4 {
		t.Fatalf("%d jobs", len(jobs))
	}
	if v := jobs[2].Explanation; v.Verdict != littleslaw.VerdictDepthBound || v.Evidence[0].Kind != littleslaw.EvidenceDeeperGain ||
		v.Evidence[0].OtherQD != 64 {
		t.Errorf("QD 16, which QD 64 beat by 18%%: %+v\n%s", v, text)
	}
	if v := jobs[3].Explanation; v.Verdict != littleslaw.VerdictDeviceBound || v.Evidence[0].Kind != littleslaw.EvidenceCurve {
		t.Errorf("QD 64 in the curve: %+v", v)
	}
	// 60k lies between QD 4 (51.5k) and 16 (80.4k): read off the curve,
	// Little-exact.
	tg := jobs[0].Explanation.Target
	if tg == nil || tg.LatFrom != littleslaw.ExplainLatCurve || tg.QDCeil <= 4 || tg.QDCeil >= 16 ||
		math.Abs(littleslaw.QueueDepth(tg.TargetIOPS, tg.LatencyNs)-tg.QD) > 1e-9 {
		t.Errorf("60k on the curve: %+v", tg)
	}
}

// A 1 MiB sequential read 16 deep (measured here with fio 3.33) is not
// depth-bound: its I/Os waited.
func TestExplainSequential1M(t *testing.T) {
	outs, err := fio.ReadOutput(filepath.Join("testdata", "explain-read-1m-qd16.json"))
	if err != nil {
		t.Fatal(err)
	}
	text, jobs := explainText(t, outs, fioadapt.ExplainOptions{})
	if len(jobs) != 1 || jobs[0].Explanation.Verdict == littleslaw.VerdictDepthBound {
		t.Errorf("1 MiB sequential:\n%s", text)
	}
}

// A run whose verdict one run cannot settle never asks for what it was
// given: with --base-latency (1.31 ms against 850 µs, 1.54×, between the
// thresholds) it names that ratio, not "no unqueued latency", and does not
// ask for --base-latency again.
func TestExplainUndeterminedNamesOnlyWhatIsMissing(t *testing.T) {
	outs := networkDisk()
	outs[0].Jobs[0].Read.Lat.MinNs = 0 // no fastest I/O in this output
	text, jobs := explainText(t, outs, fioadapt.ExplainOptions{TargetIOPS: 160000, BaseLatNs: 850e3})
	flat := strings.Join(strings.Fields(text), " ")
	if jobs[0].Explanation.Verdict != littleslaw.VerdictUndetermined || strings.Contains(flat, "no unqueued latency") ||
		strings.Contains(flat, "--base-latency") || !strings.Contains(flat, "1.54× the unqueued latency lies between") {
		t.Errorf("with --base-latency 850us:\n%s", text)
	}
	text, _ = explainText(t, outs, fioadapt.ExplainOptions{TargetIOPS: 160000})
	if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, "no unqueued latency") || !strings.Contains(flat, "--base-latency") {
		t.Errorf("without a base latency:\n%s", text)
	}
}

// Read as one curve that never saturated, no run of it is device-bound on
// its own evidence: the QD 64 sample run, device-bound alone (IOPS grew as
// depth^0.12 from QD 16, latency 14× the fastest I/O), is undetermined beside
// a curve whose IOPS still rose at QD 64, and names what would tell.
func TestExplainCurveUnsaturatedNoDeviceBound(t *testing.T) {
	var all []fio.Output
	for _, n := range []string{"fio-qd1.json", "fio-qd4.json", "fio-qd16.json", "fio-qd64.json"} {
		outs, err := fio.ReadOutput(filepath.Join("..", "examples", "fio", n))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, outs...)
	}
	key := fioadapt.CurveKey(fio.Final(all)[0].Jobs[0])
	text, jobs := explainText(t, all, fioadapt.ExplainOptions{Curved: map[string]bool{key: true}, Unsaturated: map[string]bool{key: true}})
	v := jobs[3].Explanation
	if v.Verdict != littleslaw.VerdictUndetermined || !strings.Contains(strings.Join(strings.Fields(text), " "), "no saturation up to QD 64") {
		t.Errorf("QD 64 beside an unsaturated curve: %+v\n%s", v, text)
	}
}
