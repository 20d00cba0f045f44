//go:build linux

package fioadapt_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestSettingsAreRows: every setting the engine's errors name is a row
// of fio's table.
func TestSettingsAreRows(t *testing.T) {
	seen := map[fio.OptionKey]ioengine.Setting{}
	for _, s := range ioengine.Settings() {
		k := fioadapt.SettingKey(s)
		if _, ok := fio.OptionRow(k); !ok {
			t.Errorf("setting %v: named %q, which is no row of fio's table", s, k)
		}
		if o, dup := seen[k]; dup {
			t.Errorf("settings %v and %v are both %q", o, s, k)
		}
		seen[k] = s
	}
}

// TestErrorLineNamesSettings: the engine's refusals of real workloads on
// a real file, printed by ErrorLine wherever they are wrapped, name each
// setting by its flag, word for word what the command line printed when
// the engine spelled the flags itself; the error alone names none.
func TestErrorLineNamesSettings(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := ioengine.Workload{Filename: file, RW: ioengine.RandRead, BS: 4096, IODepth: 32, NumJobs: 1, RWMixRead: 50}
	for _, c := range []struct {
		engine string
		edit   func(*ioengine.Workload)
		want   string
	}{
		{"io_uring", func(w *ioengine.Workload) { w.IODepth = 0 }, "--iodepth: 0 is out of range; use 1..65536, e.g. --iodepth=32"},
		{"io_uring", func(w *ioengine.Workload) { w.IODepth, w.NumJobs = 40000, 2 },
			"--iodepth: 40000 is over io_uring's 32768 entries per ring (the kernel refuses larger rings); use --iodepth=32768 --numjobs=3, or --ioengine=libaio"},
		{"psync", func(w *ioengine.Workload) { w.IODepth, w.NumJobs = 4, 2 },
			"--iodepth: psync does one I/O at a time per job (iodepth 4); use --numjobs=8 for concurrency or --ioengine=io_uring"},
		{"libaio", func(w *ioengine.Workload) { w.SyncEvery = 1 },
			"--fsync/--fdatasync: qdsweep syncs with --ioengine=psync (or sync) only, one sync after every N writes of a job; use --ioengine=psync"},
		{"io_uring", func(w *ioengine.Workload) { w.Size = 2 << 20 },
			fmt.Sprintf("--size: the region (offset 0 + 2097152 bytes) ends past the end of %s (1048576 bytes) and qdsweep never extends a file (fio 3.33 lays such a file out again, its data lost, even to read it); use --size=1048576 or less, or a larger file", file)},
		{"io_uring", func(w *ioengine.Workload) { w.Offset = 1 << 20 },
			fmt.Sprintf("--size: %s has no bytes past --offset (1048576 bytes of 1048576); use a smaller --offset or --size=1g on a larger file", file)},
		{"sim", func(w *ioengine.Workload) { w.Size = 0 }, "--size: 0 bytes; use e.g. --size=1g"},
		{"io_uring", func(w *ioengine.Workload) {
			w.RW, w.FioVerify = ioengine.Write, ioengine.FioVerify{Kind: ioengine.VerifyPattern}
		},
			"--verify=pattern: needs --verify_pattern (e.g. --verify_pattern=0xdeadbeef)"},
		{"io_uring", func(w *ioengine.Workload) {
			w.RW, w.FioVerify = ioengine.Write, ioengine.FioVerify{Kind: ioengine.VerifyCRC32C, Interval: 3000}
		}, "--verify_interval: 3000 bytes must divide the smallest block size (4096 bytes); use e.g. --verify_interval=4096"},
		{"sim", func(w *ioengine.Workload) { w.Size = 4096; w.BS = 8192 }, "--bs: 8192 bytes is larger than --size (4096 bytes); use a smaller --bs or a larger --size"},
	} {
		w := ok
		c.edit(&w)
		err := ioengine.Validate(w, c.engine)
		if !errors.Is(err, ioengine.ErrBadWorkload) {
			t.Errorf("%s: %v, want a refusal", c.want, err)
			continue
		}
		wrapped := fmt.Errorf("step 1: %w", err)
		if got := fioadapt.ErrorLine(wrapped); got != "step 1: "+c.want {
			t.Errorf("\n got %s\nwant step 1: %s", got, c.want)
		}
		joined := errors.Join(errors.New("first"), wrapped)
		if got := fioadapt.ErrorLine(joined); got != "first\nstep 1: "+c.want {
			t.Errorf("joined:\n got %s\nwant first\nstep 1: %s", got, c.want)
		}
		var se *ioengine.SettingError
		if !errors.As(err, &se) || se.Error() == c.want {
			t.Errorf("%s: the error alone says %q", c.want, err)
		}
	}
}

// TestErrorLineEngineErrors: the engine's other errors that name a
// setting print as they did when the engine spelled fio's names: an
// unknown engine, a rate floor missed (fio's own words, rate_iops_min=…),
// a failed I/O's hint and a run without a runtime.
func TestErrorLineEngineErrors(t *testing.T) {
	_, _, unknown := ioengine.New("spdk")
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	psync, _, err := ioengine.New(ioengine.EnginePsync)
	if err != nil {
		t.Fatal(err)
	}
	_, runErr := psync.Run(t.Context(), ioengine.Workload{Filename: file, RW: ioengine.RandRead, BS: 4096, IODepth: 1, NumJobs: 1}, ioengine.Control{})
	cases := []struct {
		err  error
		want string
	}{
		{unknown, `--ioengine: unknown engine "spdk"; use io_uring, libaio or psync`},
		{fmt.Errorf("a: %w", &ioengine.FloorError{Floor: 100, Got: 42}), "a: rate_iops_min=100 not met, got 42 IOPS"},
		{&ioengine.FloorError{Bytes: true, Floor: 1 << 20, Got: 4096}, "rate_min=1048576B/s not met, got 4096B/s"},
		{fmt.Errorf("job 1: %w", &ioengine.IOFailure{Op: "read", Offset: 4096, Errno: "EIO", Count: 1, Err: errors.New("input/output error")}),
			"job 1: read at offset 4096: input/output error (EIO); 1 error(s) of this kind (--continue_on_error to count instead of stopping)"},
		{&ioengine.IOFailure{Op: "write", Errno: "short", Got: 512, Want: 4096, Count: 2},
			"write at offset 0: short transfer (512 of 4096 bytes); 2 so far (--continue_on_error to count instead of stopping)"},
		{runErr, "--runtime: must be positive; use e.g. --runtime=30 (seconds) or 10s"},
	}
	if sys, ok := sysfsFile(); ok { // a filesystem that refuses O_DIRECT: the guard's fix, named
		w := ioengine.Workload{Filename: sys, RW: ioengine.Read, BS: 4096, Size: 4096, IODepth: 1, NumJobs: 1, Direct: true}
		want := fmt.Sprintf("open %s with O_DIRECT: open %s: invalid argument: the filesystem refuses direct I/O; use --direct=0", sys, sys)
		_, err := psync.Run(t.Context(), w, ioengine.Control{Runtime: time.Second})
		_, held := guard.Hold(w.GuardTarget(sys, false, 0), w.Permit) // the guard's own error, as the fio engine's hold returns it
		cases = append(cases, struct {
			err  error
			want string
		}{err, want}, struct {
			err  error
			want string
		}{fmt.Errorf("job j: %w", held), "job j: " + want})
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.want)
			continue
		}
		if got := fioadapt.ErrorLine(c.err); got != c.want {
			t.Errorf("\n got %s\nwant %s", got, c.want)
		}
		if c.err.Error() == c.want {
			t.Errorf("%s: the error alone names fio's option", c.want)
		}
	}
}

// sysfsFile is a sysfs attribute of 4096 bytes, readable, that O_DIRECT
// cannot open (sysfs has no direct I/O).
func sysfsFile() (string, bool) {
	for _, f := range []string{"/sys/kernel/mm/transparent_hugepage/enabled", "/sys/kernel/profiling", "/sys/power/state"} {
		if fi, err := os.Stat(f); err == nil && fi.Size() == 4096 {
			if r, err := os.Open(f); err == nil {
				r.Close()
				return f, true
			}
		}
	}
	return "", false
}
