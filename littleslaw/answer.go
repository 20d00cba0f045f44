package littleslaw

// DepthSource names the depth an answer's settings rest on
// (Analysis.AnswerDepth, Setting.DepthFrom).
type DepthSource string

// Depth sources, in the order AnswerDepth considers them.
const (
	// DepthSaturation: the saturation QD, where more depth adds latency only.
	DepthSaturation DepthSource = "saturation"
	// DepthDeepest: the deepest measured QD of a curve that did not
	// saturate: a lower bound of the useful depth.
	DepthDeepest DepthSource = "deepest"
	// DepthSLO: the deepest measured QD meeting the latency objective,
	// shallower than the depth above (or the shallowest measured QD when
	// none meets it: Analysis.SLO.Met says which).
	DepthSLO DepthSource = "slo"
)

// DepthSources lists every DepthSource.
var DepthSources = []DepthSource{DepthSaturation, DepthDeepest, DepthSLO}

// AnswerDepth is the curve's useful parallelism, the one depth the advice
// without a target and the settings for an application rest on: the
// saturation QD, else the deepest measured QD (a lower bound), and never
// deeper than the deepest measured QD meeting the latency objective when
// one was asked. A target is answered apart (Analysis.Target): the depth
// it needs, said to conflict with the objective when deeper. It is 0
// without points.
func (a Analysis) AnswerDepth() (float64, DepthSource) {
	if len(a.Points) == 0 {
		return 0, ""
	}
	qd, from := a.Points[len(a.Points)-1].QD, DepthDeepest
	if a.Saturation.Found {
		qd, from = a.Saturation.QD, DepthSaturation
	}
	if lim, ok := a.sloLimit(); ok && qd > lim {
		qd, from = lim, DepthSLO
	}
	return qd, from
}

// sloLimit is the deepest depth an answer may use under the latency
// objective: the deepest measured QD meeting it, or the shallowest
// measured QD when none does (false: no objective, or not measured).
func (a Analysis) sloLimit() (float64, bool) {
	s := a.SLO
	if s == nil || s.Reason == SLONotMeasured || len(a.Points) == 0 {
		return 0, false
	}
	if s.Met {
		return s.QD, true
	}
	return a.Points[0].QD, true
}

// limitTargetBySLO marks target t (read off a) when it needs more depth
// than the latency objective allows: the target and the objective conflict.
func (a Analysis) limitTargetBySLO(t *TargetResult) {
	lim, ok := a.sloLimit()
	if t == nil || !ok {
		return
	}
	if !a.SLO.Met {
		t.SLOConflict = true
		return
	}
	if t.QD > lim {
		t.SLOConflict, t.SLOQD = true, lim
	}
}

// answerSettings sizes o.For's settings from AnswerDepth.
func (a *Analysis) answerSettings(o Options) {
	qd, from := a.AnswerDepth()
	if from == DepthDeepest {
		a.Notices = append(a.Notices, Notice{Kind: NoticeSettingsDeep, QD: qd})
	}
	a.Settings = settingsFor(o.For, qd, a.MaxIOPS, o.CPUs)
	for i := range a.Settings {
		s := &a.Settings[i]
		s.DepthFrom = from
		if from == DepthSLO {
			slo := SLO{Stat: a.SLO.Stat, LimitNs: a.SLO.LimitNs}
			s.SLO = &slo
		}
		if from == DepthDeepest {
			s.LowerBound = true
			s.Caveats = append(s.Caveats, CaveatUnsaturated)
		}
	}
}

// answer fills the answers o asks of the curve a describes: the target,
// the SLO and the settings, each from the one depth AnswerDepth gives.
func (a *Analysis) answer(o Options) {
	a.SustainedIOPS = o.SustainedIOPS
	if o.TargetIOPS > 0 {
		t := a.TargetFor(o.TargetIOPS, o)
		a.Target = &t
	}
	if o.SLO != nil {
		s := evalSLO(a.Points, *o.SLO)
		a.SLO = &s
		a.limitTargetBySLO(a.Target)
	}
	if o.For != "" {
		a.answerSettings(o)
	}
}

// Ask answers o's questions (a target, an SLO, settings for an
// application) on the curve a describes without fitting it again: the
// answers Analyze of a's points with o gives. Caveats a carries (a
// diagnosis's) travel into the new answers.
func (a Analysis) Ask(o Options) (Analysis, error) {
	if err := validate(o); err != nil {
		return a, err
	}
	if len(a.Points) == 0 {
		return a, ErrTooFewPoints
	}
	o = o.withDefaults()
	a.Target, a.SLO, a.Settings = nil, nil, nil
	var kept []Notice
	for _, n := range a.Notices {
		if n.Kind != NoticeSettingsDeep {
			kept = append(kept, n)
		}
	}
	a.Notices = kept
	a.answer(o)
	caveats := a.Caveats
	a.Caveats = nil
	for _, k := range caveats {
		if k == CaveatUnsaturated {
			// As Analyze: a target the curve reached stands as it is.
			a.Caveats = append(a.Caveats, k)
			continue
		}
		a.AddCaveats(k)
	}
	return a, nil
}
