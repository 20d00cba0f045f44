package littleslaw

import (
	"fmt"
	"strconv"
)

// Number formats of the diagnosis's sentences.

// diagQD prints a queue depth without a needless fraction.
func diagQD(qd float64) string {
	if qd == float64(int64(qd)) {
		return strconv.FormatInt(int64(qd), 10)
	}
	return strconv.FormatFloat(qd, 'f', 1, 64)
}

// diagIOPS prints I/Os per second with a k or M suffix.
func diagIOPS(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.2fM", x/1e6)
	case x >= 1e4:
		return fmt.Sprintf("%.1fk", x/1e3)
	case x >= 1e3:
		return fmt.Sprintf("%.2fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// diagLat prints a latency given in nanoseconds.
func diagLat(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.0f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

// diagMiB prints a bandwidth given in bytes per second as MiB/s.
func diagMiB(bytesPerSec float64) string {
	mib := bytesPerSec / (1 << 20)
	if mib >= 100 {
		return fmt.Sprintf("%.0f MiB/s", mib)
	}
	return fmt.Sprintf("%.1f MiB/s", mib)
}

// diagBS prints a block size in bytes with binary units.
func diagBS(b int64) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", b>>10)
	}
	return fmt.Sprintf("%dB", b)
}

// diagSplit prints a point's iodepth × numjobs when known.
func diagSplit(p Point) string {
	if p.IODepth > 0 && p.NumJobs > 0 {
		return fmt.Sprintf("iodepth %d × numjobs %d", p.IODepth, p.NumJobs)
	}
	return "split unknown"
}

func diagCores(n float64) string {
	if n == 1 {
		return "1 core"
	}
	return fmt.Sprintf("%.0f cores", n)
}

// diagJobs prints a job count: "1 job", "4 jobs".
func diagJobs(n int) string {
	if n == 1 {
		return "1 job"
	}
	return fmt.Sprintf("%d jobs", n)
}

// diagCPUs prints a CPU count: "1 CPU", "2 CPUs".
func diagCPUs(n int) string {
	if n == 1 {
		return "1 CPU"
	}
	return fmt.Sprintf("%d CPUs", n)
}
