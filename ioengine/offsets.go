//go:build linux

package ioengine

import (
	"math"
	"math/bits"
	"sync"
)

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

// u32 returns a uniform 32-bit value, as fio's __rand of a 32-bit
// tausworthe state: fio's distributions scale it by 2³²−1 or 2³².
func (r *rng) u32() uint64 { return r.next() >> 32 }

// frand32Max is fio's FRAND32_MAX.
const frand32Max = 1<<32 - 1

// offsetGen yields each job's I/O directions, files, offsets and sizes, as
// fio's get_next_offset and get_next_buflen do: random offsets are drawn
// by the distribution over the job's region of the file, in units of the
// direction's smallest block size (with fio's random map, Shape.RandomMap,
// the next free block from the one drawn, and the I/O cut short at the
// first block already done; without it, with repeats, as fio's
// norandommap); sequential ones follow the direction's last I/O (plus the
// skip) and wrap around at the end of the region, one position per file
// and direction. With several files (fio's filename=a:b) the I/Os go to
// each file in turn, one at a time (fio's file_service_type=roundrobin).
type offsetGen struct {
	regions []genRegion // one per file
	random  bool
	mix     uint64 // percent of reads
	reads   bool   // pattern reads
	writes  bool   // pattern writes
	rng     rng
	rng0    rng // rng as the job began (restartPass)
	turn    int // the file of the next I/O
	// lo and hi are each direction's smallest and largest I/O size; unit
	// is the unit of its random offsets (fio's blockalign: lo unless set).
	lo, hi, unit [2]int64
	split        [2][]BSShare
	// seqPerc is the percent of random I/Os that are sequential (100 −
	// percentage_random).
	seqPerc [2]uint64
	skip    int64
	every   int // a new random offset every n-th I/O (1: each)
	count   int // I/Os until the next random offset
	dist    Distribution
	zones   [2][]zoneIndex // zoned: the zone of each percent of the I/Os
	zipf    zipfConsts
	backlog *verifyBacklog // verify_backlog's writes to read back (nil: none)
	// passEnds: a sequential follow-on past the region's end ends the
	// pass (Control.PassEnds), and ended says the last I/O drawn did.
	passEnds, ended bool
	// lastOfPass says the I/O drawn last ends its direction's pass with
	// skips (rw=rw:8k), and the job with it (passEnds).
	lastOfPass bool
	// newPass is set when the last I/O drawn began a new pass over its
	// file's region (the random map full, a sequential job back at the
	// start), as fio's starts each (job.invalidate).
	newPass bool
	// zone is the job's place in its strided zones (nil: none).
	zone *zoneGen
}

// genRegion is a job's region of one file.
type genRegion struct {
	start  int64     // bytes, first offset of the region
	size   int64     // bytes
	blocks [2]uint64 // random offsets per direction: the region in units of lo
	pos    [2]int64  // next sequential offset per direction, from start
	// nranges and randOff are fio's zipf, pareto and normal state of the
	// file: the ranks over the region and the offset added to each.
	nranges uint64
	randOff uint64
	// done is fio's random map of the region (nil without one): one bit
	// per block of the smaller direction's smallest size.
	done *blockMap
}

// zoneIndex is fio's zone_split_index: a zone's start and end, in
// percent (zoned) or bytes (zoned_abs) of the region.
type zoneIndex struct{ from, to int64 }

// newOffsetGen returns job's generator over one region per file: starting
// at start (bytes) and sizes[f] bytes long in file f.
func newOffsetGen(w *Workload, start int64, sizes []int64, job int) offsetGen {
	s := w.Shape
	g := offsetGen{
		regions: make([]genRegion, len(sizes)),
		random:  w.RW.IsRandom(),
		mix:     uint64(w.RWMixRead),
		reads:   w.RW.IsRead(),
		writes:  w.RW.IsWrite(),
		rng:     newRNG(w.RandSeed, job),
		split:   s.BSSplit,
		skip:    s.Skip,
		every:   max(s.RandomEvery, 1),
		dist:    s.Dist,
	}
	g.count, g.rng0 = g.every, g.rng
	if w.RW.IsWrite() && w.FioVerify.Kind != "" {
		g.backlog = newVerifyBacklog(w.FioVerify, w.IODepth)
	}
	for d := range 2 {
		g.lo[d], g.hi[d] = s.BSBounds(d, w.BS)
		g.unit[d] = g.lo[d]
		if s.Align[d] > 0 {
			g.unit[d] = s.Align[d]
		}
		g.seqPerc[d] = uint64(s.Sequential[d])
		g.zones[d] = zoneTable(s.Dist.Zones[d])
	}
	rangeSize := min(g.lo[0], g.lo[1])
	if w.Zones.On() && len(sizes) == 1 {
		g.zone = &zoneGen{StridedZones: w.Zones, span: w.Zones.Span(), end: sizes[0]}
	}
	for f, size := range sizes {
		r := genRegion{start: start, size: size}
		span := size // random offsets' span: the region, or a zone of it
		if g.zone != nil {
			span = g.zone.span
		}
		for d := range 2 {
			// fio's last_block: the region (the zone) less what the
			// smallest I/O needs beyond an aligned start, in units.
			r.blocks[d] = uint64(max(span-max(g.lo[d]-g.unit[d], 0), 0) / g.unit[d])
		}
		r.nranges = uint64((size + rangeSize - 1) / rangeSize)
		if g.random && w.keepsRandomMap() {
			r.done = newBlockMap(uint64(span / rangeSize))
		}
		g.regions[f] = g.initDist(r)
	}
	return g
}

// zoneTable is fio's zone index of zones: entry v−1 is the zone fio picks
// when it draws v in 1..100.
func zoneTable(zs []Zone) []zoneIndex {
	if len(zs) == 0 {
		return nil
	}
	t := make([]zoneIndex, 0, 100)
	var prev int64
	for _, z := range zs {
		size := z.Size + int64(z.SizePerc) // one of them is set
		for range z.Access {
			t = append(t, zoneIndex{prev, prev + size})
		}
		prev += size
	}
	return t
}

// next returns the direction (dirRead or dirWrite), the file (an index
// into the job's files), the offset and the size of the next I/O.
func (g *offsetGen) next() (dir, file int, off, n int64) {
	if b := g.backlog; b != nil {
		b.taken = b.due()
		b.lastRead = b.taken
		if b.taken {
			w := b.pop()
			return dirRead, w.file, w.off, w.n
		}
	}
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
	if g.zone != nil {
		rel, n := g.nextInZone(r, dir)
		return dir, file, r.start + rel, n
	}
	rel, drawn := g.offset(r, dir)
	n = g.lo[dir]
	if g.hi[dir] != n {
		n = g.size(dir, rel, r.size)
	}
	if drawn && r.done != nil {
		n = g.mark(r, dir, rel, n)
	}
	r.pos[dir] = rel + n
	if g.passEnds && g.skip > 0 && !g.random && r.pos[dir]+g.skip >= r.size {
		g.lastOfPass = true // this direction's pass is over, and fio's job with it (rw=rw:8k)
	}
	if g.backlog != nil && dir == dirWrite {
		g.backlog.logWrite(file, r.start+rel, n)
	}
	return dir, file, r.start + rel, n
}

// restartPass starts the job's next loop over its regions with skips
// (Control.Loops): each direction again at the region's start, as fio's
// loop puts last_pos back at the file's offset, the pass's end unset.
// With repeat its draws start over too (fio's randrepeat=1 seeds each
// loop alike).
func (g *offsetGen) restartPass(repeat bool) {
	for f := range g.regions {
		g.regions[f].pos = [2]int64{}
	}
	if repeat {
		g.rng = g.rng0
	}
	g.ended, g.lastOfPass, g.newPass = false, false, true
}

// offset is the next offset of direction dir in r, from r's start, and
// whether it was drawn at random: fio's get_next_block with
// rw_sequencer=sequential.
func (g *offsetGen) offset(r *genRegion, dir int) (int64, bool) {
	if !g.random {
		return g.seq(r, dir), false
	}
	if g.followsOn(dir) {
		return g.followOn(r, dir), false
	}
	return g.rand(r, dir), true
}

// followsOn reports whether a random job's next I/O of direction dir
// follows its last one (rw=randread:N's every N-th drawn, percentage_random's
// share) rather than being drawn.
func (g *offsetGen) followsOn(dir int) bool {
	if g.every > 1 {
		if g.count--; g.count > 0 {
			return true
		}
		g.count = g.every
	}
	return g.seqPerc[dir] > 0 && g.rng.below(100) < g.seqPerc[dir]
}

// followOn is a random job's sequential I/O after its last one (seq),
// noting when it would start past the region's end and that ends the
// pass (passEnds: fio's get_next_offset past io_size).
func (g *offsetGen) followOn(r *genRegion, dir int) int64 {
	if g.passEnds && r.pos[dir]+g.lo[dir] > r.size {
		g.ended = true
	}
	return g.seq(r, dir)
}

// mark is fio's mark_random_map: the blocks (of dir's smallest size) of
// an I/O of n bytes at rel marked done, up to the first one already done,
// and the I/O cut to the blocks marked.
func (g *offsetGen) mark(r *genRegion, dir int, rel, n int64) int64 {
	lo := g.lo[dir]
	set := r.done.setRun(uint64(rel/lo), uint64((n+lo-1)/lo))
	if set == 0 {
		return n // fio asserts a block was free; only where directions' sizes differ
	}
	return min(n, int64(set)*lo)
}

// seq is the sequential offset after dir's last I/O in r, skip bytes
// further on (fio's ddir_seq_add, not before the first I/O nor after one
// at the start): past the end, from the start again; before the start
// (a backward skip), skip bytes before the end, as fio wraps them.
func (g *offsetGen) seq(r *genRegion, dir int) int64 {
	p := r.pos[dir]
	if p > 0 && g.skip != 0 {
		p += g.skip
		if p < 0 || p >= r.size {
			p = 0
			if g.skip < 0 {
				p = r.size + g.skip
			}
		}
	}
	if p < 0 || p+g.lo[dir] > r.size {
		p = 0
		g.newPass = g.newPass || !g.random
	}
	return p
}

// rand is a random offset of direction dir in r, by the distribution.
func (g *offsetGen) rand(r *genRegion, dir int) int64 {
	unit := g.unit[dir]
	switch g.dist.Kind {
	case DistZoned, DistZonedAbs:
		if t := g.zones[dir]; t != nil {
			return int64(g.zoned(r, dir, t)) * unit
		}
	case DistZipf, DistPareto, DistNormal:
		// fio's ranks cover the region in the smaller direction's unit: an
		// offset whose I/O would not fit is drawn again, as fio's job
		// starts over on the file then.
		for range 64 {
			if off := int64(g.rank(r)) * unit; off+g.lo[dir] <= r.size {
				return off
			}
		}
	}
	b := g.rng.below(r.blocks[dir])
	if m := r.done; m != nil && m.isSet(b) {
		// fio's random map: the next free block, from the start again
		// past the end; a full map starts over, as fio's time_based job
		// and the next loop of a size-based one do.
		// A free block past where dir's I/O fits (directions of different
		// smallest sizes share the map's bits) ends fio's pass too.
		free, ok := m.nextFree(b)
		span := r.size
		if g.zone != nil {
			span = g.zone.span
		}
		if !ok || int64(free)*unit+g.lo[dir] > span {
			m.reset()
			g.newPass = true
			g.ended = g.ended || g.zone != nil && g.passEnds // fio's size-based job in zones ends there
			free = b
		}
		b = free
	}
	return int64(b) * unit
}

// zoned is fio's __get_next_rand_offset_zoned(_abs): a zone by the
// percent drawn, then a uniform block within it.
func (g *offsetGen) zoned(r *genRegion, dir int, t []zoneIndex) uint64 {
	z := t[g.rng.below(uint64(len(t)))]
	lastb := r.blocks[dir]
	var from, n uint64
	if g.dist.Kind == DistZonedAbs {
		// Validate keeps the zones within the region, as fio's job fails otherwise.
		from, n = uint64(z.from/g.unit[dir]), uint64((z.to-z.from)/g.unit[dir])
	} else {
		from = uint64(z.from) * lastb / 100
		n = lastb * uint64(z.to-z.from) / 100
	}
	if n == 0 {
		return from
	}
	return from + g.rng.below(n)
}

// goldenRatio64 is fio's GOLDEN_RATIO_64: its __hash_u64 multiplies a rank
// by it, scattering the hot ranks over the file.
const goldenRatio64 = 0x61C8864680B583EB

// zipfMaxGen caps the terms of fio's zipf normalisation (ZIPF_MAX_GEN).
const zipfMaxGen = 10_000_000

// zipfConsts are fio's zipf constants of the region's ranks.
type zipfConsts struct{ zetan, zeta2, alpha, eta float64 }

// zetanMemo holds zipf's normalisation per rank count and theta: up to ten
// million terms, computed once for all of a run's jobs.
var zetanMemo sync.Map

type zetanKey struct {
	n     uint64
	theta float64
}

func zetan(n uint64, theta float64) float64 {
	k := zetanKey{n, theta}
	if v, ok := zetanMemo.Load(k); ok {
		return v.(float64)
	}
	z := 0.0
	for i := range min(n, zipfMaxGen) {
		z += math.Pow(1/float64(i+1), theta)
	}
	zetanMemo.Store(k, z)
	return z
}

// initDist sets r's distribution state as fio's zipf_init, pareto_init and
// gauss_init do; fio draws the offset of an uncentred zipf or pareto from
// the job's seed, so each job has its own hot ranks.
func (g *offsetGen) initDist(r genRegion) genRegion {
	d := g.dist
	switch d.Kind {
	case DistZipf, DistPareto:
		r.randOff = g.rng.u32()
		if d.HasCenter {
			r.randOff = uint64(float64(r.nranges) * d.Center)
		}
	case DistNormal:
		if d.HasCenter {
			r.randOff = uint64(int64(float64(r.nranges) * (d.Center - 0.5)))
		}
	default:
		return r
	}
	if d.Kind == DistZipf {
		n := float64(r.nranges)
		z := zipfConsts{zetan: zetan(r.nranges, d.Value), zeta2: 1 + math.Pow(0.5, d.Value), alpha: 1 / (1 - d.Value)}
		z.eta = (1 - math.Pow(2/n, 1-d.Value)) / (1 - z.zeta2/z.zetan)
		g.zipf = z // the regions of a job's files share a size
	}
	return r
}

// rank is the next block of r by fio's zipf_next, pareto_next or
// gauss_next, hashed and offset as fio's are.
func (g *offsetGen) rank(r *genRegion) uint64 {
	var v uint64
	switch g.dist.Kind {
	case DistZipf:
		v = g.zipfRank(r.nranges)
	case DistPareto:
		u := float64(g.rng.u32()) / frand32Max
		v = toU64(float64(r.nranges-1) * math.Pow(u, math.Log(g.dist.Value)/math.Log(1-g.dist.Value)))
	case DistNormal:
		v = g.gaussRank(r.nranges)
	}
	return (v*goldenRatio64 + r.randOff) % r.nranges
}

func (g *offsetGen) zipfRank(n uint64) uint64 {
	z := &g.zipf
	u := float64(g.rng.u32()) / frand32Max
	x := u * z.zetan
	switch {
	case x < 1:
		return 0
	case x < 1+math.Pow(0.5, g.dist.Value):
		return 1
	}
	return toU64(float64(n) * math.Pow(z.eta*u-z.eta+1, z.alpha))
}

// gaussRank is fio's gauss_next before its hash: the mean of twelve
// uniform ranks, moved by a uniform deviation of stddev ranks.
func (g *offsetGen) gaussRank(n uint64) uint64 {
	var sum uint64
	for range 12 {
		sum += g.rng.u32() % (n + 1)
	}
	sum = (sum + 11) / 12
	var stddev uint32
	if g.dist.Value != 0 {
		stddev = uint32(math.Ceil(float64(n) * g.dist.Value / 100))
		if uint64(stddev) > n/2 {
			stddev = uint32(n / 2)
		}
	}
	if stddev == 0 {
		return sum
	}
	vr := int32(float64(stddev) * (float64(g.rng.u32()) / (frand32Max + 1.0)))
	dev := vr - int32(stddev/2)
	for uint64(int64(dev))+sum >= n {
		dev /= 2
	}
	return sum + uint64(int64(dev))
}

// toU64 converts a non-negative rank, saturating where C's conversion
// would be undefined.
func toU64(x float64) uint64 {
	switch {
	case !(x > 0):
		return 0
	case x >= 1<<64:
		return math.MaxUint64
	}
	return uint64(x)
}

// size is the size of an I/O of direction dir at rel in a region of size
// bytes: fio's get_next_buflen, drawn again until it fits.
func (g *offsetGen) size(dir int, rel, size int64) int64 {
	lo, hi := g.lo[dir], g.hi[dir]
	for range 64 {
		r := g.rng.u32()
		var n int64
		if sp := g.split[dir]; len(sp) > 0 {
			perc := uint64(0)
			for _, e := range sp {
				if e.Perc == 0 {
					continue
				}
				n = e.BS
				perc += uint64(e.Perc)
				if r/perc <= frand32Max/100 && rel+n <= size {
					break
				}
			}
		} else {
			n = lo + int64(float64(hi)*(float64(r)/(frand32Max+1.0)))
		}
		if lo&(lo-1) == 0 {
			n &^= lo - 1
		} else {
			n -= n % lo
		}
		n = min(n, hi)
		if rel+n <= size {
			return n
		}
	}
	return lo // only a split that gives no share to what fits (fio would spin)
}
