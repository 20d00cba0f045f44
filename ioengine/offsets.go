//go:build linux

package ioengine

import "math/bits"

// rng is splitmix64: fast, 64-bit state, good enough for offsets and mixes.
type rng struct{ s uint64 }

func newRNG(seed uint64, job int) rng {
	r := rng{s: seed ^ (uint64(job+1) * 0x9e3779b97f4a7c15)}
	r.next()
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// below returns a uniform value in [0, n) (Lemire's multiply-shift; n > 0).
func (r *rng) below(n uint64) uint64 {
	hi, _ := bits.Mul64(r.next(), n)
	return hi
}

// offsetGen yields each job's I/O directions and offsets: random offsets are
// uniform over the job's region and bs-aligned; sequential ones wrap around
// at the end of the region, one cursor per direction.
type offsetGen struct {
	start   int64 // bytes, first offset of the region
	blocks  uint64
	bs      int64
	random  bool
	mix     uint64 // percent of reads
	reads   bool   // pattern reads
	writes  bool   // pattern writes
	rng     rng
	seqNext [2]int64 // next sequential block index per direction
}

func newOffsetGen(w *Workload, start, size int64, job int) offsetGen {
	g := offsetGen{
		start:  start,
		blocks: uint64(size / w.BS),
		bs:     w.BS,
		random: w.RW.IsRandom(),
		mix:    uint64(w.RWMixRead),
		reads:  w.RW.IsRead(),
		writes: w.RW.IsWrite(),
		rng:    newRNG(w.RandSeed, job),
	}
	return g
}

// next returns the direction (dirRead or dirWrite) and offset of the next I/O.
func (g *offsetGen) next() (dir int, off int64) {
	switch {
	case g.reads && g.writes:
		if g.rng.below(100) >= g.mix {
			dir = dirWrite
		}
	case g.writes:
		dir = dirWrite
	}
	var blk uint64
	if g.random {
		blk = g.rng.below(g.blocks)
	} else {
		blk = uint64(g.seqNext[dir])
		if blk+1 >= g.blocks {
			g.seqNext[dir] = 0
		} else {
			g.seqNext[dir] = int64(blk + 1)
		}
	}
	return dir, g.start + int64(blk)*g.bs
}
