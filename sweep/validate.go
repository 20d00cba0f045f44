package sweep

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"math"
)

// validate checks what a loaded result must hold for every reader: each
// step's depth, jobs and QD at least 1 (a step not run may say 0 jobs: it
// holds no numbers) and no negative measurement. The error names the
// first bad field as results.json spells it.
func (r *Result) validate() error {
	for i, s := range r.Steps {
		field := func(name string) string { return fmt.Sprintf("steps[%d].%s", i, name) }
		if s.QD < 1 {
			return fmt.Errorf("%s is %d; a step's qd is at least 1", field("qd"), s.QD)
		}
		if s.IODepth < 1 || s.NumJobs < 1 {
			return fmt.Errorf("%s × %s is %d × %d; each is at least 1", field(fio.OptIODepth), field(fio.OptNumJobs), s.IODepth, s.NumJobs)
		}
		if s.BS < 0 {
			return fmt.Errorf("%s is %d; a block size is not negative", field(fio.OptBS), s.BS)
		}
		for name, v := range map[string]float64{"iops": s.IOPS, "bw_bytes": s.BWBytes, "lat_ns.mean": s.Lat.MeanNs, "inflight_mean": s.InflightMean} {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s is %v; a measurement is a finite number, not negative", field(name), v)
			}
		}
	}
	return nil
}
