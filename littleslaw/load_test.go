package littleslaw_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// openLoopCurve is a generated open-loop curve: loads offered up to past
// a capacity, each achieving the load (or the capacity, past it) with an
// M/M/1-like mean latency, the in-flight Little's Law gives, and noise.
func openLoopCurve(rng *rand.Rand) []littleslaw.Point {
	capacity := 1000 + rng.Float64()*100000
	base := 50e3 + rng.Float64()*2e6 // ns
	var pts []littleslaw.Point
	for _, f := range []float64{0.1, 0.25, 0.5, 0.75, 0.9, 1.1, 1.3} {
		offered := math.Round(f * capacity)
		iops := math.Min(offered, capacity) * (1 + 0.02*(rng.Float64()-0.5))
		rho := math.Min(iops/capacity, 0.97)
		lat := base / (1 - rho) * (1 + 0.3*rng.Float64())
		in := iops * lat / 1e9
		pts = append(pts, littleslaw.Point{QD: in, IOPS: iops, LatMeanNs: lat, P99Ns: 4 * lat, InflightMean: in, OfferedIOPS: offered, IOs: iops * 3})
	}
	return pts
}

// TestLoadCurveAnswer holds the one advisor to an open-loop curve over
// generated curves: the latency objective's answer is the highest load
// offered that kept up and met it, the depth the advice gives is the
// I/Os Little's Law says that load keeps (achieved IOPS × mean latency)
// or less where the curve saturates first, and each load's depth is its in-flight rounded up.
func TestLoadCurveAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for k := range 60 {
		pts := openLoopCurve(rng)
		limit := pts[rng.IntN(len(pts))].P99Ns * (0.8 + 0.4*rng.Float64())
		slo := littleslaw.SLO{Stat: "p99", LimitNs: limit}
		a, err := littleslaw.Analyze(pts, littleslaw.Options{SLO: &slo})
		if err != nil {
			t.Fatal(err)
		}
		var want *littleslaw.Point
		for i, p := range pts {
			if p.P99Ns <= limit && littleslaw.KeptUp(p) && (want == nil || p.OfferedIOPS > want.OfferedIOPS) {
				want = &pts[i]
			}
		}
		if a.Load == nil || len(a.Load.Steps) != len(pts) {
			t.Fatalf("curve %d: load curve %+v", k, a.Load)
		}
		for _, s := range a.Load.Steps {
			if s.Depth != littleslaw.CeilQD(s.IOPS*s.LatMeanNs/1e9) {
				t.Errorf("curve %d: load %.0f: depth %d for %.2f in flight", k, s.OfferedIOPS, s.Depth, s.Inflight)
			}
		}
		if want == nil {
			if a.SLO.Met {
				t.Errorf("curve %d: met at %+v; no load kept up under %.0f ns", k, a.SLO, limit)
			}
			continue
		}
		if !a.SLO.Met || a.SLO.OfferedIOPS != want.OfferedIOPS {
			t.Fatalf("curve %d: SLO answer %+v; want %.0f offered", k, a.SLO, want.OfferedIOPS)
		}
		adv := littleslaw.AdviseCurve(a, 4096, littleslaw.AdviceInput{Options: littleslaw.Options{SLO: &slo}})
		in := want.IOPS * want.LatMeanNs / 1e9
		if adv.From == littleslaw.AdviceFromSLO && (math.Abs(adv.QueueDepth-in) > 1e-9*in ||
			adv.Split.IODepth*adv.Split.NumJobs < littleslaw.CeilQD(in)) {
			t.Errorf("curve %d: advice %v in flight (split %+v) for %.0f offered; Little's Law gives %.3f", k, adv.QueueDepth, adv.Split, want.OfferedIOPS, in)
		}
		// Short of the objective's load, the advice stops where depth stops
		// paying (saturation): never deeper than that load keeps.
		if adv.From != littleslaw.AdviceFromSLO && adv.QueueDepth > in*(1+1e-9) {
			t.Errorf("curve %d: advice from %s at %v in flight, deeper than the %.3f the highest load meeting the objective keeps", k, adv.From, adv.QueueDepth, in)
		}
	}
}

// TestLoadCurveJudgesResponseTime: an open-loop curve whose points carry
// response times (from each I/O's scheduled arrival) answers a latency
// objective on them, not on the latency from issue: over generated
// curves whose arrivals wait on top of their latency, the answer is the
// highest load that kept up with a response p99 under the limit, and it
// quotes that p99.
func TestLoadCurveJudgesResponseTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for k := range 60 {
		pts := openLoopCurve(rng)
		for i := range pts {
			wait := pts[i].LatMeanNs * (0.2 + 3*rng.Float64()) // the wait to be issued
			pts[i].Response = &littleslaw.Response{MeanNs: pts[i].LatMeanNs + wait, P50Ns: pts[i].LatMeanNs + wait,
				P90Ns: 2*pts[i].LatMeanNs + wait, P99Ns: pts[i].P99Ns + wait, P999Ns: 2*pts[i].P99Ns + wait}
		}
		limit := pts[rng.IntN(len(pts))].P99Ns * (0.8 + 0.4*rng.Float64())
		a, err := littleslaw.Analyze(pts, littleslaw.Options{SLO: &littleslaw.SLO{Stat: "p99", LimitNs: limit}})
		if err != nil {
			t.Fatal(err)
		}
		var want *littleslaw.Point
		for i, p := range pts {
			if p.Response.P99Ns <= limit && littleslaw.KeptUp(p) && (want == nil || p.OfferedIOPS > want.OfferedIOPS) {
				want = &pts[i]
			}
		}
		switch {
		case want == nil && a.SLO.Met:
			t.Errorf("curve %d: met at %.0f IOPS offered; no load kept up with a response p99 under %.0f ns", k, a.SLO.OfferedIOPS, limit)
		case want != nil && (!a.SLO.Met || a.SLO.OfferedIOPS != want.OfferedIOPS || a.SLO.LatNs != want.Response.P99Ns):
			t.Errorf("curve %d: answer %+v; want %.0f IOPS offered at response p99 %.0f ns", k, *a.SLO, want.OfferedIOPS, want.Response.P99Ns)
		}
		if a.SLO.Breaks != nil && a.SLO.Breaks.OfferedIOPS > 0 && !a.SLO.Breaks.Response {
			t.Errorf("curve %d: the load that breaks the objective is not marked a response time: %+v", k, *a.SLO.Breaks)
		}
	}
}

// TestKeptUpRule holds KeptUp to its two conditions on the steps that
// prompted it: a load kept up is one achieved within the slack (98 %, or
// 4σ of a small Poisson count) whose arrivals do not queue over the run
// (a mean wait to be issued no longer than the latency from issue, or
// than a queue growing at the slack would reach over the window).
func TestKeptUpRule(t *testing.T) {
	resp := func(ns float64) *littleslaw.Response { return &littleslaw.Response{MeanNs: ns} }
	for _, c := range []struct {
		name string
		p    littleslaw.Point
		want bool
	}{
		{"94.6 % achieved, response 59.8 ms and rising", littleslaw.Point{OfferedIOPS: 84500, IOPS: 79937, IOs: 159874, LatMeanNs: 0.8e6, Response: resp(59.8e6)}, false},
		{"99.8 % achieved, arrivals waiting 59 ms", littleslaw.Point{OfferedIOPS: 84500, IOPS: 84331, IOs: 168662, LatMeanNs: 0.76e6, Response: resp(59.8e6)}, false},
		{"99.6 % achieved, arrivals waiting 0.4 ms", littleslaw.Point{OfferedIOPS: 56300, IOPS: 56075, IOs: 112150, LatMeanNs: 0.5e6, Response: resp(0.9e6)}, true},
		{"99.6 % achieved, arrivals late 4 ms on a loaded machine over 2 s", littleslaw.Point{OfferedIOPS: 56300, IOPS: 56075, IOs: 112150, LatMeanNs: 5e3, Response: resp(4e6)}, true},
		{"96.5 % of 11.3k over 2 s, no response times", littleslaw.Point{OfferedIOPS: 11300, IOPS: 10905, IOs: 21810, LatMeanNs: 0.2e6}, false},
		{"98.5 % of 11.3k over 2 s, no response times", littleslaw.Point{OfferedIOPS: 11300, IOPS: 11131, IOs: 22262, LatMeanNs: 0.2e6}, true},
		{"87 % of 150 over 1 s: within 4σ of a count of 150", littleslaw.Point{OfferedIOPS: 150, IOPS: 130, IOs: 130, LatMeanNs: 5e3, Response: resp(20e3)}, true},
		{"closed loop", littleslaw.Point{QD: 64, IOPS: 80000, LatMeanNs: 0.8e6}, true},
	} {
		if got := littleslaw.KeptUp(c.p); got != c.want {
			t.Errorf("%s: kept up %v, want %v", c.name, got, c.want)
		}
	}
}

// TestLoadCurveTargetQuotesResponse: a target answered on an open-loop
// curve with response times carries the mean response time an
// application offering it sees (interpolated between the loads offered
// around it), not only the latency from issue its depth is read by.
func TestLoadCurveTargetQuotesResponse(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	pts := openLoopCurve(rng)
	for i := range pts {
		pts[i].Response = &littleslaw.Response{MeanNs: pts[i].LatMeanNs * float64(2+i)}
	}
	lo, hi := pts[1], pts[2] // 25 % and 50 % of capacity: both kept up
	target := (lo.OfferedIOPS + hi.OfferedIOPS) / 2
	a, err := littleslaw.Analyze(pts, littleslaw.Options{TargetIOPS: target})
	if err != nil {
		t.Fatal(err)
	}
	want := (lo.Response.MeanNs + hi.Response.MeanNs) / 2
	r := a.Target
	if r == nil || !r.Reachable || math.Abs(r.ResponseNs-want) > 1e-6*want {
		t.Fatalf("target %.0f IOPS: %+v; want a mean response of %.0f ns", target, r, want)
	}
	if r.ResponseNs <= r.LatencyNs {
		t.Errorf("response %.0f ns not above the latency from issue %.0f ns", r.ResponseNs, r.LatencyNs)
	}
	// Without response times there is none to quote.
	for i := range pts {
		pts[i].Response = nil
	}
	if a, _ := littleslaw.Analyze(pts, littleslaw.Options{TargetIOPS: target}); a.Target.ResponseNs != 0 {
		t.Errorf("a response time %.0f ns quoted from a curve without any", a.Target.ResponseNs)
	}
}
