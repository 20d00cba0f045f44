package fio_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestPlatIndex: fio's bins are one a nanosecond below 128 ns, then 64 to
// each power of two, in order, the last from 2^34 ns holding every longer
// latency.
func TestPlatIndex(t *testing.T) {
	for v := int64(0); v < 128; v++ {
		if got := fio.PlatIndex(v); got != int(v) {
			t.Fatalf("PlatIndex(%d) = %d, want %d", v, got, v)
		}
	}
	for e := 7; e < 34; e++ {
		lo, hi := int64(1)<<e, int64(1)<<(e+1)
		first := fio.PlatIndex(lo)
		if first != (e-5)*fio.PlatVal || fio.PlatIndex(hi-1) != first+fio.PlatVal-1 {
			t.Fatalf("2^%d ns: bins %d..%d, want %d..%d", e, first, fio.PlatIndex(hi-1), (e-5)*fio.PlatVal, (e-5)*fio.PlatVal+fio.PlatVal-1)
		}
		w := (hi - lo) / fio.PlatVal
		for i := range int64(fio.PlatVal) {
			if a, b := fio.PlatIndex(lo+i*w), fio.PlatIndex(lo+(i+1)*w-1); a != first+int(i) || b != a {
				t.Fatalf("2^%d ns, bin %d: [%d, %d) in bins %d..%d", e, i, lo+i*w, lo+(i+1)*w, a, b)
			}
		}
	}
	for _, v := range []int64{1 << 34, 1 << 40, 1<<63 - 1} {
		if got := fio.PlatIndex(v); got != fio.PlatNR-1 {
			t.Errorf("PlatIndex(%d) = %d, want the last bin %d", v, got, fio.PlatNR-1)
		}
	}
}

// TestWriteHistLog: a line is "msec, direction, bs, " and PlatNR >>
// coarseness counts, each the sum of 2^coarseness bins, as fio's
// flush_hist_samples writes it, and reads back.
func TestWriteHistLog(t *testing.T) {
	counts := make([]uint64, fio.PlatNR)
	counts[0], counts[5], counts[6], counts[7], counts[fio.PlatNR-1] = 1, 2, 3, 4, 5
	in := []fio.HistEntry{{TimeMs: 50, Dir: 0, BS: 4096, Counts: counts}, {TimeMs: 51, Dir: 1, BS: 8192}}
	for c := 0; c <= fio.MaxHistCoarseness; c++ {
		var b bytes.Buffer
		if err := fio.WriteHistLog(&b, in, c); err != nil {
			t.Fatal(err)
		}
		first := []string{"1", "1", "1", "10", "10", "10", "10"}[c] // bins 0 .. 2^c-1
		if !strings.HasPrefix(b.String(), "50, 0, 4096, "+first+", ") || strings.Contains(b.String(), ", \n") {
			t.Fatalf("coarseness %d: %.40q…", c, b.String())
		}
		out, err := fio.ParseHistLog(&b)
		if err != nil || len(out) != 2 {
			t.Fatalf("coarseness %d: %v, %d lines", c, err, len(out))
		}
		for i, e := range out {
			var sum uint64
			for _, n := range e.Counts {
				sum += n
			}
			if len(e.Counts) != fio.PlatNR>>c || e.TimeMs != in[i].TimeMs || e.Dir != in[i].Dir || e.BS != in[i].BS || sum != []uint64{15, 0}[i] {
				t.Errorf("coarseness %d line %d: %d bins, %+v, sum %d", c, i+1, len(e.Counts), e, sum)
			}
		}
		if c == 2 && out[0].Counts[1] != 2+3+4 {
			t.Errorf("coarseness 2: bin 1 = %d, want bins 4..7 summed, 9", out[0].Counts[1])
		}
	}
	if err := fio.WriteHistLog(&bytes.Buffer{}, in, 7); err == nil {
		t.Error("coarseness 7 written; fio's bins do not divide by 128")
	}
}
