package report

import "github.com/qdsweep/qdsweep/diagnosis"

// FindingCurveForTest is the curve label a finding's summary starts with,
// with its ": ".
func FindingCurveForTest(f diagnosis.Finding) string {
	if c := findingCurve(f); c != "" {
		return c + ": "
	}
	return ""
}
