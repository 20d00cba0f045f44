//go:build linux

package ioengine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestBlockMapAgainstBits drives fio's random map and a plain slice of
// bools with the same marks and compares what each answers: the run a
// mark sets (up to the first block done) and the next free block after
// any block (from the start again past the end), over maps of one word,
// of a partial last word, and of three levels.
func TestBlockMapAgainstBits(t *testing.T) {
	for _, n := range []uint64{1, 63, 64, 65, 1000, 4096, 64*64*2 + 17} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			m := newBlockMap(n)
			// The map's blocks, then its last word's unused bits, which a
			// mark from inside the map sets too (fio's axmap_set_nr).
			plain := make([]bool, (n+63)/64*64)
			rng := rand.New(rand.NewPCG(n, 7))
			marked := uint64(0)
			for marked < n {
				b, nr := rng.Uint64N(n), 1+rng.Uint64N(200)
				if f, ok := plainNextFree(plain[:n], b); ok && rng.IntN(2) == 0 {
					b = f // fill the map sooner, as fio's I/Os do
				}
				want := uint64(0)
				for c := b; want < nr && c < uint64(len(plain)) && (c%64 != 0 || c <= n) && !plain[c]; c++ {
					plain[c] = true
					want++
				}
				if got := m.setRun(b, nr); got != want {
					t.Fatalf("setRun(%d, %d) = %d, want %d", b, nr, got, want)
				}
				marked += min(want, n-min(b, n))
				q := rng.Uint64N(n)
				if m.isSet(q) != plain[q] {
					t.Fatalf("isSet(%d) = %v, want %v", q, m.isSet(q), plain[q])
				}
				got, ok := m.nextFree(q)
				wantB, wantOK := plainNextFree(plain[:n], q)
				if ok != wantOK || ok && got != wantB {
					t.Fatalf("nextFree(%d) = %d %v, want %d %v (%d of %d marked)", q, got, ok, wantB, wantOK, marked, n)
				}
			}
			m.reset()
			if b, ok := m.nextFree(n - 1); !ok || b != 0 || m.isSet(0) {
				t.Fatalf("after reset: nextFree(%d) = %d %v, isSet(0) %v", n-1, b, ok, m.isSet(0))
			}
		})
	}
}

func plainNextFree(p []bool, b uint64) (uint64, bool) {
	n := uint64(len(p))
	for i := uint64(1); i <= n; i++ {
		if c := (b + i) % n; !p[c] {
			return c, true
		}
	}
	return 0, false
}

// TestRandomMapCutsIOs: with fio's random map a job of mixed sizes does
// every block of its region exactly once in one pass, its I/Os cut short
// at blocks already done, so that a pass's bytes are the region's and its
// mean size falls below the split's; the same job with norandommap
// repeats blocks at the split's mean size; a map is kept only where fio
// keeps one (uniform offsets, blockalign the smallest size).
func TestRandomMapCutsIOs(t *testing.T) {
	const size = 4 << 20
	split := []BSShare{{4096, 60}, {65536, 10}, {512, 10}, {8192, 20}}
	SortBSSplit(split)
	w := Workload{RW: RandRW, RWMixRead: 80, BS: 512, RandSeed: 5,
		Shape: Shape{BSSplit: [2][]BSShare{split, split}, RandomMap: true}}
	g := newOffsetGen(&w, 8192, []int64{size}, 0)
	done := make([]bool, size/512)
	var bytes, ios int64
	for bytes < size {
		_, _, off, n := g.next()
		off -= 8192
		if off < 0 || off+n > size || off%512 != 0 || n%512 != 0 || n <= 0 {
			t.Fatalf("I/O %d: %d bytes at %d, outside the region or unaligned", ios, n, off)
		}
		for b := off / 512; b < (off+n)/512; b++ {
			if done[b] {
				t.Fatalf("I/O %d: block %d done twice in one pass", ios, b)
			}
			done[b] = true
		}
		bytes += n
		ios++
	}
	mean := float64(bytes) / float64(ios)
	t.Logf("random map: %d I/Os, mean %.0f bytes", ios, mean)
	if bytes != size || mean > 0.75*w.MeanBS(0) {
		t.Fatalf("random map: %d bytes in %d I/Os (mean %.0f), want %d bytes at a mean below the split's %.0f", bytes, ios, mean, size, w.MeanBS(0))
	}
	w.Shape.RandomMap = false
	g = newOffsetGen(&w, 0, []int64{size}, 0)
	var sum int64
	for range 20000 {
		_, _, _, n := g.next()
		sum += n
	}
	if m := float64(sum) / 20000; m < 0.9*w.MeanBS(0) {
		t.Fatalf("norandommap: mean %.0f bytes, want about the split's %.0f", m, w.MeanBS(0))
	}
	for _, c := range []struct {
		s    Shape
		keep bool
	}{
		{Shape{RandomMap: true, Align: [2]int64{512, 512}}, true},
		{Shape{RandomMap: true, Align: [2]int64{4096, 0}}, false},
		{Shape{RandomMap: true, Dist: Distribution{Kind: DistZipf, Value: 1.2}}, false},
		{Shape{}, false},
	} {
		if got := (Workload{BS: 512, Shape: c.s}).keepsRandomMap(); got != c.keep {
			t.Errorf("%+v: keepsRandomMap %v, want %v", c.s, got, c.keep)
		}
	}
}
