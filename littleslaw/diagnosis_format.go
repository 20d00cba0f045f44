package littleslaw

import (
	"fmt"
	"math"
)

// Phrases of the diagnosis's sentences; numbers go through format.go.

// fmtBS formats a block size in bytes with binary units: "4KiB", "1MiB", "512B".
func fmtBS(b int64) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", b>>10)
	}
	return fmt.Sprintf("%dB", b)
}

// diagSplit words a point's iodepth × numjobs when known.
func diagSplit(p Point) string {
	if p.IODepth > 0 && p.NumJobs > 0 {
		return fmt.Sprintf("iodepth %d × numjobs %d", p.IODepth, p.NumJobs)
	}
	return "split unknown"
}

// countNoun words a count with its noun: "1 job", "4 jobs", "2 cores".
// n is rounded to a whole number.
func countNoun(n float64, singular, plural string) string {
	k := int64(math.Round(n))
	if k == 1 {
		return "1 " + singular
	}
	return fmt.Sprintf("%d %s", k, plural)
}
