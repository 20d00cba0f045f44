//go:build !linux

package guard

import (
	"errors"
	"fmt"

	"github.com/qdsweep/qdsweep/ioengine/device"
)

// Off Linux qdsweep measures nothing: it reads results, fio output and job
// files. The checks that guard writes on a running system answer with
// ErrUnsupported, so no engine can open a target; the results directory
// lock is a no-op, since only a sweep (Linux) can race another for one.

// ErrUnsupported is wrapped by every check off Linux.
var ErrUnsupported = fmt.Errorf("write safety checks: %w (measuring needs Linux)", errors.ErrUnsupported)

// LockFile is the lock's name inside a results directory.
const LockFile = ".qdsweep.lock"

// ErrLocked is returned by LockDir for a directory another run holds.
var ErrLocked = errors.New("results directory in use")

// ErrLimit is wrapped by CheckLimits for a process limit too low.
var ErrLimit = errors.New("process limit too low")

// Checker runs the checks against the system under Roots.
type Checker struct {
	Roots   device.Roots
	NoTools bool
}

// Held is an open, checked target; off Linux none can be held.
type Held struct{}

// Need is what one run asks of the process limits.
type Need struct {
	Jobs        int   // parallel jobs (numjobs), 0 for none
	BufferBytes int64 // I/O buffers: numjobs × iodepth × bs, bytes
}

// DirLock holds a results directory; off Linux it holds nothing.
type DirLock struct{}

// Check answers ErrUnsupported off Linux.
func Check(t Target, p Permit) error { return Checker{}.Check(t, p) }

// Check answers ErrUnsupported off Linux.
func (c Checker) Check(t Target, p Permit) error { return ErrUnsupported }

// Hold answers ErrUnsupported off Linux.
func Hold(t Target, p Permit) (*Held, error) { return Checker{}.Hold(t, p) }

// Hold answers ErrUnsupported off Linux.
func (c Checker) Hold(t Target, p Permit) (*Held, error) { return nil, ErrUnsupported }

// Path is "" off Linux.
func (h *Held) Path() string { return "" }

// Write is false off Linux.
func (h *Held) Write() bool { return false }

// Direct is false off Linux.
func (h *Held) Direct() bool { return false }

// Block is false off Linux.
func (h *Held) Block() bool { return false }

// Exclusive is false off Linux.
func (h *Held) Exclusive() bool { return false }

// Dup answers ErrUnsupported off Linux.
func (h *Held) Dup() (int, error) { return -1, ErrUnsupported }

// Close does nothing off Linux.
func (h *Held) Close() error { return nil }

// CheckLimits has nothing to check off Linux.
func CheckLimits(n Need) error { return nil }

// LockDir returns a lock that holds nothing off Linux.
func LockDir(dir string) (*DirLock, error) { return &DirLock{}, nil }

// Unlock does nothing off Linux.
func (l *DirLock) Unlock() {}
