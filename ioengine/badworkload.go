package ioengine

import (
	"errors"
	"fmt"
)

// ErrBadWorkload is wrapped by every error Validate returns: the workload
// cannot run as given and the message names the flag to change.
var ErrBadWorkload = errors.New("bad workload")

// Limits Validate enforces.
const (
	MaxIODepth = 65536 // I/Os in flight per job
	// MaxURingEntries is the kernel's IORING_MAX_ENTRIES: the most
	// submission-queue entries, so I/Os in flight, one io_uring ring takes.
	MaxURingEntries = 32768
	MaxNumJobs      = 4096 // parallel jobs
)

// badWorkload is a one-line message that matches ErrBadWorkload.
type badWorkload struct{ msg string }

func (e *badWorkload) Error() string        { return e.msg }
func (e *badWorkload) Is(target error) bool { return target == ErrBadWorkload }

func badf(format string, a ...any) error { return &badWorkload{fmt.Sprintf(format, a...)} }
