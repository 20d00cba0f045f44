//go:build linux

package ioengine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// writeTree writes files (path → content) under a new temp root.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestThreadLimitsFromFixtures(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string
		wantLimit string
		wantRoom  int64
	}{
		{"cgroup v2 pids.max", map[string]string{
			"proc/self/cgroup":                         "0::/kubepods/pod1\n",
			"sys/fs/cgroup/kubepods/pod1/pids.max":     "100\n",
			"sys/fs/cgroup/kubepods/pod1/pids.current": "40\n",
			"proc/sys/kernel/threads-max":              "192730\n",
			"proc/loadavg":                             "1.00 0.50 0.25 3/400 999\n",
		}, LimitPidsMax, 60},
		{"cgroup v1 pids, unlimited: threads-max decides", map[string]string{
			"proc/self/cgroup":                           "9:name=systemd:/\n8:pids:/docker/abc\n0::/\n",
			"sys/fs/cgroup/pids/docker/abc/pids.max":     "max\n",
			"sys/fs/cgroup/pids/docker/abc/pids.current": "12\n",
			"proc/sys/kernel/threads-max":                "1000\n",
			"proc/loadavg":                               "1.00 0.50 0.25 3/900 999\n",
		}, LimitThreadsMax, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			r := limitRoots{proc: filepath.Join(root, "proc"), sys: filepath.Join(root, "sys")}
			room, limit, _, ok := r.threadHeadroom()
			if !ok || limit != tt.wantLimit || room != tt.wantRoom {
				t.Errorf("headroom %d, limit %q, ok %v; want %d, %q", room, limit, ok, tt.wantRoom, tt.wantLimit)
			}
		})
	}
}

func TestParseStatusUidThreads(t *testing.T) {
	st := "Name:\tqdsweep\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\nThreads:\t37\n"
	uid, n := parseStatusUidThreads(strings.NewReader(st))
	if uid != 1000 || n != 37 {
		t.Errorf("uid %d threads %d, want 1000 and 37", uid, n)
	}
	if uid, n := parseStatusUidThreads(strings.NewReader("Name:\tx\n")); uid != -1 || n != 0 {
		t.Errorf("empty status: uid %d threads %d", uid, n)
	}
}

// TestSetupLimit names the limits behind the kernel's setup errors.
func TestSetupLimit(t *testing.T) {
	tests := []struct {
		err    error
		engine string
		want   string
	}{
		{errOf("job 3: io_uring_setup: %w", "EMFILE"), EngineIOUring, LimitNofile},
		{errOf("job 3: io_uring_setup: %w", "ENOMEM"), EngineIOUring, LimitMemlock},
		{errOf("job 3: mapping 4096 bytes of I/O buffers: %w", "ENOMEM"), EnginePsync, LimitMemory},
		{errOf("job 3: io_setup(64): %w", "EAGAIN"), EngineLibaio, LimitAIOMaxNr},
		{errOf("job 3: io_uring_setup: %w", "EINVAL"), EngineIOUring, limitNone},
	}
	for _, tt := range tests {
		if got := setupLimit(tt.err, tt.engine); got != tt.want {
			t.Errorf("setupLimit(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// errOf wraps the errno named name into format's %w.
func errOf(format, name string) error {
	errnos := map[string]unix.Errno{"EMFILE": unix.EMFILE, "ENOMEM": unix.ENOMEM, "EAGAIN": unix.EAGAIN, "EINVAL": unix.EINVAL}
	return fmt.Errorf(format, errnos[name])
}
