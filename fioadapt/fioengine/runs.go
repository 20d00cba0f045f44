package fioengine

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
)

// runEnv names the environment variable every fio process of a run
// carries, its value the run's mark: fio's forked jobs each start a
// session of their own (setsid), leaving fio's process group, and outlive
// fio when it dies; the mark finds them wherever they are.
const runEnv = "QDSWEEP_FIO_RUN"

// running are the fio runs under way: their marks and process groups,
// and the private directories made for their state files (withPrivateAux),
// which StopAll removes as well.
var running struct {
	sync.Mutex
	runs map[string]int
	aux  map[string]bool
}

var runSeq atomic.Int64

// markRun sets cmd's environment to carry a new mark and returns it.
func markRun(cmd *exec.Cmd) string {
	mark := fmt.Sprintf("%d.%d", os.Getpid(), runSeq.Add(1))
	cmd.Env = append(os.Environ(), runEnv+"="+mark)
	return mark
}

// startRun starts cmd and records its run, so that StopAll finds it from
// the moment it exists.
func startRun(cmd *exec.Cmd, mark string) error {
	running.Lock()
	defer running.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	if running.runs == nil {
		running.runs = map[string]int{}
	}
	running.runs[mark] = cmd.Process.Pid
	return nil
}

// endRun kills what is left of a run (its process group and every
// process with its mark: fio's jobs) and forgets it.
func endRun(mark string) {
	running.Lock()
	defer running.Unlock()
	killRun(mark, running.runs[mark])
	delete(running.runs, mark)
}

// StopAll kills every fio process of every run under way, fio's forked
// jobs too: for a process about to exit at once (a second stop signal),
// which leaves no fio behind it.
func StopAll() {
	running.Lock()
	defer running.Unlock()
	for mark, pgid := range running.runs {
		killRun(mark, pgid)
	}
	for dir := range running.aux {
		_ = os.RemoveAll(dir)
	}
}

// keepAux records dir as a run's private directory until the returned
// func removes it; StopAll removes it if the process exits first.
func keepAux(dir string) (drop func()) {
	running.Lock()
	defer running.Unlock()
	if running.aux == nil {
		running.aux = map[string]bool{}
	}
	running.aux[dir] = true
	return func() {
		running.Lock()
		defer running.Unlock()
		delete(running.aux, dir)
		_ = os.RemoveAll(dir)
	}
}

// killRun kills process group pgid and every process marked mark, until
// none is left (a job forked while they were killed is found next round).
func killRun(mark string, pgid int) {
	if pgid > 0 {
		killGroup(pgid)
	}
	for range 5 {
		pids := markedProcs(runEnv + "=" + mark)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			killPid(pid)
		}
	}
}

// itoa is strconv.Itoa, for the platform files.
func itoa(n int) string { return strconv.Itoa(n) }
