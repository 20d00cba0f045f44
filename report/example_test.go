package report_test

import (
	"os"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// Table prints one row per step; the analysis sentences follow (here the
// result has none, so it says so).
func ExampleTable() {
	r := &sweep.Result{
		Schema: sweep.Schema,
		Meta:   sweep.Meta{Target: "/dev/vdb", Engine: "io_uring"},
		Steps: []sweep.Step{
			{RW: "randread", BS: 4096, IODepth: 1, NumJobs: 1, QD: 1, IOPS: 14800, BWBytes: 14800 * 4096,
				Lat: ioengine.Latency{MeanNs: 67000, P99Ns: 110000}, InflightMean: 0.99, LittleError: -0.002, Steady: true},
			{RW: "randread", BS: 4096, IODepth: 64, NumJobs: 4, QD: 256, IOPS: 158900, BWBytes: 158900 * 4096,
				Lat: ioengine.Latency{MeanNs: 1610000, P99Ns: 2900000}, InflightMean: 255.8, LittleError: -0.0002, Steady: true},
		},
	}
	if err := report.Table(os.Stdout, r, report.Options{}); err != nil {
		panic(err)
	}
	// Output:
	// /dev/vdb · engine io_uring · randread 4k
	//    QD depth×jobs     IOPS    MiB/s  lat mean       p99 in-flight  Little steady
	//     1        1×1    14.8k     57.8     67 µs    110 µs       1.0   -0.2%    yes
	//   256       64×4     159k      621   1.61 ms    2.9 ms     255.8   -0.0%    yes
	//
	// No analysis in this result.
}

// ProgressLines writes again the lines a sweep printed as each step
// finished: the curve once, a line a step, and the steps an early stop
// skipped at the end of the curve as one.
func ExampleProgressLines() {
	step := func(qd int, iops float64, skipped string) sweep.Step {
		s := sweep.Step{RW: "randread", BS: 4096, IODepth: qd, NumJobs: 1, QD: qd, Skipped: skipped}
		if skipped == "" {
			s.IOPS, s.Lat.MeanNs, s.RuntimeNs, s.Steady = iops, float64(qd)/iops*1e9, 10e9, true
		}
		return s
	}
	const early = "early stop: QD 32, 64 added < 5% IOPS at ≥ 1.8× latency (--full runs all)"
	r := &sweep.Result{
		Plan: sweep.Plan{RW: []string{"randread"}, BS: []int64{4096}, IODepth: []int{1, 8, 32, 64, 128, 256}, NumJobs: []int{1}},
		Steps: []sweep.Step{step(1, 14800, ""), step(8, 102000, ""), step(32, 104000, ""), step(64, 105000, ""),
			step(128, 0, early), step(256, 0, early)},
	}
	report.ProgressLines(os.Stdout, r)
	// Output:
	// randread 4k:
	// step 1/6  QD 1 (1×1)  14.8k IOPS  67.6 µs mean  ran 10.0 s, steady
	// step 2/6  QD 8 (8×1)  102k IOPS  78.4 µs mean  ran 10.0 s, steady
	// step 3/6  QD 32 (32×1)  104k IOPS  308 µs mean  ran 10.0 s, steady
	// step 4/6  QD 64 (64×1)  105k IOPS  610 µs mean  ran 10.0 s, steady
	// steps 5–6/6  QD 128–256  skipped: early stop: QD 32, 64 added < 5% IOPS at ≥
	//   1.8× latency (--full runs all)
}
