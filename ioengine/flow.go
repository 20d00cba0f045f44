package ioengine

import (
	"sync/atomic"
	"time"
)

// Flow is fio's token-based flow control (flow, flow_id, flow_sleep):
// jobs that share a flow issue I/Os in proportion to their weights. Each
// job counts the I/Os it issued, and the flow counts every member's (from
// 1, as fio's does); before each I/O a job compares its share of the
// flow's count with its weight's share of the flow's weights, and while
// it is ahead it issues nothing: it waits, with its I/Os in flight, and
// looks again (fio's default), or, with Sleep, lets its I/Os complete and
// sleeps Sleep before it looks again. A job that ends leaves the flow:
// its count and weight leave the flow's. As in fio, weights are unsigned
// 32-bit numbers: a negative weight is taken modulo 2³², which makes it
// all but the whole flow's. The zero value is no flow.
type Flow struct {
	// Weight is fio's flow: the job's weight in its flow (0: none).
	Weight int
	// ID is fio's flow_id: jobs of the same ID share a flow.
	ID int
	// Sleep is fio's flow_sleep: how long a job held back sleeps, its I/Os
	// completed, before it looks again (0: it looks again at once).
	Sleep time.Duration
	// Counter is the flow's count and weights, shared by every job of the
	// flow (several runs' alike, run together): whoever runs them makes
	// one per ID (NewFlowCounter) and adds each job's weight (Join) before
	// any starts, as fio does when it reads the job file. nil: the run's
	// own jobs alone share a flow, which the run makes.
	Counter *FlowCounter `json:"-"`
}

// On reports whether the job belongs to a flow.
func (f Flow) On() bool { return f.Weight != 0 }

// FlowCounter is one flow's state, shared by its jobs: fio's struct
// fio_flow, its counter of I/Os issued and its total weight.
type FlowCounter struct {
	issued atomic.Int64  // fio's flow_counter: 1 + the I/Os its jobs issued
	weight atomic.Uint32 // fio's total_weight: its jobs' weights, modulo 2³² as fio's unsigned int
}

// NewFlowCounter returns an empty flow: no weight, its count at fio's 1.
func NewFlowCounter() *FlowCounter {
	c := &FlowCounter{}
	c.issued.Store(1)
	return c
}

// Join adds a job of weight w to the flow (fio's flow_init_job); each of a
// workload's NumJobs jobs is one.
func (c *FlowCounter) Join(w int) { c.weight.Add(uint32(w)) }

// Unjoin takes n jobs of weight w that never issued an I/O out of the
// flow, as fio takes out a job that ends without running; nothing for a
// nil flow.
func (c *FlowCounter) Unjoin(w, n int) {
	for ; c != nil && n > 0; n-- {
		c.leave(0, w)
	}
}

// leave takes a job that issued issued I/Os at weight w out of the flow
// (fio's flow_exit_job).
func (c *FlowCounter) leave(issued int64, w int) {
	c.issued.Add(-issued)
	c.weight.Add(-uint32(w))
}

// take is fio's flow_threshold_exceeded for a job of weight w that issued
// *own I/Os: false while the job's share of the flow's I/Os is above its
// weight's share of the flow's weights; else it counts one more I/O, the
// job's and the flow's, and reports true.
func (c *FlowCounter) take(own *int64, w int) bool {
	if float64(*own)/float64(c.issued.Load()) > float64(uint32(w))/float64(c.weight.Load()) {
		return false
	}
	c.issued.Add(1)
	*own++
	return true
}
