package littleslaw

// Response is an open-loop point's response times, ns: from each I/O's
// scheduled arrival to its completion.
type Response struct {
	MeanNs float64 `json:"mean_ns"`
	P50Ns  float64 `json:"p50_ns"`
	P90Ns  float64 `json:"p90_ns"`
	P99Ns  float64 `json:"p99_ns"`
	P999Ns float64 `json:"p999_ns"`
}

// Point is one measured step of a curve. Latencies are in nanoseconds.
type Point struct {
	QD           float64 `json:"qd"`            // total queue depth, iodepth × numjobs
	IODepth      int     `json:"iodepth"`       // per job (0 when unknown)
	NumJobs      int     `json:"numjobs"`       // jobs (0 when unknown)
	IOPS         float64 `json:"iops"`          // I/Os per second
	BWBytes      float64 `json:"bw_bytes"`      // bytes per second (0 when unknown)
	LatMeanNs    float64 `json:"lat_mean_ns"`   // mean latency
	P50Ns        float64 `json:"p50_ns"`        // 0 when unknown
	P90Ns        float64 `json:"p90_ns"`        // 0 when unknown
	P99Ns        float64 `json:"p99_ns"`        // 0 when unknown
	P999Ns       float64 `json:"p999_ns"`       // 0 when unknown
	InflightMean float64 `json:"inflight_mean"` // measured time-weighted in-flight mean (0 when unknown)
	// OfferedIOPS is the arrival rate offered to an open-loop step (fio's
	// rate_process=poisson at a rate), I/Os per second; 0 for a step that
	// kept its queue full (closed loop). An open-loop point's QD is the I/Os
	// it kept in flight (its InflightMean, else IOPS × mean latency).
	OfferedIOPS float64 `json:"offered_iops,omitempty"`
	// Response is, for an open-loop point, its response times: from each
	// I/O's scheduled arrival to its completion, the wait to be issued
	// included (nil: not measured). Its latencies above run from issue.
	// A latency objective of an open-loop point is judged on Response.
	Response *Response `json:"response,omitempty"`
	// IOs is how many I/Os the point's window completed (0: unknown): the
	// count KeptUp judges an open-loop point's scatter by.
	IOs float64 `json:"ios,omitempty"`
	// Shortfall is the engine's measured cause of an in-flight mean below
	// the QD: "limit" (jobs could not start), "cpu" (the jobs' threads were
	// CPU-bound), "unexplained"; "" when none was reported.
	Shortfall string `json:"shortfall,omitempty"`
}

// Knee is a queue depth picked by a named rule, with the curve's figures
// there. Kind and Reason say which rule and why it was (not) found; the
// numbers beside them are what report's sentences quote.
type Knee struct {
	Kind      KneeKind   `json:"kind"`
	QD        float64    `json:"qd"`          // queue depth of the knee (fractional for the model knee)
	IOPS      float64    `json:"iops"`        // I/Os per second there
	LatNsMean float64    `json:"lat_ns_mean"` // mean latency there, ns
	Found     bool       `json:"found"`
	Reason    KneeReason `json:"reason,omitempty"`
	// NextQD is the next deeper measured step that confirms a saturation
	// knee; NextGain its relative IOPS gain over the knee (a fraction,
	// negative when it loses) and NextLatRatio its mean latency ÷ the
	// knee's.
	NextQD       float64 `json:"next_qd,omitempty"`
	NextGain     float64 `json:"next_gain,omitempty"`
	NextLatRatio float64 `json:"next_lat_ratio,omitempty"`
	// DeepestQD and DeepestIOPS are the deepest measured step when the knee
	// was not found within the sweep (or the model knee lies beyond it);
	// SuggestQD is how deep to sweep next.
	DeepestQD   float64 `json:"deepest_qd,omitempty"`
	DeepestIOPS float64 `json:"deepest_iops,omitempty"`
	SuggestQD   float64 `json:"suggest_qd,omitempty"`
	// Rule and Note are the rule and the reason in words, written by
	// report.Annotate for readers of results.json; littleslaw leaves them
	// empty.
	Rule string `json:"rule"`
	Note string `json:"note,omitempty"`
}

// Model is a fitted curve: its name, parameters and goodness of fit.
type Model struct {
	Name string `json:"name"` // "bound" or "usl"
	// Params: bound: r0_ns (measured base latency, ns) and xmax (highest
	// measured IOPS), taken from the data, not fitted; usl: lambda (IOPS),
	// sigma and kappa (dimensionless), a bounded least-squares fit.
	Params map[string]float64 `json:"params"`
	// RelRMS is the root mean square of relative IOPS residuals.
	RelRMS float64 `json:"rel_rms"`
	// Residuals are the relative IOPS residuals, model / measured − 1 (a
	// fraction; > 0 where the model over-states the point), one per
	// Analysis.Points entry in the same order; RelRMS is their RMS.
	Residuals []float64 `json:"residuals,omitempty"`
	AIC       float64   `json:"aic"`
	// KneeQD is N* = Xmax × R0 for the bound model; for USL N_max when
	// retrograde (kappa > 0), else X_roof × R0.
	KneeQD float64 `json:"knee_qd"`
	// XRoof is the fitted throughput asymptote, IOPS (0 when it has none).
	XRoof float64 `json:"x_roof,omitempty"`
	// NMax is USL's peak QD when retrograde (0 otherwise).
	NMax float64 `json:"n_max,omitempty"`
}

// StepCheck is the Little's-Law check of one point.
type StepCheck struct {
	QD                float64 `json:"qd"`
	EffectiveInflight float64 `json:"effective_inflight"` // IOPS × mean latency
	MeasuredInflight  float64 `json:"measured_inflight"`
	// Fill is EffectiveInflight / QD: ≪ 1 means the queue was not kept full.
	Fill    float64     `json:"fill"`
	Flagged bool        `json:"flagged"`
	Reason  CheckReason `json:"reason,omitempty"` // why it is flagged
	// Note is Reason in words, written by report.Annotate; littleslaw
	// leaves it empty.
	Note string `json:"note,omitempty"`
}

// SLOResult is the deepest measured QD meeting a latency objective.
type SLOResult struct {
	Stat    string  `json:"stat"`     // mean, p50, p90, p99, p999
	LimitNs float64 `json:"limit_ns"` // objective
	Met     bool    `json:"met"`      // some measured QD meets it
	QD      float64 `json:"qd"`
	IOPS    float64 `json:"iops"`
	LatNs   float64 `json:"lat_ns"` // the stat's value at QD
	// OfferedIOPS is the offered load at QD of an open-loop curve: the
	// highest load meeting the objective (0: a closed-loop curve).
	OfferedIOPS float64   `json:"offered_iops,omitempty"`
	Reason      SLOReason `json:"reason,omitempty"`
	// Breaks is the step named beside the answer: the shallowest step over
	// the limit when none meets it, else the first deeper step that breaks it.
	Breaks *SLOStep `json:"breaks,omitempty"`
	// Noisy are shallower steps that broke the objective although a deeper
	// one meets it: worth measuring again.
	Noisy []SLOStep `json:"noisy,omitempty"`
	// Caveats are what weakens the answer (Analysis.AddCaveats).
	Caveats []CaveatKind `json:"caveats,omitempty"`
	// Note is the answer's caveat in words, written by report.Annotate;
	// littleslaw leaves it empty.
	Note string `json:"note,omitempty"`
}

// SLOStep is one measured step's value of an SLO's statistic.
type SLOStep struct {
	QD    float64 `json:"qd"`
	LatNs float64 `json:"lat_ns"` // the statistic's value, ns
	// OfferedIOPS and IOPS are an open-loop step's offered and achieved
	// loads (0: closed loop); Behind is set when it fell behind the load
	// offered (KeptUp false), which breaks the objective whatever its
	// latency: the arrivals it did not issue waited uncounted.
	OfferedIOPS float64 `json:"offered_iops,omitempty"`
	IOPS        float64 `json:"iops,omitempty"`
	Behind      bool    `json:"behind,omitempty"`
	// Response is set when LatNs is a response time (an open-loop step's,
	// from each I/O's scheduled arrival), not a latency from issue.
	Response bool `json:"response,omitempty"`
}

// Split is an iodepth × numjobs decomposition of a queue depth, per host
// of a fleet of Hosts (0 or 1: one host).
type Split struct {
	IODepth int `json:"iodepth"`
	NumJobs int `json:"numjobs"`
	Hosts   int `json:"hosts,omitempty"`
}

// TargetResult answers "what QD for T IOPS".
type TargetResult struct {
	TargetIOPS float64 `json:"target_iops"`
	Reachable  bool    `json:"reachable"`
	QD         float64 `json:"queue_depth"` // from the measured/fitted curve
	NaiveQD    float64 `json:"naive_qd"`    // T × R0
	LatencyNs  float64 `json:"latency_ns"`  // expected mean latency at T
	// ResponseNs is, on an open-loop curve that measured response times,
	// the mean response time an application offering T sees (from each
	// I/O's scheduled arrival, its wait to be issued included); LatencyNs
	// runs from issue, the latency Little's Law reads the depth by (0: no
	// response times).
	ResponseNs float64 `json:"response_ns,omitempty"`
	// Inflight is the mean I/Os in flight at the answer, IOPS × LatencyNs
	// (the IOPS being TargetIOPS when reachable, else ReachableIOPS' point):
	// QD rounds it up to a whole I/O, or exceeds it when the measured queue
	// was not kept full.
	Inflight  float64 `json:"inflight,omitempty"`
	Split     Split   `json:"split"`
	AltSplits []Split `json:"alt_splits,omitempty"`
	// JobsBy says which limit chose Split's jobs (SplitAdvice.JobsBy).
	JobsBy string `json:"jobs_by,omitempty"`
	// ReachableIOPS is the most this target delivers when T is not reachable.
	ReachableIOPS float64      `json:"reachable_iops,omitempty"`
	Reason        TargetReason `json:"reason,omitempty"`
	// MaxIOPS and MaxIOPSQD are the highest measured IOPS and its QD (0
	// without a measured curve).
	MaxIOPS   float64 `json:"max_iops,omitempty"`
	MaxIOPSQD float64 `json:"max_iops_qd,omitempty"`
	// NoHeadroom is set when a reachable target is the most measured.
	NoHeadroom bool `json:"no_headroom,omitempty"`
	// ModelName and ModelQD are a fitted model's depth for an unreached
	// target beyond a curve that did not saturate (0: none).
	ModelName string  `json:"model_name,omitempty"`
	ModelQD   float64 `json:"model_qd,omitempty"`
	// MaxIODepth is the per-job limit the split kept to; OverLimit is set
	// when the split needs more jobs than the job limit allows.
	MaxIODepth int  `json:"max_iodepth,omitempty"`
	OverLimit  bool `json:"over_limit,omitempty"`
	// Caveats are what weakens the answer (Analysis.AddCaveats).
	Caveats []CaveatKind `json:"caveats,omitempty"`
	// Sustained is set when the answer is held to the level the device
	// sustains (Options.SustainedIOPS), below what earlier steps measured.
	Sustained bool `json:"sustained_cap,omitempty"`
	// SLOConflict is set when a latency objective was asked and the target
	// needs more depth than the deepest QD meeting it, SLOQD (0 when no
	// measured depth meets it): the target and the objective conflict.
	SLOConflict bool    `json:"slo_conflict,omitempty"`
	SLOQD       float64 `json:"slo_qd,omitempty"`
	// Note is the answer in words, written by report.Annotate; littleslaw
	// leaves it empty.
	Note string `json:"note"`
}

// Setting is one recommended application/database setting: its name, its
// value and the rule and inputs it follows.
type Setting struct {
	Name  string      `json:"name"`
	Value string      `json:"value"` // "" when it depends on a figure not known (report writes the expression)
	Rule  SettingRule `json:"rule"`
	// The rule's inputs: SaturationQD is the useful parallelism (the
	// saturation QD, or the deepest measured one), CPUs the machine's CPU
	// count (0: unknown), IOPS the measured ceiling; Min, Max and PerThread
	// the vendor's limits the rule keeps to.
	SaturationQD int     `json:"saturation_qd"`
	CPUs         int     `json:"cpus,omitempty"`
	IOPS         float64 `json:"iops,omitempty"`
	Min          int     `json:"min,omitempty"`
	Max          int     `json:"max,omitempty"`
	PerThread    int     `json:"per_thread,omitempty"`
	Doc          string  `json:"doc"` // vendor documentation URL
	// LowerBound is set when SaturationQD is the deepest measured depth of
	// a sweep that never saturated: the useful parallelism is at least
	// that, and so is every value read from it.
	LowerBound bool `json:"lower_bound,omitempty"`
	// DepthFrom says which depth SaturationQD is (Analysis.AnswerDepth):
	// the saturation QD, the deepest measured, the target's, or the deepest
	// meeting the latency objective SLO (set then).
	DepthFrom DepthSource `json:"depth_from,omitempty"`
	SLO       *SLO        `json:"slo,omitempty"`
	// Caveats are what weakens the setting (Analysis.AddCaveats).
	Caveats []CaveatKind `json:"caveats,omitempty"`
	// Formula is the rule in words, written by report.Annotate; littleslaw
	// leaves it empty.
	Formula string `json:"formula"`
}

// Analysis is everything littleslaw concludes about one curve.
type Analysis struct {
	Points        []Point       `json:"points"`
	BaseLatencyNs float64       `json:"base_latency_ns"` // R0: mean latency at the lowest QD
	MaxIOPS       float64       `json:"max_iops"`        // highest measured IOPS
	MaxIOPSQD     float64       `json:"max_iops_qd"`
	Saturation    Knee          `json:"saturation"`
	Efficient     Knee          `json:"efficient"`
	ModelKnee     Knee          `json:"model_knee"`
	Kneedle       Knee          `json:"kneedle"`
	Model         *Model        `json:"model,omitempty"` // the chosen fit
	Fits          []Model       `json:"fits,omitempty"`  // all fits tried
	Checks        []StepCheck   `json:"checks"`
	Target        *TargetResult `json:"target,omitempty"`
	SLO           *SLOResult    `json:"slo,omitempty"`
	Settings      []Setting     `json:"settings,omitempty"`
	// Load is the curve over offered loads of an open-loop sweep (nil: the
	// curve is over queue depths).
	Load *LoadCurve `json:"load,omitempty"`
	// Notices are what the analysis could not tell or had to caveat.
	Notices []Notice `json:"notices,omitempty"`
	// EarlyStopped is set by the caller when the sweep skipped the curve's
	// deeper steps after flat ones (an early stop): "sweep deeper" is then
	// the wrong advice; --full is the right one.
	EarlyStopped bool `json:"early_stopped,omitempty"`
	// SetAside is set by the caller to the curve's measured steps that
	// Points leaves out (they ran on burst credits or above a level that
	// did not last, or measured no latency): a curve that did not saturate
	// among the points kept was not shown to rise past those steps, so
	// "sweep deeper" is not the advice then either.
	SetAside int `json:"set_aside,omitempty"`
	// SustainedIOPS is the level the device sustains when a change of
	// regime was found (Options.SustainedIOPS; 0: none): no target above it
	// is reachable.
	SustainedIOPS float64 `json:"sustained_iops,omitempty"`
	// Caveats travel into every answer above (AddCaveats): the sweep did
	// not saturate, was contended, not steady, or its diagnosis was
	// inconclusive.
	Caveats []CaveatKind `json:"caveats,omitempty"`
	// Warnings are the Notices in words, written by report.Annotate;
	// littleslaw leaves them empty.
	Warnings []string `json:"warnings,omitempty"`
}

// Notice is one caveat of an analysis: its kind and the numbers it quotes.
type Notice struct {
	Kind NoticeKind `json:"kind"`
	// Count is a number of points; Min the least a fit wants.
	Count int `json:"count,omitempty"`
	Min   int `json:"min,omitempty"`
	// QD is the step the notice is about (a flagged check, the deepest
	// measured step, the highest IOPS).
	QD float64 `json:"qd,omitempty"`
	// Model, XRoof and IOPS: a fit's name, its ceiling and the measured
	// highest IOPS above it.
	Model string  `json:"model,omitempty"`
	XRoof float64 `json:"x_roof,omitempty"`
	IOPS  float64 `json:"iops,omitempty"`
	// Error is a fit's relative RMS error (NoticeNoModelFits), a fraction.
	Error float64 `json:"error,omitempty"`
}
