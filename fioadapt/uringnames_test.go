package fioadapt_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestUringSettingsAreRows: every io_uring setting of the engine is named
// by exactly one row of fio's table (fio.UringOptions) and every row names
// one: a CPU row the pinned CPU, the others a 0/1 setting.
func TestUringSettingsAreRows(t *testing.T) {
	seen := map[ioengine.UringSetting]string{}
	for _, s := range ioengine.UringSettings() {
		k := fioadapt.UringKey(s)
		if k == "" {
			t.Errorf("setting %v: no row of fio.UringOptions names it", s)
			continue
		}
		seen[s] = k
	}
	if len(fio.UringOptions) != len(ioengine.UringSettings()) {
		t.Errorf("%d rows, %d settings", len(fio.UringOptions), len(ioengine.UringSettings()))
	}
	for i, row := range fio.UringOptions {
		s := ioengine.UringSettings()[i]
		if seen[s] != row.Name {
			t.Errorf("row %d %s: names setting %v's place, which is %q (the orders differ)", i, row.Name, s, seen[s])
		}
		if row.CPU != (s == ioengine.UringSQThreadCPU) {
			t.Errorf("row %s: CPU %v, setting %v", row.Name, row.CPU, s)
		}
	}
}

// TestUringText: the options' text form (a sweep's results keep it) is
// fio's name=value pairs, reads back to the same options, and anything
// else is refused naming the option.
func TestUringText(t *testing.T) {
	for _, c := range []struct {
		o    ioengine.UringOptions
		want string
	}{
		{ioengine.UringOptions{}, ""},
		{ioengine.UringOptions{FixedBufs: ioengine.Off}, fio.OptFixedBufs + "=0"},
		{ioengine.UringOptions{FixedBufs: ioengine.On, NonVectored: ioengine.Off}, fio.OptFixedBufs + "=1 " + fio.OptNonVectored + "=0"},
		{ioengine.UringOptions{SQThreadPoll: true}, fio.OptSqthreadPoll + "=1"},
		{ioengine.UringOptions{RegisterFiles: true, SQThreadPoll: true, SQThreadPin: true, SQThreadCPU: 3, HiPri: true, NonVectored: ioengine.On},
			"registerfiles=1 sqthread_poll=1 sqthread_poll_cpu=3 hipri=1 nonvectored=1"},
	} {
		text := fioadapt.UringText(c.o)
		got, err := fioadapt.ParseUringText(text)
		if text != c.want || err != nil || got != c.o {
			t.Errorf("%+v: %q read back as %+v, %v; want %q", c.o, text, got, err, c.want)
		}
	}
	for s, want := range map[string]string{"fixedbufs=2": "fixedbufs=2: use 0 or 1", "sqpoll=1": `"sqpoll" is not one of fio's io_uring options`,
		"hipri": "not name=0 or name=1", "registerfiles=-1": "registerfiles=-1: use 0 or 1",
		"sqthread_poll_cpu=-1": "sqthread_poll_cpu=-1: a CPU is numbered from 0; use e.g. sqthread_poll_cpu=1"} {
		if _, err := fioadapt.ParseUringText(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %q", s, err, want)
		}
	}
}

// TestErrorLine: an io_uring setting the engine refuses is printed as one
// line naming the flag, by the table's name, and its fix, wherever the
// error is wrapped; every fix has its line.
func TestErrorLine(t *testing.T) {
	cause := errors.New("cannot allocate memory")
	tested := map[ioengine.UringFix]bool{}
	for _, c := range []struct {
		e    ioengine.UringError
		want string
	}{
		{ioengine.UringError{Setting: ioengine.UringRegisterFiles, Fix: ioengine.UringFixDrop, Err: cause, Cause: "IORING_REGISTER_FILES: cannot allocate memory (RLIMIT_NOFILE?)"},
			"job 0: --registerfiles: IORING_REGISTER_FILES: cannot allocate memory (RLIMIT_NOFILE?); drop --registerfiles"},
		{ioengine.UringError{Setting: ioengine.UringFixedBufs, Fix: ioengine.UringFixDepth, N: 16384, Cause: "iodepth 20000 is above the kernel's 16384 registered buffers"},
			"job 0: --fixedbufs: iodepth 20000 is above the kernel's 16384 registered buffers; use --iodepth=16384 or drop --fixedbufs"},
		{ioengine.UringError{Setting: ioengine.UringFixedBufs, Fix: ioengine.UringFixLimit, Cause: "IORING_REGISTER_BUFFERS: x (RLIMIT_MEMLOCK?)"},
			"job 0: --fixedbufs: IORING_REGISTER_BUFFERS: x (RLIMIT_MEMLOCK?); raise the limit or drop --fixedbufs"},
		{ioengine.UringError{Setting: ioengine.UringHiPri, Fix: ioengine.UringFixDirect, Cause: "polled completions need O_DIRECT"},
			"job 0: --hipri: polled completions need O_DIRECT; add --direct=1 or drop --hipri"},
		{ioengine.UringError{Setting: ioengine.UringRegisterFiles, Fix: ioengine.UringFixEngine, Engine: "libaio"},
			"job 0: --registerfiles is an option of the io_uring engine, and this run's engine is libaio; use --ioengine=io_uring where io_uring is available, or drop --registerfiles"},
		{ioengine.UringError{Setting: ioengine.UringSQThreadCPU, Fix: ioengine.UringFixCPU, N: 0, Cause: "CPU 4096 is not among the CPUs this process may run on"},
			"job 0: --sqthread_poll_cpu: CPU 4096 is not among the CPUs this process may run on; name one of them, e.g. --sqthread_poll_cpu=0"},
		{ioengine.UringError{Setting: ioengine.UringSQThreadCPU, Value: 7, ShowValue: true, Fix: ioengine.UringFixOtherCPU, Cause: "invalid argument (not an online CPU this process may use)"},
			"job 0: --sqthread_poll_cpu=7: invalid argument (not an online CPU this process may use); name another CPU"},
		{ioengine.UringError{Setting: ioengine.UringNonVectored, Value: 2, ShowValue: true, Fix: ioengine.UringFixBool}, "job 0: --nonvectored=2: use 0 or 1"},
		{ioengine.UringError{Setting: ioengine.UringSQThreadCPU, Value: -1, ShowValue: true, Fix: ioengine.UringFixCPUFromZero},
			"job 0: --sqthread_poll_cpu=-1: a CPU is numbered from 0; use e.g. --sqthread_poll_cpu=1"},
		{ioengine.UringError{Setting: ioengine.UringHiPri, Fix: ioengine.UringFixNone, Cause: "io_uring_setup: invalid argument", Also: []ioengine.UringSetting{ioengine.UringHiPri, ioengine.UringSQThreadPoll}},
			"job 0: io_uring_setup: invalid argument (with --hipri --sqthread_poll)"},
	} {
		tested[c.e.Fix] = true
		e := c.e
		err := fmt.Errorf("job 0: %w", &e)
		if got := fioadapt.ErrorLine(err); got != c.want {
			t.Errorf("fix %d:\n got %s\nwant %s", e.Fix, got, c.want)
		}
		if errors.Is(err, ioengine.ErrBadWorkload) != e.Refused {
			t.Errorf("fix %d: matches ErrBadWorkload %v, refused %v", e.Fix, !e.Refused, e.Refused)
		}
	}
	for _, f := range ioengine.UringFixes() {
		if !tested[f] {
			t.Errorf("fix %d: no line tested", f)
		}
	}
	plain := errors.New("--bs: 0 bytes")
	if got := fioadapt.ErrorLine(plain); got != plain.Error() {
		t.Errorf("an error without an io_uring setting printed as %q", got)
	}
}
