package report

import (
	"fmt"

	"github.com/qdsweep/qdsweep/ioengine"
)

// ShortfallNote is the sentence for a run (or a sweep step) that kept
// fewer I/Os in flight than iodepth × numjobs: how many, of how many, why,
// and what to change. "" when sf is nil.
func ShortfallNote(sf *ioengine.Shortfall) string {
	if sf == nil {
		return ""
	}
	had := fmt.Sprintf("%.1f of %d I/Os in flight on average (%.0f%%)", sf.InflightMean, sf.QD, 100*sf.InflightMean/float64(max(sf.QD, 1)))
	switch sf.Cause {
	case ioengine.ShortfallLimit:
		limit := sf.Limit
		if sf.LimitValue > 0 {
			limit += fmt.Sprintf(" (%d)", sf.LimitValue)
		}
		s := fmt.Sprintf("only %d of %d jobs started: %s refused the rest", sf.JobsRun, sf.JobsAsked, limit)
		if sf.Err != "" {
			s += " (" + sf.Err + ")"
		}
		return s + "; " + had + ". " + limitFix(sf.Limit)
	case ioengine.ShortfallCPU:
		return fmt.Sprintf("%s: the jobs' threads were running or waiting for a CPU %.0f%% of the time, so the CPU set the pace "+
			"(other work, or a target served from memory such as tmpfs); the figures hold for %.1f in flight.",
			had, 100*sf.CPUBusy, sf.InflightMean)
	}
	return had + ": neither a limit nor the CPU explains the gap (the jobs' threads were busy " +
		fmt.Sprintf("%.0f%% of the time); the figures hold for this in-flight count, not for the configured depth.", 100*sf.CPUBusy)
}

// limitFix says how to raise the limit that stopped jobs from starting.
func limitFix(limit string) string {
	switch limit {
	case ioengine.LimitNproc:
		return "Raise the user's process limit (ulimit -u) or lower --numjobs."
	case ioengine.LimitPidsMax:
		return "Raise the cgroup's pids.max (the container's pids limit) or lower --numjobs."
	case ioengine.LimitThreadsMax:
		return "Raise kernel.threads-max (sysctl) or lower --numjobs."
	case ioengine.LimitNofile:
		return "Raise the open-file limit (ulimit -n) or lower --numjobs."
	case ioengine.LimitFileMax:
		return "Raise fs.file-max (sysctl) or lower --numjobs."
	case ioengine.LimitMemlock:
		return "Raise the locked-memory limit (ulimit -l) or lower --iodepth or --numjobs."
	case ioengine.LimitAIOMaxNr:
		return "Raise fs.aio-max-nr (sysctl) or lower --iodepth or --numjobs."
	case ioengine.LimitMemory:
		return "Free memory, or lower --bs, --iodepth or --numjobs."
	}
	return "Lower --iodepth or --numjobs."
}
