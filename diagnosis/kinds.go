package diagnosis

// Rule is a diagnosis rule, the verdict of a Finding.
type Rule string

// Diagnosis rules, the values of Finding.Rule, in the order Diagnose
// reports them.
const (
	RuleCache        Rule = "cache"
	RuleQueueNotFull Rule = "queue-not-reaching-device"
	RuleCPUBound     Rule = "cpu-bound"
	RuleDepthBound   Rule = "depth-bound"
	RuleDeviceCap    Rule = "device-cap"
	RuleHealthy      Rule = "healthy"
	// RuleContended replaces healthy when the curve saturated but other I/O
	// shared the device during the sweep: the figures are not the
	// workload's alone.
	RuleContended    Rule = "contended"
	RuleInconclusive Rule = "inconclusive" // no rule fits: says what is missing
)

// Rules lists every rule a diagnosis can report, in the order Diagnose
// reports them: the filesystem and curve rules, then the time rules (burst
// credits, throttling, warm-up, cache fill, noisy neighbours) and
// not-stationary.
func Rules() []Rule {
	return []Rule{RuleNetworkFS, RuleCache, RuleQueueNotFull, RuleCPUBound, RuleDepthBound, RuleDeviceCap, RuleHealthy, RuleContended,
		RuleInconclusive, RuleBurst, RuleThrottle, RuleWarmup, RuleCacheFill, RuleNoisy, RuleNotStationary}
}

// Reasons lists every Reason a Finding can carry, rule by rule (a CPU
// fact's grades, CPUGrades, are Reasons of a Fact, not of a Finding).
func Reasons() []Reason {
	return []Reason{
		ReasonNetworkFS, ReasonFUSEFS, ReasonRemoteFS,
		ReasonNoDevice, ReasonPageCache, ReasonUnwritten, ReasonHostCache,
		ReasonSelfCPU, ReasonHostBusy,
		ReasonSyncEngine, ReasonBehavedSync, ReasonSubmitterCPU, ReasonNrRequests, ReasonBuffered, ReasonAboveDevice,
		ReasonSubmitter, ReasonOneJob, ReasonManyJobs, ReasonJobsLimited, ReasonJobsCPU, ReasonSubmitterCPUCores,
		ReasonBelowTarget, ReasonRising,
		ReasonPlateau, ReasonThroughputCap, ReasonIOPSCap, ReasonMixedCap,
		ReasonSaturated,
		ReasonNoSteps, ReasonOneStep, ReasonNotFlat, ReasonSaturatedUnclear, ReasonEarlyStopped,
		ReasonBurstSpent, ReasonControlFell, ReasonControlRose, ReasonRampFell, ReasonThrottled, ReasonWarmup,
		ReasonCacheFill, ReasonNoisy,
	}
}

// CPUGrades lists the grades of a FactCPU (Fact.Reason).
func CPUGrades() []Reason { return []Reason{CPUSaturated, CPUNearlySaturated, CPUNotLimit} }

// FactKinds lists every kind of diagnosis evidence.
func FactKinds() []FactKind {
	return []FactKind{
		FactNoSteps, FactSharedBytes, FactSharedIOPS, FactNoDevice, FactFSType, FactPoint, FactCacheShare, FactCacheMedian,
		FactLatencyAt, FactCPU, FactHostBusy, FactDeviceQueue, FactIOPSLatency, FactInflight, FactEngineInflight,
		FactGrowth, FactTargetShort, FactPlateau, FactPlateauLatency, FactDeviceAt, FactTargetAbove, FactSaturates,
		FactInflightAt, FactNoTelemetry, FactDeepest, FactLastStep, FactCapAtBS, FactCapSpread,
		FactBurstLevel, FactSustainedLevel, FactCredits, FactOnCredits, FactPeriod, FactTransient, FactSpread,
		FactRuntime, FactControl, FactAboveControl, FactRampFell,
	}
}

// Reason is the variant of a diagnosis rule that applied.
type Reason string

// Reasons of Finding.Reason, grouped by rule.
const (
	// cache
	ReasonNoDevice  Reason = "no-device"  // the target has no block device
	ReasonPageCache Reason = "page-cache" // direct=0: the page cache served it
	ReasonUnwritten Reason = "unwritten"  // reads of never-written extents (or a host cache)
	ReasonHostCache Reason = "host-cache" // a cache in front of the device
	// cpu-bound
	ReasonSelfCPU  Reason = "self-cpu"  // the measuring process used its cores
	ReasonHostBusy Reason = "host-busy" // the host's CPUs were busy
	// queue-not-reaching-device
	ReasonSyncEngine   Reason = "sync-engine"   // a synchronous engine ignores iodepth
	ReasonBehavedSync  Reason = "behaved-sync"  // about one I/O per job in flight (Figures.Buffered)
	ReasonSubmitterCPU Reason = "submitter-cpu" // the CPU-bound submitter cannot keep it full
	ReasonNrRequests   Reason = "nr-requests"   // the device queue's request limit
	ReasonBuffered     Reason = "buffered"      // buffered I/O: the page cache decides
	ReasonAboveDevice  Reason = "above-device"  // time spent above the device
	ReasonSubmitter    Reason = "submitter"     // the submitter did not keep the depth
	ReasonOneJob       Reason = "one-job"       // … with one job at a deep iodepth
	ReasonManyJobs     Reason = "many-jobs"     // … with several jobs: more jobs are not what is missing
	// The engine measured why its jobs fell short (Point.Shortfall).
	ReasonJobsLimited       Reason = "jobs-limited"        // a system limit stopped some jobs from starting
	ReasonJobsCPU           Reason = "jobs-cpu"            // the jobs' threads were running or waiting for a CPU
	ReasonSubmitterCPUCores Reason = "submitter-cpu-cores" // CPU-bound with as many jobs as CPUs
	// depth-bound
	ReasonBelowTarget Reason = "below-target" // a target: raise the queue depth (Figures: the depth)
	ReasonRising      Reason = "rising"       // no target: extend the sweep (Figures.ToQD)
	// device-cap
	ReasonPlateau       Reason = "plateau"          // one curve's flat top
	ReasonThroughputCap Reason = "throughput-bound" // across sizes: MiB/s alike
	ReasonIOPSCap       Reason = "iops-bound"       // across sizes: IOPS alike
	ReasonMixedCap      Reason = "mixed"            // across sizes: neither alike
	// healthy, contended
	ReasonSaturated Reason = "saturated"
	// inconclusive
	ReasonNoSteps Reason = "no-steps" // no measured steps
	ReasonOneStep Reason = "one-step" // one step: sweep more depths
	ReasonNotFlat Reason = "not-flat" // near the knee but not flat: extend (Figures.QD)
	// ReasonSaturatedUnclear: the saturation rule found the knee
	// (Figures.QD) but no bottleneck rule says which limit it is.
	ReasonSaturatedUnclear Reason = "saturated-unclear"
	// ReasonEarlyStopped: the sweep stopped early after flat steps
	// (Figures.QD the deepest measured), so extending it is not the advice.
	ReasonEarlyStopped Reason = "early-stopped"
)

// FactKind names one piece of diagnosis evidence; its doc says which Fact
// fields it sets.
type FactKind string

// Fact kinds.
const (
	FactNoSteps        FactKind = "no-steps"         // Count points, none usable
	FactSharedBytes    FactKind = "shared-bytes"     // QD: DeviceBWBytes vs BWBytes, Ratio
	FactSharedIOPS     FactKind = "shared-iops"      // QD: DeviceIOPS vs IOPS, Ratio
	FactNoDevice       FactKind = "no-device"        // Detail: why the target has no device
	FactPoint          FactKind = "point"            // QD: IOPS at LatNs
	FactCacheShare     FactKind = "cache-share"      // QD: IOPS, BWBytes vs DeviceIOPS, DeviceBWBytes; Share
	FactCacheMedian    FactKind = "cache-median"     // median Share over Count steps
	FactLatencyAt      FactKind = "latency-at"       // LatNs at QD
	FactCPU            FactKind = "cpu"              // QD (IODepth × NumJobs): SelfCPUPct of Cores; Reason, Busy
	FactHostBusy       FactKind = "host-busy"        // HostBusyPct
	FactDeviceQueue    FactKind = "device-queue"     // AquSz of QD, UtilPct
	FactIOPSLatency    FactKind = "iops-latency"     // IOPS at LatNs
	FactInflight       FactKind = "inflight"         // QD (IODepth × NumJobs): Inflight at the device (AtDevice) or engine; Fill
	FactEngineInflight FactKind = "engine-inflight"  // Inflight vs LittleInflight (IOPS × mean latency)
	FactGrowth         FactKind = "growth"           // QD→ToQD: IOPS→ToIOPS (Ratio), LatNs→ToLatNs (LatRatio), R0Ns
	FactTargetShort    FactKind = "target-short"     // TargetIOPS vs best IOPS, Share
	FactPlateau        FactKind = "plateau"          // QD→ToQD: IOPS→ToIOPS (Ratio − 1 = gain), BWBytes→ToBWBytes
	FactPlateauLatency FactKind = "plateau-latency"  // LatNs→ToLatNs (LatRatio for QDRatio), Little LittleLatNs at ToQD
	FactDeviceAt       FactKind = "device-at"        // QD: AquSz, UtilPct, AwaitMs
	FactTargetAbove    FactKind = "target-above-cap" // TargetIOPS above the cap
	FactSaturates      FactKind = "saturates"        // IOPS from QD (IODepth × NumJobs), LatNs, R0Ns
	FactInflightAt     FactKind = "inflight-at"      // Inflight at the device (AtDevice) or engine for QD
	FactNoTelemetry    FactKind = "no-telemetry"     // queue fill taken from the engine
	FactDeepest        FactKind = "deepest"          // Count steps analysed (LeftOut more measured); deepest QD: IOPS at LatNs, R0Ns
	FactLastStep       FactKind = "last-step"        // QD→ToQD: IOPS ×Ratio (Growth of the QD growth), latency ×LatRatio
	FactCapAtBS        FactKind = "cap-at-bs"        // BS: IOPS, BWBytes
	FactCapSpread      FactKind = "cap-spread"       // Ratio (IOPS) and BWRatio (MiB/s) spreads, max/min − 1
)

// CPU grades of a FactCPU (Fact.Reason).
const (
	CPUSaturated       Reason = "saturated"        // the submitters used all their cores
	CPUNearlySaturated Reason = "nearly-saturated" // at least CPUBusyShare of them
	CPUNotLimit        Reason = "not-limit"        // below that
)
