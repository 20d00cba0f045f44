// Package littleslaw is pure math over measured points (queue depth, IOPS,
// latency): Little's Law, curve fits, knees, recommendations and diagnosis.
// It does no I/O, no printing and never reads the clock.
package littleslaw

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
}

// Knee is a queue depth picked by a named rule, with the curve's figures there.
type Knee struct {
	Rule      string  `json:"rule"` // how it was found, in words
	QD        float64 `json:"qd"`
	IOPS      float64 `json:"iops"`
	LatNsMean float64 `json:"lat_ns_mean"`
	Found     bool    `json:"found"`
	Note      string  `json:"note,omitempty"`
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
	Fill    float64 `json:"fill"`
	Flagged bool    `json:"flagged"`
	Note    string  `json:"note,omitempty"`
}

// SLOResult is the deepest measured QD meeting a latency objective.
type SLOResult struct {
	Stat    string  `json:"stat"`     // mean, p50, p90, p99, p999
	LimitNs float64 `json:"limit_ns"` // objective
	Met     bool    `json:"met"`      // some measured QD meets it
	QD      float64 `json:"qd"`
	IOPS    float64 `json:"iops"`
	LatNs   float64 `json:"lat_ns"` // the stat's value at QD
	Note    string  `json:"note,omitempty"`
}

// Split is an iodepth × numjobs decomposition of a queue depth.
type Split struct {
	IODepth int `json:"iodepth"`
	NumJobs int `json:"numjobs"`
}

// TargetResult answers "what QD for T IOPS".
type TargetResult struct {
	TargetIOPS float64 `json:"target_iops"`
	Reachable  bool    `json:"reachable"`
	QD         float64 `json:"queue_depth"` // from the measured/fitted curve
	NaiveQD    float64 `json:"naive_qd"`    // T × R0
	LatencyNs  float64 `json:"latency_ns"`  // expected mean latency at T
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
	ReachableIOPS float64 `json:"reachable_iops,omitempty"`
	Note          string  `json:"note"`
}

// Setting is one recommended application/database setting.
type Setting struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Formula string `json:"formula"`
	Doc     string `json:"doc"` // vendor documentation URL
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
	Warnings      []string      `json:"warnings,omitempty"`
}

// Finding is one diagnosis verdict with its evidence and a next step.
type Finding struct {
	Rule     string   `json:"rule"` // depth-bound, queue-not-reaching-device, device-cap, cpu-bound, cache, healthy
	Summary  string   `json:"summary"`
	Evidence []string `json:"evidence"`
	Next     string   `json:"next"`
}
