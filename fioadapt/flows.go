package fioadapt

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// flowMaxWeight is fio's FLOW_MAX_WEIGHT, the largest flow= it takes.
const flowMaxWeight = 1000

// flowHandlers convert fio's flow family: flow (a whole number up to
// 1000; fio takes a negative one too, as its unsigned weight), flow_id (a
// whole number) and flow_sleep (microseconds).
func flowHandlers() map[string]handler {
	return map[string]handler{
		fio.OptFlow: {apply: convFlow, render: func(wl ioengine.Workload) (string, bool) {
			return strconv.Itoa(wl.Flow.Weight), wl.Flow.On()
		}},
		fio.OptFlowID: {apply: convFlow, render: func(wl ioengine.Workload) (string, bool) {
			return strconv.Itoa(wl.Flow.ID), wl.Flow.On() && wl.Flow.ID != 0
		}},
		fio.OptFlowSleep: {apply: convFlow, render: func(wl ioengine.Workload) (string, bool) {
			return micros(wl.Flow.Sleep), wl.Flow.On() && wl.Flow.Sleep > 0
		}},
	}
}

// convFlow reads one option of fio's flow family.
func convFlow(c *jobConv, key string, o fio.Option) error {
	n, err := strconv.Atoi(strings.TrimSpace(o.Value))
	if err != nil {
		return fmt.Errorf("%s is not a whole number", label(o))
	}
	f := &c.run.Workload.Flow
	switch key {
	case fio.OptFlow:
		if n > flowMaxWeight {
			return fmt.Errorf("%s: at most %d, as fio", label(o), flowMaxWeight)
		}
		f.Weight = n
	case fio.OptFlowID:
		f.ID = n
	case fio.OptFlowSleep:
		if n < 0 {
			return fmt.Errorf("%s: microseconds, 0 or more", label(o))
		}
		f.Sleep = time.Duration(n) * time.Microsecond
	}
	return nil
}

// joinFlows gives the jobs that share a flow (fio's flow_id) one flow
// between them, every job of every group in it from the start, as fio
// joins each job to its flow as it reads the job file: a job's weight
// counts while the jobs before it run.
func joinFlows(jobs []*Job) {
	flows := map[int]*ioengine.FlowCounter{}
	for _, j := range jobs {
		f := &j.Workload.Flow
		if !f.On() || j.VerifyOnly {
			continue // a verify_only job reads back alone, its flow aside
		}
		if flows[f.ID] == nil {
			flows[f.ID] = ioengine.NewFlowCounter()
		}
		f.Counter = flows[f.ID]
		for range max(j.Workload.NumJobs, 1) {
			f.Counter.Join(f.Weight)
		}
	}
}

// flowStart lets the runs of a group's jobs that share flows go together,
// as fio starts a group's jobs: each waits, set up, until every other has
// set up too (or ended without starting). A job let go before the others
// would be held back by its flow until they start, and run ahead of its
// share once they end before it.
type flowStart struct {
	mu      sync.Mutex
	waiting map[*Job]bool
	ready   chan struct{}
}

// startFlowsTogether gives the jobs of group g that share a flow, run by
// qdsweep's engines without startdelay or wait_for, one flowStart: their
// Control.BeforeStart waits in it.
func startFlowsTogether(ctx context.Context, jobs []*Job, g int) {
	s := &flowStart{waiting: map[*Job]bool{}, ready: make(chan struct{})}
	for _, j := range jobs {
		if j.Group == g && j.Workload.Flow.Counter != nil && j.StartDelay == 0 && len(j.WaitFor) == 0 &&
			j.Engine != nil && j.Engine.Name() != ioengine.EngineFio {
			s.waiting[j] = true
		}
	}
	if len(s.waiting) < 2 {
		return
	}
	for j := range s.waiting {
		j.start = s
		j.Control.BeforeStart = func() {
			s.arrive(j)
			select {
			case <-s.ready:
			case <-ctx.Done():
			}
		}
	}
}

// arrive counts job j as set up, or as ended without starting; the last
// lets them all go.
func (s *flowStart) arrive(j *Job) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.waiting[j] {
		return
	}
	delete(s.waiting, j)
	if len(s.waiting) == 0 {
		close(s.ready)
	}
}
