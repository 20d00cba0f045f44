//go:build linux

package ioengine_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/ioengine"
)

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := ioengine.Workload{Filename: file, RW: ioengine.RandRead, BS: 4096, IODepth: 32, NumJobs: 1, Direct: true, RWMixRead: 50}
	cases := []struct {
		name   string
		engine string
		edit   func(*ioengine.Workload)
		// want is the Setting the refusal names first, a Use its fix
		// names, or words of its line (nil: valid).
		want any
	}{
		{"valid", "io_uring", func(*ioengine.Workload) {}, nil},
		{"valid psync", "psync", func(w *ioengine.Workload) { w.IODepth = 1; w.NumJobs = 8 }, nil},
		{"new file in existing dir", "libaio", func(w *ioengine.Workload) { w.Filename = filepath.Join(dir, "new"); w.Size = 1 << 20 }, nil},
		{"whole file", "io_uring", func(w *ioengine.Workload) { w.Size = 0 }, nil},
		{"unaligned bs with direct", "io_uring", func(w *ioengine.Workload) { w.BS = 1000 }, ioengine.SetBS},
		{"unaligned bs buffered", "io_uring", func(w *ioengine.Workload) { w.BS = 1000; w.Direct = false }, nil},
		{"bs over size", "io_uring", func(w *ioengine.Workload) { w.BS = 1 << 20; w.Size = 4096 }, ioengine.SetBS},
		{"size past end", "io_uring", func(w *ioengine.Workload) { w.Size = 2 << 20 }, ioengine.SetSize},
		{"size 0 new file", "io_uring", func(w *ioengine.Workload) { w.Filename = filepath.Join(dir, "new"); w.Size = 0 }, ioengine.SetSize},
		{"unknown rw", "io_uring", func(w *ioengine.Workload) { w.RW = "randomread" }, ioengine.SetRW},
		{"unknown engine", "spdk", func(*ioengine.Workload) {}, ioengine.SetEngine},
		{"flow on sim", ioengine.EngineSim, func(w *ioengine.Workload) { w.Flow = ioengine.Flow{Weight: 8} }, ioengine.SetFlow},
		{"iodepth 0", "io_uring", func(w *ioengine.Workload) { w.IODepth = 0 }, ioengine.SetIODepth},
		{"iodepth huge", "io_uring", func(w *ioengine.Workload) { w.IODepth = 65537 }, ioengine.SetIODepth},
		{"numjobs 0", "io_uring", func(w *ioengine.Workload) { w.NumJobs = 0 }, ioengine.SetNumJobs},
		{"numjobs huge", "io_uring", func(w *ioengine.Workload) { w.NumJobs = 4097 }, ioengine.SetNumJobs},
		{"psync depth", "psync", func(*ioengine.Workload) {}, ioengine.Use{Setting: ioengine.SetNumJobs, Value: "32"}},
		{"rwmixread", "io_uring", func(w *ioengine.Workload) { w.RWMixRead = 101 }, ioengine.SetRWMixRead},
		{"missing dir", "io_uring", func(w *ioengine.Workload) { w.Filename = filepath.Join(dir, "nope", "f") }, "does not exist"},
		{"no filename", "io_uring", func(w *ioengine.Workload) { w.Filename = "" }, ioengine.SetFilename},
		{"directory", "io_uring", func(w *ioengine.Workload) { w.Filename = dir }, ioengine.SetFilename},
		{"unaligned offset", "io_uring", func(w *ioengine.Workload) { w.Offset = 100; w.Size = 4096 }, ioengine.SetOffset},
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		if err := os.WriteFile(ro, make([]byte, 8192), 0o400); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name   string
			engine string
			edit   func(*ioengine.Workload)
			want   any
		}{"no permission", "io_uring", func(w *ioengine.Workload) { w.Filename = ro; w.RW = ioengine.RandWrite }, "permission denied"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ok
			c.edit(&w)
			err := ioengine.Validate(w, c.engine)
			if c.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.Is(err, ioengine.ErrBadWorkload) {
				t.Fatalf("err %v, want ErrBadWorkload", err)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || strings.Contains(msg, "--") {
				t.Fatalf("message %q should be one line in Workload's terms", msg)
			}
			checkRefusal(t, err, c.want)
		})
	}
}

func TestLogicalBlockSize(t *testing.T) {
	n, err := ioengine.LogicalBlockSize(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if n < 512 || n&(n-1) != 0 {
		t.Fatalf("logical block size %d, want a power of two ≥ 512", n)
	}
	if _, err := ioengine.LogicalBlockSize("/nonexistent-dir/x/y"); err == nil {
		t.Fatal("want an error for a path in a missing directory")
	}
}

// checkRefusal fails unless err is a refusal naming want: the Setting it
// refuses (named first), a Use its fix names, or words of its line.
func checkRefusal(t *testing.T, err error, want any) {
	t.Helper()
	var se *ioengine.SettingError
	switch w := want.(type) {
	case ioengine.Setting:
		if !errors.As(err, &se) || se.Settings()[0] != w {
			t.Fatalf("err %v, want a refusal of %v", err, w)
		}
	case ioengine.Use:
		if !errors.As(err, &se) || !slices.Contains(se.Uses(), w) {
			t.Fatalf("err %v, want a fix naming %v=%s", err, w.Setting, w.Value)
		}
	case string:
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("err %v, want it to say %q", err, w)
		}
	default:
		t.Fatalf("checkRefusal: want %T", want)
	}
}
