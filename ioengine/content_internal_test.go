package ioengine

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"math"
	"testing"
)

// contentOf is the share of 4k blocks of data that repeat another block
// of it (1 − distinct/total) and its size compressed block by block with
// flate, as a share of its own.
func contentOf(t *testing.T, data []byte) (dup, compressed float64) {
	t.Helper()
	seen := map[[32]byte]bool{}
	var out bytes.Buffer
	fw, err := flate.NewWriter(&out, flate.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	n, size := 0, 0
	for p := 0; p+4096 <= len(data); p += 4096 {
		blk := data[p : p+4096]
		seen[sha256.Sum256(blk)] = true
		out.Reset()
		fw.Reset(&out)
		_, _ = fw.Write(blk)
		_ = fw.Close()
		n, size = n+1, size+out.Len()
	}
	return 1 - float64(len(seen))/float64(n), float64(size) / float64(n*4096)
}

// written is what n writes of bs bytes of job idx of w would carry, one
// after another, as the engine fills them (refilled, or filled once and
// scrambled).
func written(w Workload, idx, n int) []byte {
	f := newFiller(&w, idx, w.Size)
	out := make([]byte, n*int(w.BS))
	buf := make([]byte, w.BS)
	f.start(buf, w.BS)
	for i := range n {
		if f != nil { // nil: the zeros the buffer was mapped with
			f.write(buf, int64(i)*w.BS, int64(i)*1_234_567+17) // scramble's line varies with the time, as in a run
		}
		copy(out[i*int(w.BS):], buf)
	}
	return out
}

// TestBuffersAsFio checks the content of each kind of buffer against what
// fio 3.33 writes with the same options (the figures are fio's, measured
// on its files the same way: cmd/qdsweep's TestFioBufferContent compares
// the two tools on real files).
func TestBuffersAsFio(t *testing.T) {
	base := Workload{RW: Write, BS: 4096, NumJobs: 1, Size: 16 << 20}
	cases := []struct {
		name      string
		b         Buffers
		dup, comp float64 // fio's, ±0.03
	}{
		{"fio's default: random once, scrambled", Buffers{Random: true, Scramble: true}, 0, 0.92},
		{"qdsweep's default: zeros", Buffers{}, 1, 0.006},
		{"scramble_buffers=0: every write alike", Buffers{Random: true}, 1, 1.0},
		{"zero_buffers, refilled", Buffers{Refill: true}, 1, 0.006},
		{"refill_buffers", Buffers{Random: true, Refill: true}, 0, 1.0},
		{"compress 50", Buffers{Compress: 50, Refill: true}, 0, 0.523},
		{"compress 25, chunk 4k", Buffers{Compress: 25, Chunk: 4096, Refill: true}, 0, 0.76},
		{"dedupe 50", Buffers{Dedupe: 50, Refill: true}, 0.5, 1.0},
		{"dedupe 90, compress 75", Buffers{Dedupe: 90, Compress: 75, Refill: true}, 0.9, 0.275},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := base
			w.Buffers = tc.b
			dup, comp := contentOf(t, written(w, 0, 2048))
			if math.Abs(dup-tc.dup) > 0.03 || math.Abs(comp-tc.comp) > 0.03 {
				t.Errorf("duplicate blocks %.3f, compressed to %.3f; fio's %.3f and %.3f", dup, comp, tc.dup, tc.comp)
			}
		})
	}
}

// pages are the first n blocks (of w.BS bytes) of job k's stream, as
// the working set holds them: each chunk from its own seed.
func pages(w Workload, k, n int) map[[32]byte]bool {
	f := newFiller(&w, 0, w.Size)
	m := map[[32]byte]bool{}
	buf := make([]byte, w.BS)
	for i := range n {
		for c := uint64(0); c < f.perPage; c++ {
			fillPercent(buf[int64(c)*f.chunk:int64(c+1)*f.chunk], f.seed(k, uint64(i)*f.perPage+c), 0, nil)
		}
		m[sha256.Sum256(buf)] = true
	}
	return m
}

// TestDedupeWorkingSet: a working set's repeats are the job's first
// blocks; with Global, as many are the other job's first blocks.
func TestDedupeWorkingSet(t *testing.T) {
	w := Workload{RW: Write, BS: 4096, NumJobs: 1, Size: 16 << 20,
		Buffers: Buffers{Dedupe: 50, Mode: DedupeWorkingSet, WorkingSet: 10, Refill: true, Jobs: 2}}
	const n, set = 4096, 4096 * 10 / 100 // the set: 10% of 16 MiB in 4k blocks
	own, other := pages(w, 0, set), pages(w, 1, set)
	for _, global := range []bool{false, true} {
		w.Buffers.Global = global
		data := written(w, 0, n)
		var fromOwn, fromOther int
		for p := 0; p+4096 <= len(data); p += 4096 {
			h := sha256.Sum256(data[p : p+4096])
			if own[h] {
				fromOwn++
			}
			if other[h] {
				fromOther++
			}
		}
		// Half the writes repeat a block of the set; the set's own
		// blocks are among the first unique ones too.
		repeats := n / 2
		switch {
		case !global && (fromOther != 0 || math.Abs(float64(fromOwn-repeats-set)) > 0.1*float64(repeats)):
			t.Errorf("%d writes are the job's first %d blocks and %d the other job's; want about %d and none", fromOwn, set, fromOther, repeats+set)
		case global && (math.Abs(float64(fromOther-repeats/2)) > 0.1*float64(repeats) || math.Abs(float64(fromOwn-repeats/2-set)) > 0.1*float64(repeats)):
			t.Errorf("dedupe_global: %d writes are the job's first %d blocks and %d the other job's; want about %d and %d", fromOwn, set, fromOther, repeats/2+set, repeats/2)
		}
	}
}
