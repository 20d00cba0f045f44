//go:build linux

package ioengine

// flowGate holds one job to its flow (Workload.Flow), as fio's
// flow_threshold_exceeded does before each I/O of its main loop: the gate
// asks it last, once nothing else holds the job (gate.allow).
type flowGate struct {
	c      *FlowCounter // the flow (nil: none)
	weight int          // the job's weight (Flow.Weight)
	sleep  int64        // Flow.Sleep, ns
	issued int64        // the I/Os the job issued (fio's td->flow_counter)
	// held: the flow held the job back and it sleeps once its I/Os
	// completed (gate.idle); wait: held back without a sleep, it looks
	// again as it can (job.flowSpin).
	held, wait bool
	// holds counts the times the flow held the job back in the window.
	holds int64
}

// allow reports whether the flow lets the job issue one more I/O, and
// counts it when it does.
func (f *flowGate) allow(m *meter) bool {
	if f.c == nil {
		return true
	}
	if f.c.take(&f.issued, f.weight) {
		f.wait = false
		return true
	}
	if m.measuring {
		f.holds++
	}
	if f.sleep > 0 {
		f.held = true
	} else {
		f.wait = true
	}
	return false
}

// leave takes the job out of its flow as it ends.
func (f *flowGate) leave() {
	if f.c != nil {
		f.c.leave(f.issued, f.weight)
		f.c = nil
	}
}

// flowSpin is a job held back by its flow without a sleep, nothing in
// flight: it keeps to the coordinator's phase and passes through the
// scheduler now and then, and the loop asks the flow again, as fio's
// loop spins. It reports false when the job must issue no more.
func (j *job) flowSpin() bool {
	m := &j.m
	t := m.c.now()
	m.reaped(t)
	m.endBatch(t, 0)
	if m.done || m.c.phase.Load() == phaseAbort {
		return false
	}
	j.maybeYield(t)
	return true
}

// flowOf is the flow the jobs of w share: w.Flow.Counter, else one of the
// run's own that each of its jobs joins; nil without a flow. Each job
// leaves it as it ends (flowGate.leave), and the run leaves it for those
// that never start (Unjoin).
func flowOf(w *Workload) *FlowCounter {
	if !w.Flow.On() {
		return nil
	}
	if w.Flow.Counter != nil {
		return w.Flow.Counter
	}
	c := NewFlowCounter()
	for range w.NumJobs {
		c.Join(w.Flow.Weight)
	}
	return c
}
