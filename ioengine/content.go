package ioengine

import (
	"encoding/binary"
	"math/rand/v2"
)

// Buffers is what a job's writes carry, as fio 3.33 fills its write
// buffers (io_u.c's fill_io_buffer and small_content_scramble, lib/rand.c's
// fill_random_buf_percentage, dedupe.c). Storage that compresses or
// deduplicates (zram, ZFS, VDO, cloud volumes, SSD controllers) measures
// differently with such data.
//
// The zero value is qdsweep's own default: the buffers hold zeros and are
// written as they are (fio's zero_buffers), at no cost per write, and a
// blank device written stays blank. fio's default is Random and Scramble:
// each buffer filled with random data once, as the job starts, and every
// write scrambled (each 512-byte block carries its file offset and the
// time), so no two blocks written are alike.
//
// Otherwise a buffer is filled as in fio: with Compress or Dedupe set,
// chunk by chunk (Chunk bytes, at most the smallest write), the first
// 100−Compress percent of each chunk random and the rest zeros (Pattern's
// bytes when set); else with Pattern, else random (Random), else zeros.
// With Refill every write is filled anew, else only as the job starts. A
// buffer is filled whole from one source: Dedupe percent of them repeat
// data already generated (DedupeRepeat: the job's next unique buffer;
// DedupeWorkingSet: one of a working set of WorkingSet percent of the
// job's region, in blocks of the smallest write, drawn at random), the
// rest are unique.
type Buffers struct {
	// Random fills the buffers with random data (fio's default; else zeros).
	Random bool `json:"random,omitempty"`
	// Pattern fills them with these bytes, repeated (buffer_pattern); with
	// Compress, the compressible part of each chunk holds them.
	Pattern []byte `json:"pattern,omitempty"`
	// Compress is the percent of each chunk left compressible (zeros or
	// Pattern), 0 to 99 (buffer_compress_percentage; fio turns 100 into
	// zero_buffers).
	Compress int `json:"compress,omitempty"`
	// Chunk is the bytes of each chunk, at most the smallest write
	// (buffer_compress_chunk; 0: fio's default, 512; ChunkWrite: the
	// smallest write, fio's 0).
	Chunk int64 `json:"chunk,omitempty"`
	// Dedupe is the percent of buffers that repeat earlier data
	// (dedupe_percentage); at 100 every chunk of the job is alike, as fio's.
	Dedupe int `json:"dedupe,omitempty"`
	// Mode is how a repeated buffer is chosen (dedupe_mode; "": DedupeRepeat).
	Mode string `json:"dedupe_mode,omitempty"`
	// WorkingSet is DedupeWorkingSet's set, in percent of the job's region
	// (Size, else the file's region) in blocks of the smallest write
	// (dedupe_working_set_percentage).
	WorkingSet int `json:"working_set,omitempty"`
	// Global shares the working set between the run's jobs (dedupe_global):
	// each job's set is made of equal parts of every job's first blocks,
	// so a job repeats what others wrote.
	Global bool `json:"dedupe_global,omitempty"`
	// Refill fills every write anew (refill_buffers); without it a buffer
	// is filled once, as the job starts.
	Refill bool `json:"refill,omitempty"`
	// Scramble marks every write of a buffer filled once with its offset
	// and the time (fio's scramble_buffers, where fio applies it).
	Scramble bool `json:"scramble,omitempty"`
	// JobBase is the number of the workload's first job among all the
	// jobs running together, and Jobs how many run (0: the workload's
	// NumJobs): each job's data is its own, and Global's set spans them.
	JobBase int `json:"job_base,omitempty"`
	Jobs    int `json:"jobs,omitempty"`
}

// Dedupe modes (Buffers.Mode), as fio's dedupe_mode names them.
const (
	DedupeRepeat     = "repeat"      // a repeated buffer is the job's next unique one
	DedupeWorkingSet = "working_set" // a repeated buffer is one of a working set
)

// ChunkWrite is Buffers.Chunk for chunks of the smallest write (fio's
// buffer_compress_chunk=0).
const ChunkWrite int64 = -1

// defaultChunk is fio's buffer_compress_chunk default.
const defaultChunk = 512

// chunked reports whether buffers are filled chunk by chunk (fio's path
// for compression or dedupe).
func (b Buffers) chunked() bool { return b.Compress > 0 || b.Dedupe > 0 }

// golden is fio's GOLDEN_RATIO_64, the multiplier of its random fill.
const golden = 0x61C8864680B583EB

// seedPrimes multiply a chunk's seed into each of fio's four seed
// buckets (CONFIG_SEED_BUCKETS, 4 by default).
var seedPrimes = [4]uint64{1, 2, 3, 5}

// fillRandom fills b from seed as fio's __fill_random_buf does: four
// interleaved 64-bit streams, each word the next power-of-golden multiple
// of its bucket's seed, then the rest from the first.
func fillRandom(b []byte, seed uint64) {
	s0, s1, s2, s3 := seed*seedPrimes[0], seed*seedPrimes[1], seed*seedPrimes[2], seed*seedPrimes[3]
	i := 0
	for ; i+32 <= len(b); i += 32 {
		w := b[i : i+32 : i+32]
		binary.LittleEndian.PutUint64(w[0:], s0)
		binary.LittleEndian.PutUint64(w[8:], s1)
		binary.LittleEndian.PutUint64(w[16:], s2)
		binary.LittleEndian.PutUint64(w[24:], s3)
		s0, s1, s2, s3 = s0*golden, s1*golden, s2*golden, s3*golden
	}
	v := s0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], v)
		v *= golden
	}
	if i < len(b) {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], v)
		copy(b[i:], w[:])
	}
}

// fillPattern fills b with pat repeated from its first byte (zeros when
// pat is empty).
func fillPattern(b, pat []byte) {
	if len(pat) == 0 {
		clear(b)
		return
	}
	for i := 0; i < len(b); i += len(pat) {
		copy(b[i:], pat)
	}
}

// fillPercent fills b as fio's __fill_random_buf_percentage with one
// segment: its first 100−compress percent random from seed, the rest
// pat's bytes (zeros without one).
func fillPercent(b []byte, seed uint64, compress int, pat []byte) {
	if compress >= 100 {
		fillPattern(b, pat)
		return
	}
	n := len(b) * (100 - max(compress, 0)) / 100
	fillRandom(b[:n], seed)
	fillPattern(b[n:], pat)
}

// scramble marks each 512-byte block of buf, written at file offset off
// at event time t (ns), as fio's small_content_scramble: the block's
// offset at one of its first eight 64-byte lines, the time in the last 16
// bytes of its first line.
func scramble(buf []byte, off, t int64) {
	sec, nsec := uint64(t/1e9), uint64(t%1e9)
	line := int((nsec^uint64(off))&7) * 64
	for p := 0; p+512 <= len(buf); p += 512 {
		binary.LittleEndian.PutUint64(buf[p+line:], uint64(off)+uint64(p))
		binary.LittleEndian.PutUint64(buf[p+48:], sec)
		binary.LittleEndian.PutUint64(buf[p+56:], nsec)
	}
}

// mix is splitmix64's finalizer: a counter's seed.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// filler fills one job's write buffers. Each job's data is a stream of
// chunk seeds, the n-th of job k mix(base(k)+n): fio's buffer state, one
// seed per chunk, whose copies dedupe.c keeps are here a job and a place
// in its stream.
type filler struct {
	b       Buffers
	seed0   uint64 // the workload's RandSeed: the data of every job of a run
	job     int    // the job's number among the run's (JobBase + its index)
	jobs    int    // the run's jobs (Global's working set spans them)
	next    uint64 // the job's next unique chunk in its stream
	minW    int64  // the smallest write, bytes
	chunk   int64  // bytes of each chunk (≤ minW)
	perPage uint64 // chunks of a block of the smallest write
	wsPages int64  // the working set's blocks
	perJob  int64  // Global: the blocks of each job's part of a working set
	rng     *rand.Rand
}

// newFiller is job idx's filler of w; region is the job's region of its
// file, bytes. Nil when the job writes nothing, when a verifier fills its
// writes, or when its buffers stay the zeros they were mapped with.
func newFiller(w *Workload, idx int, region int64) *filler {
	b := w.Buffers
	if !w.RW.IsWrite() || w.FioVerify.Kind != "" || w.Verify || !b.Random && !b.Scramble && len(b.Pattern) == 0 && !b.chunked() {
		return nil
	}
	f := &filler{b: b, seed0: w.RandSeed, job: b.JobBase + idx, jobs: max(b.Jobs, w.NumJobs, 1)}
	f.minW, _ = w.Shape.BSBounds(1, w.BS)
	f.minW = max(f.minW, 1)
	f.chunk = b.Chunk
	switch {
	case f.chunk == 0:
		f.chunk = defaultChunk
	case f.chunk < 0:
		f.chunk = f.minW
	}
	f.chunk = min(f.chunk, f.minW)
	f.perPage = uint64(f.minW / f.chunk)
	if b.Dedupe > 0 && b.Mode == DedupeWorkingSet {
		size := w.Size
		if size <= 0 {
			size = region
		}
		f.wsPages = size * int64(b.WorkingSet) / 100 / f.minW
		f.perJob = max(f.wsPages/int64(f.jobs), 1)
	}
	f.rng = rand.New(rand.NewPCG(f.seed0^0xdedede, uint64(f.job)))
	return f
}

// seed is the n-th chunk seed of job k's stream.
func (f *filler) seed(k int, n uint64) uint64 {
	return mix(mix(f.seed0^uint64(k)*0xa0761d6478bd642f) + n)
}

// source picks where a buffer's data comes from, as fio's get_buf_state:
// the job's stream at its next unique chunk (advancing it), that place
// again (a repeat), or one of the working set's blocks. step is how far
// each chunk moves in the stream: 0 at Dedupe 100, where fio's state
// returns to the same seed after every chunk.
func (f *filler) source() (k int, n uint64, step uint64, advance bool) {
	d := f.b.Dedupe
	switch {
	case d == 0:
		return f.job, f.next, 1, true
	case d >= 100:
		return f.job, f.next, 0, false
	case f.rng.IntN(100) >= d:
		return f.job, f.next, 1, true
	case f.b.Mode != DedupeWorkingSet || f.wsPages <= 0:
		return f.job, f.next, 1, false
	}
	i := f.rng.Int64N(f.wsPages)
	if !f.b.Global {
		return f.job, uint64(i) * f.perPage, 1, false
	}
	// dedupe.c: every perJob blocks the set moves on to the next job's
	// first blocks.
	k = (f.job + int(i/f.perJob)) % f.jobs
	return k, uint64(i%f.perJob) * f.perPage, 1, false
}

// fill fills buf as fio's fill_io_buffer.
func (f *filler) fill(buf []byte) {
	b := &f.b
	switch {
	case b.chunked():
		k, n, step, advance := f.source()
		for p := int64(0); p < int64(len(buf)); p += f.chunk {
			end := min(p+f.chunk, int64(len(buf)))
			fillPercent(buf[p:end], f.seed(k, n), b.Compress, b.Pattern)
			n += step
		}
		if advance {
			f.next = n
		}
	case len(b.Pattern) > 0:
		fillPattern(buf, b.Pattern)
	case b.Random:
		fillRandom(buf, f.seed(f.job, f.next))
		f.next++
	default:
		clear(buf)
	}
}

// start fills each of a job's buffers (slots of bs bytes in bufs) as the
// job starts, as fio fills its io_us before the first write.
func (f *filler) start(bufs []byte, bs int64) {
	if f == nil {
		return
	}
	for p := int64(0); p+bs <= int64(len(bufs)); p += bs {
		f.fill(bufs[p : p+bs])
	}
}

// write prepares buf, about to be written at file offset off at event
// time t: filled anew with Refill, else scrambled with Scramble.
func (f *filler) write(buf []byte, off, t int64) {
	switch {
	case f.b.Refill:
		f.fill(buf)
	case f.b.Scramble:
		scramble(buf, off, t)
	}
}
