package report

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"strings"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/units"
)

// LayoutNote is the line said before qdsweep lays out files for a run: the
// files (one, or the first and last of many) and the size of each in bytes.
func LayoutNote(files []string, eachBytes int64) string {
	switch len(files) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("qdsweep: laying out %s (%s)", files[0], units.FormatBytes(eachBytes))
	}
	return fmt.Sprintf("qdsweep: laying out %s (%s each)", FileList(files), units.FormatBytes(eachBytes))
}

// KeptNote is the line said when files qdsweep laid out are kept after the
// run (as fio keeps the files it creates), or "" when none are.
func KeptNote(files []string) string {
	switch len(files) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("kept %s (created by qdsweep; remove it when done)", files[0])
	}
	return fmt.Sprintf("kept %s (created by qdsweep; remove them when done)", FileList(files))
}

// FileList names one file, or the first and last of several with their count.
func FileList(files []string) string {
	if len(files) == 1 {
		return files[0]
	}
	return fmt.Sprintf("%s … %s (%d files)", files[0], files[len(files)-1], len(files))
}

// SharedCPUNote says how a run of several jobs states the CPU of jobs that
// ran together: the process's CPU time, which they shared, split between
// them by their I/O counts.
const SharedCPUNote = "jobs that ran together shared the process's CPU time; each job's CPU is its share by I/O count"

// GroupStatusLine is fio's "Run status group N (all jobs)" for the jobs of
// a group that ran together and were reported one by one: their I/Os
// added up over the group's window (st, ioengine.MergeGroup), and the
// in flight they kept between them.
func GroupStatusLine(group, jobs int, st *ioengine.Stats) string {
	return fmt.Sprintf("Run status group %d (%d jobs): %s IOPS, %s MiB/s, %d I/Os in %s, %s in flight", group, jobs,
		FormatIOPS(st.All.IOPS), FormatMiBps(st.All.BWBytes), st.All.TotalIOs,
		FormatLatency(float64(st.Runtime)), FormatInflight(st.InflightMean))
}

// FioWordNote is said when a pasted command keeps the word fio before its options.
const FioWordNote = "the word fio is not needed: qdsweep run takes fio's options directly"

// ForeverNote is said of a job with time_based and no runtime.
var ForeverNote = fio.Flag(fio.OptTimeBased) + " without " + fio.Flag(fio.OptRuntime) + ": running until interrupted (Ctrl-C), as fio"

// PsyncDepthNote is said of a psync job given an iodepth above 1.
func PsyncDepthNote(iodepth int) string {
	return fmt.Sprintf("psync does one I/O at a time per job: iodepth %d runs as 1, as in fio", iodepth)
}

// IgnoredNote names the fio options a job sets that qdsweep ignores:
// reporting, naming, grouping and profiles, and submission batching ("" when none).
func IgnoredNote(ignored, batching []string) string {
	all := append(append([]string{}, ignored...), batching...)
	if len(all) == 0 {
		return ""
	}
	why := "fio's own reporting, naming, grouping or profiles"
	if len(batching) > 0 {
		why += "; batching: qdsweep submits each I/O as soon as a slot frees"
	}
	return fmt.Sprintf("ignored --%s (%s)", strings.Join(all, ", --"), why)
}

// PartialNote says where an interrupted sweep left its results and how to
// continue it.
func PartialNote(dir string) string {
	return fmt.Sprintf("qdsweep: partial results in %s (continue with: qdsweep sweep --resume %s)", dir, dir)
}

// NoTelemetryNote says a sweep reads no device counters, and why.
func NoTelemetryNote(err error) string { return fmt.Sprintf("qdsweep: no device telemetry: %v", err) }

// PercentilesDroppedNote is said of a percentile_list longer than fio's
// limit: fio runs with its first fio.MaxPercentiles values ("" when none
// is dropped).
func PercentilesDroppedNote(dropped int) string {
	if dropped <= 0 {
		return ""
	}
	return fmt.Sprintf("%s: the list exceeding max length %d: its last %d dropped, as fio", fio.Flag(fio.OptPercentileList), fio.MaxPercentiles, dropped)
}

// DroppedIncludesNote is said of a job file whose includes name files
// holding a section, which fio 3.33 reads nothing of ("" when none).
func DroppedIncludesNote(jobFile string, includes []string) string {
	if len(includes) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: include %s: no new sections in included files: nothing of it read and its section ended there, as fio", jobFile, strings.Join(includes, ", "))
}

// LogsIgnoredNote says why fio's logs a job asks for are not written
// (fioadapt's LogsPerIO, LogsPerClone).
func LogsIgnoredNote(why string) string {
	switch why {
	case "per-io":
		return "fio's IOPS, bandwidth and latency logs not written: without " + fio.Flag(fio.OptLogAvgMsec) + " fio logs every I/O, and this engine keeps only each window's mean; add " + fio.FlagSet(fio.OptLogAvgMsec, "N") + ", or run on a local engine"
	case "per-clone":
		return "fio's logs not written: with numjobs > 1 fio writes a log per clone, and this engine keeps one series per job; write a section per clone, or run on a local engine"
	}
	return ""
}

// SlatLogNote says why the slat log of a job on an asynchronous engine
// (io_uring, libaio) is empty, where fio's has a line per I/O.
func SlatLogNote() string {
	return "fio's slat log is empty: qdsweep times each I/O from its submission to its completion as one latency (the lat log, written as clat too), where fio's asynchronous engines time the submission apart"
}

// HistBinsNote says a histogram log's counts are in fio's bin of their
// bucket's middle (fioadapt.HistCounts) where a bucket spans several.
func HistBinsNote() string {
	return "fio's histogram log: qdsweep's latency buckets (16 to a power of two) span 4 of fio's bins (64 to a power of two), so each count is in fio's bin of its bucket's middle, within 3 % of its latency; " + fio.FlagSet(fio.OptLogHistCoarseness, "2") + " or more makes every count exact"
}

// ViaFioNote is said of a job file (or command line) qdsweep runs through
// fio: the options (and engine) qdsweep does not run natively, which fio
// runs, under the same write guard, its figures in qdsweep's reports.
func ViaFioNote(what []string) string {
	return "runs through fio, under the same write guard and reports: qdsweep does not run " + strings.Join(what, ", ") + " natively"
}
