package littleslaw_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

func TestExplain(t *testing.T) {
	tests := []struct {
		name        string
		in          littleslaw.ExplainInput
		verdict     string
		queue       string
		inflight    float64
		ceiling     float64
		targetQD    int
		split, one  littleslaw.Split
		sufficient  bool
		effectiveQD int
	}{
		{
			// The design's example: 32 deep, 24.1k IOPS at 1.31 ms, the
			// fastest I/O 1.1 ms: a round trip, nothing waited.
			name:    "depth-bound network disk",
			in:      littleslaw.ExplainInput{IOPS: 24100, LatMeanNs: 1.31e6, LatMinNs: 1.1e6, IODepth: 32, NumJobs: 1, TargetIOPS: 160000},
			verdict: littleslaw.VerdictDepthBound, queue: littleslaw.QueueFull, inflight: 31.571, ceiling: 24427.48, effectiveQD: 32,
			targetQD: 210, split: littleslaw.Split{IODepth: 210, NumJobs: 1}, one: littleslaw.Split{IODepth: 210, NumJobs: 1},
		},
		{
			name:    "queue not kept full",
			in:      littleslaw.ExplainInput{IOPS: 5000, LatMeanNs: 1.31e6, IODepth: 32, NumJobs: 1},
			verdict: littleslaw.VerdictUndetermined, queue: littleslaw.QueueNotFull, inflight: 6.55, ceiling: 24427.48, effectiveQD: 32,
		},
		{
			name:    "psync ignores iodepth",
			in:      littleslaw.ExplainInput{IOPS: 20108.891109, LatMeanNs: 49492.203885, IODepth: 8, NumJobs: 1, Synchronous: true, TargetIOPS: 20000},
			verdict: littleslaw.VerdictDepthBound, queue: littleslaw.QueueSyncEngine, inflight: 0.99524, ceiling: 20205.198, effectiveQD: 1,
			targetQD: 1, split: littleslaw.Split{IODepth: 1, NumJobs: 1}, one: littleslaw.Split{IODepth: 1, NumJobs: 1}, sufficient: true,
		},
		{
			name:    "partly full",
			in:      littleslaw.ExplainInput{IOPS: 60000, LatMeanNs: 200e3, IODepth: 16, NumJobs: 1},
			verdict: littleslaw.VerdictUndetermined, queue: littleslaw.QueuePartlyFull, inflight: 12, ceiling: 80000, effectiveQD: 16,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := littleslaw.Explain(tt.in)
			if e.Verdict != tt.verdict || e.Queue != tt.queue || e.EffectiveQD != tt.effectiveQD {
				t.Errorf("verdict %s queue %s effective QD %d, want %s %s %d", e.Verdict, e.Queue, e.EffectiveQD, tt.verdict, tt.queue, tt.effectiveQD)
			}
			if math.Abs(e.InflightMean-tt.inflight) > 0.001 || math.Abs(e.CeilingIOPS-tt.ceiling) > 0.01 {
				t.Errorf("inflight %.4f ceiling %.2f, want %.4f %.2f", e.InflightMean, e.CeilingIOPS, tt.inflight, tt.ceiling)
			}
			if tt.in.TargetIOPS == 0 {
				if e.Target != nil {
					t.Errorf("target without a target: %+v", e.Target)
				}
				return
			}
			tg := e.Target
			if tg == nil || tg.QDCeil != tt.targetQD || tg.Split != tt.split || tg.OneJob != tt.one || tg.Sufficient != tt.sufficient {
				t.Fatalf("target %+v, want QD %d split %+v one job %+v sufficient %v", tg, tt.targetQD, tt.split, tt.one, tt.sufficient)
			}
			if got := tg.Exact.IODepth * tg.Exact.NumJobs; got < tg.QDCeil {
				t.Errorf("exact split %+v covers %d < %d", tg.Exact, got, tg.QDCeil)
			}
		})
	}
}

// The design's network disk: 32 deep, one job, 24.1k IOPS at 1.31 ms.
func ExampleExplain() {
	e := littleslaw.Explain(littleslaw.ExplainInput{IOPS: 24100, LatMeanNs: 1.31e6, LatMinNs: 1.1e6, IODepth: 32, NumJobs: 1, TargetIOPS: 160000})
	fmt.Printf("%s: %.1f in flight of %d, ceiling %.0f IOPS\n", e.Verdict, e.InflightMean, e.EffectiveQD, e.CeilingIOPS)
	fmt.Printf("160k IOPS needs QD %d: iodepth %d × numjobs %d\n", e.Target.QDCeil, e.Target.Split.IODepth, e.Target.Split.NumJobs)
	// Output:
	// depth-bound: 31.6 in flight of 32, ceiling 24427 IOPS
	// 160k IOPS needs QD 210: iodepth 210 × numjobs 1
}

// Explain sizes a target with the rule advise uses: for the same QD and
// limits both give the same split and alternatives.
func TestExplainSplitMatchesAdvise(t *testing.T) {
	tests := []struct {
		name             string
		target, latNs    float64
		maxDepth, maxJob int
		want             littleslaw.Split
	}{
		{"QD 22 stays 22", 180000, 122e3, 0, 8, littleslaw.Split{IODepth: 22, NumJobs: 1}},
		{"QD 210 in one NVMe queue", 160000, 1.31e6, 0, 8, littleslaw.Split{IODepth: 210, NumJobs: 1}},
		{"past one queue", 400000, 1e6, 0, 8, littleslaw.Split{IODepth: 200, NumJobs: 2}},
		{"small per-job limit", 160000, 1.31e6, 64, 8, littleslaw.Split{IODepth: 53, NumJobs: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := littleslaw.Explain(littleslaw.ExplainInput{IOPS: 1000, LatMeanNs: tt.latNs, IODepth: 1, NumJobs: 1,
				TargetIOPS: tt.target, MaxIODepth: tt.maxDepth, MaxJobs: tt.maxJob})
			a := littleslaw.AdviseTarget(tt.target, tt.latNs, littleslaw.Options{MaxIODepth: tt.maxDepth, MaxJobs: tt.maxJob})
			if e.Target == nil || e.Target.Split != tt.want || a.Split != tt.want {
				t.Fatalf("explain %+v, advise %+v; want %+v from both", e.Target, a.Split, tt.want)
			}
			if fmt.Sprint(e.Target.Alts) != fmt.Sprint(a.AltSplits) {
				t.Errorf("explain alternatives %v, advise %v", e.Target.Alts, a.AltSplits)
			}
			qd := e.Target.QDCeil
			for _, s := range e.Target.Alts {
				if at := s.IODepth * s.NumJobs; at < qd || at-qd >= s.NumJobs {
					t.Errorf("alternative %+v does not cover %d in flight rounded up to a whole I/O per job", s, qd)
				}
			}
		})
	}
	e := littleslaw.Explain(littleslaw.ExplainInput{IOPS: 1000, LatMeanNs: 1e6, IODepth: 1, NumJobs: 1, TargetIOPS: 1e6, MaxJobs: 2})
	if e.Target.Split != (littleslaw.Split{IODepth: 250, NumJobs: 4}) || !e.Target.OverLimit || e.Target.MaxIODepth != 256 {
		t.Errorf("more jobs than allowed: %+v, want 250 × 4 (never past --max-iodepth) with a note", e.Target)
	}
}

// One run cannot tell depth-bound from device-bound unless it holds the
// evidence: these are the runs the verdict must get right, from the figures
// of real fio runs (examples/fio and a 1 MiB sequential read measured here).
func TestExplainVerdictFromEvidence(t *testing.T) {
	qd64 := littleslaw.ExplainInput{IOPS: 94949, LatMeanNs: 673550, LatMinNs: 46629, LatP50Ns: 618496, IODepth: 64, NumJobs: 1}
	tests := []struct {
		name    string
		in      littleslaw.ExplainInput
		verdict string
		kind    littleslaw.EvidenceKind
	}{
		{"a disk saturated from QD 64: the typical I/O waited", qd64, littleslaw.VerdictDeviceBound, littleslaw.EvidenceMinLatency},
		{"1 MiB sequential reads 16 deep", littleslaw.ExplainInput{IOPS: 594, LatMeanNs: 26.9e6, LatMinNs: 1.45e6, LatP50Ns: 20.4e6, IODepth: 16, NumJobs: 1},
			littleslaw.VerdictDeviceBound, littleslaw.EvidenceMinLatency},
		{"no latency spread, no base, no curve", littleslaw.ExplainInput{IOPS: 51548, LatMeanNs: 77302, IODepth: 4, NumJobs: 1},
			littleslaw.VerdictUndetermined, littleslaw.EvidenceMissing},
		{"a spread that settles nothing", littleslaw.ExplainInput{IOPS: 51548, LatMeanNs: 77302, LatMinNs: 39619, LatP50Ns: 68096, IODepth: 4, NumJobs: 1},
			littleslaw.VerdictUndetermined, littleslaw.EvidenceMissing},
		{"the unqueued latency given", littleslaw.ExplainInput{IOPS: 51548, LatMeanNs: 77302, BaseLatNs: 60000, IODepth: 4, NumJobs: 1},
			littleslaw.VerdictDepthBound, littleslaw.EvidenceBaseLatency},
		{"several runs as a curve", littleslaw.ExplainInput{IOPS: 94949, LatMeanNs: 673550, IODepth: 64, NumJobs: 1,
			Curve: []littleslaw.Point{{QD: 1, IOPS: 21897, LatMeanNs: 45435}, {QD: 16, IOPS: 80430, LatMeanNs: 198656}, {QD: 64, IOPS: 94949, LatMeanNs: 673550}}},
			littleslaw.VerdictDeviceBound, littleslaw.EvidenceCurve},
		{"a shallow run on the same curve", littleslaw.ExplainInput{IOPS: 21897, LatMeanNs: 45435, IODepth: 1, NumJobs: 1},
			littleslaw.VerdictDepthBound, littleslaw.EvidenceOneInFlight},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := littleslaw.Explain(tt.in)
			if e.Verdict != tt.verdict || len(e.Evidence) == 0 {
				t.Fatalf("verdict %s, evidence %+v; want %s", e.Verdict, e.Evidence, tt.verdict)
			}
			found := false
			for _, x := range e.Evidence {
				found = found || x.Kind == tt.kind
			}
			if !found {
				t.Errorf("evidence %+v lacks %s", e.Evidence, tt.kind)
			}
		})
	}
}

// A target beyond a device-bound run is not reachable by depth; a target
// the run met is sized at the run's own depth (never below it: less may do,
// which only a sweep shows); a run short of its target is sized by Little's
// Law at its own latency, with a floor (the unqueued latency, or one more
// than a full queue that fell short) that is never the headline; clones
// reported apart each carry their share.
func TestExplainTargetSizing(t *testing.T) {
	in := littleslaw.ExplainInput{IOPS: 94949, LatMeanNs: 673550, LatMinNs: 46629, LatP50Ns: 618496, IODepth: 64, NumJobs: 1, TargetIOPS: 160000}
	if tg := littleslaw.Explain(in).Target; tg == nil || tg.Reachable {
		t.Errorf("160k on a disk saturated at 95k: %+v, want not reachable", tg)
	}
	in.TargetIOPS = 90000
	if tg := littleslaw.Explain(in).Target; tg == nil || !tg.Reachable || !tg.MetByRun || tg.QDCeil != 64 || tg.Split.IODepth != 64 {
		t.Errorf("90k below the measured 95k: %+v, want the run's own QD 64", tg)
	}
	q := littleslaw.ExplainInput{IOPS: 51548, LatMeanNs: 77302, LatMinNs: 39619, LatP50Ns: 68096, IODepth: 4, NumJobs: 1, TargetIOPS: 60000}
	tg := littleslaw.Explain(q).Target
	if tg.LatFrom != littleslaw.ExplainLatMeasured || tg.LowerBound || tg.QDCeil != littleslaw.CeilQD(60000*77302e-9) ||
		tg.FloorFrom != littleslaw.ExplainFloorRun || tg.FloorQD != 5 {
		t.Errorf("queued run short of 60k: %+v, want QD at its own latency and a floor of 5 (its full queue of 4 fell short)", tg)
	}
	q.BaseLatNs, q.TargetShare, q.TargetIOPS = 45435, 2, 140000
	tg = littleslaw.Explain(q).Target
	if tg.LatFrom != littleslaw.ExplainLatMeasured || tg.TargetIOPS != 70000 || tg.TotalIOPS != 140000 || tg.Share != 2 ||
		tg.QDCeil != littleslaw.CeilQD(70000*77302e-9) || tg.FloorQD != 5 || tg.QDCeil < tg.FloorQD {
		t.Errorf("share of 140k over 2 jobs with a base latency: %+v", tg)
	}
	q.IODepth = 32 // a queue not kept full: the base latency's floor stands
	tg = littleslaw.Explain(q).Target
	if tg.FloorFrom != littleslaw.ExplainLatBase || tg.FloorQD != littleslaw.CeilQD(70000*45435e-9) || tg.FloorLatencyNs != 45435 {
		t.Errorf("floor from the base latency: %+v", tg)
	}
	// Every stated triple is Little's: QD = IOPS × latency.
	if got := littleslaw.QueueDepth(tg.TargetIOPS, tg.LatencyNs); math.Abs(got-tg.QD) > 1e-9 {
		t.Errorf("QD %g ≠ %g × %g ns", tg.QD, tg.TargetIOPS, tg.LatencyNs)
	}
}

// TestExplainNeverBelowProvenNeed: over a grid of single runs (queue
// full, partly full, synchronous; with and without the fastest I/O and a
// base latency; device-bound or not) and targets below, at and above what
// the run did, the answer never recommends less than the evidence proves:
// a run that met the target answers with its own depth; one that kept its
// queue full and fell short, more than its depth; a depth sized at the
// measured latency is at least Little's Law of the target at it; the floor
// is never above the headline; splits cover the headline within the
// per-job limit (or say they cannot).
func TestExplainNeverBelowProvenNeed(t *testing.T) {
	type run struct {
		iops, latNs  float64
		iodepth, nj  int
		sync         bool
		minNs, baseN float64
	}
	var runs []run
	for _, lat := range []float64{37.8e3, 199e3, 1.31e6} {
		for _, d := range [][2]int{{1, 1}, {4, 1}, {16, 1}, {32, 1}, {8, 4}, {256, 2}} {
			qd := float64(d[0] * d[1])
			for _, fill := range []float64{1, 0.6, 0.2} {
				iops := fill * qd / (lat / 1e9)
				for _, ev := range [][2]float64{{0, 0}, {lat / 5, 0}, {lat / 5, lat / 3}} {
					runs = append(runs, run{iops, lat, d[0], d[1], false, ev[0], ev[1]})
				}
			}
			runs = append(runs, run{float64(d[1]) / (lat / 1e9), lat, d[0], d[1], true, lat / 2, 0})
		}
	}
	for _, r := range runs {
		for _, k := range []float64{0.3, 0.99, 1, 1.05, 2, 10} {
			in := littleslaw.ExplainInput{IOPS: r.iops, LatMeanNs: r.latNs, IODepth: r.iodepth, NumJobs: r.nj, Synchronous: r.sync,
				TargetIOPS: k * r.iops, LatMinNs: r.minNs, BaseLatNs: r.baseN, MaxIODepth: 256}
			e := littleslaw.Explain(in)
			tg := e.Target
			name := fmt.Sprintf("%+v target ×%g", r, k)
			if tg == nil {
				t.Fatalf("%s: no target answer", name)
			}
			switch {
			case k <= 1:
				if !tg.MetByRun || tg.QDCeil != e.EffectiveQD {
					t.Errorf("%s: the run met the target at QD %d; the answer is QD %d (met by run %v)", name, e.EffectiveQD, tg.QDCeil, tg.MetByRun)
				}
			case !tg.Reachable:
				if e.Verdict != littleslaw.VerdictDeviceBound {
					t.Errorf("%s: not reachable, but the run was %s, not device-bound", name, e.Verdict)
				}
			default:
				if e.Queue == littleslaw.QueueFull && tg.QDCeil <= e.EffectiveQD {
					t.Errorf("%s: a full queue of %d fell short, yet the answer is QD %d", name, e.EffectiveQD, tg.QDCeil)
				}
				if need := littleslaw.QueueDepth(tg.TargetIOPS, r.latNs); tg.LatFrom == littleslaw.ExplainLatMeasured && float64(tg.QDCeil) < need-1e-9 {
					t.Errorf("%s: QD %d is below the target × measured latency (%.1f)", name, tg.QDCeil, need)
				}
			}
			if tg.FloorQD > tg.QDCeil {
				t.Errorf("%s: floor %d above the headline %d", name, tg.FloorQD, tg.QDCeil)
			}
			if !tg.MetByRun && (tg.Split.IODepth*tg.Split.NumJobs < tg.QDCeil || tg.Split.IODepth > 256 && !tg.OverLimit) {
				t.Errorf("%s: split %+v for QD %d (limit 256)", name, tg.Split, tg.QDCeil)
			}
		}
	}
}
