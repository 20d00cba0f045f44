package report_test

import (
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/report"
)

// TestVerdictsDoNotRepeatTheRule: a finding is printed as
// "Diagnosis (RULE): VERDICT", so a verdict that opens with its rule's name
// ("warm-up: at QD 2 …", "noisy: at QD 8 …") says it twice.
func TestVerdictsDoNotRepeatTheRule(t *testing.T) {
	fig := diagnosis.Fact{QD: 8, IOPS: 8000, ToIOPS: 2000, Ratio: 4, Seconds: 0.7, LatNs: 1.5e5, ToLatNs: 7e4}
	for _, f := range []diagnosis.Finding{
		{Rule: diagnosis.RuleBurst, Reason: diagnosis.ReasonBurstSpent, Figures: fig},
		{Rule: diagnosis.RuleThrottle, Reason: diagnosis.ReasonThrottled, Figures: fig},
		{Rule: diagnosis.RuleWarmup, Reason: diagnosis.ReasonWarmup, Figures: fig},
		{Rule: diagnosis.RuleCacheFill, Reason: diagnosis.ReasonCacheFill, Figures: fig},
		{Rule: diagnosis.RuleNoisy, Reason: diagnosis.ReasonNoisy, Figures: fig},
	} {
		v := strings.ToLower(report.FindingSummary(f))
		rule := string(f.Rule)
		first := strings.FieldsFunc(rule, func(r rune) bool { return r == '-' })[0]
		if strings.HasPrefix(v, rule+":") || strings.HasPrefix(v, first+":") || strings.HasPrefix(v, strings.ReplaceAll(rule, "-", " ")+":") {
			t.Errorf("Diagnosis (%s): %s — the verdict repeats the rule", f.Rule, report.FindingSummary(f))
		}
	}
}
