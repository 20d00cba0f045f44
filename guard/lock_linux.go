//go:build linux

package guard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// DirLock is a results directory held for one run.
type DirLock struct{ f *os.File }

// LockDir creates dir if needed (one level, mode 0755) and takes an
// exclusive, non-blocking flock on dir/LockFile, so two sweeps never write
// one directory. It also proves dir writable before anything is laid out.
// When another process holds the lock the error wraps ErrLocked and names
// its pid as recorded in the file.
func LockDir(dir string) (*DirLock, error) {
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("--output %s: %w", dir, err)
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--output %s: cannot write there: %w", dir, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			who := "another process"
			if b, rerr := os.ReadFile(path); rerr == nil {
				if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil && pid > 0 {
					who = "process " + strconv.Itoa(pid)
				}
			}
			return nil, fmt.Errorf("--output %s: %w: %s is sweeping into it; wait for it or name another --output", dir, ErrLocked, who)
		}
		return nil, fmt.Errorf("--output %s: lock: %w", dir, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &DirLock{f: f}, nil
}

// Unlock releases the directory. Safe on nil and more than once.
func (l *DirLock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	_ = unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	l.f.Close()
	l.f = nil
}
