package diagnosis_test

import (
	"fmt"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// A cloud volume at 1.3 ms per I/O swept to QD 32 cannot reach 160k IOPS:
// the queue is the limit, and Little's Law says how deep it must go.
func ExampleDiagnose() {
	var pts []littleslaw.Point
	for qd := 1.0; qd <= 32; qd *= 2 {
		pts = append(pts, littleslaw.Point{QD: qd, IODepth: int(qd), NumJobs: 1, IOPS: qd / 1.3e-3, LatMeanNs: 1.3e6})
	}
	findings := diagnosis.Diagnose(diagnosis.DiagnoseInput{
		TargetIOPS: 160000,
		Curves:     []diagnosis.DiagnoseCurve{{RW: "randread", Direct: true, Points: pts}},
	})
	for _, f := range findings {
		g := f.Figures
		fmt.Println(f.Rule, f.Reason)
		fmt.Printf("QD %g at %g ns: iodepth %d × numjobs %d\n", g.ToQD, g.LatNs, g.IODepth, g.NumJobs)
	}
	// Output:
	// depth-bound below-target
	// QD 208 at 1.3e+06 ns: iodepth 208 × numjobs 1
}
