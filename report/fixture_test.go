package report_test

import (
	"math"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// curveSpec describes a synthetic device curve for fixtures: IOPS follow
// xmax·N/(N+k) (a throttled disk) and latency follows from Little's Law.
type curveSpec struct {
	rw      string
	bs      int64
	xmax    float64 // IOPS ceiling
	k       float64 // half-saturation depth
	numjobs []int
	depths  []int
}

// fixture builds a result from curve specs and analyses it with littleslaw.
func fixture(simulated bool, o littleslaw.Options, specs ...curveSpec) *sweep.Result {
	start := time.Date(2026, 11, 30, 10, 15, 0, 0, time.UTC)
	r := &sweep.Result{
		Schema: sweep.Schema,
		Meta: sweep.Meta{
			Tool: "qdsweep", Version: "0.1.0-test", Start: start, End: start.Add(time.Minute),
			Hostname: "bench-1", Kernel: "6.18.0", CPUs: 2, Target: "/dev/nvme0n2",
			Device: &sweep.DeviceInfo{Name: "nvme0n2", Model: "nvme_card-pd", Scheduler: "none", NrRequests: 1023},
			Engine: "io_uring", Simulated: simulated,
			Workload: sweep.Workload{Size: 1 << 30, Direct: true, RampNs: 1e9, RuntimeNs: 5e9},
		},
	}
	if simulated {
		r.Meta.Engine, r.Meta.Workload.Sim = "sim", "r0=80us,xmax=94k"
	}
	for _, c := range specs {
		r.Plan.RW = append(r.Plan.RW, c.rw)
		r.Plan.BS = append(r.Plan.BS, c.bs)
		jobs := c.numjobs
		if len(jobs) == 0 {
			jobs = []int{1}
		}
		for _, nj := range jobs {
			for _, d := range c.depths {
				qd := float64(d * nj)
				iops := c.xmax * qd / (qd + c.k)
				mean := qd / iops * 1e9
				r.Steps = append(r.Steps, sweep.Step{
					RW: c.rw, BS: c.bs, IODepth: d, NumJobs: nj, QD: d * nj,
					IOPS: iops, BWBytes: iops * float64(c.bs),
					Lat: ioengine.Latency{MinNs: int64(mean / 3), MeanNs: mean, P50Ns: int64(mean * 0.9),
						P90Ns: int64(mean * 1.6), P99Ns: int64(mean * 2.4 * (1 + qd/256)), P999Ns: int64(mean * 4 * (1 + qd/128)),
						MaxNs: int64(mean * 20)},
					InflightMean: qd * 0.995, LittleError: 0.005, Steady: true, RuntimeNs: 5e9,
					Device: &sweep.DeviceStats{ReadsPerSec: iops, AquSz: qd * 0.97, UtilPct: math.Min(100, qd*12), ReadAwaitMs: mean / 1e6},
				})
			}
		}
	}
	if err := r.Analyze(o); err != nil {
		panic(err)
	}
	return r
}

var pow2to256 = []int{1, 2, 4, 8, 16, 32, 64, 128, 256}

// oneCurve is a 9-step randread 4k sweep of a 94k IOPS disk.
func oneCurve(o littleslaw.Options) *sweep.Result {
	return fixture(false, o, curveSpec{rw: "randread", bs: 4096, xmax: 94000, k: 7, depths: pow2to256})
}

// fourCurves is a 4-curve sweep (randread and randwrite at 4k and 16k).
func fourCurves(o littleslaw.Options, depths []int) *sweep.Result {
	return fixture(false, o,
		curveSpec{rw: "randread", bs: 4096, xmax: 94000, k: 7, depths: depths},
		curveSpec{rw: "randread", bs: 16384, xmax: 60000, k: 5, depths: depths},
		curveSpec{rw: "randwrite", bs: 4096, xmax: 40000, k: 3, depths: depths},
		curveSpec{rw: "randwrite", bs: 16384, xmax: 25000, k: 2.5, depths: depths},
	)
}

// handAnalysed returns r with a fixed, hand-written analysis per curve (a
// USL model through the points and knees at the given depths), so golden images do not move
// when littleslaw's fitting is tuned.
func handAnalysed(r *sweep.Result, satQD, effQD float64) *sweep.Result {
	r.Analysis = nil
	for _, c := range r.Curves() {
		pts := c.Points()
		a := littleslaw.Analysis{Points: pts, BaseLatencyNs: pts[0].LatMeanNs}
		at := func(qd float64) littleslaw.Point {
			for _, p := range pts {
				if p.QD == qd {
					return p
				}
			}
			return pts[len(pts)-1]
		}
		for _, p := range pts {
			if p.IOPS > a.MaxIOPS {
				a.MaxIOPS, a.MaxIOPSQD = p.IOPS, p.QD
			}
		}
		s, e := at(satQD), at(effQD)
		a.Saturation = littleslaw.Knee{Rule: "saturation", QD: s.QD, IOPS: s.IOPS, LatNsMean: s.LatMeanNs, Found: true}
		a.Efficient = littleslaw.Knee{Rule: "efficient", QD: e.QD, IOPS: e.IOPS, LatNsMean: e.LatMeanNs, Found: true}
		// The fixtures follow USL with kappa = 0: lambda is the rate at QD 1
		// and the deepest point gives sigma.
		first, last := pts[0], pts[len(pts)-1]
		lambda := first.IOPS
		sigma := (lambda*last.QD/last.IOPS - 1) / (last.QD - 1)
		roof := lambda / sigma
		a.Model = &littleslaw.Model{Name: "usl", Params: map[string]float64{"lambda": lambda, "sigma": sigma, "kappa": 0},
			XRoof: roof, KneeQD: roof * a.BaseLatencyNs / 1e9}
		r.Analysis = append(r.Analysis, sweep.CurveAnalysis{RW: c.RW, BS: c.BS, Analysis: a})
	}
	return r
}
