package fioadapt_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestRunGroups runs real psync jobs as a job file's groups: group 1 starts
// after group 0's jobs end, a group's jobs share the process's CPU, a
// startdelay is waited, wait_for holds its job alone until its waitee
// ends, and a refused workload ends the run.
func TestRunGroups(t *testing.T) {
	path := filepath.Join(t.TempDir(), "groups.dat")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, _, err := ioengine.New(ioengine.EnginePsync)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	starts, ends := map[int]time.Time{}, map[int]time.Time{}
	job := func(i, group int, delay time.Duration) *fioadapt.Job {
		ctl := ioengine.Control{Runtime: 150 * time.Millisecond}
		ctl.OnWindowStart = func() { mu.Lock(); starts[i] = time.Now(); mu.Unlock() }
		ctl.OnWindowEnd = func() { mu.Lock(); ends[i] = time.Now(); mu.Unlock() }
		return &fioadapt.Job{Group: group, StartDelay: delay, Engine: eng, Control: ctl,
			Workload: ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 1, NumJobs: 1}}
	}
	jobs := []*fioadapt.Job{job(0, 0, 0), job(1, 0, 200*time.Millisecond), job(2, 1, 0)}
	t0 := time.Now()
	if err := fioadapt.RunGroups(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	for i, j := range jobs {
		if j.Err != nil || j.Stats == nil || j.Stats.All.TotalIOs == 0 {
			t.Fatalf("job %d: %v, stats %+v", i, j.Err, j.Stats)
		}
	}
	if d := starts[1].Sub(t0); d < 200*time.Millisecond {
		t.Errorf("job 1 began %v after the run, before its 200 ms startdelay", d)
	}
	if !starts[2].After(ends[0]) || !starts[2].After(ends[1]) {
		t.Errorf("group 1 began at %v, before group 0 ended (%v, %v)", starts[2], ends[0], ends[1])
	}
	if !jobs[0].CPUShared || !jobs[1].CPUShared || jobs[2].CPUShared {
		t.Errorf("CPU shared: %v %v %v; want the two jobs of group 0", jobs[0].CPUShared, jobs[1].CPUShared, jobs[2].CPUShared)
	}

	// wait_for: job 8 waits for job 6 alone; job 7, after it in the file,
	// starts with the group (fio 3.33 starts it at once). Job 6 ends only
	// once job 7 has begun, so a job 7 held behind job 6 fails the test.
	j6, j7, j8 := job(6, 0, 0), job(7, 0, 0), job(8, 0, 0)
	j8.WaitFor = []int{0}
	began7 := make(chan struct{})
	j7.Control.OnWindowStart = func() { close(began7) }
	j6.Control.OnWindowEnd = func() {
		select {
		case <-began7:
		case <-time.After(20 * time.Second):
			t.Error("the job after a wait_for job did not start while the waitee ran")
		}
		mu.Lock()
		ends[6] = time.Now()
		mu.Unlock()
	}
	if err := fioadapt.RunGroups(context.Background(), []*fioadapt.Job{j6, j8, j7}); err != nil {
		t.Fatal(err)
	}
	if !starts[8].After(ends[6]) {
		t.Errorf("the wait_for job began at %v, before its waitee ended (%v)", starts[8], ends[6])
	}

	// A workload the engine refuses ends the run before the next group.
	bad := job(3, 0, 0)
	bad.Workload.BS = 0
	next := job(4, 1, 0)
	if err := fioadapt.RunGroups(context.Background(), []*fioadapt.Job{bad, next}); !errors.Is(err, ioengine.ErrBadWorkload) {
		t.Errorf("refused workload: %v, want ErrBadWorkload", err)
	}
	if next.Stats != nil {
		t.Error("the group after a refused workload ran")
	}

	// Interrupted during its startdelay, a job does not run.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	late := job(5, 0, time.Minute)
	if err := fioadapt.RunGroups(ctx, []*fioadapt.Job{late}); err != nil || !errors.Is(late.Err, context.DeadlineExceeded) || late.Stats != nil {
		t.Errorf("interrupted startdelay: run %v, job %v, stats %v", err, late.Err, late.Stats)
	}
}

// TestIOsPerJob is fio's size-based end in whole blocks.
func TestIOsPerJob(t *testing.T) {
	w := ioengine.Workload{BS: 4096, NumJobs: 1}
	for _, tt := range []struct {
		name string
		run  fioadapt.JobRun
		w    ioengine.Workload
		size int64
		want int64
	}{
		{"whole file", fioadapt.JobRun{Loops: 1}, w, 1 << 20, 256},
		{"two loops", fioadapt.JobRun{Loops: 2}, w, 1 << 20, 512},
		{"io_size", fioadapt.JobRun{Loops: 1, IOSize: 64 << 10}, w, 1 << 20, 16},
		{"number_ios caps each loop", fioadapt.JobRun{Loops: 3, NumberIOs: 10}, w, 1 << 20, 30},
		{"offsets shrink the region", fioadapt.JobRun{Loops: 1}, ioengine.Workload{BS: 4096, NumJobs: 2, Offset: 4096, OffsetIncrement: 512 << 10}, 1 << 20, 127},
		{"less than a block is one", fioadapt.JobRun{Loops: 1, IOSize: 100}, w, 1 << 20, 1},
	} {
		if got := fioadapt.IOsPerJob(tt.run, tt.w, tt.size); got != tt.want {
			t.Errorf("%s: %d I/Os, want %d", tt.name, got, tt.want)
		}
	}
}
