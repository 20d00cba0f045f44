package sweep

import (
	"fmt"
	"slices"
	"sort"

	"github.com/qdsweep/qdsweep/ioengine"
)

// MaxSteps is the largest grid a plan may hold without Full.
const MaxSteps = 10000

// GridStep is one point of a plan's grid: the varying part of a step's workload.
type GridStep struct {
	RW      ioengine.RW
	BS      int64 // bytes
	IODepth int   // per host
	NumJobs int   // per host
	Hosts   int   // hosts running the step at once (0 or 1: one)
}

// QD is the total queue depth IODepth × NumJobs, × Hosts for a fleet.
func (g GridStep) QD() int { return g.IODepth * g.NumJobs * max(g.Hosts, 1) }

// Curve reports whether g belongs to the curve (rw, bs).
func (g GridStep) Curve(rw string, bs int64) bool { return string(g.RW) == rw && g.BS == bs }

// Matches reports whether s was recorded for g.
func (g GridStep) Matches(s Step) bool {
	return s.RW == string(g.RW) && s.BS == g.BS && s.IODepth == g.IODepth && s.NumJobs == g.NumJobs
}

// NewPlan builds a plan from parsed lists.
func NewPlan(rw []ioengine.RW, bs []int64, iodepth, numjobs []int, full bool) Plan {
	p := Plan{BS: slices.Clone(bs), IODepth: slices.Clone(iodepth), NumJobs: slices.Clone(numjobs), Full: full}
	for _, r := range rw {
		p.RW = append(p.RW, string(r))
	}
	return p
}

// Size is the number of steps in the grid.
func (p Plan) Size() int {
	return len(p.RW) * len(p.BS) * len(p.IODepth) * len(p.NumJobs)
}

// Validate checks that every list is non-empty and valid and that the grid
// holds at most MaxSteps steps unless Full is set.
func (p Plan) Validate() error {
	switch {
	case len(p.RW) == 0:
		return fmt.Errorf("%w: no rw pattern", ErrBadSpec)
	case len(p.BS) == 0:
		return fmt.Errorf("%w: no block size", ErrBadSpec)
	case len(p.IODepth) == 0:
		return fmt.Errorf("%w: no iodepth", ErrBadSpec)
	case len(p.NumJobs) == 0:
		return fmt.Errorf("%w: no numjobs", ErrBadSpec)
	}
	for _, v := range p.BS {
		if v <= 0 {
			return fmt.Errorf("%w: block size %d must be > 0", ErrBadSpec, v)
		}
	}
	for _, v := range append(slices.Clone(p.IODepth), p.NumJobs...) {
		if v < 1 || v > maxSpecValue {
			return fmt.Errorf("%w: iodepth/numjobs %d out of range 1..%d", ErrBadSpec, v, maxSpecValue)
		}
	}
	if n := p.Size(); n > MaxSteps && !p.Full {
		return fmt.Errorf("%w: the grid has %d steps, more than %d (narrow --iodepth/--numjobs/--bs/--rw or pass --full)", ErrBadSpec, n, MaxSteps)
	}
	return nil
}

// Equal reports whether two plans run the same grid.
func (p Plan) Equal(o Plan) bool {
	return slices.Equal(p.RW, o.RW) && slices.Equal(p.BS, o.BS) && slices.Equal(p.IODepth, o.IODepth) &&
		slices.Equal(p.NumJobs, o.NumJobs) && p.Full == o.Full && max(p.Hosts, 1) == max(o.Hosts, 1)
}

// Grid lists the plan's steps in run order: curve by curve (rw in the order
// given, then bs), and within a curve by total QD, then by numjobs.
func (p Plan) Grid() []GridStep {
	type pair struct{ d, j int }
	var pairs []pair
	for _, d := range p.IODepth {
		for _, j := range p.NumJobs {
			pairs = append(pairs, pair{d, j})
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool {
		qa, qb := pairs[a].d*pairs[a].j, pairs[b].d*pairs[b].j
		if qa != qb {
			return qa < qb
		}
		return pairs[a].j < pairs[b].j
	})
	out := make([]GridStep, 0, p.Size())
	for _, rw := range p.RW {
		for _, bs := range p.BS {
			for _, pr := range pairs {
				out = append(out, GridStep{RW: ioengine.RW(rw), BS: bs, IODepth: pr.d, NumJobs: pr.j, Hosts: p.Hosts})
			}
		}
	}
	return out
}
