//go:build linux

package fioadapt_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
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
			fmt.Sprintf("--size: the region (offset 0 + 2097152 bytes) ends past the end of %s (1048576 bytes) and qdsweep never extends a file; use --size=1048576 or less, or a larger file", file)},
		{"io_uring", func(w *ioengine.Workload) { w.Offset = 1 << 20 },
			fmt.Sprintf("--size: %s has no bytes past --offset (1048576 bytes of 1048576); use a smaller --offset or --size=1g on a larger file", file)},
		{"sim", func(w *ioengine.Workload) { w.Size = 0 }, "--size: 0 bytes; use e.g. --size=1g"},
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
