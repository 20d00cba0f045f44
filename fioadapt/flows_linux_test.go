//go:build linux

package fioadapt_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// flowJobFile is a job file of two jobs sharing a flow, as fio's
// examples/flow.fio: one reads in order, the other at random, beside it.
const flowJobFile = `[global]
filename=%s
bs=4k
ioengine=%s
iodepth=%d
flow_sleep=%d
[seq]
rw=read
flow=%d
[rand]
rw=randread
flow=%d
`

// TestRunGroupsFlow runs two real jobs of one flow together on a file and
// checks that they issue I/Os in their weights' ratio, as fio's flow does
// (fio's examples/flow.fio: 1 beside 8), with and without flow_sleep.
func TestRunGroupsFlow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "flow.dat")
	if err := os.WriteFile(path, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		engine       string
		depth, sleep int
		w1, w2       int
	}{
		{ioengine.EnginePsync, 1, 0, 1, 8},
		{ioengine.EnginePsync, 1, 0, 3, 5},
		{ioengine.EngineLibaio, 8, 500, 1, 4},
	} {
		t.Run(fmt.Sprintf("%s_%d_%d_sleep%d", tc.engine, tc.w1, tc.w2, tc.sleep), func(t *testing.T) {
			jf, err := fio.ParseJobFile(strings.NewReader(fmt.Sprintf(flowJobFile, path, tc.engine, tc.depth, tc.sleep, tc.w1, tc.w2)))
			if err != nil {
				t.Fatal(err)
			}
			runs, err := fioadapt.Runs(jf)
			if err != nil {
				t.Fatal(err)
			}
			eng, _, err := ioengine.New(tc.engine)
			if err != nil {
				t.Fatal(err)
			}
			// Both jobs stop at one moment (the context's end), not each at
			// the end of a window of its own: a job's window runs from its
			// own start, and one let go late by a busy machine would end
			// late and run on alone, out of the flow its partner left (as a
			// job of fio's runs on once the other exits). The one that sees
			// the end last may still run alone for the moments before it
			// does (a few hundred cached reads beside two busy threads: 2 s
			// keeps them within the tolerance).
			var jobs []*fioadapt.Job
			for _, r := range runs {
				w := r.Workload
				w.Filename, w.Permit.Unchecked = path, true
				jobs = append(jobs, &fioadapt.Job{Engine: eng, Workload: w, Control: ioengine.Control{Runtime: time.Minute}})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if f := jobs[1].Workload.Flow; f.Weight != tc.w2 || f.Sleep != time.Duration(tc.sleep)*time.Microsecond {
				t.Fatalf("the job file's flow read as %+v", f)
			}
			if err := fioadapt.RunGroups(ctx, jobs); err != nil && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatal(err)
			}
			var n [2]int64
			for i, j := range jobs {
				if j.Err != nil && !errors.Is(j.Err, context.DeadlineExceeded) || j.Stats == nil {
					t.Fatalf("job %d: %v", i, j.Err)
				}
				n[i] = j.Stats.All.TotalIOs
			}
			// Both run the same window, so their counts keep the ratio up
			// to the few I/Os one ends before the other.
			got, want := float64(n[1])/float64(max(n[0], 1)), float64(tc.w2)/float64(tc.w1)
			if n[0] < 50 || got < want*0.85 || got > want*1.15 {
				t.Errorf("flow %d beside %d: %d and %d I/Os, ratio %.3f; want %.3f within 15%%", tc.w1, tc.w2, n[0], n[1], got, want)
			}
			t.Logf("flow %d beside %d: %d and %d I/Os, ratio %.3f (weights' %.3f)", tc.w1, tc.w2, n[0], n[1], got, want)
		})
	}
}

// TestFlowOptions reads fio's flow family as fio 3.33 takes it: a weight
// up to 1000 (a negative one too), flow_id and flow_sleep in µs; beyond
// 1000 is refused, naming the option.
func TestFlowOptions(t *testing.T) {
	jf, err := fio.ParseJobFile(strings.NewReader("[a]\nflow=-8\nflow_id=3\nflow_sleep=250\n"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := fioadapt.Runs(jf)
	if err != nil {
		t.Fatal(err)
	}
	if f := runs[0].Workload.Flow; f.Weight != -8 || f.ID != 3 || f.Sleep != 250*time.Microsecond {
		t.Errorf("flow=-8 flow_id=3 flow_sleep=250 read as %+v", f)
	}
	jf, err = fio.ParseJobFile(strings.NewReader("[a]\nflow=1001\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fioadapt.Runs(jf); err == nil || !strings.Contains(err.Error(), "flow") || !strings.Contains(err.Error(), "1000") {
		t.Errorf("flow=1001: %v; want a refusal naming flow and its 1000", err)
	}
}
