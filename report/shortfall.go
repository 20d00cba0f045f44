package report

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"strings"

	"github.com/qdsweep/qdsweep/ioengine"
)

// ShortfallNote is the sentence for a run (or a sweep step) that kept
// fewer I/Os in flight than iodepth × numjobs: how many, of how many, why,
// and what to change. "" when sf is nil.
func ShortfallNote(sf *ioengine.Shortfall) string {
	if sf == nil {
		return ""
	}
	had := fmt.Sprintf("%s of %d I/Os in flight on average (%.0f%%)", FormatInflight(sf.InflightMean), sf.QD, 100*sf.InflightMean/float64(max(sf.QD, 1)))
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
	case ioengine.ShortfallRate:
		return fmt.Sprintf("%s: the rate cap (%s) held I/Os back, as fio does; the figures hold for %s in flight at the capped rate, not for the configured depth.",
			had, fio.Flag(fio.OptRateIOPS), FormatInflight(sf.InflightMean))
	case ioengine.ShortfallThink:
		return fmt.Sprintf("%s: each job paused between its I/Os with nothing in flight (%s), as fio does; the figures hold for %s in flight, not for the configured depth.",
			had, fio.Flag(fio.OptThinkTime), FormatInflight(sf.InflightMean))
	case ioengine.ShortfallLatencyTarget:
		return fmt.Sprintf("%s: each job searched for the deepest queue within its latency target (%s), as fio does, below the configured depth while it did; the figures hold for %s in flight.",
			had, fio.Flag(fio.OptLatencyTarget), FormatInflight(sf.InflightMean))
	case ioengine.ShortfallFlow:
		return fmt.Sprintf("%s: each job held its I/Os back to keep to its share of its flow (%s), as fio does; the figures hold for %s in flight, not for the configured depth.",
			had, fio.Flag(fio.OptFlow), FormatInflight(sf.InflightMean))
	case ioengine.ShortfallSync:
		return fmt.Sprintf("%s: each job waited in %s after its writes, with nothing in flight, as fio does; the figures hold for %s in flight, not for the configured depth.",
			had, SyncCall(sf.SyncData), FormatInflight(sf.InflightMean))
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
	jobs, depth := fio.Flag(fio.OptNumJobs), fio.Flag(fio.OptIODepth)
	switch limit {
	case ioengine.LimitNproc:
		return "Raise the user's process limit (ulimit -u) or lower " + jobs + "."
	case ioengine.LimitPidsMax:
		return "Raise the cgroup's pids.max (the container's pids limit) or lower " + jobs + "."
	case ioengine.LimitThreadsMax:
		return "Raise kernel.threads-max (sysctl) or lower " + jobs + "."
	case ioengine.LimitNofile:
		return "Raise the open-file limit (ulimit -n) or lower " + jobs + "."
	case ioengine.LimitFileMax:
		return "Raise fs.file-max (sysctl) or lower " + jobs + "."
	case ioengine.LimitMemlock:
		return "Raise the locked-memory limit (ulimit -l) or lower " + depth + " or " + jobs + "."
	case ioengine.LimitAIOMaxNr:
		return "Raise fs.aio-max-nr (sysctl) or lower " + depth + " or " + jobs + "."
	case ioengine.LimitMemory:
		return "Free memory, or lower " + fio.Flag(fio.OptBS) + ", " + depth + " or " + jobs + "."
	}
	return "Lower " + depth + " or " + jobs + "."
}

// RateCap describes a run's per-job rate cap (fio's rate_iops: I/Os per
// second per job for reads [0] and writes [1], 0 for none) for a pattern
// that reads and/or writes; "" when nothing the pattern does is capped.
func RateCap(rate [2]float64, reads, writes bool) string {
	var parts []string
	if reads && rate[0] > 0 {
		parts = append(parts, FormatIOPS(rate[0])+" reads/s")
	}
	if writes && rate[1] > 0 {
		parts = append(parts, FormatIOPS(rate[1])+" writes/s")
	}
	if len(parts) == 0 {
		return ""
	}
	if len(parts) == 2 {
		return strings.Join(parts, ", ") + " per job (" + fio.Flag(fio.OptRateIOPS) + "): a paced load" // fits 80 columns
	}
	return parts[0] + " per job (" + fio.Flag(fio.OptRateIOPS) + "): a paced load, not a device limit"
}

// FormatInflight formats a mean in-flight count (I/Os): one decimal, two
// below 1 (a paced run keeps 0.06 in flight, not "0.0").
func FormatInflight(x float64) string {
	if x < 1 {
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// SyncCall names the sync a run makes after its writes: "fdatasync" when
// data is true, else "fsync".
func SyncCall(data bool) string {
	if data {
		return "fdatasync"
	}
	return "fsync"
}
