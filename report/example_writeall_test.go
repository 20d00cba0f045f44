package report_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/qdsweep/qdsweep/guard"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// WriteAll renders the charts and summary.md of a result into a directory.
// The result here is built from fixed numbers (a disk that saturates near
// 150k IOPS); a real one comes from sweep.Run or sweep.Read.
func ExampleWriteAll() {
	r := sweep.NewResult(sweep.Meta{Target: "/dev/vdb", Engine: "io_uring"}, sweep.Plan{})
	qd := []int{1, 2, 4, 8, 16, 32, 64}
	iops := []float64{20e3, 38e3, 70e3, 110e3, 140e3, 150e3, 151e3}
	latUs := []float64{50, 53, 57, 73, 114, 213, 424}
	for i := range qd {
		r.Steps = append(r.Steps, sweep.Step{
			RW: "randread", BS: 4096, IODepth: qd[i], NumJobs: 1, QD: qd[i],
			IOPS: iops[i], BWBytes: iops[i] * 4096,
			Lat:          ioengine.Latency{MeanNs: latUs[i] * 1e3, P99Ns: int64(latUs[i] * 2e3)},
			InflightMean: iops[i] * latUs[i] / 1e6,
		})
	}
	if err := r.Analyze(littleslaw.Options{}); err != nil {
		fmt.Println(err)
		return
	}

	dir, err := os.MkdirTemp("", "qdsweep-report-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	// Every file goes through one writer, which refuses a directory
	// holding files qdsweep did not write, and devices and symlinks at a name.
	out, err := guard.OpenOut(dir, guard.OutOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	files, err := report.WriteAll(out, r, report.Options{ChartFormat: "png"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		fmt.Println(filepath.Base(f))
	}
	// Output:
	// iops-vs-qd.png
	// latency-vs-qd.png
	// latency-vs-iops.png
	// dashboard.png
	// summary.md
}
