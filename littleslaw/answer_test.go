package littleslaw_test

import (
	"reflect"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// A sweep judged not stationary (it sustains 29.6k IOPS; its steps within
// the plateau band above that, QD 29 at 30.3k and QD 64 at 31.5k, stay in
// the curve) never calls a target above what the device sustains
// reachable: 30,000 IOPS is not, 29,000 is, read off the curve.
func TestTargetHeldToTheSustainedLevel(t *testing.T) {
	pts := []littleslaw.Point{
		{QD: 1, IOPS: 2000, LatMeanNs: 500e3},
		{QD: 4, IOPS: 7800, LatMeanNs: 512.8e3},
		{QD: 16, IOPS: 24000, LatMeanNs: 666.7e3},
		{QD: 29, IOPS: 30300, LatMeanNs: 957.1e3},
		{QD: 64, IOPS: 31500, LatMeanNs: 2031.7e3},
	}
	o := littleslaw.Options{SustainedIOPS: 29600}
	o.TargetIOPS = 30000
	a, err := littleslaw.Analyze(pts, o)
	if err != nil {
		t.Fatal(err)
	}
	if tg := a.Target; tg.Reachable || !tg.Sustained || tg.ReachableIOPS != 29600 {
		t.Errorf("30,000 IOPS where 29.6k lasts: %+v, want not reachable at the sustained level", tg)
	}
	b, err := a.Ask(littleslaw.Options{SustainedIOPS: 29600, TargetIOPS: 29000})
	if err != nil {
		t.Fatal(err)
	}
	if tg := b.Target; !tg.Reachable || tg.QD <= 16 || tg.QD > 29 {
		t.Errorf("29,000 IOPS below what lasts: %+v, want reachable between QD 16 and 29", tg)
	}
}

// Ask answers as Analyze does, without fitting again.
func TestAskAnswersAsAnalyze(t *testing.T) {
	pts := []littleslaw.Point{
		{QD: 1, IOPS: 18700, LatMeanNs: 53.1e3, P99Ns: 72.7e3},
		{QD: 4, IOPS: 47800, LatMeanNs: 83.6e3, P99Ns: 110e3},
		{QD: 16, IOPS: 80200, LatMeanNs: 200e3, P99Ns: 260e3},
		{QD: 32, IOPS: 83000, LatMeanNs: 385e3, P99Ns: 442e3},
		{QD: 64, IOPS: 92400, LatMeanNs: 693e3, P99Ns: 2540e3},
		{QD: 128, IOPS: 93600, LatMeanNs: 1370e3, P99Ns: 5510e3},
	}
	o := littleslaw.Options{TargetIOPS: 90000, SLO: &littleslaw.SLO{Stat: "p99", LimitNs: 1e6}, For: "postgres", CPUs: 2}
	want, err := littleslaw.Analyze(pts, o)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := littleslaw.Analyze(pts, littleslaw.Options{CPUs: 2})
	got, err := base.Ask(o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Target, want.Target) || got.SLO.QD != want.SLO.QD || len(got.Settings) != len(want.Settings) {
		t.Fatalf("Ask %+v %+v, Analyze %+v %+v", got.Target, got.SLO, want.Target, want.SLO)
	}
	for i := range want.Settings {
		if got.Settings[i].Value != want.Settings[i].Value || got.Settings[i].SaturationQD != 32 {
			t.Errorf("setting %s: Ask %s, Analyze %s (want from the SLO's QD 32)", want.Settings[i].Name, got.Settings[i].Value, want.Settings[i].Value)
		}
	}
	if !want.Target.SLOConflict || want.Target.SLOQD != 32 {
		t.Errorf("90,000 IOPS needs more than QD 32, the deepest meeting p99 ≤ 1 ms: %+v", want.Target)
	}
}
