package report

import (
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// TestOpenLoopTargetSaysResponse: a target answered on an open-loop curve
// with response times says the response time an application offering it
// sees, beside the latency from issue its depth is read by, in the
// sentence and in the note; without response times, neither speaks of one.
func TestOpenLoopTargetSaysResponse(t *testing.T) {
	r := littleslaw.TargetResult{TargetIOPS: 40000, Reachable: true, Reason: littleslaw.TargetReachable, QD: 24,
		Inflight: 23.2, LatencyNs: 580e3, ResponseNs: 2.4e6, Split: littleslaw.Split{IODepth: 24, NumJobs: 1}}
	for name, s := range map[string]string{"sentence": targetSentence(&r, 200e3), "note": targetNote(r)} {
		t.Logf("%s: %s", name, s)
		if !strings.Contains(s, "580 us") && !strings.Contains(s, "580 µs") {
			t.Errorf("%s lacks the latency from issue: %s", name, s)
		}
		if !strings.Contains(s, "mean response time of 2.4 ms") || !strings.Contains(s, "runs from issue") {
			t.Errorf("%s does not say the response time an application sees: %s", name, s)
		}
	}
	r.ResponseNs = 0
	if s := targetSentence(&r, 200e3) + targetNote(r); strings.Contains(s, "response") {
		t.Errorf("a response time quoted without one measured: %s", s)
	}
}
