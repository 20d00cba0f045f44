package fioadapt_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestImportPoissonIsOpenLoop: fio's result of Poisson arrivals
// (rate_process=poisson at rate_iops, which fio's JSON keeps among the
// job options) is read as an open-loop step offered that load, per job
// times numjobs, and analysed as a load curve; the same job without
// rate_process is a closed loop.
func TestImportPoissonIsOpenLoop(t *testing.T) {
	needFio(t)
	dir := t.TempDir()
	run := func(extra ...string) *sweep.Result {
		args := append([]string{"--name=p", "--filename=" + filepath.Join(dir, "f"), "--size=4m", "--rw=randread", "--bs=4k",
			"--rate_iops=300", "--numjobs=2", "--runtime=1", "--time_based", "--iodepth=4", "--ioengine=libaio",
			"--output-format=json"}, extra...)
		out, err := exec.Command("fio", args...).Output()
		if err != nil {
			t.Fatalf("fio: %v", err)
		}
		outs, err := fio.ParseJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		r, err := fioadapt.ImportResult(outs)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	open := run("--rate_process=poisson")
	var offered []float64
	for _, s := range open.Steps {
		t.Logf("fio poisson: %d jobs, offered %.0f, achieved %.1f IOPS", s.NumJobs, s.OfferedIOPS, s.IOPS)
		offered = append(offered, s.OfferedIOPS)
	}
	total := 0.0
	for _, o := range offered {
		total += o
	}
	if total != 600 {
		t.Fatalf("imported poisson run offered %v IOPS, want 600 (300 a job × 2 jobs)", offered)
	}
	if err := open.Analyze(littleslaw.Options{}); err != nil {
		t.Fatal(err)
	}
	if a := open.Analysis[0].Analysis; a.Load == nil {
		t.Errorf("an imported poisson run has no load curve: %+v", a)
	}
	for _, s := range run().Steps {
		if s.OfferedIOPS != 0 {
			t.Errorf("fio's default rate process (linear) read as open loop: offered %.0f", s.OfferedIOPS)
		}
	}
}
