//go:build linux

package ioengine_test

import (
	"errors"
	"os"
	"path/filepath"
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
		flag   string // "" = valid
	}{
		{"valid", "io_uring", func(*ioengine.Workload) {}, ""},
		{"valid psync", "psync", func(w *ioengine.Workload) { w.IODepth = 1; w.NumJobs = 8 }, ""},
		{"new file in existing dir", "libaio", func(w *ioengine.Workload) { w.Filename = filepath.Join(dir, "new"); w.Size = 1 << 20 }, ""},
		{"whole file", "io_uring", func(w *ioengine.Workload) { w.Size = 0 }, ""},
		{"unaligned bs with direct", "io_uring", func(w *ioengine.Workload) { w.BS = 1000 }, "--bs"},
		{"unaligned bs buffered", "io_uring", func(w *ioengine.Workload) { w.BS = 1000; w.Direct = false }, ""},
		{"bs over size", "io_uring", func(w *ioengine.Workload) { w.BS = 1 << 20; w.Size = 4096 }, "--bs"},
		{"size past end", "io_uring", func(w *ioengine.Workload) { w.Size = 2 << 20 }, "--size"},
		{"size 0 new file", "io_uring", func(w *ioengine.Workload) { w.Filename = filepath.Join(dir, "new"); w.Size = 0 }, "--size"},
		{"unknown rw", "io_uring", func(w *ioengine.Workload) { w.RW = "randomread" }, "--rw"},
		{"unknown engine", "spdk", func(*ioengine.Workload) {}, "--ioengine"},
		{"iodepth 0", "io_uring", func(w *ioengine.Workload) { w.IODepth = 0 }, "--iodepth"},
		{"iodepth huge", "io_uring", func(w *ioengine.Workload) { w.IODepth = 65537 }, "--iodepth"},
		{"numjobs 0", "io_uring", func(w *ioengine.Workload) { w.NumJobs = 0 }, "--numjobs"},
		{"numjobs huge", "io_uring", func(w *ioengine.Workload) { w.NumJobs = 4097 }, "--numjobs"},
		{"psync depth", "psync", func(*ioengine.Workload) {}, "--numjobs=32"},
		{"rwmixread", "io_uring", func(w *ioengine.Workload) { w.RWMixRead = 101 }, "--rwmixread"},
		{"missing dir", "io_uring", func(w *ioengine.Workload) { w.Filename = filepath.Join(dir, "nope", "f") }, "does not exist"},
		{"no filename", "io_uring", func(w *ioengine.Workload) { w.Filename = "" }, "--filename"},
		{"directory", "io_uring", func(w *ioengine.Workload) { w.Filename = dir }, "--filename"},
		{"unaligned offset", "io_uring", func(w *ioengine.Workload) { w.Offset = 100; w.Size = 4096 }, "--offset"},
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
			flag   string
		}{"no permission", "io_uring", func(w *ioengine.Workload) { w.Filename = ro; w.RW = ioengine.RandWrite }, "permission denied"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := ok
			c.edit(&w)
			err := ioengine.Validate(w, c.engine)
			if c.flag == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.Is(err, ioengine.ErrBadWorkload) {
				t.Fatalf("err %v, want ErrBadWorkload", err)
			}
			if msg := err.Error(); !strings.Contains(msg, c.flag) || strings.Contains(msg, "\n") {
				t.Fatalf("message %q should name %q on one line", msg, c.flag)
			}
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
