//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/sweep"
)

// runQD runs the binary in dir: exit code, stdout, stderr.
func runQD(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	out, errOut, code := runQdsweep(t, dir, args...)
	return code, out, errOut
}

// TestUringFlags: fio's io_uring options on run and sweep. A run says them
// on its engine line; a sweep keeps them in its results (and a resume
// runs with them); wrong uses are one line naming the flag and the fix,
// exit 2, nothing written: another engine, hipri where completions cannot
// be polled, a value that is not 0 or 1.
func TestUringFlags(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	if err := os.WriteFile(f, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runQD(t, dir, "run", "--name=u", "--filename="+f, "--rw=randread", "--direct=1", "--ioengine=io_uring",
		"--iodepth=4", "--runtime=200ms", "--time_based", "--sqthread_poll", "--registerfiles=1", "--fixedbufs=1", "--output-format=qdsweep")
	if code != 0 || !strings.Contains(out, "io_uring (registered buffers)\n  io_uring  fixedbufs=1 registerfiles=1 sqthread_poll=1\n") {
		t.Fatalf("run: exit %d, %s%s", code, out, stderr)
	}
	shm, err := os.MkdirTemp("/dev/shm", "qdsweep-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(shm)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--name=u", "--filename=" + f, "--ioengine=libaio", "--registerfiles"}, "--registerfiles"},
		{[]string{"run", "--name=u", "--filename=" + f, "--fixedbufs"}, "this job runs psync"},
		{[]string{"run", "--parse-only", "--name=u", "--filename=" + f, "--hipri"}, "set ioengine=io_uring or drop hipri"},
		{[]string{"run", "--name=u", "--filename=" + f, "--ioengine=libaio", "--fixedbufs"}, "use ioengine=io_uring or drop fixedbufs"},
		{[]string{"run", "--name=u", "--filename=" + filepath.Join(shm, "g"), "--ioengine=io_uring", "--direct=1", "--hipri", "--size=1m"}, "drop --hipri"},
		{[]string{"run", "--name=u", "--filename=" + f, "--ioengine=io_uring", "--direct=0", "--hipri"}, "--direct=1"},
		{[]string{"run", "--name=u", "--filename=" + f, "--ioengine=io_uring", "--nonvectored=2"}, "--nonvectored=2"},
		{[]string{"sweep", "--ioengine=sim", "--sqthread_poll", "--output", filepath.Join(dir, "no")}, "--sqthread_poll"},
		{[]string{"sweep", "--filename=" + f, "--sqthread_poll", "--sqthread_poll_cpu=4096", "--output", filepath.Join(dir, "no")}, "--sqthread_poll_cpu"},
	} {
		code, out, stderr := runQD(t, dir, tc.args...)
		if code != 2 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, stderr, tc.want)
		}
	}
	for _, p := range []string{filepath.Join(dir, "no"), filepath.Join(shm, "g")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written by a refused command", p)
		}
	}
	res := filepath.Join(dir, "res")
	if code, _, stderr := runQD(t, dir, "sweep", "--filename="+f, "--iodepth=1,4", "--runtime=200ms", "--ramp_time=0", "--ss=0",
		"--sqthread_poll", "--nonvectored=0", "--output", res, "-q"); code != 0 {
		t.Fatalf("sweep: exit %d, %s", code, stderr)
	}
	r, err := sweep.Read(res)
	if err != nil || r.Meta.Workload.IOUring != "sqthread_poll=1 nonvectored=0" {
		t.Fatalf("sweep's results keep %q (%v), want the options", r.Meta.Workload.IOUring, err)
	}
	if code, out, _ := runQD(t, dir, "report", res); code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "io_uring (sqthread_poll=1 nonvectored=0)") {
		t.Errorf("report does not name the options: exit %d\n%s", code, out)
	}
}
