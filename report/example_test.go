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
