package fioadapt

import (
	"strconv"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// ExplainOptions tunes ExplainFio.
type ExplainOptions struct {
	TargetIOPS float64 // I/Os per second wanted (0: none)
	MaxIODepth int     // per-job iodepth limit for suggestions (0: littleslaw.ExplainMaxIODepth, 256)
	MaxJobs    int     // job limit for suggestions (0: none)
	// BaseLatNs is the unqueued (QD 1) mean latency the user knows, ns
	// (0: unknown): it tells a depth-bound run from a device-bound one.
	BaseLatNs float64
	// Curved names the workloads (CurveKey) whose several runs
	// were answered once from their curve (report.ExplainCurve): their jobs get
	// no target answer of their own.
	Curved map[string]bool
	// Unsaturated names the answered curves that found no saturation.
	Unsaturated map[string]bool
}

// ExplainedJob is one fio job with Little's Law applied to it.
type ExplainedJob struct {
	Name        string  `json:"name"`
	Host        string  `json:"host,omitempty"` // fio server of a client/server run
	RW          string  `json:"rw,omitempty"`
	BS          int64   `json:"bs,omitempty"` // bytes
	IOEngine    string  `json:"ioengine,omitempty"`
	IODepth     int     `json:"iodepth"`
	IODepthFrom string  `json:"iodepth_from"`
	NumJobs     int     `json:"numjobs"`
	NumJobsFrom string  `json:"numjobs_from"`
	IOPS        float64 `json:"iops"`        // I/Os per second, all directions
	BWBytes     float64 `json:"bw_bytes"`    // bytes per second
	LatMeanNs   float64 `json:"lat_mean_ns"` // mean total latency
	LatFrom     string  `json:"lat_from"`    // "lat" or "clat+slat"
	P99Ns       float64 `json:"p99_ns,omitempty"`
	// P99ReadNs and P99WriteNs are each direction's own p99 when the job
	// did both and its p99 over both is not known (no json+ histogram).
	P99ReadNs  float64 `json:"p99_read_ns,omitempty"`
	P99WriteNs float64 `json:"p99_write_ns,omitempty"`
	// P99Of is fio.LatStat.PercentilesOf of the p99s: "clat" when they
	// are the completion latency's, short of the total by the submission.
	P99Of  string  `json:"p99_of,omitempty"`
	UsrCPU float64 `json:"usr_cpu"` // percent
	SysCPU float64 `json:"sys_cpu"` // percent
	Error  int     `json:"error,omitempty"`
	// Explanation is littleslaw.Explain's verdict.
	Explanation littleslaw.Explanation `json:"explanation"`
	// OnCurve is set when the job is one run of a curve answered once
	// (report.ExplainDoc.Curves): its target is answered there.
	OnCurve bool `json:"on_curve,omitempty"`
	// CloneOf is fio.Job.CloneOf: numjobs of a clone fio reported on its
	// own (0 otherwise).
	CloneOf int `json:"-"`
}

// ExplainFio explains every job of the final (not interim) fio reports.
// Jobs that did no I/O are skipped.
func ExplainFio(outs []fio.Output, o ExplainOptions) []ExplainedJob {
	var ex []ExplainedJob
	curves := explainCurves(outs)
	for _, out := range fio.Final(outs) {
		for _, j := range out.Jobs {
			s := j.Summary()
			if s.IOPS <= 0 {
				continue
			}
			e := ExplainedJob{Name: j.Name, RW: j.RW, BS: j.BS, IOEngine: j.IOEngine,
				IODepth: j.IODepth, IODepthFrom: j.IODepthFrom, NumJobs: j.NumJobs, NumJobsFrom: j.NumJobsFrom,
				IOPS: s.IOPS, BWBytes: s.BWBytes, LatMeanNs: s.LatMeanNs, LatFrom: s.LatFrom,
				UsrCPU: j.UsrCPU, SysCPU: j.SysCPU, Error: j.Error}
			if j.Host != "" {
				e.Host = j.Host
				if j.Port != 0 {
					e.Host += ":" + strconv.Itoa(j.Port)
				}
			}
			if j.AllClients {
				e.Host = "" // the name says it
			}
			e.P99Ns, _ = s.Lat.At(99)
			e.P99Of = s.Lat.PercentilesOf
			if e.P99Ns == 0 && j.Read != nil && j.Write != nil {
				rl, _ := j.Read.TotalLat()
				wl, _ := j.Write.TotalLat()
				e.P99ReadNs, _ = rl.At(99)
				e.P99WriteNs, _ = wl.At(99)
				e.P99Of = max(rl.PercentilesOf, wl.PercentilesOf)
			}
			p50, _ := s.Lat.At(50)
			target := o.TargetIOPS
			if e.OnCurve = o.Curved[CurveKey(j)]; e.OnCurve {
				target = 0 // the curve answers it, once
			}
			e.Explanation = littleslaw.Explain(littleslaw.ExplainInput{
				IOPS: s.IOPS, LatMeanNs: s.LatMeanNs, IODepth: j.IODepth, NumJobs: j.NumJobs,
				Synchronous: fio.IsSyncEngine(j.IOEngine), // not when the output names no engine
				TargetIOPS:  target, TargetShare: j.CloneOf,
				MaxIODepth: o.MaxIODepth, MaxJobs: o.MaxJobs,
				LatMinNs: s.Lat.MinNs, LatP50Ns: p50, LatP99Ns: e.P99Ns, BaseLatNs: o.BaseLatNs,
				DepthDist: j.IODepthDist, Curve: curves[CurveKey(j)], CurveUnsaturated: o.Unsaturated[CurveKey(j)],
			})
			e.CloneOf = j.CloneOf
			ex = append(ex, e)
		}
	}
	return ex
}

// explainCurves reads the final reports' jobs as curves, one per
// CurveKey, when they hold at least two depths: several files (or
// jobs) at several iodepths are a sweep. Each point is a job's effective
// depth (JobDepth), IOPS and mean latency: the evidence each run's
// verdict weighs against the others.
func explainCurves(outs []fio.Output) map[string][]littleslaw.Point {
	out := map[string][]littleslaw.Point{}
	for _, g := range CurveGroups(outs) {
		if len(g.Depths) < 2 {
			continue
		}
		for _, o := range g.Outputs {
			for _, j := range o.Jobs {
				s := j.Summary()
				if s.IOPS <= 0 || s.LatMeanNs <= 0 || j.AllClients || j.CloneOf > 1 {
					continue
				}
				out[g.Key] = append(out[g.Key], littleslaw.Point{QD: JobDepth(j), IOPS: s.IOPS, LatMeanNs: s.LatMeanNs})
			}
		}
	}
	return out
}
