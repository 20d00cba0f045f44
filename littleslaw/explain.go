package littleslaw

// ExplainMaxIODepth is the deepest per-job iodepth Explain suggests by
// default: DefaultMaxIODepth, the 256 entries of one NVMe submission queue,
// the same limit advise uses.
const ExplainMaxIODepth = DefaultMaxIODepth

// Verdicts of Explain: what bounds the run's throughput, as far as the
// evidence in one run allows (Explanation.Verdict).
const (
	// VerdictDepthBound: the device had room for more; throughput is what
	// the depth allows at the unqueued latency (QD / latency), so more I/Os
	// in flight give more.
	VerdictDepthBound = "depth-bound"
	// VerdictDeviceBound: I/Os waited: the device (or the volume's limit)
	// served all it could, so more depth adds latency, not throughput.
	VerdictDeviceBound = "device-bound"
	// VerdictUndetermined: one run does not hold the evidence to tell; a
	// sweep (or a --base-latency, or runs at other depths) can.
	VerdictUndetermined = "undetermined"
	// VerdictLatencyNotMeasured: IOPS without latency (fio's gtod_reduce):
	// Little's Law cannot be applied.
	VerdictLatencyNotMeasured = "latency-not-measured"
)

// Queue states of Explain (Explanation.Queue): how full the job kept its queue.
const (
	// QueueFull: IOPS × latency is at least ExplainFullFill of the depth.
	QueueFull = "full"
	// QueuePartlyFull: the queue was kept between half and 80% full.
	QueuePartlyFull = "partly-full"
	// QueueNotFull: far fewer I/Os were in flight than configured.
	QueueNotFull = "queue-not-full"
	// QueueSyncEngine: a synchronous engine ignores iodepth > 1.
	QueueSyncEngine = "sync-engine"
	// QueueDepthUnknown: the input does not say the configured depth
	// (IODepth 0): the mean in flight is known, how full the queue was is
	// not.
	QueueDepthUnknown = "depth-unknown"
)

// VerdictDepthUnknown is the old name of QueueDepthUnknown.
const VerdictDepthUnknown = QueueDepthUnknown

// Fill thresholds of Explain's verdicts (in-flight mean / configured depth).
const (
	ExplainFullFill = FullFill
	ExplainLowFill  = FillFlag
)

// ExplainInput is one measured job: what it was configured to do and what it did.
type ExplainInput struct {
	IOPS      float64 // measured I/Os per second
	LatMeanNs float64 // measured mean total latency, ns
	IODepth   int     // configured iodepth per job (≥ 1)
	NumJobs   int     // configured jobs (≥ 1)
	// Synchronous marks an engine that keeps one I/O in flight per job
	// whatever iodepth says (fio's psync, sync, …).
	Synchronous bool
	TargetIOPS  float64 // I/Os per second wanted (0: none)
	// TargetShare divides TargetIOPS over this many jobs reported apart
	// (fio without group_reporting lists each clone; each gets its share).
	// 0 or 1: the job carries the whole target.
	TargetShare int
	MaxIODepth  int // per-job iodepth limit for suggestions (0: ExplainMaxIODepth)
	MaxJobs     int // job limit for suggestions (0: none)

	// The evidence one run may hold (0 / nil: not in the output).
	LatMinNs  float64 // fastest I/O's latency, ns
	LatP50Ns  float64 // median latency, ns
	LatP99Ns  float64 // 99th percentile latency, ns
	BaseLatNs float64 // unqueued (QD 1) mean latency the user knows, ns
	// DepthDist is fio's "IO depths": percent of I/Os submitted at depth
	// bucket "1", "2", "4", "8", "16", "32", ">=64".
	DepthDist map[string]float64
	// Curve holds other runs of the same rw and block size at other depths
	// (this run may be among them): several files read as a curve.
	Curve []Point
	// CurveUnsaturated is set when those runs, read as one curve, found no
	// saturation: no run may then be called device-bound, which the curve
	// contradicts (a deeper run tells).
	CurveUnsaturated bool
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
	CeilingIOPS float64 `json:"ceiling_iops"`
	// Verdict is what bounds the throughput: VerdictDepthBound,
	// VerdictDeviceBound or VerdictUndetermined; Evidence the facts it rests
	// on (and the facts that were missing).
	Verdict  string            `json:"verdict"`
	Evidence []ExplainEvidence `json:"evidence"`
	// Queue is how full the queue was kept: QueueFull, QueuePartlyFull,
	// QueueNotFull or QueueSyncEngine.
	Queue  string          `json:"queue"`
	Target *ExplainTarget  `json:"target,omitempty"`
	Input  ExplainInputOut `json:"input"`
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
	// TargetIOPS is the job's share of the target, I/Os per second; when
	// the output lists Share jobs apart, TotalIOPS is the whole target.
	TargetIOPS float64 `json:"target_iops"`
	TotalIOPS  float64 `json:"total_iops,omitempty"`
	Share      int     `json:"share,omitempty"`
	// LatencyNs is the latency the depth is sized with, ns, and LatFrom
	// where it came from (ExplainLatCurve, ExplainLatBase, ExplainLatMin,
	// ExplainLatMeasured). LowerBound is set when it is likely below the
	// latency at the target, so QD is a lower bound.
	LatencyNs  float64 `json:"latency_ns"`
	LatFrom    string  `json:"lat_from"`
	LowerBound bool    `json:"lower_bound,omitempty"`
	// MoreThanRun is set when the lower bound does not exceed the run's
	// own depth although the run fell short of the target: the target needs
	// more than the run's depth. (Single runs now state that as the floor.)
	MoreThanRun bool `json:"more_than_run,omitempty"`
	// MetByRun is set when the run itself reached the target: its own
	// depth is the answer (QD), and less may do, which only a sweep shows.
	MetByRun bool `json:"met_by_run,omitempty"`
	// FloorQD is the least depth the evidence allows, never the setting to
	// use: the target at the unqueued latency (FloorLatencyNs, from
	// FloorFrom: the --base-latency given, or the fastest I/O), and more
	// than the run's own depth when the run kept its queue full and fell
	// short (FloorFrom "run"). 0 when there is none.
	FloorQD        int     `json:"floor_qd,omitempty"`
	FloorLatencyNs float64 `json:"floor_latency_ns,omitempty"`
	FloorFrom      string  `json:"floor_from,omitempty"`
	// Reachable is false when the run was device-bound below the target:
	// more depth adds latency, not throughput.
	Reachable bool    `json:"reachable"`
	QD        float64 `json:"qd"`      // TargetIOPS × LatencyNs, fractional
	QDCeil    int     `json:"qd_ceil"` // whole I/Os to keep in flight
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
	// when Split needs more jobs than the job limit allows.
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
		e := Explanation{Queue: QueueDepthUnknown, InflightMean: QueueDepth(in.IOPS, in.LatMeanNs),
			Input: ExplainInputOut{IOPS: in.IOPS, LatMeanNs: in.LatMeanNs, NumJobs: in.NumJobs}}
		e.Verdict, e.Evidence = judgeBound(in, e)
		if in.TargetIOPS > 0 {
			e.Target = explainTarget(in, e)
			e.Target.Sufficient, e.Target.MoreThanRun = false, false // the configured depth is not known
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
		e.Queue = QueueSyncEngine
	case e.Fill >= ExplainFullFill:
		e.Queue = QueueFull
	case e.Fill >= ExplainLowFill:
		e.Queue = QueuePartlyFull
	default:
		e.Queue = QueueNotFull
	}
	e.Verdict, e.Evidence = judgeBound(in, e)
	if in.TargetIOPS > 0 && in.LatMeanNs > 0 {
		e.Target = explainTarget(in, e)
	}
	return e
}

// explainTarget sizes the queue for the job's share of in.TargetIOPS,
// split by the same SplitFor rule advise uses. The latency it sizes with is
// the unqueued one when the run was queued: read off the curve of several
// runs, the --base-latency the user gave, or (a lower bound) the fastest
// I/O; the run's own mean only when nothing queued. A device-bound run
// below the target cannot reach it by depth.
func explainTarget(in ExplainInput, e Explanation) *ExplainTarget {
	maxDepth := in.MaxIODepth
	if maxDepth <= 0 {
		maxDepth = ExplainMaxIODepth
	}
	share := max(in.TargetShare, 1)
	t := &ExplainTarget{TargetIOPS: in.TargetIOPS / float64(share), Reachable: true}
	if share > 1 {
		t.TotalIOPS, t.Share = in.TargetIOPS, share
	}
	queued := e.Verdict != VerdictDepthBound && e.InflightMean > boundOneInFlight
	c := NewCurve(in.Curve)
	cmax, _ := c.MaxIOPS()
	onCurve := c.Len() >= 2 && t.TargetIOPS <= cmax
	t.MaxIODepth = maxDepth
	switch {
	case onCurve:
		op, _ := c.For(t.TargetIOPS)
		t.QD, t.LatencyNs, t.LatFrom = op.Inflight, op.LatencyNs, ExplainLatCurve
	case in.IOPS >= t.TargetIOPS && e.EffectiveQD > 0:
		// The run reached the target: its own depth is what is known to
		// work (Little's Law at its own latency), less may do.
		t.MetByRun, t.Sufficient = true, true
		t.QD, t.LatencyNs, t.LatFrom = float64(e.EffectiveQD), in.LatMeanNs, ExplainLatMeasured
	default:
		// Short of the target: Little's Law at the measured latency, the
		// figure that holds if the volume keeps it (a network volume
		// does); an unqueued latency gives a floor, never the answer.
		t.LatencyNs, t.LatFrom = in.LatMeanNs, ExplainLatMeasured
		t.QD = QueueDepth(t.TargetIOPS, t.LatencyNs)
		switch {
		case in.BaseLatNs > 0 && in.BaseLatNs < in.LatMeanNs:
			t.FloorLatencyNs, t.FloorFrom = in.BaseLatNs, ExplainLatBase
		case queued && in.LatMinNs > 0 && in.LatMinNs < in.LatMeanNs:
			t.FloorLatencyNs, t.FloorFrom = in.LatMinNs, ExplainLatMin
		}
		if t.FloorLatencyNs > 0 {
			t.FloorQD = CeilQD(QueueDepth(t.TargetIOPS, t.FloorLatencyNs))
		}
		if e.Queue == QueueFull && e.EffectiveQD > 0 && t.FloorQD <= e.EffectiveQD {
			// A full queue of this depth fell short: more is needed.
			t.FloorQD, t.FloorLatencyNs, t.FloorFrom = e.EffectiveQD+1, 0, ExplainFloorRun
		}
	}
	t.QDCeil = CeilQD(t.QD)
	if t.MetByRun {
		t.QDCeil = e.EffectiveQD
	}
	if t.FloorQD > t.QDCeil {
		t.QDCeil = t.FloorQD // never a headline below the floor
	}
	sa := SplitFor(t.QDCeil, maxDepth, in.MaxJobs)
	t.Split, t.Alts, t.JobsBy, t.OverLimit = sa.Best, sa.Alts, sa.JobsBy, sa.OverLimit
	if t.MetByRun && e.Input.IODepth > 0 && e.Input.NumJobs > 0 && !in.Synchronous {
		t.Split, t.Alts, t.OverLimit = Split{IODepth: e.Input.IODepth, NumJobs: e.Input.NumJobs}, nil, false // the run's own
	}
	t.Exact = t.Split
	t.OneJob = Split{IODepth: t.QDCeil, NumJobs: 1}
	if !t.MetByRun {
		t.Sufficient = float64(e.EffectiveQD) >= t.QD && e.EffectiveQD >= t.FloorQD && e.EffectiveQD > 0
	}
	if !t.MetByRun && e.Verdict == VerdictDeviceBound && t.TargetIOPS > in.IOPS*(1+SaturationGain) {
		// The device already served all it could at this depth.
		t.Reachable, t.Sufficient = false, false
	}
	return t
}

// Where an explained target's latency came from (ExplainTarget.LatFrom).
const (
	ExplainLatCurve    = "curve"        // the curve of several runs, at the target
	ExplainLatBase     = "base-latency" // the unqueued latency the user gave
	ExplainLatMin      = "min-latency"  // the fastest I/O: a lower bound of the unqueued latency
	ExplainLatMeasured = "measured"     // the run's own mean latency
	// ExplainFloorRun: the floor is one more than the run's own depth,
	// which kept its queue full and fell short (ExplainTarget.FloorFrom).
	ExplainFloorRun = "run"
)
