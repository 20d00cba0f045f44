//go:build linux

package ioengine

// nullLoop is fio's null engine: every I/O completes the moment it is
// issued, with no file opened and no byte read or written. What it
// measures is the job's own cost per I/O (its offsets, pacing, counting),
// as fio's null engine measures fio's.
type nullLoop struct{}

func newNullLoop(j *job) (jobLoop, error) {
	j.buffers = ""
	j.threadFree = true
	return nullLoop{}, nil
}

func (nullLoop) close(bool) {}

func (nullLoop) run(j *job) error {
	m := &j.m
	c := m.c
	for !m.done {
		if j.pace.on && !j.waitDue() {
			break
		}
		if j.gate != nil && !j.mayIssue(c.now(), 0) {
			if !j.holdOn() {
				break
			}
			continue
		}
		dir, _, off, bs := j.nextIO()
		due := j.due
		t0 := c.now()
		m.submitted(t0, 1)
		t1 := c.now()
		m.reaped(t1)
		m.retire(t0)
		m.record(dir, t1-t0, bs, t1, off, j.prio.def)
		m.arrived(due, t1)
		m.endBatch(t1, 1)
		j.maybeYield(t1)
		if c.phase.Load() == phaseAbort {
			return nil
		}
	}
	return nil
}

// openNullRun is openRun for the null engine: no target is opened, each
// job's region is the workload's size.
func openNullRun(w Workload, ctl Control) (*workloadRun, error) {
	if w.Size <= 0 {
		return nil, badf("the null engine needs the job's size for its offsets, as fio's does")
	}
	r := &workloadRun{w: w, ctl: ctl, engine: EngineNull, fd: -1}
	var err error
	if r.jobs, r.short, r.limited, err = jobsWithinThreadLimit(w.NumJobs, EngineNull); err != nil {
		return nil, err
	}
	r.jobFDs, r.sizes = make([][]int, w.NumJobs), make([][]int64, w.NumJobs)
	for i := range r.jobFDs {
		r.jobFDs[i], r.sizes[i] = []int{-1}, []int64{w.Size}
	}
	return r, nil
}
