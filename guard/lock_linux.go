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
type DirLock struct {
	f    *os.File
	path string
}

// LockDir takes an exclusive, non-blocking flock on dir/LockFile (dir
// exists: OpenOut made or checked it), so two sweeps never write one
// directory. When another process holds the lock the error wraps ErrLocked
// and names its pid as recorded in the file. Unlock removes the file: a
// locker that opened it just before the removal sees that the name no
// longer leads to its file and opens it again.
func LockDir(dir string) (*DirLock, error) {
	path := filepath.Join(dir, LockFile)
	for range 8 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
		if err != nil {
			return nil, fmt.Errorf("--output %s: cannot write there: %w", dir, err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			defer f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, lockedError("--output", dir)
			}
			return nil, fmt.Errorf("--output %s: lock: %w", dir, err)
		}
		held, err1 := f.Stat()
		now, err2 := os.Lstat(path)
		if err1 != nil || err2 != nil || !os.SameFile(held, now) {
			f.Close() // removed by the last holder after we opened it: again
			continue
		}
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		}
		return &DirLock{f: f, path: path}, nil
	}
	return nil, fmt.Errorf("--output %s: %w: the lock file kept changing; another process is using the directory", dir, ErrLocked)
}

// Unlock removes the lock file and releases the directory. Safe on nil and
// more than once.
func (l *DirLock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	if held, err := l.f.Stat(); err == nil {
		if now, err := os.Lstat(l.path); err == nil && os.SameFile(held, now) {
			os.Remove(l.path) // while held: the next locker re-checks the name
		}
	}
	_ = unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	l.f.Close()
	l.f = nil
}

// lockedError is the one refusal of a directory another process holds:
// it wraps ErrLocked and names the holder's pid as its lock file records it.
func lockedError(flag, dir string) error {
	who := "another process"
	if b, err := os.ReadFile(filepath.Join(dir, LockFile)); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			who = "process " + strconv.Itoa(pid)
		}
	}
	return fmt.Errorf("%s %s: %w: %s is sweeping into it; wait for it or name another %s", flag, dir, ErrLocked, who, flag)
}

// DirBusy reports whether another process holds dir's lock now (a sweep
// is writing into it). It opens nothing for writing and creates nothing.
func DirBusy(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); err != nil {
		return errors.Is(err, unix.EWOULDBLOCK)
	}
	_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
	return false
}
