//go:build linux

package ioengine

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// threadReserve is how many threads beyond one per job a run keeps free
// for the Go runtime (system monitor, threads that run the added Ps while
// jobs sit in system calls, garbage collection).
const threadReserve = 16

// limitRoots are where the thread limits are read; tests point them at fixtures.
type limitRoots struct {
	proc string // normally "/proc"
	sys  string // normally "/sys"
}

var systemLimits = limitRoots{proc: "/proc", sys: "/sys"}

// threadHeadroom returns how many more threads the process may start before
// a limit refuses one, and which limit that is. ok is false when no limit
// applies (or none could be read). A refused thread is fatal to a Go
// program, so runs check this before they start their jobs.
func (r limitRoots) threadHeadroom() (n int64, limit string, value int64, ok bool) {
	consider := func(h int64, name string, v int64) {
		if !ok || h < n {
			n, limit, value, ok = h, name, v, true
		}
	}
	var rl unix.Rlimit
	exempt := os.Getuid() == 0 || os.Geteuid() == 0 // the kernel does not apply RLIMIT_NPROC to root
	if !exempt && unix.Getrlimit(unix.RLIMIT_NPROC, &rl) == nil && rl.Cur != unix.RLIM_INFINITY {
		if used, err := r.userTasks(os.Getuid()); err == nil {
			consider(int64(rl.Cur)-used, LimitNproc, int64(rl.Cur))
		}
	}
	if max, cur, err := r.pidsCgroup(); err == nil && max >= 0 {
		consider(max-cur, LimitPidsMax, max)
	}
	if b, err := os.ReadFile(filepath.Join(r.proc, "sys/kernel/threads-max")); err == nil {
		if max, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			if used, err := r.systemTasks(); err == nil {
				consider(max-used, LimitThreadsMax, max)
			}
		}
	}
	return n, limit, value, ok
}

// userTasks counts the threads of every process whose real user is uid.
func (r limitRoots) userTasks(uid int) (int64, error) {
	ents, err := os.ReadDir(r.proc)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		f, err := os.Open(filepath.Join(r.proc, e.Name(), "status"))
		if err != nil {
			continue // the process ended
		}
		u, threads := parseStatusUidThreads(f)
		f.Close()
		if u == uid {
			total += threads
		}
	}
	return total, nil
}

// parseStatusUidThreads reads the real uid and the thread count from a
// /proc/PID/status file (-1 and 0 when absent).
func parseStatusUidThreads(rd io.Reader) (uid int, threads int64) {
	uid = -1
	sc := bufio.NewScanner(rd)
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case bytes.HasPrefix(line, []byte("Uid:")):
			if f := strings.Fields(string(line[4:])); len(f) > 0 {
				if v, err := strconv.Atoi(f[0]); err == nil {
					uid = v
				}
			}
		case bytes.HasPrefix(line, []byte("Threads:")):
			threads, _ = strconv.ParseInt(strings.TrimSpace(string(line[8:])), 10, 64)
		}
	}
	return uid, threads
}

// systemTasks is the number of tasks on the system (/proc/loadavg's fourth field, "running/total").
func (r limitRoots) systemTasks() (int64, error) {
	b, err := os.ReadFile(filepath.Join(r.proc, "loadavg"))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 4 {
		return 0, os.ErrInvalid
	}
	_, total, found := strings.Cut(f[3], "/")
	if !found {
		return 0, os.ErrInvalid
	}
	return strconv.ParseInt(total, 10, 64)
}

// pidsCgroup returns the pids controller's limit and use for this process's
// cgroup (v2 unified or v1 "pids" hierarchy); max is -1 when unlimited.
func (r limitRoots) pidsCgroup() (max, cur int64, err error) {
	b, err := os.ReadFile(filepath.Join(r.proc, "self/cgroup"))
	if err != nil {
		return 0, 0, err
	}
	var dirs []string
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			dirs = append(dirs, filepath.Join(r.sys, "fs/cgroup", parts[2]), filepath.Join(r.sys, "fs/cgroup/unified", parts[2]))
		case strings.Contains(","+parts[1]+",", ",pids,"):
			dirs = append(dirs, filepath.Join(r.sys, "fs/cgroup/pids", parts[2]))
		}
	}
	for _, d := range dirs {
		mb, err := os.ReadFile(filepath.Join(d, "pids.max"))
		if err != nil {
			continue
		}
		cb, err := os.ReadFile(filepath.Join(d, "pids.current"))
		if err != nil {
			continue
		}
		cur, err := strconv.ParseInt(strings.TrimSpace(string(cb)), 10, 64)
		if err != nil {
			continue
		}
		ms := strings.TrimSpace(string(mb))
		if ms == "max" {
			return -1, cur, nil
		}
		max, err := strconv.ParseInt(ms, 10, 64)
		if err != nil {
			continue
		}
		return max, cur, nil
	}
	return 0, 0, os.ErrNotExist
}

// setupLimit names the limit behind a job's setup error, or "" when the
// error is not about a resource (then the run fails as a whole).
func setupLimit(err error, engine string) string {
	var errno unix.Errno
	if !errors.As(err, &errno) {
		return limitNone
	}
	switch errno {
	case unix.EMFILE:
		return LimitNofile
	case unix.ENFILE:
		return LimitFileMax
	case unix.ENOMEM:
		if engine == EngineIOUring && strings.Contains(err.Error(), "io_uring_setup") {
			return LimitMemlock // ring memory counts against RLIMIT_MEMLOCK before Linux 5.12
		}
		return LimitMemory
	case unix.EAGAIN:
		if strings.Contains(err.Error(), "io_setup") {
			return LimitAIOMaxNr
		}
		return LimitOther
	}
	return limitNone
}
