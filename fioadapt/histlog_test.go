package fioadapt_test

import (
	"testing"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// buckets are the engine's latency buckets as ioengine.LatBin describes
// them: 1 ns wide below 32 ns, then 16 to a power of two.
func buckets() []ioengine.LatBin {
	var out []ioengine.LatBin
	for v := int64(0); v < 32; v++ {
		out = append(out, ioengine.LatBin{LoNs: v, HiNs: v + 1, Count: 1})
	}
	for e := 5; e < 42; e++ {
		w := int64(1) << (e - 4)
		for sub := range int64(16) {
			lo := int64(1)<<e + sub*w
			out = append(out, ioengine.LatBin{LoNs: lo, HiNs: lo + w, Count: sub + 1})
		}
	}
	return out
}

// TestHistCounts: every count lands in one of fio's bins (the total is
// kept), in the bin of a latency of its bucket; from coarseness 2 on every
// bucket lies in one merged bin of fio's and the conversion says exact;
// below, it says not.
func TestHistCounts(t *testing.T) {
	bs := buckets()
	var total uint64
	for _, b := range bs {
		total += uint64(b.Count)
	}
	for c := 0; c <= fio.MaxHistCoarseness; c++ {
		counts, exact := fioadapt.HistCounts(bs, c)
		if exact != (c >= 2) {
			t.Errorf("coarseness %d: exact %v, want %v", c, exact, c >= 2)
		}
		var sum uint64
		for _, n := range counts {
			sum += n
		}
		if len(counts) != fio.PlatNR || sum != total {
			t.Errorf("coarseness %d: %d bins, total %d, want %d and %d", c, len(counts), sum, fio.PlatNR, total)
		}
		for _, b := range bs {
			one, _ := fioadapt.HistCounts([]ioengine.LatBin{b}, c)
			for i, n := range one {
				if n != 0 && (i < fio.PlatIndex(b.LoNs) || i > fio.PlatIndex(b.HiNs-1)) {
					t.Fatalf("coarseness %d: bucket [%d, %d) counted in bin %d, outside %d..%d", c, b.LoNs, b.HiNs, i, fio.PlatIndex(b.LoNs), fio.PlatIndex(b.HiNs-1))
				}
			}
		}
	}
}
