// Package guard is qdsweep's write safety: it decides whether a workload may
// write to a path and, for a block device, holds it exclusively for the whole
// run so nothing can mount or claim it meanwhile.
//
// The rules are default deny. Reads are always allowed. A write to a path that
// does not exist yet, or to a file qdsweep created, is allowed. An existing
// regular file needs Permit.AllowWrite and must not be a swap file or a loop
// device's backing file. A block device needs Permit.AllowWriteDevice and
// counts as blank only when every region where a volume format keeps its
// superblock reads as zeros (and blkid/wipefs, where installed, find nothing);
// anything else needs Permit.DestroyData naming the same device. A device that
// is held by anything (mounted, swap, a dm/md holder, backing a loop device,
// opened exclusively elsewhere) is refused always.
//
// Those answers are the storage stack's, not the path's: StackOf follows a
// loop device to its backing file or device (recursively), a partition to
// its disk, a stacked device to its members, and matches a file to every
// loop device over it by inode and file handle and to the layers of every
// mounted overlay; a layer in use anywhere in it refuses the write, whatever
// the flags. Check, Hold and Recheck ask it; so can any other writer.
//
// The system is read through device.Roots (/proc, /sys, /dev), so tests can
// point the checks at fixture trees.
package guard

import (
	"errors"
	"fmt"
	"strconv"
)

// Errors wrapped by refusals. Every refusal wraps ErrWriteRefused and, where
// it applies, one of the more specific sentinels.
var (
	// ErrWriteRefused: a write workload was refused; the message names the flag or step that allows it.
	ErrWriteRefused = errors.New("write refused")
	// ErrDeviceBusy: the target is mounted, an active swap area, held by another
	// device (dm, md, loop backing) or claimed exclusively. No flag overrides it.
	ErrDeviceBusy = errors.New("device busy")
	// ErrHasPartitions: a whole block device with partitions (override: --destroy-data).
	ErrHasPartitions = errors.New("device has partitions")
	// ErrHasSignature: the device is not blank: a known on-disk format or
	// non-zero data where formats keep their superblocks (override: --destroy-data).
	ErrHasSignature = errors.New("device holds data")
	// ErrDestroyMismatch: --destroy-data names a different device than the target.
	ErrDestroyMismatch = errors.New("--destroy-data does not name the target")
	// ErrWouldExtend: the workload would write past the end of an existing file qdsweep did not create.
	ErrWouldExtend = errors.New("write would extend an existing file")
	// ErrLocked is wrapped when another process holds a results directory (LockDir).
	ErrLocked = errors.New("results directory in use")
	// ErrLimit is wrapped when a process limit (ulimit) is too low for a run
	// (CheckLimits): better one line before anything starts than the kernel
	// refusing midway or the Go runtime aborting with a stack trace.
	ErrLimit = errors.New("process limit too low")
)

// LockFile is the file a running sweep holds locked (flock) in its results
// directory (LockDir), removed when it lets go; readers of a results
// directory ignore it.
const LockFile = ".qdsweep.lock"

// Need is what one run asks of the process limits (CheckLimits).
type Need struct {
	Jobs        int   // parallel jobs (numjobs), 0 for none
	BufferBytes int64 // I/O buffers: numjobs × iodepth × bs, bytes
}

// Permit carries the user's write permissions, from the command line.
type Permit struct {
	// AllowWrite (--allow-write) permits write workloads on an existing regular file.
	AllowWrite bool
	// AllowWriteDevice (--allow-write-device) permits write workloads on a blank,
	// unheld, unpartitioned block device or partition.
	AllowWriteDevice bool
	// DestroyData (--destroy-data=/dev/X) names the target device a second time,
	// confirming that its partitions or data may be overwritten. It needs
	// AllowWriteDevice as well, and never overrides a held device. For a
	// target on fio servers it lists HOST:PATH for every server, comma-
	// separated: the user's word that nothing there uses the target, which
	// this host cannot see (the fio engine's remote guard).
	DestroyData string
	// Ours lists the files qdsweep created itself (scratch files, targets it
	// laid out), by device and inode: such a file may be written without
	// AllowWrite. A path swapped for another file after the layout is not
	// one of them, whatever its name.
	Ours []FileID
	// Unchecked skips every check: the caller vouches for the target (it ran
	// the checks itself, or the target is its own). Library callers must set
	// it explicitly; the zero Permit checks everything.
	Unchecked bool
}

// FileID is a file's identity: the device it lives on and its inode.
type FileID struct{ Dev, Ino uint64 }

// Target is what a run does to a path.
type Target struct {
	Path   string // regular file or block device
	Write  bool   // the workload writes
	Direct bool   // open with O_DIRECT (Hold only)
	Sync   string // "sync": open with O_SYNC, "dsync": O_DSYNC, "": neither (Hold only)
	// End is one past the highest byte the workload touches:
	// Offset + (NumJobs-1) × OffsetIncrement + Size; 0 means "to the end".
	End int64
}

// Region returns the End of a workload of numjobs jobs, each covering size
// bytes from offset + i × increment (bytes).
func Region(offset, size, increment int64, numjobs int) int64 {
	if numjobs < 1 {
		numjobs = 1
	}
	if size <= 0 {
		return 0
	}
	return offset + int64(numjobs-1)*increment + size
}

// Setting is a setting of the workload that a refusal's fix names: the
// caller names it as its options spell it (Named), the refusal alone in
// plain words (String).
type Setting int8

// The settings a refusal's fix names.
const (
	SettingFile   Setting = iota + 1 // the target's path
	SettingSize                      // the bytes the workload spans
	SettingOffset                    // where in the target it starts
	SettingDirect                    // whether it opens the target with O_DIRECT
)

// Settings lists every Setting.
func Settings() []Setting { return []Setting{SettingFile, SettingSize, SettingOffset, SettingDirect} }

// String is s in plain words, as a refusal no caller named says it.
func (s Setting) String() string {
	switch s {
	case SettingFile:
		return "file"
	case SettingSize:
		return "size"
	case SettingOffset:
		return "offset"
	case SettingDirect:
		return "direct"
	}
	return "setting " + strconv.Itoa(int(s))
}

// Named is err, a refusal or a failure whose fix names settings (Hold's
// open refused O_DIRECT), with each Setting its fix names spelled by name
// (e.g. as a flag: --size), wrapping what err wraps; a Setting name gives
// "" keeps its words. Any other error is returned as it is.
func Named(err error, name func(Setting) string) error {
	switch e := err.(type) {
	case *refusal:
		return &refusal{format: e.format, args: named(e.args, name), kind: e.kind}
	case *failure:
		return &failure{format: e.format, args: named(e.args, name), err: e.err}
	}
	return err
}

// named is args with each Setting spelled by name (its words where name
// gives "").
func named(a []any, name func(Setting) string) []any {
	args := make([]any, len(a))
	for i, v := range a {
		args[i] = v
		if s, ok := v.(Setting); ok {
			if n := name(s); n != "" {
				args[i] = n
			}
		}
	}
	return args
}

// failure is an error of the system's (an open refused) whose one-line
// message (format with args, Settings among them) names the settings that
// fix it; it wraps err.
type failure struct {
	format string
	args   []any
	err    error
}

func (f *failure) Error() string { return fmt.Sprintf(f.format, f.args...) }

func (f *failure) Unwrap() error { return f.err }

// refusal is the error a check returns: a one-line message (format with
// args, Settings among them) plus the sentinels it wraps.
type refusal struct {
	format string
	args   []any
	kind   error // nil or a specific sentinel
}

func (r *refusal) Error() string { return fmt.Sprintf(r.format, r.args...) }

func (r *refusal) Unwrap() []error {
	if r.kind == nil {
		return []error{ErrWriteRefused}
	}
	return []error{r.kind, ErrWriteRefused}
}

func refuse(kind error, format string, a ...any) error {
	return &refusal{format: format, args: a, kind: kind}
}
