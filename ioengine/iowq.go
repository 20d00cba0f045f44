//go:build linux

package ioengine

import (
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// iowqRunNs sums the time on CPU (schedstat, ns) of the io-wq workers
// serving the rings of thread tid, and counts them: io_uring names each
// worker thread iou-wrk-TID after the task whose requests it runs, and
// they are threads of this process. A request the target cannot start
// without blocking (zram, tmpfs: no NOWAIT) is handed to such a worker,
// which does the I/O and posts its completion; a target that starts I/O
// inline and completes it later (NVMe, virtio) needs none. procTasks is
// /proc/self/task (a parameter for tests).
func iowqRunNs(procTasks string, tid int) (runNs int64, workers int) {
	d, err := os.Open(procTasks)
	if err != nil {
		return 0, 0
	}
	names, _ := d.Readdirnames(-1)
	_ = d.Close()
	want := "iou-wrk-" + strconv.Itoa(tid)
	for _, name := range names {
		b, err := os.ReadFile(procTasks + "/" + name + "/comm")
		if err != nil || strings.TrimSpace(string(b)) != want {
			continue
		}
		workers++
		if b, err = os.ReadFile(procTasks + "/" + name + "/schedstat"); err == nil {
			f := strings.Fields(string(b))
			if len(f) > 0 {
				ns, _ := strconv.ParseInt(f[0], 10, 64)
				runNs += ns
			}
		}
	}
	return runNs, workers
}

// iowqProbeIOs is how many completions a job has before it looks at its
// io-wq workers.
const iowqProbeIOs = 64

// iowqNsPerIO is the least CPU time per completion the job's io-wq workers
// must have spent, by its iowqProbeIOs-th completion, for its completions
// to count as coming through io-wq: a worker that did every read spends
// the read's time (about 5 µs on zram, 1 µs at the least), one that took
// an odd request that could not start without blocking next to nothing
// per I/O.
const iowqNsPerIO = 1000

// probeIOWQ looks once, at the job's iowqProbeIOs-th completion, whether
// its I/O is done by io-wq workers. If so the ring is set up for it:
// batched submission, and, where one worker does them all, waits for
// several completions (waitFor), the job staying pinned beside its
// workers where pinBesideWorkers pinned it; if not the job is unpinned.
// Its workers' CPU time is counted from the ring's setup (iowqNs0): a
// thread the Go runtime hands from run to run keeps its io-wq, and an
// idle worker of an earlier run keeps its time. One look during the I/O,
// not two a span apart: each reads every thread's comm in /proc, which
// with 16 jobs at depth 1 on zram cost a tenth of a run's I/Os in flight
// when each job looked twice while its I/O ran.
//
// Several workers for one job mean its I/Os block in them (a target that
// waits for a device), each worker one I/O at the device: the job then
// still waits for one completion at a time (waitFor), so that the device
// keeps the depth asked of it.
func (u *uringLoop) probeIOWQ() {
	if u.reapedIOs < iowqProbeIOs {
		return
	}
	u.probed = true
	ns, workers := iowqRunNs("/proc/self/task", unix.Gettid())
	if workers > 0 && ns-u.iowqNs0 >= iowqNsPerIO*u.reapedIOs {
		u.viaIOWQ, u.stream.batch, u.oneWorker = true, true, workers == 1
		return
	}
	u.unpinJob()
}

// unpinJob gives the job's thread and its workers the CPUs they had
// before pinBesideWorkers.
func (u *uringLoop) unpinJob() {
	if u.unpin == nil {
		return
	}
	_ = u.r.register(uringRegisterIOWQAff, unsafe.Pointer(u.unpin), int(unsafe.Sizeof(*u.unpin)))
	_ = unix.SchedSetaffinity(0, u.unpin)
	u.unpin, u.alone = nil, false
}
