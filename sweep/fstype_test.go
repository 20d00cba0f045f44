package sweep_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// The device probe reads the target's mount from the mount table (a
// fixture procfs here: a gcsfuse mount over the test's directory), and a
// result on it is diagnosed as a FUSE filesystem whose latency is a round
// trip, never as a cache.
func TestProbeFSTypeAndDiagnosis(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proc := t.TempDir()
	if err := os.MkdirAll(filepath.Join(proc, "77"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("77", filepath.Join(proc, "self")); err != nil {
		t.Fatal(err)
	}
	mi := fmt.Sprintf("21 1 999:1 / / rw - ext4 /dev/vda1 rw\n40 21 0:901 / %s rw - fuse.gcsfuse training-data rw,user_id=0\n", base)
	if err := os.WriteFile(filepath.Join(proc, "77", "mountinfo"), []byte(mi), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _, err := sweep.NewDeviceProbe(filepath.Join(base, "shard-0001"), sweep.WithRoots(proc, ""))
	if err != nil {
		t.Fatal(err)
	}
	if fs := p.FS(); fs.Type != "fuse.gcsfuse" || fs.Class != "fuse" || fs.Source != "training-data" {
		t.Fatalf("probe FS %+v, want fuse.gcsfuse", fs)
	}
	r := sweep.NewResult(sweep.Meta{Engine: "io_uring", FSType: p.FS().Type, FSClass: string(p.FS().Class),
		DeviceOff: "shard-0001 is on fuse: no block device", Workload: sweep.Workload{Direct: true}},
		plan([]int{1, 4, 16, 64}, true))
	for _, s := range []struct {
		qd   int
		iops float64
		lat  float64
	}{{1, 430, 2.3e6}, {4, 1700, 2.35e6}, {16, 3900, 4.1e6}, {64, 4000, 16e6}} {
		st := sweep.Step{RW: "randread", BS: 4096, IODepth: s.qd, NumJobs: 1, QD: s.qd, IOPS: s.iops, BWBytes: s.iops * 4096, InflightMean: float64(s.qd)}
		st.Lat.MeanNs = s.lat
		r.Steps = append(r.Steps, st)
	}
	if err := r.Analyze(littleslaw.Options{}); err != nil {
		t.Fatal(err)
	}
	if len(r.Diagnosis) == 0 || r.Diagnosis[0].Rule != diagnosis.RuleNetworkFS {
		t.Fatalf("diagnosis %+v, want network-filesystem first", r.Diagnosis)
	}
	for _, f := range r.Diagnosis {
		if f.Rule == diagnosis.RuleCache {
			t.Errorf("cache finding on a FUSE filesystem: %+v", f)
		}
	}
	if s := report.FindingSummary(r.Diagnosis[0]); !containsAll(s, "FUSE filesystem (fuse.gcsfuse)", "2.3 ms at QD 1", "round trip") {
		t.Errorf("summary %q", s)
	}
}

func containsAll(s string, words ...string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}
