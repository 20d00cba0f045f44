package report

import (
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"
)

// TestOpenLoopFactsSpeakOfLoads words every kind of fact about a step
// offered a load (an open-loop sweep's, whose QD is the I/Os it kept in
// flight), and every fact over two such steps (growth, plateau): none
// calls a step a queue depth, and each names the load.
func TestOpenLoopFactsSpeakOfLoads(t *testing.T) {
	for _, k := range diagnosis.FactKinds() {
		x := diagnosis.Fact{Kind: k, OfferedIOPS: 2e6, ToOfferedIOPS: 3e6, QD: 3.6, ToQD: 7.2, IODepth: 4, NumJobs: 1, IOPS: 222e3, ToIOPS: 376e3,
			LatNs: 16.9e3, ToLatNs: 19.1e3, Inflight: 3.6, AquSz: 0.7, Fill: 0.2, DeviceIOPS: 333, BWBytes: 1e8, DeviceBWBytes: 1e7,
			Ratio: 2, LatRatio: 1.1, QDRatio: 2, Share: 0.5, SelfCPUPct: 39}
		s := factText(x)
		if strings.Contains(s, "QD") {
			t.Errorf("%s: %q calls a step offered a load a queue depth", k, s)
		}
	}
	x := diagnosis.Fact{Kind: diagnosis.FactGrowth, OfferedIOPS: 10e3, ToOfferedIOPS: 20e3, QD: 1.6, ToQD: 4.6, IOPS: 10e3, ToIOPS: 20e3}
	if s, want := factText(x), "offered 10k → 20k IOPS (1.6 → 4.6 in flight)"; !strings.HasPrefix(s, want) {
		t.Errorf("growth over two loads: %q, want it to start %q", s, want)
	}
}

// TestOpenLoopVerdictsSpeakOfLoads words every diagnosis reason for a
// finding whose figures are a step offered a load: neither its verdict nor
// its next step names a queue depth (QD) where the depth was not swept.
func TestOpenLoopVerdictsSpeakOfLoads(t *testing.T) {
	for _, r := range diagnosis.Reasons() {
		for _, rule := range diagnosis.Rules() {
			f := diagnosis.Finding{Rule: rule, Reason: r, RW: "randread", BS: 4096, Figures: diagnosis.Fact{OfferedIOPS: 124e3, QD: 64, ToQD: 256,
				IODepth: 64, NumJobs: 1, IOPS: 73e3, ToIOPS: 80e3, LatNs: 877e3, ToLatNs: 236e3, TargetIOPS: 100e3, Engine: "io_uring", HostBusy: true, Seconds: 1.5}}
			for _, s := range []string{findingVerdict(f), FindingNext(f)} {
				if strings.Contains(s, "QD") || strings.Contains(s, "short of the") {
					t.Errorf("%s/%s: %q names a queue depth in an open-loop sweep", rule, r, s)
				}
			}
		}
	}
	f := diagnosis.Finding{Rule: diagnosis.RuleQueueNotFull, Reason: diagnosis.ReasonSubmitterCPU, Figures: diagnosis.Fact{OfferedIOPS: 124e3, IODepth: 64, HostBusy: true}}
	if s := findingVerdict(f); !strings.Contains(s, "in flight") {
		t.Errorf("queue-not-reaching-device in open loop: %q does not speak of the I/Os in flight", s)
	}
}
