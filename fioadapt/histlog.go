package fioadapt

import (
	"math"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// HistCounts puts one direction's latency buckets of a slice
// (Interval.Bins) into fio's PlatNR latency bins. A bucket that lies in
// one of fio's bins summed 2^coarseness at a time (log_hist_coarseness)
// is counted there exactly: every bucket from 64 ns on spans 4 of fio's
// bins (16 buckets to a power of two, fio's 64), so from coarseness 2 on
// all are exact. Below that, a bucket's count lands in fio's bin of its
// middle (within 1/32 of each latency), and exact is false.
func HistCounts(bins []ioengine.LatBin, coarseness int) (counts []uint64, exact bool) {
	counts = make([]uint64, fio.PlatNR)
	exact = true
	for _, b := range bins {
		lo, hi := fio.PlatIndex(b.LoNs), fio.PlatIndex(b.HiNs-1)
		i := lo
		if lo>>coarseness != hi>>coarseness {
			exact = false
			i = fio.PlatIndex(b.LoNs + (b.HiNs-b.LoNs)/2)
		}
		counts[i] += uint64(b.Count)
	}
	return counts, exact
}

// HistLog is a job's histogram log (write_hist_log) from its series: for
// each slice and each direction with completions in it, a line at the
// slice's end (ms since the measured window began), the direction's block
// size (its mean under bsrange or bssplit; fio writes the size of the I/O
// that closed the window) and the slice's completions in fio's bins.
// exact is false when some bucket did not fit one of fio's bins summed
// 2^coarseness at a time (HistCounts).
func HistLog(series []ioengine.Interval, w ioengine.Workload, coarseness int) (entries []fio.HistEntry, exact bool) {
	exact = true
	for _, iv := range series {
		t := (iv.StartNs + iv.DurNs) / 1e6
		for dir, bins := range iv.Bins {
			if len(bins) == 0 {
				continue // no completion: fio writes no line
			}
			counts, ok := HistCounts(bins, coarseness)
			exact = exact && ok
			entries = append(entries, fio.HistEntry{TimeMs: t, Dir: dir, BS: int64(math.Round(w.MeanBS(dir))), Counts: counts})
		}
	}
	return entries, exact
}
