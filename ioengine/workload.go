package ioengine

import (
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
	OffsetIncrement int64         // bytes; job i starts at Offset + i*OffsetIncrement
	RW              RW            // pattern
	RWMixRead       int           // percent of reads for rw/randrw (0..100)
	BS              int64         // bytes per I/O
	IODepth         int           // I/Os in flight per job
	NumJobs         int           // parallel jobs (one ring/context and one OS thread each)
	Direct          bool          // O_DIRECT
	RandSeed        uint64        // seed of the per-job offset generators
	ContinueOnError bool          // count I/O errors instead of ending the job
	IOTimeout       time.Duration // an I/O outstanding this long ends the run with an error (0: 30 s)
	// Verify stamps every write and checks every read against the stamp:
	// each 8-byte little-endian word holds its own byte offset in the file.
	// A read whose data differs is counted as an error "verify".
	Verify bool
	// RateIOPS caps each job's I/Os per second, reads [0] and writes [1]
	// each on their own (fio's rate_iops; 0: no cap). A job ahead of its
	// rate waits before it issues its next I/O; the wait is not latency.
	RateIOPS [2]float64
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
	// invalidate=1 (its default) does: a buffered run then starts from the
	// device, not from what an earlier run left in the page cache. Regular
	// files get POSIX_FADV_DONTNEED, block devices BLKFLSBUF (root only);
	// nothing for O_DIRECT runs.
	Invalidate bool
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
	// Permit is what the write guard allows (package guard). The zero value
	// refuses writes to existing files and devices; set guard.Permit.Unchecked
	// to skip the checks explicitly.
	Permit guard.Permit
	// Held, when set, is the target already checked and opened for a whole
	// sweep (guard.Hold): the run uses that open file (a block device stays
	// claimed with O_EXCL) instead of opening Filename again.
	Held *guard.Held
}

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
