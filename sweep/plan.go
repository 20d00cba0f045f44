package sweep

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/qdsweep/qdsweep/fio"
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
	// RateIOPS is the load offered to the step, total I/Os per second
	// (Plan.Rates; 0: none, a step over depths).
	RateIOPS float64
}

// QD is the total queue depth IODepth × NumJobs, × Hosts for a fleet.
func (g GridStep) QD() int { return g.IODepth * g.NumJobs * max(g.Hosts, 1) }

// Curve reports whether g belongs to the curve (rw, bs).
func (g GridStep) Curve(rw string, bs int64) bool { return string(g.RW) == rw && g.BS == bs }

// Matches reports whether s was recorded for g.
func (g GridStep) Matches(s Step) bool {
	return s.RW == string(g.RW) && s.BS == g.BS && s.IODepth == g.IODepth && s.NumJobs == g.NumJobs &&
		s.OfferedIOPS == g.RateIOPS
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
	n := len(p.RW) * len(p.BS) * len(p.IODepth) * len(p.NumJobs)
	if k := max(len(p.Rates), len(p.RateFractions)); k > 0 {
		n *= k
	}
	return n
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
	if err := p.validateRates(); err != nil {
		return err
	}
	if n := p.Size(); n > MaxSteps && !p.Full {
		return fmt.Errorf("%w: the grid has %d steps, more than %d (narrow --%s/--%s/--%s/--%s or pass --full)",
			ErrBadSpec, n, MaxSteps, fio.OptIODepth, fio.OptNumJobs, fio.OptBS, fio.OptRW)
	}
	return nil
}

// Equal reports whether two plans run the same grid.
func (p Plan) Equal(o Plan) bool {
	return slices.Equal(p.RW, o.RW) && slices.Equal(p.BS, o.BS) && slices.Equal(p.IODepth, o.IODepth) &&
		slices.Equal(p.NumJobs, o.NumJobs) && p.Full == o.Full && max(p.Hosts, 1) == max(o.Hosts, 1) &&
		slices.Equal(p.RateFractions, o.RateFractions) && (len(p.RateFractions) > 0 || slices.Equal(p.Rates, o.Rates))
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
				g := GridStep{RW: ioengine.RW(rw), BS: bs, IODepth: pr.d, NumJobs: pr.j, Hosts: p.Hosts}
				if len(p.Rates) == 0 {
					out = append(out, g)
				}
				for _, r := range p.Rates {
					g.RateIOPS = r
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// validateRates checks an open-loop plan: rates finite, > 0 and
// ascending, at one iodepth and one numjobs (the most in flight, which
// every offered load shares).
func (p Plan) validateRates() error {
	if len(p.Rates) == 0 && len(p.RateFractions) == 0 {
		return nil
	}
	if len(p.IODepth) != 1 || len(p.NumJobs) != 1 {
		return fmt.Errorf("%w: a sweep over offered loads runs at one iodepth and one numjobs (the most in flight); give e.g. --%s=64 --%s=1", ErrBadSpec, fio.OptIODepth, fio.OptNumJobs)
	}
	if len(p.RateFractions) > 0 && (len(p.RW) != 1 || len(p.BS) != 1) {
		return fmt.Errorf("%w: offered loads in %% are shares of one curve's closed-loop IOPS; give one --%s and one --%s, or the loads in I/Os per second", ErrBadSpec, fio.OptRW, fio.OptBS)
	}
	for _, l := range [][]float64{p.Rates, p.RateFractions} {
		for i, r := range l {
			if !(r > 0) || math.IsInf(r, 0) {
				return fmt.Errorf("%w: offered load %g is not a rate; use I/Os per second or per cent of the closed-loop IOPS, e.g. --%s=1000,2000,4000 or --%s=25%%,50%%,90%%", ErrBadSpec, r, fio.OptRateIOPS, fio.OptRateIOPS)
			}
			if i > 0 && r <= l[i-1] {
				return fmt.Errorf("%w: offered loads must rise: %g after %g; list them ascending, e.g. --%s=1000,2000,4000", ErrBadSpec, r, l[i-1], fio.OptRateIOPS)
			}
		}
	}
	return nil
}

// OpenLoop reports whether the plan sweeps offered loads, not depths.
func (p Plan) OpenLoop() bool { return len(p.Rates) > 0 || len(p.RateFractions) > 0 }

// RatesPerJob splits a step's offered load, total I/Os per second over
// numjobs jobs, into each job's rate per direction (reads [0], writes
// [1]): all of it to the direction rw does, split by rwmixread for a
// mixed pattern, as fio's rate_iops caps each direction on its own.
func RatesPerJob(rate float64, rw ioengine.RW, rwmixread, numjobs int) [2]float64 {
	per := rate / float64(max(numjobs, 1))
	switch {
	case rw.Mixed():
		f := float64(rwmixread) / 100
		return [2]float64{per * f, per * (1 - f)}
	case rw.IsWrite():
		return [2]float64{0, per}
	default:
		return [2]float64{per, 0}
	}
}
