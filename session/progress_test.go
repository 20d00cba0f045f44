package session

import (
	"os"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/sweep"
)

func TestProgressLines(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := NewProgress(f, false)
	r := &sweep.Result{Plan: sweep.Plan{RW: []string{"randread"}, BS: []int64{4096}, IODepth: []int{1, 2, 4, 8}, NumJobs: []int{1}}}
	measured := sweep.Step{RW: "randread", BS: 4096, IODepth: 1, NumJobs: 1, QD: 1, IOPS: 24600, Steady: true, RuntimeNs: int64(2 * time.Second)}
	measured.Lat.MeanNs = 1.3e6
	r.Steps = append(r.Steps, measured)
	p.Live(sweep.Live{Index: 1, Total: 4}) // not a terminal: prints nothing
	p.Step(r, measured)
	for qd := 2; qd <= 8; qd *= 2 {
		r.Steps = append(r.Steps, sweep.Step{RW: "randread", BS: 4096, IODepth: qd, NumJobs: 1, QD: qd, Skipped: "early stop"})
	}
	p.Step(r, r.Steps[len(r.Steps)-1])
	p.Note("done")
	b, _ := os.ReadFile(f.Name())
	want := "randread 4k:\n" +
		"step 1/4  QD 1 (1×1)  24.6k IOPS  1.3 ms mean  ran 2.0 s, steady\n" +
		"steps 2–4/4  QD 2–8  skipped: early stop\n" +
		"done\n"
	if string(b) != want {
		t.Errorf("progress wrote\n%q\nwant\n%q", b, want)
	}
	quiet := NewProgress(f, true)
	quiet.Step(r, measured)
	quiet.Note("hidden")
	if b2, _ := os.ReadFile(f.Name()); len(b2) != len(b) {
		t.Error("quiet progress printed")
	}
}
