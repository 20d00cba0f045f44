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
		return fmt.Sprintf("%d jobs: the fewest that keep each job's iodepth within --max-iodepth %d, more than the job limit of %d (--max-jobs, by default the CPU count); raise --max-jobs to %d or spread over volumes",
			s.NumJobs, maxIODepth, maxJobs, s.NumJobs)
	}
	return ""
}
