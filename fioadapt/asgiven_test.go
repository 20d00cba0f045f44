package fioadapt_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
)

// TestAsGiven: a job file written for fio carries each value as the user
// gave it where it means what the workload runs (bs=4k, not 4096;
// rwmixwrite=30, not rwmixread=70), and the rendered value where it does
// not (a sweep step at another bs, a size read under another kb_base).
// Whatever it writes, the job file read back through the same handlers
// renders exactly as the workload did.
func TestAsGiven(t *testing.T) {
	tests := []struct {
		args       string
		bs         int64         // the step's block size, when it differs from the given one
		runtime    time.Duration // the run's runtime, when it differs from the given one
		want, lost []string
	}{
		{args: "--rw=randrw --bs=4k --rwmixwrite=30 --size=1m", want: []string{"bs=4k", "rwmixwrite=30", "size=1m", "rw=randrw"}, lost: []string{"rwmixread="}},
		{args: "--readwrite=randread --blocksize=8k --iodepth=16 --numjobs=2", want: []string{"rw=randread", "bs=8k", "iodepth=16", "numjobs=2"}},
		{args: "--rw=read --bs=4k --size=1g --offset=1m", bs: 8192, want: []string{"bs=8192", "size=1g", "offset=1m"}},
		{args: "--kb_base=1000 --bs=4KiB --size=1MiB", want: []string{"bs=4096", "size=1048576"}},
		{args: "--rw=rw --buffered=0 --rwmixread=70 --rwmixwrite=40", want: []string{"buffered=0", "rwmixwrite=40"}},
		{args: "--rw=randread --bs=4k,8k --rate_iops=1000", want: []string{"bs=4k,8k", "rate_iops=1000"}},
		{args: "--rw=read --runtime=1m --ramp_time=5 --time_based=1", want: []string{"runtime=1m", "ramp_time=5", "time_based=1"}},
		{args: "--rw=read --runtime=2m --ramp_time=5", runtime: time.Minute, want: []string{"runtime=60", "ramp_time=5"}, lost: []string{"runtime=2m"}},
	}
	for _, tc := range tests {
		t.Run(tc.args, func(t *testing.T) {
			jf, _, err := fio.ParseArgs(append([]string{"--name=j", "--filename=f"}, strings.Fields(tc.args)...))
			if err != nil {
				t.Fatal(err)
			}
			runs, err := fioadapt.Runs(jf)
			if err != nil || len(runs) != 1 {
				t.Fatalf("%v (%d runs)", err, len(runs))
			}
			wl := runs[0].Workload
			if tc.bs > 0 {
				wl.BS = tc.bs
			}
			runtime, ramp := max(runs[0].Runtime, time.Second), runs[0].Ramp
			if tc.runtime > 0 {
				runtime = tc.runtime
			}
			opts, err := fioadapt.JobOptions(wl, runtime, ramp, "psync")
			if err != nil {
				t.Fatal(err)
			}
			got := fioadapt.AsGiven(opts, runs[0].Given)
			var lines []string
			var back []string
			for _, kv := range append(slices.Clone(got.Global), got.Job...) {
				lines = append(lines, kv[0]+"="+kv[1])
				back = append(back, "--"+kv[0]+"="+kv[1])
			}
			for _, w := range tc.want {
				if !slices.Contains(lines, w) {
					t.Errorf("no %s in %v", w, lines)
				}
			}
			for _, l := range tc.lost {
				if slices.ContainsFunc(lines, func(s string) bool { return strings.HasPrefix(s, l) }) {
					t.Errorf("%s… still in %v", l, lines)
				}
			}
			// Read back as fio would, it renders as the workload does.
			jf2, _, err := fio.ParseArgs(append([]string{"--name=j"}, back...))
			if err != nil {
				t.Fatal(err)
			}
			runs2, err := fioadapt.Runs(jf2)
			if err != nil || len(runs2) != 1 {
				t.Fatalf("read back %v: %v", back, err)
			}
			again, err := fioadapt.JobOptions(runs2[0].Workload, runtime, ramp, "psync")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again.Job, opts.Job) {
				t.Errorf("read back, the job renders\n%v\nnot\n%v", again.Job, opts.Job)
			}
		})
	}
}
