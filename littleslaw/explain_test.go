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
		inflight    float64
		ceiling     float64
		targetQD    int
		split, one  littleslaw.Split
		sufficient  bool
		effectiveQD int
	}{
		{
			// The design's example: 32 deep, 24.1k IOPS at 1.31 ms.
			name:    "depth-bound network disk",
			in:      littleslaw.ExplainInput{IOPS: 24100, LatMeanNs: 1.31e6, IODepth: 32, NumJobs: 1, TargetIOPS: 160000},
			verdict: littleslaw.VerdictDepthBound, inflight: 31.571, ceiling: 24427.48, effectiveQD: 32,
			targetQD: 210, split: littleslaw.Split{IODepth: 210, NumJobs: 1}, one: littleslaw.Split{IODepth: 210, NumJobs: 1},
		},
		{
			name:    "queue not kept full",
			in:      littleslaw.ExplainInput{IOPS: 5000, LatMeanNs: 1.31e6, IODepth: 32, NumJobs: 1},
			verdict: littleslaw.VerdictQueueNotFull, inflight: 6.55, ceiling: 24427.48, effectiveQD: 32,
		},
		{
			name:    "psync ignores iodepth",
			in:      littleslaw.ExplainInput{IOPS: 20108.891109, LatMeanNs: 49492.203885, IODepth: 8, NumJobs: 1, Synchronous: true, TargetIOPS: 20000},
			verdict: littleslaw.VerdictSyncEngine, inflight: 0.99524, ceiling: 20205.198, effectiveQD: 1,
			targetQD: 1, split: littleslaw.Split{IODepth: 1, NumJobs: 1}, one: littleslaw.Split{IODepth: 1, NumJobs: 1}, sufficient: true,
		},
		{
			name:    "partly full",
			in:      littleslaw.ExplainInput{IOPS: 60000, LatMeanNs: 200e3, IODepth: 16, NumJobs: 1},
			verdict: littleslaw.VerdictPartlyFull, inflight: 12, ceiling: 80000, effectiveQD: 16,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := littleslaw.Explain(tt.in)
			if e.Verdict != tt.verdict || e.EffectiveQD != tt.effectiveQD {
				t.Errorf("verdict %s effective QD %d, want %s %d", e.Verdict, e.EffectiveQD, tt.verdict, tt.effectiveQD)
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
	e := littleslaw.Explain(littleslaw.ExplainInput{IOPS: 24100, LatMeanNs: 1.31e6, IODepth: 32, NumJobs: 1, TargetIOPS: 160000})
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
	if e.Target.Split != (littleslaw.Split{IODepth: 500, NumJobs: 2}) || !e.Target.OverLimit || e.Target.MaxIODepth != 256 {
		t.Errorf("capped jobs: %+v, want 500 × 2 with a note", e.Target)
	}
}
