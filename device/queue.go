package device

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Queue holds a disk's request-queue facts from /sys/block/<disk>/queue and
// its identity from /sys/block/<disk>/device. Zero values mean unknown.
type Queue struct {
	Model             string // device/model, trimmed
	Vendor            string // device/vendor, trimmed
	Rotational        *bool  // queue/rotational (nil when unknown)
	LogicalBlockSize  int    // bytes
	PhysicalBlockSize int    // bytes
	NrRequests        int    // requests the block layer allocates per hardware queue
	Scheduler         string // the selected (bracketed) I/O scheduler, "none" included
	HWQueues          int    // hardware dispatch queues, entries of mq/ (0 for bio-based devices)
	MaxSectorsKB      int    // largest request the block layer issues, KiB
	WriteCache        string // "write back" or "write through"
	ReadAheadKB       int    // read-ahead window, KiB
	// IOPoll is queue/io_poll: the driver has poll queues, so polled
	// completions (io_uring's IOPOLL, fio's hipri) work (nil when unknown).
	IOPoll *bool
}

// readQueue reads the facts of the disk whose sysfs directory is dir. Missing
// files are left unknown; a file that exists but does not parse is an error.
func readQueue(dir string) (Queue, error) {
	var q Queue
	var err error
	q.Model, err = readTrimmed(filepath.Join(dir, "device", "model"))
	if err != nil {
		return q, err
	}
	if q.Vendor, err = readTrimmed(filepath.Join(dir, "device", "vendor")); err != nil {
		return q, err
	}
	qdir := filepath.Join(dir, "queue")
	ints := []struct {
		file string
		dst  *int
	}{
		{"logical_block_size", &q.LogicalBlockSize},
		{"physical_block_size", &q.PhysicalBlockSize},
		{"nr_requests", &q.NrRequests},
		{"max_sectors_kb", &q.MaxSectorsKB},
		{"read_ahead_kb", &q.ReadAheadKB},
	}
	for _, f := range ints {
		if *f.dst, err = readInt(filepath.Join(qdir, f.file)); err != nil {
			return q, err
		}
	}
	if q.Rotational, err = readFlag(filepath.Join(qdir, "rotational")); err != nil {
		return q, err
	}
	if q.IOPoll, err = readFlag(filepath.Join(qdir, "io_poll")); err != nil {
		return q, err
	}
	sched, err := readTrimmed(filepath.Join(qdir, "scheduler"))
	if err != nil {
		return q, err
	}
	q.Scheduler = parseScheduler(sched)
	if q.WriteCache, err = readTrimmed(filepath.Join(qdir, "write_cache")); err != nil {
		return q, err
	}
	entries, err := os.ReadDir(filepath.Join(dir, "mq"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return q, fmt.Errorf("read hardware queues: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() {
			q.HWQueues++
		}
	}
	return q, nil
}

// readFlag reads a 0/1 sysfs file: nil when it is missing.
func readFlag(path string) (*bool, error) {
	v, err := readTrimmed(path)
	if err != nil || v == "" {
		return nil, err
	}
	b := v != "0"
	return &b, nil
}

// parseScheduler returns the selected scheduler of a queue/scheduler line
// such as "none [mq-deadline] kyber bfq", or the line itself when it names
// a single scheduler without brackets ("none" on bio-based devices).
func parseScheduler(line string) string {
	fields := strings.Fields(line)
	for _, f := range fields {
		if len(f) > 2 && strings.HasPrefix(f, "[") && strings.HasSuffix(f, "]") {
			return f[1 : len(f)-1]
		}
	}
	if len(fields) == 1 {
		return fields[0]
	}
	return ""
}

// readTrimmed returns a sysfs attribute without surrounding space, "" when
// the file does not exist.
func readTrimmed(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// readInt returns a decimal sysfs attribute, 0 when the file does not exist.
func readInt(path string) (int, error) {
	s, err := readTrimmed(path)
	if err != nil || s == "" {
		return 0, err
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	return v, nil
}
