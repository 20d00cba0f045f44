package report_test

import (
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
)

// TestVerdictsDoNotRepeatTheRule: a finding is printed as
// "Diagnosis (RULE): VERDICT", so a verdict that opens with its rule's name
// ("warm-up: at QD 2 …", "noisy: at QD 8 …") says it twice.
func TestVerdictsDoNotRepeatTheRule(t *testing.T) {
	fig := littleslaw.Fact{QD: 8, IOPS: 8000, ToIOPS: 2000, Ratio: 4, Seconds: 0.7, LatNs: 1.5e5, ToLatNs: 7e4}
	for _, f := range []littleslaw.Finding{
		{Rule: littleslaw.RuleBurst, Reason: littleslaw.ReasonBurstSpent, Figures: fig},
		{Rule: littleslaw.RuleThrottle, Reason: littleslaw.ReasonThrottled, Figures: fig},
		{Rule: littleslaw.RuleWarmup, Reason: littleslaw.ReasonWarmup, Figures: fig},
		{Rule: littleslaw.RuleCacheFill, Reason: littleslaw.ReasonCacheFill, Figures: fig},
		{Rule: littleslaw.RuleNoisy, Reason: littleslaw.ReasonNoisy, Figures: fig},
	} {
		v := strings.ToLower(report.FindingSummary(f))
		rule := string(f.Rule)
		first := strings.FieldsFunc(rule, func(r rune) bool { return r == '-' })[0]
		if strings.HasPrefix(v, rule+":") || strings.HasPrefix(v, first+":") || strings.HasPrefix(v, strings.ReplaceAll(rule, "-", " ")+":") {
			t.Errorf("Diagnosis (%s): %s — the verdict repeats the rule", f.Rule, report.FindingSummary(f))
		}
	}
}
