package littleslaw

import (
	"math"
	"sort"
	"strconv"
)

// EvidenceKind names one fact Explain's verdict rests on.
type EvidenceKind string

// Evidence kinds of ExplainEvidence.
const (
	// EvidenceOneInFlight: about one I/O was in flight; nothing could queue,
	// so only more depth gives more throughput.
	EvidenceOneInFlight EvidenceKind = "one-in-flight"
	// EvidenceQueueNotFull: the queue was not kept full, so the run shows
	// neither the depth's limit nor the device's.
	EvidenceQueueNotFull EvidenceKind = "queue-not-full"
	// EvidenceCurve: a run at another depth (OtherQD, OtherIOPS) against
	// this one (QD, IOPS); Ratio is the elasticity ln(IOPS gain) / ln(depth
	// ratio): ≈ 1 while depth-bound, ≈ 0 once the device is the limit.
	EvidenceCurve EvidenceKind = "curve"
	// EvidenceBaseLatency: the mean latency (LatNs) against the unqueued
	// latency (RefNs, given by the user or the curve's QD 1 run); Ratio is
	// their quotient: ≈ 1 when nothing waited.
	EvidenceBaseLatency EvidenceKind = "base-latency"
	// EvidenceMinLatency: the mean (LatNs) and median (P50Ns) against the
	// fastest I/O (RefNs); Ratio is mean / min.
	EvidenceMinLatency EvidenceKind = "min-latency"
	// EvidenceDepthDist: Share percent of I/Os were submitted at the
	// configured depth's bucket of fio's IO depths (the queue's fill, not
	// what limits it).
	EvidenceDepthDist EvidenceKind = "depth-distribution"
	// EvidenceDeeperGain: a deeper run of the curve (OtherQD, OtherIOPS)
	// gained more than SaturationGain over this one (QD, IOPS; Ratio is the
	// gain, a fraction): the device had more to give, so this run was not
	// device-bound, whatever its latency says.
	EvidenceDeeperGain EvidenceKind = "deeper-gain"
	// EvidenceCurveUnsaturated: the runs read as one curve found no
	// saturation up to the deepest (QD): this run's own evidence of a
	// device limit is not enough to call it device-bound.
	EvidenceCurveUnsaturated EvidenceKind = "curve-unsaturated"
	// EvidenceMissing: nothing in the run tells depth-bound from
	// device-bound: no base latency, no other depth, latency spread
	// inconclusive.
	EvidenceMissing EvidenceKind = "missing"
)

// ExplainEvidence is one fact behind Explain's verdict: its kind, the
// verdict it points to (Says: VerdictDepthBound, VerdictDeviceBound, or ""
// when it points to neither) and the figures it quotes.
type ExplainEvidence struct {
	Kind      EvidenceKind `json:"kind"`
	Says      string       `json:"says,omitempty"`
	Ratio     float64      `json:"ratio,omitempty"`
	LatNs     float64      `json:"lat_ns,omitempty"`     // the run's mean latency, ns
	RefNs     float64      `json:"ref_ns,omitempty"`     // the reference latency, ns
	P50Ns     float64      `json:"p50_ns,omitempty"`     // the run's median, ns
	QD        float64      `json:"qd,omitempty"`         // this run's depth
	IOPS      float64      `json:"iops,omitempty"`       // this run's IOPS
	OtherQD   float64      `json:"other_qd,omitempty"`   // the other run's depth
	OtherIOPS float64      `json:"other_iops,omitempty"` // the other run's IOPS
	Share     float64      `json:"share,omitempty"`      // percent
}

// Thresholds of the verdict.
const (
	// boundElasticDepth: IOPS grew at least this power of the depth ratio.
	boundElasticDepth = 0.6
	// boundElasticDevice: IOPS grew at most this power of the depth ratio.
	boundElasticDevice = 0.2
	// boundBaseDepth / boundBaseDevice: mean latency within 1.5× of the
	// unqueued latency (depth-bound), or at least 2.5× it (device-bound).
	boundBaseDepth  = 1.5
	boundBaseDevice = 2.5
	// boundMinDepth: a mean within 1.5× of the fastest I/O leaves no room
	// for queueing. boundMinDevice and boundMinP50: a mean 4× and a median
	// 3× the fastest I/O, at a depth of at least boundMinQD, say the typical
	// I/O waited (a wide spread alone, as on a disk that seeks, does not).
	boundMinDepth  = 1.5
	boundMinDevice = 4
	boundMinP50    = 3
	boundMinQD     = 4
	// boundOneInFlight: at most this many in flight counts as one.
	boundOneInFlight = 1.25
)

// judgeBound decides what bounds one run, from what the run holds.
func judgeBound(in ExplainInput, e Explanation) (string, []ExplainEvidence) {
	qd := float64(e.EffectiveQD)
	if e.InflightMean <= boundOneInFlight {
		return VerdictDepthBound, []ExplainEvidence{{Kind: EvidenceOneInFlight, Says: VerdictDepthBound,
			QD: e.InflightMean, IOPS: in.IOPS, LatNs: in.LatMeanNs}}
	}
	if e.Queue != QueueFull && e.Queue != QueueDepthUnknown {
		return VerdictUndetermined, []ExplainEvidence{{Kind: EvidenceQueueNotFull, QD: qd, Ratio: e.Fill}}
	}
	var ev []ExplainEvidence
	if g, ok := deeperGain(in, qd); ok {
		// A run is device-bound only when no deeper run gained: the curve's
		// verdict comes first.
		ev = append(ev, g)
	}
	if c, ok := curveEvidence(in, qd); ok {
		ev = append(ev, c)
	}
	base := in.BaseLatNs
	if base <= 0 {
		for _, p := range in.Curve {
			if p.QD == 1 && p.IOPS > 0 && p.LatMeanNs > 0 {
				base = p.LatMeanNs
			}
		}
	}
	if base > 0 {
		r := in.LatMeanNs / base
		x := ExplainEvidence{Kind: EvidenceBaseLatency, Ratio: r, LatNs: in.LatMeanNs, RefNs: base}
		switch {
		case r <= boundBaseDepth:
			x.Says = VerdictDepthBound
		case r >= boundBaseDevice:
			x.Says = VerdictDeviceBound
		}
		ev = append(ev, x)
	}
	if in.LatMinNs > 0 {
		r := in.LatMeanNs / in.LatMinNs
		x := ExplainEvidence{Kind: EvidenceMinLatency, Ratio: r, LatNs: in.LatMeanNs, RefNs: in.LatMinNs, P50Ns: in.LatP50Ns}
		switch {
		case r <= boundMinDepth:
			x.Says = VerdictDepthBound
		case r >= boundMinDevice && qd >= boundMinQD && (in.LatP50Ns <= 0 || in.LatP50Ns >= boundMinP50*in.LatMinNs):
			x.Says = VerdictDeviceBound
		}
		ev = append(ev, x)
	}
	if sh, ok := depthShare(in.DepthDist, max(in.IODepth, 1)); ok {
		ev = append(ev, ExplainEvidence{Kind: EvidenceDepthDist, Share: sh, QD: float64(max(in.IODepth, 1))})
	}
	for _, x := range ev {
		if x.Says == VerdictDeviceBound && in.CurveUnsaturated {
			// The curve of these runs says more depth still gave more: no
			// run of it is device-bound on its own evidence.
			deepest := qd
			for _, p := range in.Curve {
				deepest = max(deepest, p.QD)
			}
			return VerdictUndetermined, append(ev, ExplainEvidence{Kind: EvidenceCurveUnsaturated, QD: deepest})
		}
		if x.Says != "" {
			return x.Says, ev
		}
	}
	return VerdictUndetermined, append(ev, ExplainEvidence{Kind: EvidenceMissing})
}

// deeperGain finds the deepest run of the curve deeper than qd that gained
// more than SaturationGain over this run's IOPS.
func deeperGain(in ExplainInput, qd float64) (ExplainEvidence, bool) {
	var best Point
	for _, p := range in.Curve {
		if p.QD > qd && p.IOPS > in.IOPS*(1+SaturationGain) && p.QD > best.QD {
			best = p
		}
	}
	if best.QD == 0 || in.IOPS <= 0 {
		return ExplainEvidence{}, false
	}
	return ExplainEvidence{Kind: EvidenceDeeperGain, Says: VerdictDepthBound, Ratio: best.IOPS/in.IOPS - 1,
		QD: qd, IOPS: in.IOPS, OtherQD: best.QD, OtherIOPS: best.IOPS}, true
}

// curveEvidence compares the run with another of the curve: the deepest
// run at most 3/4 as deep, else the shallowest at least 4/3 as deep.
func curveEvidence(in ExplainInput, qd float64) (ExplainEvidence, bool) {
	pts := append([]Point(nil), in.Curve...)
	sort.Slice(pts, func(i, j int) bool { return pts[i].QD < pts[j].QD })
	var lo, hi Point
	found := false
	for _, p := range pts {
		if p.IOPS > 0 && p.QD > 0 && p.QD <= 0.75*qd {
			lo, hi, found = p, Point{QD: qd, IOPS: in.IOPS}, true
		}
	}
	if !found {
		for _, p := range pts {
			if p.IOPS > 0 && p.QD >= qd/0.75 {
				lo, hi, found = Point{QD: qd, IOPS: in.IOPS}, p, true
				break
			}
		}
	}
	if !found || in.IOPS <= 0 {
		return ExplainEvidence{}, false
	}
	el := math.Log(hi.IOPS/lo.IOPS) / math.Log(hi.QD/lo.QD)
	x := ExplainEvidence{Kind: EvidenceCurve, Ratio: el, QD: qd, IOPS: in.IOPS}
	if lo.QD == qd {
		x.OtherQD, x.OtherIOPS = hi.QD, hi.IOPS
	} else {
		x.OtherQD, x.OtherIOPS = lo.QD, lo.IOPS
	}
	switch {
	case el >= boundElasticDepth:
		x.Says = VerdictDepthBound
	case el <= boundElasticDevice:
		x.Says = VerdictDeviceBound
	}
	return x, true
}

// depthShare is the percent of I/Os fio submitted at iodepth's bucket of
// its IO depths distribution.
func depthShare(dist map[string]float64, iodepth int) (float64, bool) {
	if len(dist) == 0 {
		return 0, false
	}
	key := ">=64"
	for _, b := range []int{1, 2, 4, 8, 16, 32} {
		if iodepth < 2*b {
			key = strconv.Itoa(b)
			break
		}
	}
	v, ok := dist[key]
	return v, ok
}
