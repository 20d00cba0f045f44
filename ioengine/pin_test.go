//go:build linux

package ioengine_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/looptest"
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

// TestUringPinsBesideWorkers: where every read goes to an io_uring worker
// (tmpfs and zram with O_DIRECT), a shallow job runs on one CPU with its
// workers (the kernel's own account, /proc/self/task); where reads
// complete without one (cached pages of a file in the test's directory,
// buffered: not tmpfs, whose reads go to a worker even then), the job that was
// pinned for its first I/Os is free again by the window; once the run
// ends every thread of the process may use every CPU again.
func TestUringPinsBesideWorkers(t *testing.T) {
	if _, reason, err := ioengine.New("io_uring"); err != nil || reason != "" {
		t.Skipf("io_uring is not available here: %v %s", err, reason)
	}
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		t.Fatal(err)
	}
	if allowed.Count() < 2 {
		t.Skip("one CPU: nothing to pin")
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
	cases := []struct {
		name       string
		file       func(t *testing.T) string
		direct     bool
		wantPinned bool
	}{
		{"tmpfs direct", func(*testing.T) string { return path }, true, true},
		{"cached pages", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(p, stampedBytes(4<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, false, false},
		{"zram direct", func(t *testing.T) string { return looptest.Zram(t, 16<<20) }, true, true},
		{"loop device direct", func(t *testing.T) string {
			// Its image in memory: a loop device's requests go to the
			// loop driver's own worker, never to io_uring's.
			looptest.RequireRootTools(t, "losetup")
			img := filepath.Join(d, "img")
			if err := os.WriteFile(img, stampedBytes(16<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			return looptest.AttachLoopWith(t, img, "--direct-io=on")
		}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := c.file(t)
			// As the window opens: the job has looked at its workers at its
			// 64th completion, well within a 300 ms ramp.
			var during map[string][]string
			w := ioengine.Workload{Filename: file, RW: ioengine.RandRead, BS: 4096, IODepth: 2, NumJobs: 1, Direct: c.direct}
			st, err := mustEngine(t, "io_uring").Run(context.Background(), w, ioengine.Control{Ramp: 300 * time.Millisecond, Runtime: 300 * time.Millisecond,
				OnWindowStart: func() { during = threadCPUs(t) }})
			if err != nil || st.All.TotalIOs == 0 || len(st.Errors) != 0 {
				t.Fatalf("run: %v, %d I/Os, errors %+v", err, st.All.TotalIOs, st.Errors)
			}
			pinnedJob, pinnedWorker := false, false
			for comm, lists := range during {
				for _, l := range lists {
					pinnedJob = pinnedJob || single(l) && comm == "ioengine.test"
					pinnedWorker = pinnedWorker || single(l) && strings.HasPrefix(comm, "iou-wrk")
				}
			}
			if pinnedJob != c.wantPinned || c.wantPinned && !pinnedWorker {
				t.Errorf("during the run, a job thread pinned %v, an io_uring worker pinned %v (want pinned: %v): %v", pinnedJob, pinnedWorker, c.wantPinned, during)
			}
			for _, l := range threadCPUs(t)["ioengine.test"] {
				if single(l) {
					t.Errorf("a thread is still pinned to CPU %s after the run", l)
				}
			}
		})
	}
}

func single(list string) bool { return !strings.ContainsAny(list, ",-") }

// TestUringSplitsDeepJob: one job at iodepth 16 (splitMinDepth), fewer
// jobs than CPUs, whose reads go to an io_uring worker (zram, O_DIRECT),
// keeps one CPU for itself and gives its workers the others: during the
// window the job's thread may run on one CPU and no worker may run there.
func TestUringSplitsDeepJob(t *testing.T) {
	if _, reason, err := ioengine.New("io_uring"); err != nil || reason != "" {
		t.Skipf("io_uring is not available here: %v %s", err, reason)
	}
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		t.Fatal(err)
	}
	if allowed.Count() < 2 {
		t.Skip("one CPU: nothing to split")
	}
	file := looptest.Zram(t, 16<<20)
	var during map[string][]string
	w := ioengine.Workload{Filename: file, RW: ioengine.RandRead, BS: 4096, IODepth: 16, NumJobs: 1, Direct: true}
	st, err := mustEngine(t, "io_uring").Run(context.Background(), w, ioengine.Control{Ramp: 300 * time.Millisecond, Runtime: 300 * time.Millisecond,
		OnWindowStart: func() { during = threadCPUs(t) }})
	if err != nil || st.All.TotalIOs == 0 || len(st.Errors) != 0 {
		t.Fatalf("run: %v, %d I/Os, errors %+v", err, st.All.TotalIOs, st.Errors)
	}
	var jobCPU string
	for _, l := range during["ioengine.test"] {
		if single(l) {
			jobCPU = l
		}
	}
	if jobCPU == "" {
		t.Fatalf("no job thread pinned to one CPU during the run: %v", during)
	}
	workers := 0
	for comm, lists := range during {
		if !strings.HasPrefix(comm, "iou-wrk") {
			continue
		}
		for _, l := range lists {
			workers++
			var set unix.CPUSet
			for _, c := range cpuList(t, l) {
				set.Set(c)
			}
			if n := cpuList(t, jobCPU)[0]; set.IsSet(n) {
				t.Errorf("an io_uring worker may run on CPU %d, the job's own (its list %s)", n, l)
			}
		}
	}
	if workers == 0 {
		t.Errorf("no io_uring worker during the run: %v", during)
	}
	for _, l := range threadCPUs(t)["ioengine.test"] {
		if single(l) {
			t.Errorf("a thread is still pinned to CPU %s after the run", l)
		}
	}
}

// cpuList parses a kernel CPU list ("0-2,5").
func cpuList(t *testing.T, list string) []int {
	t.Helper()
	var out []int
	for _, part := range strings.Split(list, ",") {
		lo, hi, found := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			t.Fatalf("CPU list %q: %v", list, err)
		}
		b := a
		if found {
			if b, err = strconv.Atoi(hi); err != nil {
				t.Fatalf("CPU list %q: %v", list, err)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out
}
