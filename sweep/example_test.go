package sweep_test

import (
	"context"
	"fmt"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// Plan a sweep of 4k random reads at QD 1, 4, 16, 64 and 256, run it
// through the sim engine (a modelled 1.3 ms disk capped at 20k IOPS) with
// 100 ms steps, and analyse the curve. Sim latencies are model times, so
// the knee does not depend on how busy the machine is.
func ExampleRun() {
	depths, err := sweep.ParseIntSpec("1:256:x4") // 1, 4, 16, 64, 256
	if err != nil {
		fmt.Println(err)
		return
	}
	plan := sweep.NewPlan([]ioengine.RW{ioengine.RandRead}, []int64{4096}, depths, []int{1}, true)
	r := sweep.NewResult(sweep.Meta{Target: "sim", Engine: "sim", Simulated: true}, plan)

	cfg := sweep.Config{
		Engine:   ioengine.NewSim(ioengine.SimConfig{Latency: 1300 * time.Microsecond, IOPS: 20000, Seed: 1}),
		Workload: ioengine.Workload{Filename: "sim", Size: 1 << 30, Direct: true},
		Runtime:  100 * time.Millisecond, // per step
	}
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		fmt.Println(err)
		return
	}
	if err := r.Analyze(littleslaw.Options{TargetIOPS: 15000}); err != nil {
		fmt.Println(err)
		return
	}
	a := r.Analysis[0].Analysis
	fmt.Println("steps:", len(r.Steps))
	fmt.Println("saturated:", a.Saturation.Found)
	// 20k IOPS × 1.3 ms ≈ 26 in flight: the knee lies between QD 16 and 64.
	fmt.Println("saturation QD:", a.Saturation.QD)
	fmt.Println("15k IOPS reachable:", a.Target.Reachable)
	// Output:
	// steps: 5
	// saturated: true
	// saturation QD: 64
	// 15k IOPS reachable: true
}
