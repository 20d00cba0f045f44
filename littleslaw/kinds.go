package littleslaw

// The typed vocabulary of an analysis: kinds and reasons that report turns
// into words. Values are stable strings, as written to results.json.

// KneeKind names the rule that picked a Knee.
type KneeKind string

// Knee kinds.
const (
	// KneeSaturation: the smallest measured QD within SaturationWithin of
	// the highest IOPS, confirmed by the next deeper step adding less than
	// SaturationGain while mean latency grows ≥ SaturationLatGrowth per
	// doubling of QD.
	KneeSaturation KneeKind = "saturation"
	// KneeEfficient: the measured QD with the highest power, IOPS / mean
	// latency (Kleinrock).
	KneeEfficient KneeKind = "efficient"
	// KneeModel: N* from the fit chosen by AICc (bound: measured Xmax ×
	// measured R0; USL: N_max when retrograde, else X_roof × R0).
	KneeModel KneeKind = "model"
	// KneeKneedle: Kneedle (Satopää et al. 2011) on log2(QD) vs IOPS; a
	// diagnostic only.
	KneeKneedle KneeKind = "kneedle"
)

// KneeReason says why a knee was not found, or what to know about it.
type KneeReason string

// Knee reasons.
const (
	KneeConfirmed     KneeReason = "confirmed"      // saturation: NextQD confirms it
	KneeNoPoints      KneeReason = "no-points"      // no measured points
	KneeOnePoint      KneeReason = "one-point"      // one point cannot show a knee
	KneeNotSaturated  KneeReason = "not-saturated"  // no saturation within the sweep (DeepestQD, SuggestQD)
	KneeStillRising   KneeReason = "still-rising"   // efficient: power still rising at the deepest QD
	KneeNoModel       KneeReason = "no-model"       // model: nothing fitted
	KneeLinear        KneeReason = "linear"         // model: throughput still linear in QD
	KneeExtrapolated  KneeReason = "extrapolated"   // model: beyond the deepest measured QD (DeepestQD)
	KneeTooFewPoints  KneeReason = "too-few-points" // kneedle: needs 3 points
	KneeFlat          KneeReason = "flat"           // kneedle: flat curve
	KneeNoneAboveLine KneeReason = "below-chord"    // kneedle: no point above the chord
)

// CheckReason says why a Little's-Law check is flagged.
type CheckReason string

// Check reasons.
const (
	// CheckNotFull: IOPS × latency is below FillFlag of the QD.
	CheckNotFull CheckReason = "queue-not-full"
	// CheckMismatch: the measured in-flight mean differs from IOPS ×
	// latency by more than MismatchFlag: a measuring error.
	CheckMismatch CheckReason = "inflight-mismatch"
)

// SLOReason says how a latency objective was answered.
type SLOReason string

// SLO reasons.
const (
	SLONotMeasured   SLOReason = "not-measured"   // the statistic was not measured
	SLONotMet        SLOReason = "not-met"        // no step meets it; Breaks is the shallowest
	SLOBrokenDeeper  SLOReason = "broken-deeper"  // met; Breaks is the first deeper step over it
	SLOMetEverywhere SLOReason = "met-everywhere" // met at every measured QD: the limit may lie deeper
	SLOMetAtDeepest  SLOReason = "met-at-deepest" // met at the deepest step, broken at a shallower one
)

// TargetReason says how a target was answered.
type TargetReason string

// Target reasons.
const (
	// TargetLittle: pure Little's Law at a given latency, no curve.
	TargetLittle TargetReason = "littles-law"
	// TargetNoPoints: no measured points to answer from.
	TargetNoPoints TargetReason = "no-points"
	// TargetReachable: the measured curve reaches it (see NoHeadroom).
	TargetReachable TargetReason = "reachable"
	// TargetSaturated: not reachable; the curve saturates below it.
	TargetSaturated TargetReason = "saturated"
	// TargetNotReached: not reached and the curve did not saturate: sweep
	// deeper (ModelQD: a fit's depth for it, if any).
	TargetNotReached TargetReason = "not-reached"
)

// SettingRule names the rule a Setting follows.
type SettingRule string

// Setting rules.
const (
	SettingPool               SettingRule = "pool"              // HikariCP: cores × 2 + spindles
	SettingWorkers            SettingRule = "workers"           // one synchronous I/O per worker
	SettingPGIOConcurrency    SettingRule = "pg-io-concurrency" // effective_io_concurrency
	SettingPGMaintenance      SettingRule = "pg-maintenance"    // maintenance_io_concurrency
	SettingPGIOUring          SettingRule = "pg-io-uring"       // io_method = io_uring past io_workers' cap
	SettingPGWorker           SettingRule = "pg-worker"         // io_method = worker
	SettingPGIOWorkers        SettingRule = "pg-io-workers"     // io_workers
	SettingMySQLIOCapacity    SettingRule = "mysql-io-capacity" // half the measured IOPS
	SettingMySQLIOCapacityMax SettingRule = "mysql-io-capacity-max"
	SettingMySQLIOThreads     SettingRule = "mysql-io-threads" // ⌈QD / pending per thread⌉
)

// NoticeKind names a caveat of an analysis.
type NoticeKind string

// Notice kinds.
const (
	NoticeDropped      NoticeKind = "dropped-points"     // Count points without a positive QD, IOPS and latency
	NoticeNoPoints     NoticeKind = "no-points"          // nothing usable
	NoticeCheck        NoticeKind = "check"              // the check at QD is flagged
	NoticeOnePoint     NoticeKind = "one-point"          // no curve
	NoticeTwoPoints    NoticeKind = "two-points"         // bound model only
	NoticeFewPoints    NoticeKind = "few-points"         // Count < Min points: rough fits
	NoticeFitBelow     NoticeKind = "fit-below-measured" // Model's XRoof below the IOPS measured at QD
	NoticeSettingsDeep NoticeKind = "settings-deepest"   // settings use the deepest QD: not saturated
	NoticeNoModelFits  NoticeKind = "no-model-fits"      // the best fit (Model) missed by Error, over MaxModelError: none is used
)
