package ioengine

import (
	"fmt"
	"time"

	"github.com/qdsweep/qdsweep/guard"
)

// RW is fio's I/O pattern name.
type RW string

// The I/O patterns fio calls rw=…
const (
	Read      RW = "read"
	Write     RW = "write"
	RandRead  RW = "randread"
	RandWrite RW = "randwrite"
	ReadWrite RW = "rw" // sequential mixed, split by RWMixRead
	RandRW    RW = "randrw"
)

// Workload describes one run, in fio's vocabulary. Sizes are in bytes.
type Workload struct {
	Filename        string        // regular file or block device
	Size            int64         // bytes of the region each job covers (0: whole file/device)
	Offset          int64         // bytes; start of the region
	OffsetIncrement int64         // bytes; job i starts at Offset + i*OffsetIncrement (JobStart)
	RW              RW            // pattern
	RWMixRead       int           // percent of reads for rw/randrw (0..100)
	BS              int64         // bytes per I/O
	IODepth         int           // I/Os in flight per job
	NumJobs         int           // parallel jobs (one ring/context and one OS thread each)
	Direct          bool          // O_DIRECT
	RandSeed        uint64        // seed of the per-job offset generators
	ContinueOnError bool          // count I/O errors instead of ending the job
	IOTimeout       time.Duration // an I/O outstanding this long ends the run with an error (0: 30 s)
	// StartAlign is fio's rounding of a start computed from a percentage
	// (offset=N%, offset_increment=N%): each job's start rounded up to a
	// multiple of it (fio's smallest block size); 0: as is.
	StartAlign int64
	// Verify stamps every write and checks every read against the stamp:
	// each 8-byte little-endian word holds its own byte offset in the file.
	// A read whose data differs is counted as an error "verify".
	Verify bool
	// FioVerify is fio's verify= (crc32c, md5, pattern, verify_pattern,
	// verify_interval): every write carries fio's verify header and
	// checksum, every read is checked against them, on disk as fio writes
	// them. A read that fails is an error "verify" naming the block's
	// offset. The zero value verifies nothing; Verify and FioVerify are
	// not set together.
	FioVerify FioVerify
	// RateIOPS caps each job's I/Os per second, reads [0] and writes [1]
	// each on their own (fio's rate_iops; 0: no cap). A job ahead of its
	// rate waits before it issues its next I/O; the wait is not latency.
	RateIOPS [2]float64
	// Poisson is fio's rate_process=poisson: the gaps between a job's due
	// times under RateIOPS are drawn from an exponential distribution of
	// mean 1/rate (fio's usec_for_io), per direction from RandSeed, so the
	// arrivals are a Poisson process whatever the device does; as with the
	// linear rate, a job behind its arrivals issues at once, and an I/O's
	// latency starts when it is issued, as fio's.
	Poisson bool
	// Think is fio's thinktime family (ThinkTime); RateMin its rate_min,
	// rate_iops_min and rate_cycle (RateFloor); LatTarget its
	// latency_target family (LatencyTarget).
	Think     ThinkTime
	RateMin   RateFloor
	LatTarget LatencyTarget
	// Flow is fio's flow family: the job's share of the I/Os of the jobs
	// it runs beside (Flow).
	Flow Flow
	// SyncEvery is fio's fsync=N / fdatasync=N: each job syncs the file it
	// wrote after every SyncEvery writes (0: never); SyncData picks
	// fdatasync over fsync. The sync's time is not a write's latency: it is
	// measured on its own (Stats.Sync), and no I/O is in flight meanwhile.
	// psync only (Validate).
	SyncEvery int
	SyncData  bool
	// OpenSync is fio's sync=: "" (none), "sync" (O_SYNC) or "dsync"
	// (O_DSYNC), flags the target is opened with, so every write is
	// durable before it completes.
	OpenSync string
	// Invalidate drops the files' cached pages before the run, as fio's
	// invalidate=1 (its default) does, O_DIRECT or not: a buffered run then
	// starts from the device, not from what an earlier run left in the page
	// cache, and a direct run over a file written just before starts with
	// its dirty pages sent to the device at once, not each flushed (and, on
	// a filesystem that allocates late, allocated) by the direct write that
	// lands on it. Regular files get POSIX_FADV_DONTNEED, block devices
	// BLKFLSBUF (root only).
	Invalidate bool
	// Fadvise is fio's fadvise_hint: the advice given the kernel
	// (posix_fadvise) on each file as it opens. The zero value is fio's
	// default, the job's own pattern: FADV_RANDOM for a random one (a
	// buffered random read then gets no readahead), FADV_SEQUENTIAL
	// otherwise.
	Fadvise Fadvise
	// Files, when it names more than one file, is fio's filename list
	// (filename=a:b): every job spreads its I/Os over all of them, one to
	// each in turn (fio's file_service_type=roundrobin). Size, when set,
	// is split evenly between them (fio's size over nrfiles); 0 gives each
	// file its own size. Files[0] is Filename.
	Files []string
	// JobFiles, when set, gives each job its own file: job i does its I/O
	// on JobFiles[i] (fio's per-job files, <directory>/<name>.<i>.0), all
	// laid out alike; Filename is JobFiles[0]. Empty: every job shares Filename.
	JobFiles []string
	// Starts, when set, is each job's region start (job i's at i, bytes)
	// where fio's clones compute theirs one after another: an offset or
	// offset_increment that is a share of a file the clones lay out, each
	// clone's share of the file as the clones set up before it left it.
	// Empty: Offset + i × OffsetIncrement (JobStart).
	Starts []int64
	// JobSizes, when set, is each job's region bytes (job i's at i) where
	// fio's clones' differ: size=N% cut at the file's end from each
	// clone's own start. Empty: Size for every job (JobSize).
	JobSizes []int64
	// Permit is what the write guard allows (package guard). The zero value
	// refuses writes to existing files and devices; set guard.Permit.Unchecked
	// to skip the checks explicitly.
	Permit guard.Permit
	// Held, when set, is the target already checked and opened for a whole
	// sweep (guard.Hold): the run uses that open file (a block device stays
	// claimed with O_EXCL) instead of opening Filename again.
	Held *guard.Held
	// HeldFiles are the run's other files, each checked and opened once
	// when the run started (a job file's later groups, its other jobs'
	// files): a file whose path one of them was opened by is used through
	// that descriptor, never opened again by path, so what was judged at
	// the start is what is written, whatever the path leads to by then.
	HeldFiles []*guard.Held
	// Shape is how each I/O's size and offset are drawn beyond BS and RW
	// (fio's bssplit, bsrange, random_distribution, percentage_random,
	// rw=read:<skip>); its zero value is fio's default. With a mix of
	// sizes, BS is the smallest (MinBS) and buffers hold MaxBS bytes.
	Shape Shape
	// Zones is fio's zonemode=strided: each job's I/O one zone of its file
	// at a time (StridedZones); the zero value is none.
	Zones StridedZones
	// Buffers is what the writes carry (fio's buffer_* and dedupe_*
	// options); its zero value writes zeros.
	Buffers Buffers
	// Uring holds fio's io_uring engine options; the zero value leaves the
	// ring's setup to qdsweep. Other engines refuse them (Validate).
	Uring UringOptions
	// Prio is the job's I/O priorities (IOPrio): its own, and per-command
	// ones for io_uring and libaio only (Validate).
	Prio IOPrio
}

// Choice is a setting given on, given off, or left to qdsweep.
type Choice int8

// A Choice's values.
const (
	Auto Choice = iota // qdsweep decides (and says what it chose)
	On
	Off
)

// UringOptions are fio's io_uring engine options, with fio's meaning.
type UringOptions struct {
	// FixedBufs is fio's fixedbufs: On registers the I/O buffers with the
	// ring (IORING_REGISTER_BUFFERS, READ_FIXED/WRITE_FIXED) and fails the
	// run when the kernel refuses; Off never registers. Auto registers
	// them except where it buys nothing (tmpfs) or the kernel cannot
	// (deeper than its 16,384 buffers), and says so in Stats.Buffers.
	FixedBufs Choice
	// RegisterFiles is fio's registerfiles: the job's files are registered
	// with the ring (IORING_REGISTER_FILES) and SQEs name them by index
	// (IOSQE_FIXED_FILE), which saves a file lookup per I/O.
	RegisterFiles bool
	// SQThreadPoll is fio's sqthread_poll: a kernel thread polls the
	// submission queue (IORING_SETUP_SQPOLL), so submitting needs no
	// system call while it is awake. SQThreadCPU pins it (IORING_SETUP_SQ_AFF)
	// when SQThreadPin is set (fio's sqthread_poll_cpu).
	SQThreadPoll bool
	SQThreadPin  bool
	SQThreadCPU  int
	// HiPri is fio's hipri: completions are polled for
	// (IORING_SETUP_IOPOLL), not interrupt-driven; only O_DIRECT I/O to a
	// block device whose queue polls (queue/io_poll = 1) can do that.
	HiPri bool
	// NonVectored is fio's nonvectored: Off uses IORING_OP_READV/WRITEV
	// with one iovec per I/O; On and Auto use IORING_OP_READ/WRITE (fio's
	// default where the kernel has them, as every kernel qdsweep runs on does).
	NonVectored Choice
}

// Set reports whether any option differs from qdsweep's own choice.
func (o UringOptions) Set() bool { return o != UringOptions{} }

// UringSetting is one of the io_uring settings UringOptions holds. This
// package never spells an option's name: the option tables above it name
// each setting (fio's io_uring options) and read and write its value.
type UringSetting int8

// The io_uring settings, in fio's order.
const (
	UringFixedBufs     UringSetting = iota + 1 // registered buffers (FixedBufs)
	UringRegisterFiles                         // registered files (RegisterFiles)
	UringSQThreadPoll                          // a kernel thread polls the SQ (SQThreadPoll)
	UringSQThreadCPU                           // that thread's CPU (SQThreadPin, SQThreadCPU)
	UringHiPri                                 // polled completions (HiPri)
	UringNonVectored                           // READ/WRITE or READV/WRITEV (NonVectored)
)

// UringSettings lists every UringSetting, in fio's order.
func UringSettings() []UringSetting {
	return []UringSetting{UringFixedBufs, UringRegisterFiles, UringSQThreadPoll, UringSQThreadCPU, UringHiPri, UringNonVectored}
}

// String is the kernel's name of what s sets, for messages that have no
// option table to name it by.
func (s UringSetting) String() string {
	switch s {
	case UringFixedBufs:
		return "IORING_REGISTER_BUFFERS"
	case UringRegisterFiles:
		return "IORING_REGISTER_FILES"
	case UringSQThreadPoll:
		return "IORING_SETUP_SQPOLL"
	case UringSQThreadCPU:
		return "IORING_SETUP_SQ_AFF"
	case UringHiPri:
		return "IORING_SETUP_IOPOLL"
	case UringNonVectored:
		return "IORING_OP_READ/WRITE"
	}
	return fmt.Sprintf("UringSetting(%d)", int8(s))
}

// Value is setting s as given: 0 or 1 (a CPU for UringSQThreadCPU); set
// is false when s keeps qdsweep's choice (or its default).
func (o UringOptions) Value(s UringSetting) (n int, set bool) {
	choice := func(c Choice) (int, bool) {
		if c == Auto {
			return 0, false
		}
		return b2i(c == On), true
	}
	switch s {
	case UringFixedBufs:
		return choice(o.FixedBufs)
	case UringNonVectored:
		return choice(o.NonVectored)
	case UringRegisterFiles:
		return 1, o.RegisterFiles
	case UringSQThreadPoll:
		return 1, o.SQThreadPoll
	case UringHiPri:
		return 1, o.HiPri
	case UringSQThreadCPU:
		return o.SQThreadCPU, o.SQThreadPin
	}
	return 0, false
}

// Given lists the settings o sets, in fio's order; the rest keep their
// defaults.
func (o UringOptions) Given() []UringSetting {
	var out []UringSetting
	for _, s := range UringSettings() {
		if _, ok := o.Value(s); ok {
			out = append(out, s)
		}
	}
	return out
}

// Apply sets s to n: 0 or 1, or a CPU for UringSQThreadCPU. Value reads
// it back. A value s does not take is a *UringError.
func (o *UringOptions) Apply(s UringSetting, n int) error {
	switch {
	case s == UringSQThreadCPU && n < 0:
		return &UringError{Setting: s, Value: n, ShowValue: true, Fix: UringFixCPUFromZero}
	case s != UringSQThreadCPU && (n < 0 || n > 1):
		return &UringError{Setting: s, Value: n, ShowValue: true, Fix: UringFixBool}
	}
	c := Off
	if n == 1 {
		c = On
	}
	switch s {
	case UringFixedBufs:
		o.FixedBufs = c
	case UringNonVectored:
		o.NonVectored = c
	case UringRegisterFiles:
		o.RegisterFiles = n == 1
	case UringSQThreadPoll:
		o.SQThreadPoll = n == 1
	case UringHiPri:
		o.HiPri = n == 1
	case UringSQThreadCPU:
		o.SQThreadPin, o.SQThreadCPU = true, n
	default:
		return fmt.Errorf("%v is not an io_uring setting", s)
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// GuardTarget is what w does to path (one of w.Targets(), or a per-job
// file), for the write guard: written when writes is set, opened with
// w's O_DIRECT and sync flags, over the region the deepest of jobs or
// w.NumJobs jobs cover, each w.FileSize() bytes from w.Offset apart by
// w.OffsetIncrement (strided zones reach past the region: to the file's
// end). Every check and hold of a workload's target, by the engines, a
// sweep and the command line, is built here.
func (w Workload) GuardTarget(path string, writes bool, jobs int) guard.Target {
	size := w.FileSize()
	if w.Zones.On() {
		size = 0
	}
	return guard.Target{Path: path, Write: writes, Direct: w.Direct, Sync: w.OpenSync,
		End: w.RegionEnd(size, max(jobs, w.NumJobs))}
}

// JobStart is where job i's region starts: Starts[i] when set, else
// Offset + i × OffsetIncrement,
// rounded up to a multiple of StartAlign when it is set, as fio's
// get_start_offset rounds a start it computed from a percentage.
func (w Workload) JobStart(i int) int64 {
	if i < len(w.Starts) {
		return w.Starts[i]
	}
	s := w.Offset + int64(i)*w.OffsetIncrement
	if a := w.StartAlign; a > 1 {
		s = (s + a - 1) / a * a
	}
	return s
}

// Job is job i of w alone, as fio's clone i is a job of its own: one job
// starting at JobStart(i), over a region sized as w's (fio counts each
// clone's I/Os over its own region).
func (w Workload) Job(i int) Workload {
	j := w
	j.Offset, j.OffsetIncrement, j.StartAlign, j.NumJobs, j.Starts = w.JobStart(i), 0, 0, 1, nil
	j.Size, j.JobSizes = w.JobSize(i), nil
	return j
}

// JobSize is job i's region bytes: JobSizes[i] when set, else Size (0:
// to the target's end from the job's start).
func (w Workload) JobSize(i int) int64 {
	if i < len(w.JobSizes) {
		return w.JobSizes[i]
	}
	return w.Size
}

// LastStart is the furthest any of w's jobs starts.
func (w Workload) LastStart() int64 {
	return w.furthestStart(w.NumJobs)
}

// furthestStart is the furthest any of the first jobs jobs starts.
func (w Workload) furthestStart(jobs int) int64 {
	s := w.JobStart(0)
	for i := 1; i < jobs; i++ {
		s = max(s, w.JobStart(i))
	}
	return s
}

// RegionEnd is one past the last byte jobs jobs of size bytes each touch
// (0 when size is 0: to the end), the guard's Target.End.
func (w Workload) RegionEnd(size int64, jobs int) int64 {
	if size > 0 && len(w.JobSizes) > 0 {
		var end int64
		for i := range max(jobs, 1) {
			end = max(end, w.JobStart(i)+w.JobSize(i))
		}
		return end
	}
	return guard.Region(w.furthestStart(jobs), size, 0, 1)
}

// HeldFile is the hold of path among Held and HeldFiles (the one open
// file judged at the start), or nil: an engine uses it, never the path.
func (w Workload) HeldFile(path string) *guard.Held {
	for _, h := range append([]*guard.Held{w.Held}, w.HeldFiles...) {
		if h != nil && h.Path() == path {
			return h
		}
	}
	return nil
}

// RWs are the patterns qdsweep's engines run, in the order fio lists them.
var RWs = []RW{Read, Write, RandRead, RandWrite, ReadWrite, RandRW}

// Valid reports whether r is one of RWs.
func (r RW) Valid() bool {
	for _, v := range RWs {
		if r == v {
			return true
		}
	}
	return false
}

// Mixed reports whether the pattern mixes reads and writes (rw, randrw),
// the patterns rwmixread splits.
func (r RW) Mixed() bool { return r == ReadWrite || r == RandRW }

// IsWrite reports whether the pattern writes.
func (r RW) IsWrite() bool {
	return r == Write || r == RandWrite || r == ReadWrite || r == RandRW
}

// IsRead reports whether the pattern reads.
func (r RW) IsRead() bool {
	return r == Read || r == RandRead || r == ReadWrite || r == RandRW
}

// IsRandom reports whether offsets are random.
func (r RW) IsRandom() bool {
	return r == RandRead || r == RandWrite || r == RandRW
}

// Fadvise is the access pattern a job's files are advised of when they
// open (fio's fadvise_hint).
type Fadvise int

// The advice a job's files get.
const (
	FadviseByPattern  Fadvise = iota // the job's pattern: random or sequential (fio's 1, its default)
	FadviseNone                      // no advice (fio's 0)
	FadviseRandom                    // always random
	FadviseSequential                // always sequential
)

// QD is the total queue depth: IODepth × NumJobs.
func (w Workload) QD() int { return w.IODepth * w.NumJobs }

// Targets returns the files every job does its I/O on: Files when it lists
// several, else Filename alone.
func (w Workload) Targets() []string {
	if len(w.Files) > 1 {
		return w.Files
	}
	return []string{w.Filename}
}

// FileSize is the bytes of Size each target file holds: Size split evenly
// between the files of a Files list (fio's size over nrfiles), else Size
// (0: each file its own size).
func (w Workload) FileSize() int64 {
	if len(w.Files) > 1 {
		return w.Size / int64(len(w.Files))
	}
	return w.Size
}
