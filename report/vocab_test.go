package report

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/internal/typedconsts"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// ruleOf is a rule a reason belongs to, for building findings in tests.
func ruleOf(r diagnosis.Reason) diagnosis.Rule {
	switch r {
	case diagnosis.ReasonNetworkFS, diagnosis.ReasonFUSEFS, diagnosis.ReasonRemoteFS:
		return diagnosis.RuleNetworkFS
	case diagnosis.ReasonBurstSpent:
		return diagnosis.RuleBurst
	case diagnosis.ReasonControlFell, diagnosis.ReasonControlRose, diagnosis.ReasonRampFell:
		return diagnosis.RuleNotStationary
	case diagnosis.ReasonThrottled:
		return diagnosis.RuleThrottle
	case diagnosis.ReasonWarmup:
		return diagnosis.RuleWarmup
	case diagnosis.ReasonCacheFill:
		return diagnosis.RuleCacheFill
	case diagnosis.ReasonNoisy:
		return diagnosis.RuleNoisy
	}
	return diagnosis.RuleInconclusive
}

// TestEveryValueHasWords: every reason a finding can carry has a verdict
// and a next step in words (never its code, never a formatting error),
// every kind of evidence a sentence, and diagnose's rules are all named.
func TestEveryValueHasWords(t *testing.T) {
	bad := func(s, code string) bool {
		return strings.TrimSpace(s) == "" || s == code || strings.Contains(s, "%!")
	}
	fig := diagnosis.Fact{QD: 16, ToQD: 32, IODepth: 16, NumJobs: 1, IOPS: 1000, ToIOPS: 900, LatNs: 1e6, ToLatNs: 2e6, Count: 2,
		TargetIOPS: 2000, Engine: "io_uring", Seconds: 3, ToSeconds: 5, Ratio: 1.5}
	for _, r := range diagnosis.Reasons() {
		f := diagnosis.Finding{Rule: ruleOf(r), Reason: r, RW: "randread", Figures: fig}
		if v := findingVerdict(f); bad(v, string(f.Rule)) || bad(v, string(r)) {
			t.Errorf("reason %s: verdict %q", r, v)
		}
		if n := FindingNext(f); bad(n, string(r)) {
			t.Errorf("reason %s: next step %q", r, n)
		}
	}
	for _, k := range diagnosis.FactKinds() {
		x := fig
		x.Kind, x.Reason = k, diagnosis.CPUSaturated
		if s := factText(x); bad(s, string(k)) {
			t.Errorf("fact %s: %q", k, s)
		}
	}
	for _, g := range diagnosis.CPUGrades() {
		x := fig
		x.Kind, x.Reason, x.Cores, x.SelfCPUPct = diagnosis.FactCPU, g, 1, 100
		if s := factText(x); bad(s, string(g)) {
			t.Errorf("CPU grade %s: %q", g, s)
		}
	}
}

// littleslawConsts lists the string values of the constants of type typ
// declared in package littleslaw (read from its source).
func littleslawConsts(t *testing.T, typ string) []string {
	t.Helper()
	cs, err := typedconsts.OfType(filepath.Join("..", "littleslaw"), typ)
	if err != nil || len(cs) == 0 {
		t.Fatalf("constants of type %s in littleslaw: %d, %v", typ, len(cs), err)
	}
	var out []string
	for _, c := range cs {
		out = append(out, c.Value)
	}
	return out
}

// TestEveryNoteHasWords: every value of the analysis's other vocabularies
// (knee kinds and reasons, step checks, SLO and target answers, settings,
// notices, caveats) has a sentence in report, never its code.
func TestEveryNoteHasWords(t *testing.T) {
	bad := func(s, code string) bool {
		return strings.TrimSpace(s) == "" || s == code || strings.Contains(s, "%!")
	}
	check := func(typ string, words func(v string) string) {
		t.Helper()
		for _, v := range littleslawConsts(t, typ) {
			if s := words(v); bad(s, v) {
				t.Errorf("%s %q: %q", typ, v, s)
			}
		}
	}
	check("KneeKind", func(v string) string { return kneeRule(littleslaw.KneeKind(v)) })
	check("KneeReason", func(v string) string {
		return kneeNote(littleslaw.Knee{Kind: littleslaw.KneeSaturation, Reason: littleslaw.KneeReason(v), QD: 16, IOPS: 1000, LatNsMean: 1e6})
	})
	check("CheckReason", func(v string) string {
		return checkNote(littleslaw.StepCheck{Reason: littleslaw.CheckReason(v), QD: 16})
	})
	check("SLOReason", func(v string) string {
		return sloNote(littleslaw.SLOResult{Reason: littleslaw.SLOReason(v), Stat: "p99", LimitNs: 1e6, QD: 16, Breaks: &littleslaw.SLOStep{QD: 32, LatNs: 2e6}})
	})
	check("TargetReason", func(v string) string {
		return targetNote(littleslaw.TargetResult{Reason: littleslaw.TargetReason(v), TargetIOPS: 1000, LatencyNs: 1e6, QD: 2})
	})
	check("SettingRule", func(v string) string {
		return settingRuleText(littleslaw.Setting{Rule: littleslaw.SettingRule(v), SaturationQD: 16, IOPS: 1000, Max: 64}, "QD")
	})
	check("NoticeKind", func(v string) string {
		return noticeText(littleslaw.Notice{Kind: littleslaw.NoticeKind(v), Count: 2, QD: 16}, &littleslaw.Analysis{})
	})
	check("CaveatKind", func(v string) string { return CaveatText(littleslaw.CaveatKind(v)) })
	// Each depth an answer rests on is named in the settings' formulas, and
	// each kind of advice without a target says its depth.
	slo := &littleslaw.SLO{Stat: "p99", LimitNs: 1e6}
	seen := map[string]littleslaw.DepthSource{}
	for _, v := range littleslawConsts(t, "DepthSource") {
		s := settingFormula(littleslaw.Setting{Rule: littleslaw.SettingWorkers, SaturationQD: 16, DepthFrom: littleslaw.DepthSource(v),
			SLO: slo, LowerBound: v == string(littleslaw.DepthDeepest)})
		if bad(s, v) {
			t.Errorf("DepthSource %q: %q", v, s)
		}
		if o, dup := seen[s]; dup {
			t.Errorf("DepthSources %q and %q read the same: %q", o, v, s)
		}
		seen[s] = littleslaw.DepthSource(v)
	}
	check("AdviceFrom", func(v string) string {
		d := AdviceDoc{From: littleslaw.AdviceFrom(v), QueueDepth: 16, IODepth: 16, NumJobs: 1, Target: &littleslaw.TargetResult{},
			SLO: &littleslaw.SLOResult{Met: true, Stat: "p99", LimitNs: 1e6, QD: 16}}
		return strings.Join(adviceDepthText(d), " ")
	})
}
