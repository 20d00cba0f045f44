package fio

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// depthBuckets are fio's IO depth buckets, shallow to deep.
var depthBuckets = []struct {
	key   string
	depth int
}{{"1", 1}, {"2", 2}, {"4", 4}, {"8", 8}, {"16", 16}, {"32", 32}, {">=64", 64}}

// DepthCounts turns the job's "IO depths" percentages into counts of
// total I/Os per bucket, shallow to deep (all zero when
// fio did not report them).
func (j Job) DepthCounts(total int64) []int64 {
	c := make([]int64, len(depthBuckets))
	for i, b := range depthBuckets {
		c[i] = int64(math.Round(j.IODepthDist[b.key] / 100 * float64(total)))
	}
	return c
}

// DepthPercents is fio's "IO depths" of counts per bucket (ioengine's
// Stats.IODepths): percent of the submissions in each; nil when none.
func DepthPercents(c []int64) map[string]float64 {
	keys := make([]string, len(depthBuckets))
	for i, b := range depthBuckets {
		keys[i] = b.key
	}
	return percentsOf(c, keys)
}

// batchBuckets are the keys of fio's "submit" and "complete"
// distributions, shallow to deep.
var batchBuckets = []string{"0", "4", "8", "16", "32", "64", ">=64"}

// BatchPercents is fio's "submit" or "complete" of counts per bucket
// (ioengine's Stats.Submits, Stats.Completes): percent of the calls in
// each; nil when none.
func BatchPercents(c []int64) map[string]float64 {
	return percentsOf(c, batchBuckets)
}

// percentsOf is counts per bucket as percent of their total, keyed by
// keys in bucket order; nil when the total is 0.
func percentsOf(c []int64, keys []string) map[string]float64 {
	var total int64
	for _, n := range c {
		total += n
	}
	if total == 0 {
		return nil
	}
	m := make(map[string]float64, len(c))
	for i, k := range keys {
		m[k] = 100 * float64(c[i]) / float64(total)
	}
	return m
}

// syncEngines are fio engines that keep one I/O in flight per job whatever
// iodepth says.
var syncEngines = map[string]bool{
	"sync": true, "psync": true, "vsync": true, "pvsync": true, "pvsync2": true,
	"mmap": true, "splice": true, "filecreate": true, "filestat": true,
}

// IsSyncEngine reports whether fio's ioengine name is synchronous (one I/O in
// flight per job, iodepth > 1 is ignored). "" names no engine and is not
// synchronous: for the engine fio runs when a job names none, ask
// IsSyncEngine(EngineUsed(name)).
func IsSyncEngine(name string) bool {
	return syncEngines[name]
}

// EngineUsed is the engine fio runs a job on whose ioengine= is name: name,
// or psync, fio's default, when the job names none ("").
func EngineUsed(name string) string {
	if name == "" {
		return "psync"
	}
	return name
}

// deriveFromOptions fills RW, BS, IOEngine, IODepth and NumJobs from the
// job's Options and, failing that, from its IO depths distribution.
// grouped says whether the entry aggregates all numjobs processes.
func (j *Job) deriveFromOptions(grouped bool) {
	o := map[string]string{} // by fio's name: an alias written is its option
	for k, v := range j.Options {
		if _, ok := o[OptionName(k)]; !ok || k == OptionName(k) {
			o[OptionName(k)] = v
		}
	}
	if v := o[OptRW]; v != "" && j.RW == "" {
		j.RW = strings.SplitN(v, ":", 2)[0]
	}
	kb := KBBase
	if b, ok := ParseKBBase(o[OptKBBase]); ok {
		kb = b
	}
	if v := o[OptBS]; v != "" && j.BS == 0 {
		if n, err := ParseSize(strings.SplitN(v, ",", 2)[0], kb); err == nil {
			j.BS = n // as fio read it: bs=4KiB is 4,000 bytes under its default kb_base
		}
	}
	if v := o[OptIOEngine]; v != "" && j.IOEngine == "" {
		j.IOEngine = v
	}
	if j.IODepth == 0 {
		if v, ok := o[OptIODepth]; ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 || n > MaxIODepth {
				j.bad = fmt.Sprintf("%s=%s is not a whole number from 1 to %d", OptIODepth, v, MaxIODepth)
			} else {
				j.IODepth, j.IODepthFrom = n, "options"
			}
		}
	}
	if v, ok := o[OptNumJobs]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err != nil || n < 1 || n > MaxIODepth {
			j.bad = fmt.Sprintf("%s=%s is not a whole number from 1 to %d", OptNumJobs, v, MaxIODepth)
		}
	}
	if j.NumJobs == 0 {
		n, err := strconv.Atoi(o[OptNumJobs])
		switch {
		case err == nil && n > 0 && grouped:
			j.NumJobs, j.NumJobsFrom = n, "options"
		case err == nil && n > 0:
			j.NumJobs, j.NumJobsFrom, j.CloneOf = 1, cloneOf(o[OptNumJobs]), n
		}
	}
	j.fillDefaults(true)
}

// fillDefaults sets IODepth when nothing said it: to fio's default of 1
// when the job's options are complete (JSON lists every option set, so an
// absent iodepth is fio's 1), else from the depth distribution, else
// leaves it 0 with IODepthFrom "unknown" (a pasted job block or an "All
// clients" block without its header line). NumJobs becomes 1 when nothing
// better is known.
func (j *Job) fillDefaults(optionsComplete bool) {
	if j.IODepth == 0 {
		switch d := busiestDepth(j.IODepthDist); {
		case optionsComplete && len(j.Options) > 0 && d <= 1:
			// fio lists every option set, so an absent iodepth is its 1:
			// unless its own depth distribution says otherwise (fio ≤ 2.1
			// wrote no job options).
			j.IODepth, j.IODepthFrom = 1, "default"
		case d > 0:
			j.IODepth, j.IODepthFrom = d, "iodepth distribution"
		default:
			j.IODepth, j.IODepthFrom = 0, "unknown"
		}
	}
	if j.NumJobs == 0 {
		j.NumJobs, j.NumJobsFrom = 1, "default"
	}
}

// busiestDepth is the depth bucket holding the most I/Os (0 when unknown).
// Below 0.5% the distribution is taken as empty.
func busiestDepth(dist map[string]float64) int {
	best, bestPct := 0, 0.5
	for _, b := range depthBuckets {
		if p := dist[b.key]; p > bestPct {
			best, bestPct = b.depth, p
		}
	}
	return best
}

// isGrouped reports whether group_reporting is on in options.
func isGrouped(o map[string]string) bool {
	v, ok := o[OptGroupReporting]
	return ok && v != "0"
}

// finite replaces NaN and infinities by 0 so that bad input never poisons sums.
func finite[F ~float64](f F) float64 {
	if v := float64(f); !math.IsNaN(v) && !math.IsInf(v, 0) {
		return v
	}
	return 0
}

// cloneOf is a Job's NumJobsFrom for one clone of a job of n clones (n as
// the output gave it): "one clone of numjobs=N".
func cloneOf(n string) string { return "one clone of " + OptNumJobs + "=" + n }
