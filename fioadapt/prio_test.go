package fioadapt

import (
	"reflect"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestPrioOptions reads fio's priority options as fio 3.33 does: the
// cmdprio examples' jobs, the defaults (class real-time for per-command
// priorities, best-effort for a job's prio without a class), one value
// for both directions, and a split's 0% entries dropped and its percents
// and classes capped.
func TestPrioOptions(t *testing.T) {
	rt, idle := ioengine.PrioValue(1, 0), ioengine.PrioValue(3, 0)
	for _, tt := range []struct {
		name, in string
		want     ioengine.IOPrio
	}{
		{"cmdprio-percentage", "ioengine=libaio\nrw=randread\nprioclass=3\ncmdprio_percentage=20\ncmdprio_class=1\n",
			ioengine.IOPrio{Job: idle, JobSet: true, Cmd: [2]ioengine.CmdPrio{{Percent: 20, Value: rt}, {Percent: 20, Value: rt}}}},
		{"per direction", "ioengine=io_uring\nrw=randrw\ncmdprio_percentage=10,30\ncmdprio_class=2,3\ncmdprio=4\n",
			ioengine.IOPrio{Cmd: [2]ioengine.CmdPrio{{Percent: 10, Value: ioengine.PrioValue(2, 4)}, {Percent: 30, Value: ioengine.PrioValue(3, 4)}}}},
		{"prio alone", "prio=7\n", ioengine.IOPrio{Job: ioengine.PrioValue(2, 7), JobSet: true}},
		{"simple split", "ioengine=libaio\nrw=randrw\nbssplit=64k/40:1024k/60,1024k/100\ncmdprio_bssplit=64k/100:1024k/0,1024k/0\ncmdprio_class=1\ncmdprio=0\n",
			ioengine.IOPrio{Cmd: [2]ioengine.CmdPrio{{Split: []ioengine.PrioShare{{BS: 64 << 10, Percent: 100, Value: rt}}}}}},
		{"advanced split", "ioengine=libaio\nrw=randrw\nprioclass=2\nprio=7\nbssplit=64k/40:1024k/60,1024k/100\ncmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0\n",
			ioengine.IOPrio{Job: ioengine.PrioValue(2, 7), JobSet: true, Cmd: [2]ioengine.CmdPrio{{Split: []ioengine.PrioShare{
				{BS: 64 << 10, Percent: 25, Value: ioengine.PrioValue(1, 1)}, {BS: 64 << 10, Percent: 75, Value: ioengine.PrioValue(3, 2)}}}}}},
		{"capped", "ioengine=io_uring\nrw=read\ncmdprio_bssplit=4k/150/9/9\n",
			ioengine.IOPrio{Cmd: [2]ioengine.CmdPrio{{Split: []ioengine.PrioShare{{BS: 4096, Percent: 100, Value: ioengine.PrioValue(3, 7)}}},
				{Split: []ioengine.PrioShare{{BS: 4096, Percent: 100, Value: ioengine.PrioValue(3, 7)}}}}}},
	} {
		jf, err := fio.ParseJobFile(strings.NewReader("[j]\n" + tt.in))
		if err != nil {
			t.Fatal(err)
		}
		runs, err := Runs(jf)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := runs[0].Workload.Prio; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
		// Written back for fio, the job reads the same.
		var opts []string
		for _, kv := range rendered(runs[0].Workload) {
			opts = append(opts, kv[0]+"="+kv[1])
		}
		again, err := fio.ParseJobFile(strings.NewReader("[j]\n" + strings.Join(opts, "\n") + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		if r2, err := Runs(again); err != nil || !reflect.DeepEqual(r2[0].Workload.Prio, tt.want) {
			t.Errorf("%s: rendered as %q, reads back as %+v (%v)", tt.name, opts, r2, err)
		}
	}
}

// TestPrioOptionsRefused: what fio refuses of the priority options, in
// one line naming the option.
func TestPrioOptionsRefused(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ioengine=psync\ncmdprio_percentage=20\n", "cmdprio_percentage=20"},
		{"ioengine=libaio\ncmdprio_percentage=20\ncmdprio_bssplit=4k/10\n", "mutually exclusive"},
		{"ioengine=libaio\ncmdprio_bssplit=4k/60/1/0:4k/50\n", "over 100%"},
		{"ioengine=libaio\ncmdprio_bssplit=4k/60/1\n", "bs/percent/class/level"},
		{"ioengine=libaio\ncmdprio_class=0\ncmdprio_percentage=1\n", "cmdprio_class"},
		{"prio=8\n", "prio"},
		{"prioclass=4\n", "prioclass"},
	} {
		jf, err := fio.ParseJobFile(strings.NewReader("[j]\n" + tt.in))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Runs(jf)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line naming %q", tt.in, err, tt.want)
		}
	}
}
