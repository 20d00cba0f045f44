package littleslaw

import (
	"math"
	"sort"
)

// LoadSlack is how far an open-loop step's achieved rate may fall below
// the rate offered to it and still count as keeping up (2 %: it achieved
// at least 98 % of the load), or further when its count is small: a
// Poisson count of n arrivals scatters by √n, and the slack is at least
// LoadSigmas of that (4/√n). A step that falls further behind is
// queueing arrivals it cannot issue: over a window of T seconds a
// deficit d (a fraction of the load) leaves its arrivals waiting d·T/2
// on average, 20 ms at 2 % over 2 s.
const LoadSlack = 0.02

// LoadSigmas is how many standard deviations of a Poisson count the slack
// of KeptUp allows at least.
const LoadSigmas = 4

// KeptUp reports whether p kept up with the load offered to it. A
// closed-loop point always does. An open-loop point (OfferedIOPS > 0)
// keeps up when both hold:
//
//   - it achieved at least 1 − slack of the load, the slack LoadSlack, or
//     LoadSigmas of the Poisson scatter of the count offered over its
//     window when that is larger (known from IOs);
//   - where its response times were measured, its arrivals' mean wait to
//     be issued (response mean − mean latency from issue) is no longer
//     than its latency from issue, or than the wait a queue of arrivals
//     growing at the slack would reach over the window (slack × T / 2):
//     a longer wait is a queue of arrivals growing with the run, whatever
//     the rate achieved says.
func KeptUp(p Point) bool {
	if p.OfferedIOPS <= 0 {
		return true
	}
	slack, windowSec := LoadSlack, 0.0
	if p.IOs > 0 && p.IOPS > 0 {
		windowSec = p.IOs / p.IOPS
		n := p.OfferedIOPS * windowSec // arrivals expected over the window
		slack = math.Max(slack, LoadSigmas/math.Sqrt(n))
	}
	if p.IOPS < (1-slack)*p.OfferedIOPS {
		return false
	}
	if p.Response == nil || p.Response.MeanNs <= 0 {
		return true
	}
	wait := p.Response.MeanNs - p.LatMeanNs
	return wait <= math.Max(p.LatMeanNs, slack*windowSec*1e9/2)
}

// LoadStep is one offered load of an open-loop curve, with the depth
// Little's Law reads off it.
type LoadStep struct {
	OfferedIOPS float64 `json:"offered_iops"` // arrivals per second offered
	IOPS        float64 `json:"iops"`         // achieved I/Os per second
	LatMeanNs   float64 `json:"lat_mean_ns"`
	P99Ns       float64 `json:"p99_ns,omitempty"`
	// Response is the load's response times, from each I/O's scheduled
	// arrival (its wait to be issued included); LatMeanNs and P99Ns run
	// from issue, as fio's (nil: not measured).
	Response *Response `json:"response,omitempty"`
	// Inflight is IOPS × mean latency: the I/Os in flight this load keeps
	// (Little's Law); MeasuredInflight is the engine's time-weighted mean
	// (0: not measured). Depth is Inflight rounded up to a whole I/O: the
	// queue depth the load needs.
	Inflight         float64 `json:"inflight"`
	MeasuredInflight float64 `json:"measured_inflight,omitempty"`
	Depth            int     `json:"depth"`
	KeptUp           bool    `json:"kept_up"` // KeptUp
}

// LoadCurve is a curve measured over offered loads (open-loop arrivals,
// fio's rate_process=poisson) rather than queue depths: each step's
// latency against the load offered, and the depth each load needs.
type LoadCurve struct {
	Steps []LoadStep `json:"steps"` // by offered load, ascending
	// MaxKeptUp is the highest offered load the device kept up with and
	// KeptUpIOPS what it achieved there (0: none kept up).
	MaxKeptUp  float64 `json:"max_kept_up_iops"`
	KeptUpIOPS float64 `json:"kept_up_achieved_iops,omitempty"`
	// FirstBehind is the lowest offered load it fell behind of (0: none).
	FirstBehind float64 `json:"first_behind_iops,omitempty"`
}

// loadCurve is the open-loop view of pts; nil when no point was offered
// a load.
func loadCurve(pts []Point) *LoadCurve {
	var c LoadCurve
	for _, p := range pts {
		if p.OfferedIOPS <= 0 {
			continue
		}
		in := QueueDepth(p.IOPS, p.LatMeanNs)
		c.Steps = append(c.Steps, LoadStep{
			OfferedIOPS: p.OfferedIOPS, IOPS: p.IOPS, LatMeanNs: p.LatMeanNs, P99Ns: p.P99Ns, Response: p.Response,
			Inflight: in, MeasuredInflight: p.InflightMean, Depth: CeilQD(in), KeptUp: KeptUp(p),
		})
	}
	if len(c.Steps) == 0 {
		return nil
	}
	sort.SliceStable(c.Steps, func(i, j int) bool { return c.Steps[i].OfferedIOPS < c.Steps[j].OfferedIOPS })
	for _, s := range c.Steps {
		switch {
		case s.KeptUp && s.OfferedIOPS > c.MaxKeptUp:
			c.MaxKeptUp, c.KeptUpIOPS = s.OfferedIOPS, s.IOPS
		case !s.KeptUp && c.FirstBehind == 0:
			c.FirstBehind = s.OfferedIOPS
		}
	}
	return &c
}
