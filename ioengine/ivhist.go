package ioengine

import (
	"math"
	"math/bits"
	"sort"
)

// Per-interval latency histogram: log-linear buckets with 16 steps per
// power of two (a value lies within 1/32 ≈ 3 % of its bucket's middle),
// covering 1 ns .. 2^41 ns (36 min). It is a plain array a job fills without
// allocating and clears once per interval.
const (
	ivSubBits   = 4
	ivSub       = 1 << ivSubBits
	ivMaxExp    = 41
	ivHistSlots = (ivMaxExp + 1) * ivSub
)

type ivHist [ivHistSlots]uint32

func ivSlot(v int64) int {
	if v < ivSub {
		if v < 0 {
			return 0
		}
		return int(v)
	}
	e := bits.Len64(uint64(v)) - 1 // 2^e ≤ v < 2^(e+1), e ≥ ivSubBits
	if e > ivMaxExp {
		return ivHistSlots - 1
	}
	sub := int(uint64(v)>>(e-ivSubBits)) & (ivSub - 1)
	return (e-ivSubBits+1)*ivSub + sub
}

// ivValue is the middle of slot i's range, ns.
func ivValue(i int) int64 {
	if i < ivSub {
		return int64(i)
	}
	e := i/ivSub + ivSubBits - 1
	sub := int64(i % ivSub)
	lo := (ivSub + sub) << (e - ivSubBits)
	return lo + (int64(1)<<(e-ivSubBits))/2
}

// ivRange is slot i's range of latencies, [lo, hi) ns.
func ivRange(i int) (lo, hi int64) {
	switch {
	case i == ivHistSlots-1:
		return 1 << (ivMaxExp + 1), math.MaxInt64 // every longer latency
	case i < ivSub:
		return int64(i), int64(i) + 1
	}
	e := i/ivSub + ivSubBits - 1
	sub := int64(i % ivSub)
	lo = (ivSub + sub) << (e - ivSubBits)
	return lo, lo + int64(1)<<(e-ivSubBits)
}

// LatBin is one non-empty bucket of a slice's latency histogram
// (Interval.Bins): Count completions took from LoNs up to, not including,
// HiNs. Buckets are 16 to a power of two (1 ns wide below 32 ns) up to
// 2^42 ns; one more, from there to math.MaxInt64, holds every longer
// latency.
type LatBin struct {
	LoNs, HiNs int64
	Count      int64
}

// latBins are bins (merged, in slot order) as LatBins.
func latBins(bins []ivBin) []LatBin {
	if len(bins) == 0 {
		return nil
	}
	out := make([]LatBin, len(bins))
	for i, b := range bins {
		lo, hi := ivRange(int(b.slot))
		out[i] = LatBin{LoNs: lo, HiNs: hi, Count: int64(b.count)}
	}
	return out
}

// ivBin is one non-empty slot of an interval's histogram.
type ivBin struct {
	slot  uint16
	count uint32
}

// sparse returns the non-empty slots and clears h.
func (h *ivHist) sparse() []ivBin {
	var out []ivBin
	for i, c := range h {
		if c != 0 {
			out = append(out, ivBin{uint16(i), c})
			h[i] = 0
		}
	}
	return out
}

// ivQuantile returns the q-quantile (0 < q ≤ 1, a fraction) of merged bins.
func ivQuantile(bins []ivBin, q float64) int64 {
	if len(bins) == 0 {
		return 0
	}
	sort.Slice(bins, func(i, j int) bool { return bins[i].slot < bins[j].slot })
	var total uint64
	for _, b := range bins {
		total += uint64(b.count)
	}
	rank := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for _, b := range bins {
		seen += uint64(b.count)
		if seen >= max(rank, 1) {
			return ivValue(int(b.slot))
		}
	}
	return ivValue(int(bins[len(bins)-1].slot))
}

// mergeBins adds up bins of equal slots.
func mergeBins(bins []ivBin) []ivBin {
	sort.Slice(bins, func(i, j int) bool { return bins[i].slot < bins[j].slot })
	out := bins[:0]
	for _, b := range bins {
		if len(out) > 0 && out[len(out)-1].slot == b.slot {
			out[len(out)-1].count += b.count
			continue
		}
		out = append(out, b)
	}
	return out
}
