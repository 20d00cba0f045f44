package diagnosis_test

import (
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// A file on FUSE at 2.3 ms per I/O (measured on a FUSE file that adds 2 ms
// and caps at 4,000 IOPS) is a round trip, not a cache; tmpfs at a few
// microseconds is memory; a device-less target of unknown type at 2 ms is
// a round trip too.
func TestDiagnoseNetworkFilesystems(t *testing.T) {
	fuse := []littleslaw.Point{
		{QD: 1, IOPS: 430, LatMeanNs: 2.3e6}, {QD: 4, IOPS: 1700, LatMeanNs: 2.35e6},
		{QD: 16, IOPS: 3900, LatMeanNs: 4.1e6}, {QD: 64, IOPS: 4000, LatMeanNs: 16e6},
	}
	tmpfs := []littleslaw.Point{
		{QD: 1, IOPS: 200000, LatMeanNs: 5e3}, {QD: 4, IOPS: 420000, LatMeanNs: 9.5e3}, {QD: 16, IOPS: 430000, LatMeanNs: 37e3},
	}
	tests := []struct {
		name      string
		c         diagnosis.DiagnoseCurve
		rule      diagnosis.Rule
		reason    diagnosis.Reason
		wantCache bool
	}{
		{"fuse.gcsfuse", diagnosis.DiagnoseCurve{RW: "randread", BS: 4096, Direct: true, Points: fuse,
			NoDevice: "x is on fuse: no block device", FSType: "fuse.gcsfuse", FSClass: diagnosis.FSClassFUSE},
			diagnosis.RuleNetworkFS, diagnosis.ReasonFUSEFS, false},
		{"nfs4", diagnosis.DiagnoseCurve{RW: "randread", BS: 4096, Direct: true, Points: fuse,
			NoDevice: "x is on nfs: no block device", FSType: "nfs4", FSClass: diagnosis.FSClassNetwork},
			diagnosis.RuleNetworkFS, diagnosis.ReasonNetworkFS, false},
		{"unknown type at a round trip", diagnosis.DiagnoseCurve{RW: "randread", BS: 4096, Direct: true, Points: fuse,
			NoDevice: "x is on a filesystem of type 0x1234 without a block device"},
			diagnosis.RuleNetworkFS, diagnosis.ReasonRemoteFS, false},
		{"tmpfs", diagnosis.DiagnoseCurve{RW: "randread", BS: 4096, Points: tmpfs,
			NoDevice: "x is on tmpfs: no block device", FSType: "tmpfs", FSClass: diagnosis.FSClassMemory},
			diagnosis.RuleCache, diagnosis.ReasonNoDevice, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := diagnosis.Diagnose(diagnosis.DiagnoseInput{Curves: []diagnosis.DiagnoseCurve{tt.c}})
			if len(fs) == 0 || fs[0].Rule != tt.rule || fs[0].Reason != tt.reason {
				t.Fatalf("findings %+v, want %s (%s) first", fs, tt.rule, tt.reason)
			}
			for _, f := range fs {
				if (f.Rule == diagnosis.RuleCache) != tt.wantCache && f.Rule == diagnosis.RuleCache {
					t.Errorf("a cache finding on %s: %+v", tt.name, f)
				}
			}
			if tt.rule == diagnosis.RuleNetworkFS && (fs[0].Figures.QD != 1 || fs[0].Figures.LatNs != 2.3e6) {
				t.Errorf("figures %+v, want the QD 1 round trip", fs[0].Figures)
			}
		})
	}
}
