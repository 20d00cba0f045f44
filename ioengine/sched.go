//go:build linux

package ioengine

import (
	"fmt"
	"os"
	"path/filepath"
)

// schedTotals are the scheduler's counters summed over the process's
// threads, ns.
type schedTotals struct {
	cpuNs  int64 // time on a CPU
	waitNs int64 // time runnable, waiting for a CPU (run queue delay)
	ok     bool  // the counters could be read
}

// sub returns t − u (ok only when both are).
func (t schedTotals) sub(u schedTotals) schedTotals {
	return schedTotals{cpuNs: t.cpuNs - u.cpuNs, waitNs: t.waitNs - u.waitNs, ok: t.ok && u.ok}
}

// readSched sums /proc/self/task/*/schedstat ("cpu_ns wait_ns slices")
// over the process's threads: a job that yields unlocked may resume on
// another thread, so the jobs' own thread ids do not cover them. ok is
// false on a kernel without schedstats.
func readSched() schedTotals {
	dir := filepath.Join(systemLimits.proc, "self/task")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return schedTotals{}
	}
	var t schedTotals
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "schedstat"))
		if err != nil {
			continue // the thread ended
		}
		var cpu, wait int64
		if n, _ := fmt.Sscan(string(b), &cpu, &wait); n < 2 {
			continue
		}
		t.cpuNs += cpu
		t.waitNs += wait
		t.ok = true
	}
	return t
}
