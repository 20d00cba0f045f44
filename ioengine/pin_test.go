//go:build linux

package ioengine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"golang.org/x/sys/unix"
)

// threadCPUs maps each thread of this process (its comm) to its allowed
// CPU list, as /proc says.
func threadCPUs(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	dirs, err := filepath.Glob("/proc/self/task/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		comm, err1 := os.ReadFile(filepath.Join(d, "comm"))
		status, err2 := os.ReadFile(filepath.Join(d, "status"))
		if err1 != nil || err2 != nil {
			continue // ended meanwhile
		}
		for _, l := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(l, "Cpus_allowed_list:"); ok {
				name := strings.TrimSpace(string(comm))
				out[name] = append(out[name], strings.TrimSpace(v))
			}
		}
	}
	return out
}

// TestUringPinsBesideWorkersOnTmpfs: on tmpfs, where every read goes to an
// io_uring worker, a shallow job runs on one CPU with its workers (the
// kernel's own account, /proc/self/task), and once the run ends every
// thread of the process may use every CPU again.
func TestUringPinsBesideWorkersOnTmpfs(t *testing.T) {
	if _, reason, err := ioengine.New("io_uring"); err != nil || reason != "" {
		t.Skipf("io_uring is not available here: %v %s", err, reason)
	}
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		t.Fatal(err)
	}
	d, err := os.MkdirTemp("/dev/shm", "qdsweep-test-")
	if err != nil {
		t.Skipf("no tmpfs at /dev/shm: %v", err)
	}
	defer os.RemoveAll(d)
	path := filepath.Join(d, "f")
	if err := os.WriteFile(path, stampedBytes(4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	before := threadCPUs(t)["ioengine.test"]
	var during map[string][]string
	w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 2, NumJobs: 1, Direct: true, Verify: true}
	st, err := mustEngine(t, "io_uring").Run(context.Background(), w, ioengine.Control{Ramp: 100 * time.Millisecond, Runtime: 300 * time.Millisecond,
		OnWindowStart: func() { during = threadCPUs(t) }})
	if err != nil || st.All.TotalIOs == 0 || len(st.Errors) != 0 {
		t.Fatalf("run: %v, %d I/Os, errors %+v", err, st.All.TotalIOs, st.Errors)
	}
	single := func(list string) bool { return !strings.ContainsAny(list, ",-") }
	if allowed.Count() >= 2 {
		pinnedJob, pinnedWorker := false, false
		for comm, lists := range during {
			for _, l := range lists {
				if single(l) && comm == "ioengine.test" {
					pinnedJob = true
				}
				if single(l) && strings.HasPrefix(comm, "iou-wrk") {
					pinnedWorker = true
				}
			}
		}
		if !pinnedJob || !pinnedWorker {
			t.Errorf("during the run, a job thread pinned %v, an io_uring worker pinned %v: %v", pinnedJob, pinnedWorker, during)
		}
	}
	after := threadCPUs(t)["ioengine.test"]
	for _, l := range after {
		if allowed.Count() >= 2 && single(l) {
			t.Errorf("a thread is still pinned to CPU %s after the run (before: %v)", l, before)
		}
	}
}
