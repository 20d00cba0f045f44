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

// offsetGen yields each job's I/O directions, files and offsets: random
// offsets are uniform over the job's region of the file and bs-aligned;
// sequential ones wrap around at the end of the region, one cursor per file
// and direction. With several files (fio's filename=a:b) the I/Os go to
// each file in turn, one at a time (fio's file_service_type=roundrobin).
type offsetGen struct {
	regions []genRegion // one per file
	bs      int64
	random  bool
	mix     uint64 // percent of reads
	reads   bool   // pattern reads
	writes  bool   // pattern writes
	rng     rng
	turn    int // the file of the next I/O
}

// genRegion is a job's region of one file.
type genRegion struct {
	start   int64 // bytes, first offset of the region
	blocks  uint64
	seqNext [2]int64 // next sequential block index per direction
}

// newOffsetGen returns job's generator over one region per file: starting
// at start (bytes) and sizes[f] bytes long in file f.
func newOffsetGen(w *Workload, start int64, sizes []int64, job int) offsetGen {
	g := offsetGen{
		regions: make([]genRegion, len(sizes)),
		bs:      w.BS,
		random:  w.RW.IsRandom(),
		mix:     uint64(w.RWMixRead),
		reads:   w.RW.IsRead(),
		writes:  w.RW.IsWrite(),
		rng:     newRNG(w.RandSeed, job),
	}
	for f, size := range sizes {
		g.regions[f] = genRegion{start: start, blocks: uint64(size / w.BS)}
	}
	return g
}

// next returns the direction (dirRead or dirWrite), the file (an index
// into the job's files) and the offset of the next I/O.
func (g *offsetGen) next() (dir, file int, off int64) {
	switch {
	case g.reads && g.writes:
		if g.rng.below(100) >= g.mix {
			dir = dirWrite
		}
	case g.writes:
		dir = dirWrite
	}
	file = g.turn
	if len(g.regions) > 1 {
		g.turn = (g.turn + 1) % len(g.regions)
	}
	r := &g.regions[file]
	var blk uint64
	if g.random {
		blk = g.rng.below(r.blocks)
	} else {
		blk = uint64(r.seqNext[dir])
		if blk+1 >= r.blocks {
			r.seqNext[dir] = 0
		} else {
			r.seqNext[dir] = int64(blk + 1)
		}
	}
	return dir, file, r.start + int64(blk)*g.bs
}
