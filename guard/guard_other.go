//go:build !linux

package guard

import (
	"errors"
	"fmt"
)

// Off Linux qdsweep reads and reports results but measures nothing: these
// stand-ins let the packages that only read results build everywhere, and
// refuse every write they are asked to vouch for.

var errNotLinux = errors.New("writing to a target needs Linux (the write guard reads /proc and /sys)")

// Check refuses every write off Linux; reads pass.
func Check(t Target, p Permit) error {
	if p.Unchecked || !t.Write {
		return nil
	}
	return refuse(nil, "%s: %v", t.Path, errNotLinux)
}

// Held is a target held for a run (Linux only).
type Held struct{}

// Hold refuses off Linux.
func Hold(t Target, p Permit) (*Held, error) {
	return nil, fmt.Errorf("%s: %w", t.Path, errNotLinux)
}

func (h *Held) Path() string      { return "" }
func (h *Held) Write() bool       { return false }
func (h *Held) Direct() bool      { return false }
func (h *Held) Block() bool       { return false }
func (h *Held) Exclusive() bool   { return false }
func (h *Held) Dup() (int, error) { return -1, errNotLinux }

// Reopen answers errNotLinux off Linux.
func (h *Held) Reopen(t Target) (int, error) { return -1, errNotLinux }
func (h *Held) Close() error                 { return nil }
func (h *Held) ID() FileID                   { return FileID{} }

// PathID answers errNotLinux off Linux.
func PathID(path string) (FileID, error) { return FileID{}, errNotLinux }

// ErrTargetChanged is wrapped when a target changed during a run (Linux only).
var ErrTargetChanged = errors.New("target changed")

// Same reports errNotLinux off Linux.
func (h *Held) Same(path string) error { return errNotLinux }

// DirLock is a results directory held for one run (a no-op off Linux).
type DirLock struct{}

// LockDir takes no lock off Linux (dir was checked by OpenOut).
func LockDir(dir string) (*DirLock, error) {
	return &DirLock{}, nil
}

// Unlock does nothing off Linux.
func (l *DirLock) Unlock() {}

// CheckLimits checks nothing off Linux.
func CheckLimits(n Need) error { return nil }

// DirBusy is false off Linux (no locks are taken).
func DirBusy(dir string) bool { return false }

func lockedError(flag, dir string) error {
	return fmt.Errorf("%s %s: %w", flag, dir, ErrLocked)
}

// sameFilesystem is true off Linux: a path under /dev is refused.
func sameFilesystem(a, b string) bool { return true }

// Recheck checks nothing off Linux.
func (h *Held) Recheck() error { return nil }

// StackOf is the path alone off Linux, where nothing is measured: no loop
// device, overlay or holder is looked for, and nothing is busy.
func StackOf(path string) (*Stack, error) {
	return &Stack{Path: path, Layers: []Layer{{Path: path, What: "target"}}}, nil
}
