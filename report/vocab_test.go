package report

import (
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// ruleOf is a rule a reason belongs to, for building findings in tests.
func ruleOf(r littleslaw.Reason) littleslaw.Rule {
	switch r {
	case littleslaw.ReasonNetworkFS, littleslaw.ReasonFUSEFS, littleslaw.ReasonRemoteFS:
		return littleslaw.RuleNetworkFS
	case littleslaw.ReasonBurstSpent:
		return littleslaw.RuleBurst
	case littleslaw.ReasonControlFell, littleslaw.ReasonControlRose, littleslaw.ReasonRampFell:
		return littleslaw.RuleNotStationary
	case littleslaw.ReasonThrottled:
		return littleslaw.RuleThrottle
	case littleslaw.ReasonWarmup:
		return littleslaw.RuleWarmup
	case littleslaw.ReasonCacheFill:
		return littleslaw.RuleCacheFill
	case littleslaw.ReasonNoisy:
		return littleslaw.RuleNoisy
	}
	return littleslaw.RuleInconclusive
}

// TestEveryValueHasWords: every reason a finding can carry has a verdict
// and a next step in words (never its code, never a formatting error),
// every kind of evidence a sentence, and diagnose's rules are all named.
func TestEveryValueHasWords(t *testing.T) {
	bad := func(s, code string) bool {
		return strings.TrimSpace(s) == "" || s == code || strings.Contains(s, "%!")
	}
	fig := littleslaw.Fact{QD: 16, ToQD: 32, IODepth: 16, NumJobs: 1, IOPS: 1000, ToIOPS: 900, LatNs: 1e6, ToLatNs: 2e6, Count: 2,
		TargetIOPS: 2000, Engine: "io_uring", Seconds: 3, ToSeconds: 5, Ratio: 1.5}
	for _, r := range littleslaw.Reasons() {
		f := littleslaw.Finding{Rule: ruleOf(r), Reason: r, RW: "randread", Figures: fig}
		if v := findingVerdict(f); bad(v, string(f.Rule)) || bad(v, string(r)) {
			t.Errorf("reason %s: verdict %q", r, v)
		}
		if n := FindingNext(f); bad(n, string(r)) {
			t.Errorf("reason %s: next step %q", r, n)
		}
	}
	for _, k := range littleslaw.FactKinds() {
		x := fig
		x.Kind, x.Reason = k, littleslaw.CPUSaturated
		if s := factText(x); bad(s, string(k)) {
			t.Errorf("fact %s: %q", k, s)
		}
	}
	for _, g := range littleslaw.CPUGrades() {
		x := fig
		x.Kind, x.Reason, x.Cores, x.SelfCPUPct = littleslaw.FactCPU, g, 1, 100
		if s := factText(x); bad(s, string(g)) {
			t.Errorf("CPU grade %s: %q", g, s)
		}
	}
}
