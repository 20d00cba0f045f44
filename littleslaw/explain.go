package littleslaw

// ExplainMaxIODepth is the deepest per-job iodepth Explain suggests by
// default: DefaultMaxIODepth, the 256 entries of one NVMe submission queue,
// the same limit advise uses.
const ExplainMaxIODepth = DefaultMaxIODepth

// Verdicts of Explain.
const (
	// VerdictDepthBound: the queue was kept full; throughput is what that
	// depth allows at the measured latency (QD / latency).
	VerdictDepthBound = "depth-bound"
	// VerdictPartlyFull: the queue was kept between half and 80% full.
	VerdictPartlyFull = "partly-full"
	// VerdictQueueNotFull: far fewer I/Os were in flight than configured.
	VerdictQueueNotFull = "queue-not-full"
	// VerdictSyncEngine: a synchronous engine ignores iodepth > 1.
	VerdictSyncEngine = "sync-engine"
	// VerdictDepthUnknown: the input does not say the configured depth
	// (IODepth 0): the mean in flight is known, how full the queue was is
	// not.
	VerdictDepthUnknown = "depth-unknown"
	// VerdictLatencyNotMeasured: IOPS without latency (fio's gtod_reduce):
	// Little's Law cannot be applied.
	VerdictLatencyNotMeasured = "latency-not-measured"
)

// Fill thresholds of Explain's verdicts (in-flight mean / configured depth).
const (
	ExplainFullFill = FullFill
	ExplainLowFill  = FillFlag
)

// ExplainInput is one measured job: what it was configured to do and what it did.
type ExplainInput struct {
	IOPS      float64 // measured I/Os per second
	LatMeanNs float64 // measured mean total latency, ns (0: not measured)
	IODepth   int     // configured iodepth per job (0: unknown)
	NumJobs   int     // configured jobs (≥ 1)
	// Synchronous marks an engine that keeps one I/O in flight per job
	// whatever iodepth says (fio's psync, sync, …).
	Synchronous bool
	TargetIOPS  float64 // I/Os per second wanted (0: none)
	MaxIODepth  int     // per-job iodepth limit for suggestions (0: ExplainMaxIODepth)
	MaxJobs     int     // job limit for suggestions (0: none)
}

// Explanation is Little's Law applied to one job.
type Explanation struct {
	ConfiguredQD int `json:"configured_qd"` // iodepth × numjobs
	// EffectiveQD is what the engine can keep in flight: ConfiguredQD, or
	// numjobs for a synchronous engine.
	EffectiveQD int `json:"effective_qd"`
	// InflightMean is IOPS × mean latency: the mean I/Os in flight.
	InflightMean float64 `json:"inflight_mean"`
	// Fill is InflightMean / EffectiveQD (≈ 1: the queue was kept full).
	Fill float64 `json:"fill"`
	// CeilingIOPS is EffectiveQD / mean latency: the most this depth
	// delivers at the measured latency, I/Os per second.
	CeilingIOPS float64         `json:"ceiling_iops"`
	Verdict     string          `json:"verdict"`
	Target      *ExplainTarget  `json:"target,omitempty"`
	Input       ExplainInputOut `json:"input"`
}

// ExplainInputOut echoes the input in the JSON form of an Explanation.
type ExplainInputOut struct {
	IOPS        float64 `json:"iops"`
	LatMeanNs   float64 `json:"lat_mean_ns"`
	IODepth     int     `json:"iodepth"`
	NumJobs     int     `json:"numjobs"`
	Synchronous bool    `json:"synchronous"`
}

// ExplainTarget is the depth a target throughput needs at the measured latency.
type ExplainTarget struct {
	TargetIOPS float64 `json:"target_iops"`
	QD         float64 `json:"qd"`      // TargetIOPS × latency, fractional
	QDCeil     int     `json:"qd_ceil"` // whole I/Os to keep in flight
	// Split is SplitQD's best split of QDCeil, the one advise gives: the
	// fewest jobs keeping iodepth ≤ the per-job limit, iodepth rounded up so
	// iodepth × numjobs covers QDCeil (by less than numjobs).
	Split Split `json:"split"`
	// Exact equals Split (both cover QDCeil with the fewest jobs); kept so
	// readers of older explain documents find it.
	Exact Split `json:"exact"`
	// Alts are SplitFor's alternatives: the same total as Split over more
	// jobs, or for a depth with no such split the nearest ones (rounded up).
	Alts []Split `json:"alts,omitempty"`
	// JobsBy says which limit chose Split's jobs (SplitAdvice.JobsBy).
	JobsBy string `json:"jobs_by,omitempty"`
	// OneJob is all of QDCeil in one job; it may exceed the per-job limit.
	OneJob     Split `json:"one_job"`
	Sufficient bool  `json:"sufficient"` // the configured depth already suffices
	// MaxIODepth is the per-job limit the split kept to; OverLimit is set
	// when Split's iodepth exceeds it even with the most jobs allowed.
	MaxIODepth int  `json:"max_iodepth,omitempty"`
	OverLimit  bool `json:"over_limit,omitempty"`
	// Note is OverLimit in words, written by report; littleslaw leaves it
	// empty.
	Note string `json:"note,omitempty"`
}

// Explain applies Little's Law to one job: the mean in flight it achieved
// against the depth it was given, the throughput ceiling that depth implies
// at the measured latency and, with a target, the depth the target needs.
// The latency is assumed to stay what was measured, so the target's depth
// is a lower bound when the device is near saturation.
func Explain(in ExplainInput) Explanation {
	if in.LatMeanNs <= 0 {
		return Explanation{Verdict: VerdictLatencyNotMeasured,
			Input: ExplainInputOut{IOPS: in.IOPS, IODepth: in.IODepth, NumJobs: in.NumJobs, Synchronous: in.Synchronous}}
	}
	if in.IODepth <= 0 && !in.Synchronous {
		e := Explanation{Verdict: VerdictDepthUnknown, InflightMean: QueueDepth(in.IOPS, in.LatMeanNs),
			Input: ExplainInputOut{IOPS: in.IOPS, LatMeanNs: in.LatMeanNs, NumJobs: in.NumJobs}}
		if in.TargetIOPS > 0 {
			e.Target = explainTarget(in, e)
			e.Target.Sufficient = false // the configured depth is not known
		}
		return e
	}
	iodepth, jobs := max(in.IODepth, 1), max(in.NumJobs, 1)
	e := Explanation{ConfiguredQD: iodepth * jobs, EffectiveQD: iodepth * jobs,
		Input: ExplainInputOut{IOPS: in.IOPS, LatMeanNs: in.LatMeanNs, IODepth: iodepth, NumJobs: jobs, Synchronous: in.Synchronous}}
	if in.Synchronous {
		e.EffectiveQD = jobs
	}
	e.InflightMean = QueueDepth(in.IOPS, in.LatMeanNs)
	e.Fill = e.InflightMean / float64(e.EffectiveQD)
	e.CeilingIOPS = IOPSAtDepth(float64(e.EffectiveQD), in.LatMeanNs)
	switch {
	case in.Synchronous && iodepth > 1:
		e.Verdict = VerdictSyncEngine
	case e.Fill >= ExplainFullFill:
		e.Verdict = VerdictDepthBound
	case e.Fill >= ExplainLowFill:
		e.Verdict = VerdictPartlyFull
	default:
		e.Verdict = VerdictQueueNotFull
	}
	if in.TargetIOPS > 0 && in.LatMeanNs > 0 {
		e.Target = explainTarget(in, e)
	}
	return e
}

// explainTarget sizes the queue for in.TargetIOPS at the measured latency,
// split by the same SplitQD rule advise uses.
func explainTarget(in ExplainInput, e Explanation) *ExplainTarget {
	maxDepth := in.MaxIODepth
	if maxDepth <= 0 {
		maxDepth = ExplainMaxIODepth
	}
	qd := QueueDepth(in.TargetIOPS, in.LatMeanNs)
	t := &ExplainTarget{TargetIOPS: in.TargetIOPS, QD: qd, QDCeil: CeilQD(qd)}
	sa := SplitFor(t.QDCeil, maxDepth, in.MaxJobs)
	t.Split, t.Alts, t.JobsBy = sa.Best, sa.Alts, sa.JobsBy
	t.Exact = t.Split
	t.OneJob = Split{IODepth: t.QDCeil, NumJobs: 1}
	t.Sufficient = e.CeilingIOPS >= in.TargetIOPS
	t.MaxIODepth, t.OverLimit = maxDepth, t.Split.IODepth > maxDepth
	return t
}
