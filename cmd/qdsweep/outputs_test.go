//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/sweep"
	"golang.org/x/sys/unix"
)

// TestOutputsNeverDestroy: every file a command writes besides its target
// goes through the one writer. Each case names a file the user owns; after
// the command its bytes are the same and the command exited 2 with one line.
func TestOutputsNeverDestroy(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, bytes.Repeat([]byte("user data "), 1<<17), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(data, link); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes")
	if err := os.Mkdir(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(notes, "summary.md")
	if err := os.WriteFile(mine, []byte("my notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A finished sweep to report and to refuse a second sweep into.
	res := filepath.Join(dir, "res")
	if code, _, stderr := runSweep(t, dir, "--ioengine=sim", "--iodepth=1,2", "--runtime=100ms", "--ramp_time=0", "--ss=0", "--quiet", "--output", res); code != 0 {
		t.Fatalf("sweep: %d %s", code, stderr)
	}
	resJSON := filepath.Join(res, sweep.ResultsJSON)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	jobs := filepath.Join(dir, "jobs")
	if err := os.Mkdir(jobs, 0o755); err != nil {
		t.Fatal(err)
	}
	jobLink := filepath.Join(jobs, "randread-4096-iodepth1-numjobs1.fio")
	if err := os.Symlink(data, jobLink); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		args  []string
		keep  string // the file whose bytes must not change
		words string // in the one line
	}{
		{"run --output onto its read target", []string{"run", "--rw=read", "--filename=" + data, "--size=64k", "--output=" + data}, data, "reads or measures"},
		{"run --output onto a symlink", []string{"run", "--rw=read", "--filename=" + data, "--size=64k", "--output=" + link}, data, "symbolic link"},
		{"run --output under /dev", []string{"run", "--rw=read", "--filename=" + data, "--size=64k", "--output=/dev/qdsweep-out"}, data, "/dev"},
		{"report --output into the user's folder", []string{"report", res, "--output", notes}, mine, "did not write"},
		{"compare --output into the user's folder", []string{"compare", res, res, "--output", notes}, mine, "did not write"},
		{"sweep into a finished sweep", []string{"sweep", "--ioengine=sim", "--iodepth=1", "--runtime=50ms", "--output", res}, resJSON, "finished sweep"},
		{"sweep --emit-fio-jobs onto a symlinked job name", []string{"sweep", "--ioengine=sim", "--iodepth=1", "--runtime=50ms", "--output", filepath.Join(dir, "o2"), "--emit-fio-jobs", jobs}, data, "did not write"},
		{"--filename under /dev that does not exist", []string{"sweep", "--filename=/dev/qdsweep-typo", "--iodepth=1", "--runtime=50ms", "--output", filepath.Join(dir, "o3")}, data, "/dev/qdsweep-typo"},
		{"a FIFO as --filename (refused before any open, which would block)", []string{"run", "--rw=read", "--filename=" + fifo, "--size=64k"}, data, "not a regular file"},
		{"--fio-arg that deletes the target", []string{"sweep", "--ioengine=fio", "--filename=" + data, "--fio-arg=--ioengine=filedelete", "--output", filepath.Join(dir, "o4")}, data, "--fio-arg"},
		{"--fio-arg abbreviation of opendir", []string{"sweep", "--ioengine=fio", "--filename=" + data, "--fio-arg=--opend=" + notes, "--output", filepath.Join(dir, "o5")}, mine, "--fio-arg"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := looptest.FileSum(t, tc.keep)
			stdout, stderr, code := runQdsweep(t, dir, tc.args...)
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.words) {
				t.Errorf("exit %d, stderr %q, want exit 2 and one line with %q", code, stderr, tc.words)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			if looptest.FileSum(t, tc.keep) != before {
				t.Fatalf("%s changed", tc.keep)
			}
		})
	}
	for _, p := range []string{"/dev/qdsweep-out", "/dev/qdsweep-typo", filepath.Join(dir, "o2"), filepath.Join(dir, "o3")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}

// TestInterruptedResultsKept: a stop signal delivered twice at once (to the
// process, then to its group, as timeout -s INT does) and two signals apart
// (Ctrl-C twice) both leave results.json whole and marked interrupted, no
// temporary files and no lock; the sweep of an existing file without
// --size then resumes with the command it printed.
func TestInterruptedResultsKept(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "existing")
	if err := os.WriteFile(target, make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, gap := range []time.Duration{0, 700 * time.Millisecond} {
		out := filepath.Join(dir, "res-"+gap.String())
		var stderr bytes.Buffer
		cmd := startSweep(t, dir, &stderr, "--filename="+target, "--iodepth=1:64", "--runtime=300ms", "--ramp_time=0", "--ss=0", "--output", out)
		waitSteps(t, out, 1)
		cmd.Process.Signal(syscall.SIGINT)
		time.Sleep(gap)
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
		r, err := sweep.Read(out)
		if err != nil || !r.Interrupted {
			t.Fatalf("gap %v: results %v, interrupted %v; %s", gap, err, r != nil && r.Interrupted, stderr.String())
		}
		ents, _ := os.ReadDir(out)
		for _, e := range ents {
			if strings.Contains(e.Name(), ".tmp") || e.Name() == guard.LockFile {
				t.Errorf("gap %v: %s left", gap, e.Name())
			}
		}
		if gap == 0 {
			if !strings.Contains(stderr.String(), "qdsweep sweep --resume "+out) {
				t.Fatalf("no resume command printed: %s", stderr.String())
			}
			code, _, errOut := runSweep(t, dir, "--resume", out, "--quiet")
			if code != 0 {
				t.Fatalf("the printed resume command: exit %d, %s", code, errOut)
			}
			if r, err := sweep.Read(out); err != nil || r.Interrupted || len(r.Steps) != 7 {
				t.Fatalf("resumed: %v %+v", err, r)
			}
		}
	}
}

// TestSweepStopsWhenHeldDeviceGainsLoop: a write sweep holds a blank loop
// device with O_EXCL, which stops mounts of it but not a loop device
// attached over it (a filesystem made there would be overwritten). The
// sweep looks again each second, stops with one line naming the new loop
// device, and keeps the steps it measured.
func TestSweepStopsWhenHeldDeviceGainsLoop(t *testing.T) {
	looptest.RequireRootTools(t)
	dev := looptest.AttachLoop(t, looptest.MakeImage(t, 64<<20), false)
	dir := t.TempDir()
	var stderr bytes.Buffer
	cmd := startSweep(t, dir, &stderr, "--filename="+dev, "--rw=randwrite", "--allow-write-device", "--size=32m",
		"--iodepth=1:256", "--runtime=1s", "--ramp_time=0", "--ss=0", "--output", "res")
	waitSteps(t, filepath.Join(dir, "res"), 1)
	alias := looptest.AttachLoopWith(t, dev)
	err := cmd.Wait()
	if err == nil {
		t.Fatalf("sweep went on writing %s with %s attached over it: %s", dev, alias, stderr.String())
	}
	if !strings.Contains(stderr.String(), alias) {
		t.Errorf("stderr does not name %s: %s", alias, stderr.String())
	}
	r, rerr := sweep.Read(filepath.Join(dir, "res"))
	if rerr != nil || len(r.Steps) < 2 || len(r.Steps) == 9 || !strings.Contains(r.Steps[len(r.Steps)-1].Failed, alias) {
		t.Fatalf("results: %v, %+v", rerr, r)
	}
}

// TestReadersStopOnFirstSignal: a command that only reads (explain,
// report …) has nothing to keep, so the first stop signal ends it, even
// while it waits on an input that never ends.
func TestReadersStopOnFirstSignal(t *testing.T) {
	cmd := exec.Command(sweepBinary(t), "explain", "-")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if _, err := stdin.Write([]byte(`{"fio version": "fio-3.33", "jobs": [`)); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitDrained(t, stdin)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("exit %d after SIGINT, want 130", code)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("explain went on reading after SIGINT")
	}
}

// waitDrained waits until the process at the other end of pipe w has
// read everything written into it: the command reads its input only after
// it set up its signal handling, so a signal sent then meets qdsweep's
// handling, not the default that kills a process still starting (which
// says nothing of what qdsweep does). How long a busy machine takes to
// get there is not asserted.
func waitDrained(t *testing.T, w io.WriteCloser) {
	t.Helper()
	f, ok := w.(*os.File)
	if !ok {
		t.Fatalf("stdin pipe is a %T, not a file", w)
	}
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		n, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ) // FIONREAD
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the command did not read its input within a minute")
}

// TestFailedStartLeavesNothing: a sweep stopped while it lays out its
// target leaves neither the partial file nor a results directory holding
// only its lock.
func TestFailedStartLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	cmd := startSweep(t, dir, &stderr, "--filename=big.dat", "--size=2g", "--output", "res")
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	deadline := time.Now().Add(20 * time.Second)
wait:
	for {
		select {
		case <-done: // the layout failed on its own (a full disk): the same rule holds
			break wait
		default:
		}
		if fi, err := os.Stat(filepath.Join(dir, "big.dat")); err == nil && fi.Size() > 0 {
			cmd.Process.Signal(syscall.SIGINT)
			<-done
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("layout did not start: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, p := range []string{"big.dat", "res"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s left after an interrupted layout (%s)", p, stderr.String())
		}
	}
}
