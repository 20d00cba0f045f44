package littleslaw_test

import (
	"fmt"

	"github.com/qdsweep/qdsweep/littleslaw"
)

func ExampleQueueDepth() {
	// 160,000 IOPS at 1.3 ms per I/O needs about 208 I/Os in flight.
	qd := littleslaw.QueueDepth(160000, 1.3e6)
	fmt.Println(littleslaw.CeilQD(qd))
	best, alts := littleslaw.SplitQD(littleslaw.CeilQD(qd), 256, 4)
	fmt.Printf("iodepth %d × numjobs %d, or %v\n", best.IODepth, best.NumJobs, alts)
	// Output:
	// 208
	// iodepth 208 × numjobs 1, or [{104 2 0} {52 4 0}]
}

// Split QD 208 into fio's iodepth × numjobs with at most 128 I/Os a job
// and 4 jobs: the best split within the limits, then the others.
func ExampleSplitQD() {
	best, alts := littleslaw.SplitQD(208, 128, 4)
	fmt.Printf("iodepth %d × numjobs %d\n", best.IODepth, best.NumJobs)
	for _, a := range alts {
		fmt.Printf("or iodepth %d × numjobs %d\n", a.IODepth, a.NumJobs)
	}
	// Output:
	// iodepth 104 × numjobs 2
	// or iodepth 52 × numjobs 4
}

func ExampleAnalyze() {
	qd := []float64{1, 2, 4, 8, 16, 32, 64}
	iops := []float64{20e3, 38e3, 70e3, 110e3, 140e3, 150e3, 151e3}
	latUs := []float64{50, 53, 57, 73, 114, 213, 424}
	var pts []littleslaw.Point
	for i := range qd {
		pts = append(pts, littleslaw.Point{QD: qd[i], IOPS: iops[i], LatMeanNs: latUs[i] * 1e3})
	}
	a, err := littleslaw.Analyze(pts, littleslaw.Options{TargetIOPS: 100000, MaxJobs: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("base latency %.0f µs, max %.0f IOPS\n", a.BaseLatencyNs/1e3, a.MaxIOPS)
	fmt.Printf("saturation QD %g, efficient QD %g\n", a.Saturation.QD, a.Efficient.QD)
	fmt.Printf("model %s\n", a.Model.Name)
	fmt.Printf("100k IOPS: QD %g (iodepth %d × numjobs %d)\n", a.Target.QD, a.Target.Split.IODepth, a.Target.Split.NumJobs)
	// Output:
	// base latency 50 µs, max 151000 IOPS
	// saturation QD 32, efficient QD 8
	// model usl
	// 100k IOPS: QD 7 (iodepth 7 × numjobs 1)
}
