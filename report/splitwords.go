package report

import (
	"fmt"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// SplitReasonText says which limit chose a split's jobs ("" when one job
// holds the whole depth): the per-job iodepth limit (the fewest jobs that
// keep within it) or the job limit (capped, so each job's queue is deeper
// than the per-job limit).
func SplitReasonText(jobsBy string, s littleslaw.Split, maxIODepth, maxJobs int) string {
	switch jobsBy {
	case littleslaw.JobsByMaxIODepth:
		return fmt.Sprintf("%d jobs: the fewest that keep each job's iodepth within --max-iodepth %d", s.NumJobs, maxIODepth)
	case littleslaw.JobsByMaxJobs:
		return fmt.Sprintf("%d jobs: capped by the job limit of %d (--max-jobs, by default the CPU count), so each job's iodepth %d exceeds --max-iodepth %d; raise --max-jobs or spread over volumes",
			s.NumJobs, maxJobs, s.IODepth, maxIODepth)
	}
	return ""
}
