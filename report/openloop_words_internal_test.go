package report

import (
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"
)

// openLoopQDFacts are the fact kinds still worded by queue depth when
// their step was offered a load: facts over two steps (QD → ToQD), which
// carry the first step's load only.
var openLoopQDFacts = map[diagnosis.FactKind]bool{diagnosis.FactGrowth: true, diagnosis.FactPlateau: true}

// TestOpenLoopFactsSpeakOfLoads words every kind of fact about a step
// offered a load (an open-loop sweep's, whose QD is the I/Os it kept in
// flight): none calls that step a queue depth, and each names the load.
func TestOpenLoopFactsSpeakOfLoads(t *testing.T) {
	for _, k := range diagnosis.FactKinds() {
		x := diagnosis.Fact{Kind: k, OfferedIOPS: 2e6, QD: 3.6, IODepth: 4, NumJobs: 1, IOPS: 222e3, LatNs: 16.9e3,
			Inflight: 3.6, AquSz: 0.7, Fill: 0.2, DeviceIOPS: 333, BWBytes: 1e8, DeviceBWBytes: 1e7, Ratio: 2, Share: 0.5, SelfCPUPct: 39}
		s := factText(x)
		if openLoopQDFacts[k] {
			continue
		}
		if strings.Contains(s, "QD") && strings.Contains(s, "3.6") {
			t.Errorf("%s: %q calls a step offered a load a queue depth", k, s)
		}
	}
}
