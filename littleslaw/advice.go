package littleslaw

// Advice is the answer of `qdsweep advise`: the queue depth and the
// iodepth × numjobs split to use, with the target and latency it rests on,
// decided from numbers alone (AdviseNumbers) or from a measured curve
// (AdviseCurve). report words it.
type Advice struct {
	// From says what the depth was sized for.
	From AdviceFrom `json:"from"`
	// QueueDepth is the I/Os to keep in flight; Split and AltSplits spread
	// it over jobs, JobsBy says which limit chose the jobs.
	QueueDepth float64 `json:"queue_depth"`
	Split      Split   `json:"split"`
	AltSplits  []Split `json:"alt_splits,omitempty"`
	JobsBy     string  `json:"jobs_by,omitempty"`
	// MaxIODepth and MaxJobs are the split limits applied.
	MaxIODepth int `json:"max_iodepth,omitempty"`
	MaxJobs    int `json:"max_jobs,omitempty"`
	// LowerBound is set when QueueDepth is the deepest measured depth of a
	// sweep that never saturated: the useful depth is at least that.
	LowerBound bool `json:"lower_bound,omitempty"`
	// Caveats are what weakens the advice (the curve's Analysis.Caveats).
	Caveats []CaveatKind `json:"caveats,omitempty"`
	// LatencyNs is the mean latency per I/O at that depth, ns; TargetIOPS
	// the load in I/Os per second (the knee's IOPS when From is a knee).
	LatencyNs  float64 `json:"latency_ns"`
	TargetIOPS float64 `json:"target_iops"`
	// TargetBW is a throughput target in bytes per second (0: none) and BS
	// the block size in bytes it was converted at.
	TargetBW float64 `json:"target_bw_bytes,omitempty"`
	BS       int64   `json:"bs,omitempty"`
	// Reachable is false when the curve cannot deliver the target;
	// ReachableIOPS is then the most it delivers. NaiveQD is T × R0 (or T ×
	// latency without a curve).
	Reachable     bool    `json:"reachable"`
	ReachableIOPS float64 `json:"reachable_iops,omitempty"`
	NaiveQD       float64 `json:"naive_qd,omitempty"`
	// Target is the full target answer (nil when From is a knee).
	Target *TargetResult `json:"target,omitempty"`
	// Preset is the cloud volume the advice was sized for (nil: none).
	Preset *Preset `json:"preset,omitempty"`
	// Notices are what the answer assumed or could not use.
	Notices []AdviceNotice `json:"notices,omitempty"`
	// QDLow and QDHigh are the in-flight I/Os the target needs over the
	// preset's planning latency range (LatLowNs, LatHighNs) when no latency
	// was given and the range is one (0: none).
	QDLow     float64 `json:"qd_low,omitempty"`
	QDHigh    float64 `json:"qd_high,omitempty"`
	LatLowNs  float64 `json:"lat_low_ns,omitempty"`
	LatHighNs float64 `json:"lat_high_ns,omitempty"`
}

// AdviceFrom says what an Advice's depth was sized for.
type AdviceFrom string

// What advice is sized for.
const (
	AdviceFromTarget     AdviceFrom = "target"     // a target load (Advice.Target)
	AdviceFromSaturation AdviceFrom = "saturation" // no target: the curve's saturation QD
	AdviceFromDeepest    AdviceFrom = "deepest"    // no target, no saturation: the deepest measured QD
	// AdviceFromSLO: no target; the deepest measured QD meeting the latency
	// objective, shallower than saturation (the shallowest measured when
	// none meets it: Analysis.SLO.Met says which).
	AdviceFromSLO AdviceFrom = "slo"
)

// AdviceNoticeKind names a caveat of an Advice.
type AdviceNoticeKind string

// Advice notices.
const (
	// AdvicePresetLatency: no latency given, the preset's typical one used (LatNs).
	AdvicePresetLatency AdviceNoticeKind = "preset-latency"
	// AdvicePresetTarget: no target given, sized for the preset's per-volume maximum (IOPS).
	AdvicePresetTarget AdviceNoticeKind = "preset-target"
	// AdvicePresetExcess: the target exceeds a preset limit (Excess).
	AdvicePresetExcess AdviceNoticeKind = "preset-excess"
	// AdviceLatencyIgnored: a latency was given with measured data, which
	// gives the latency at each load.
	AdviceLatencyIgnored AdviceNoticeKind = "latency-ignored"
	// AdviceSeveralCurves: Count curves matched; the advice is for the
	// first (RW, BS).
	AdviceSeveralCurves AdviceNoticeKind = "several-curves"
)

// AdviceNotice is one caveat of an Advice and the figures it quotes.
type AdviceNotice struct {
	Kind   AdviceNoticeKind `json:"kind"`
	LatNs  float64          `json:"lat_ns,omitempty"`
	IOPS   float64          `json:"iops,omitempty"`
	Excess *PresetExcess    `json:"excess,omitempty"`
	Count  int              `json:"count,omitempty"`
	RW     string           `json:"rw,omitempty"`
	BS     int64            `json:"bs,omitempty"`
}

// AdviceInput is what advise was asked: a target (IOPS, or a throughput at
// a block size), a latency, a cloud preset, and the analysis options.
type AdviceInput struct {
	TargetIOPS float64 // I/Os per second (0: none)
	TargetBW   float64 // bytes per second (0: none); converted at BS
	BS         int64   // block size, bytes
	BSSet      bool    // BS was given, not defaulted
	LatNs      float64 // mean latency per I/O, ns (0: none)
	Preset     *Preset // cloud volume (nil: none)
	Options    Options
}

// AdviseNumbers is Little's Law without a measured curve: the depth that
// sustains the target at the latency. A preset stands in for a missing
// latency (its typical one) or target (its per-volume maximum), and a
// target above its limits is noted.
func AdviseNumbers(in AdviceInput) Advice {
	var adv Advice
	if p := in.Preset; p != nil {
		adv.Preset = p
		presetLat := in.LatNs == 0
		if presetLat {
			in.LatNs = p.TypicalLatNs
			adv.Notices = append(adv.Notices, AdviceNotice{Kind: AdvicePresetLatency, LatNs: in.LatNs})
		}
		if in.TargetIOPS == 0 {
			in.TargetIOPS = p.MaxIOPS
			adv.Notices = append(adv.Notices, AdviceNotice{Kind: AdvicePresetTarget, IOPS: in.TargetIOPS})
		}
		if presetLat && p.LatHighNs > p.LatLowNs {
			adv.LatLowNs, adv.LatHighNs = p.LatLowNs, p.LatHighNs
			adv.QDLow, adv.QDHigh = QueueDepth(in.TargetIOPS, p.LatLowNs), QueueDepth(in.TargetIOPS, p.LatHighNs)
		}
		bw := in.TargetBW
		if bw == 0 {
			bw = in.TargetIOPS * float64(in.BS)
		}
		for _, e := range PresetCheck(*p, in.TargetIOPS, bw) {
			adv.Notices = append(adv.Notices, AdviceNotice{Kind: AdvicePresetExcess, Excess: &e})
		}
	}
	o := in.Options
	o.TargetIOPS = in.TargetIOPS
	adv.MaxIODepth, adv.MaxJobs = o.Limits()
	t := AdviseTarget(in.TargetIOPS, in.LatNs, o)
	adv.fromTarget(t)
	adv.TargetBW = in.TargetBW
	if in.TargetBW > 0 || in.Preset != nil {
		adv.BS = in.BS
	}
	return adv
}

// AdviseCurve answers from a curve's analysis a (made with in.Options):
// its target answer, or without a target the saturation QD (the deepest
// measured QD when the curve did not saturate). A throughput target given
// without a block size is converted at the curve's block size curveBS.
// a needs at least one point.
func AdviseCurve(a Analysis, curveBS int64, in AdviceInput) Advice {
	var adv Advice
	adv.MaxIODepth, adv.MaxJobs = in.Options.Limits()
	adv.Caveats = a.Caveats
	if in.LatNs > 0 {
		adv.Notices = append(adv.Notices, AdviceNotice{Kind: AdviceLatencyIgnored, LatNs: in.LatNs})
	}
	t := a.Target
	if in.TargetBW > 0 && !in.BSSet && curveBS > 0 && curveBS != in.BS {
		in.BS = curveBS
		c := a.TargetFor(ThroughputIOPS(in.TargetBW, in.BS), in.Options)
		t = &c
	}
	if t != nil {
		c := *t
		a.limitTargetBySLO(&c)
		adv.fromTarget(c)
		if in.TargetBW > 0 {
			adv.TargetBW, adv.BS = in.TargetBW, in.BS
		}
		return adv
	}
	qd, depthFrom := a.AnswerDepth()
	k, from := a.Saturation, AdviceFromSaturation
	switch depthFrom {
	case DepthDeepest:
		last := a.Points[len(a.Points)-1]
		k, from = Knee{QD: last.QD, IOPS: last.IOPS, LatNsMean: last.LatMeanNs}, AdviceFromDeepest
		adv.LowerBound = true
	case DepthSLO:
		p := a.pointAt(qd)
		k, from = Knee{QD: p.QD, IOPS: p.IOPS, LatNsMean: p.LatMeanNs}, AdviceFromSLO
	}
	md, mj := in.Options.Limits()
	sa := fleetSplit(CeilQD(k.QD), Options{MaxIODepth: md, MaxJobs: mj, Hosts: in.Options.Hosts})
	adv.From, adv.QueueDepth, adv.Split, adv.AltSplits, adv.JobsBy = from, k.QD, sa.Best, sa.Alts, sa.JobsBy
	adv.LatencyNs, adv.TargetIOPS, adv.Reachable = k.LatNsMean, k.IOPS, true
	return adv
}

// pointAt is the measured point at qd (the deepest at or below it).
func (a Analysis) pointAt(qd float64) Point {
	p := a.Points[0]
	for _, q := range a.Points {
		if q.QD <= qd {
			p = q
		}
	}
	return p
}

// fromTarget takes a target answer as the advice.
func (adv *Advice) fromTarget(t TargetResult) {
	adv.From, adv.Target = AdviceFromTarget, &t
	adv.QueueDepth, adv.Split, adv.AltSplits, adv.JobsBy = t.QD, t.Split, t.AltSplits, t.JobsBy
	adv.LatencyNs, adv.TargetIOPS = t.LatencyNs, t.TargetIOPS
	adv.Reachable, adv.ReachableIOPS, adv.NaiveQD = t.Reachable, t.ReachableIOPS, t.NaiveQD
}
