package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/sweep"
)

// startSweep starts a sweep in dir without waiting for it.
func startSweep(t *testing.T, dir string, stderr *bytes.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(sweepBinary(t), append([]string{"sweep"}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// TestSweepOutputLocked: a second sweep into the --output of a running one
// is refused with one line (exit 1) and changes nothing there.
func TestSweepOutputLocked(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--ioengine=sim", "--sim_latency", "500us", "--iodepth", "1:64", "--runtime", "400ms", "--ramp_time", "0", "--ss=0", "--output", "res"}
	var stderr1 bytes.Buffer
	first := startSweep(t, dir, &stderr1, args...)
	waitSteps(t, filepath.Join(dir, "res"), 1)
	code, stdout, stderr := runSweep(t, dir, args...)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--output res") || !strings.Contains(stderr, "in use") {
		t.Errorf("second sweep: exit %d, stderr %q, want exit 1 and one line naming --output", code, stderr)
	}
	if stdout != "" {
		t.Errorf("second sweep printed %q", stdout)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first sweep: %v; %s", err, stderr1.String())
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil || len(r.Steps) != 7 || r.Interrupted {
		t.Fatalf("first sweep's results: %v, %+v", err, r)
	}
	// Once it is done, the directory is free again (the lock file stays, ignored).
	if code, _, stderr := runSweep(t, dir, "--resume", "res", "-q"); code != 0 {
		t.Errorf("resume after the first sweep ended: exit %d, %s", code, stderr)
	}
}

// TestSweepStopSignals: SIGHUP (terminal closed) and SIGQUIT end a sweep as
// SIGINT does: partial results marked interrupted, the scratch file removed,
// exit 128 + the signal's number.
func TestSweepStopSignals(t *testing.T) {
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGHUP, 129}, {syscall.SIGQUIT, 131}, {syscall.SIGTERM, 143}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			var stderr bytes.Buffer
			cmd := startSweep(t, dir, &stderr, "--size", "16m", "--iodepth", "1:64", "--runtime", "300ms", "--ramp_time", "50ms", "--output", "res")
			waitSteps(t, filepath.Join(dir, "res"), 1)
			cmd.Process.Signal(tt.sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tt.code {
				t.Fatalf("exit %v, want %d; stderr %s", err, tt.code, stderr.String())
			}
			if strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("stack dump on %v: %s", tt.sig, stderr.String())
			}
			r, err := sweep.Read(filepath.Join(dir, "res"))
			if err != nil || !r.Interrupted || len(r.Steps) == 0 {
				t.Fatalf("results: %v, %+v", err, r)
			}
			if _, err := os.Stat(filepath.Join(dir, session.ScratchName)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("scratch file left behind: %v", err)
			}
		})
	}
}

// TestSweepSecondSignalRemovesPartialLayout: a second Ctrl-C while a named
// new --filename is being laid out exits at once and removes the partial file.
func TestSweepSecondSignalRemovesPartialLayout(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	cmd := startSweep(t, dir, &stderr, "--filename", "big.dat", "--size", "8g", "--output", "res")
	target := filepath.Join(dir, "big.dat")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if fi, err := os.Stat(target); err == nil && fi.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("layout never started; %s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr %s", err, stderr.String())
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("partial layout left behind: %v; stderr %s", err, stderr.String())
	}
}

// TestSweepResumeRefusesOtherMeasurement: --resume refuses another engine,
// target, direct or size with one line and exit 2, and writes nothing.
func TestSweepResumeRefusesOtherMeasurement(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.dat")
	if err := os.WriteFile(other, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--ioengine=sim", "--sim_latency", "500us", "--iodepth", "1:16", "--runtime", "250ms", "--ramp_time", "0", "--output", "res"}
	if code, stderr := interruptSweep(t, dir, args...); code != 130 {
		t.Fatalf("exit %d, want 130; stderr %s", code, stderr)
	}
	before, err := os.ReadFile(filepath.Join(dir, "res", sweep.ResultsJSON))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range [][]string{
		{"--ioengine=libaio"},
		{"--sim_latency", "900us"},
		{"--direct=0"},
		{"--size", "64m"},
	} {
		code, stdout, stderr := runSweep(t, dir, append([]string{"--resume", "res"}, tc...)...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "start a new sweep") || stdout != "" {
			t.Errorf("resume %v: exit %d, stderr %q", tc, code, stderr)
		}
	}
	after, _ := os.ReadFile(filepath.Join(dir, "res", sweep.ResultsJSON))
	if !bytes.Equal(before, after) {
		t.Error("a refused resume changed results.json")
	}
	if _, err := os.Stat(filepath.Join(dir, session.ScratchName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused resume laid out a scratch file: %v", err)
	}
}

// TestSweepOutputUnwritable: an --output that cannot be created is found
// before any layout: one line, nothing laid out.
func TestSweepOutputUnwritable(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runSweep(t, dir, "--size", "64m", "--output", "/proc/qdsweep-out")
	if code == 0 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "/proc/qdsweep-out") || strings.Contains(stderr, "laying out") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("left in the working dir: %v", ents)
	}
}

// TestLimitsOneLine: tight ulimit -v and -n (set in a shell before qdsweep
// starts) end with one line naming the limit and exit 1, never a runtime
// stack trace; nothing is laid out.
func TestLimitsOneLine(t *testing.T) {
	bin := sweepBinary(t)
	for _, tc := range []struct {
		name, ulimit string
		args         []string
		want         string
	}{
		// The Go runtime itself needs ~1.5 GiB of address space to start; 2.1 GiB
		// starts it, and 8 jobs × 256 × 1 MiB of buffers do not fit.
		{"address space", "ulimit -v 2200000", []string{"run", "--size", "16m", "--numjobs", "8", "--iodepth", "256", "--bs", "1m"}, "ulimit -v"},
		{"address space, sweep", "ulimit -v 2200000", []string{"sweep", "--size", "16m", "--numjobs", "1,8", "--iodepth", "1,256", "--bs", "1m", "--output", "o"}, "ulimit -v"},
		{"open files, any command", "ulimit -n 16", []string{"--version"}, "ulimit -n"},
		{"open files, many jobs", "ulimit -n 100", []string{"run", "--size", "16m", "--numjobs", "64", "--iodepth", "1"}, "ulimit -n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			q := make([]string, len(tc.args))
			for i, a := range tc.args {
				q[i] = "'" + a + "'"
			}
			cmd := exec.Command("sh", "-c", tc.ulimit+" && exec '"+bin+"' "+strings.Join(q, " "))
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Fatalf("exit %v, want 1; stderr %s", err, stderr.String())
			}
			line := stderr.String()
			if strings.Count(line, "\n") != 1 || !strings.Contains(line, tc.want) || strings.Contains(line, "goroutine") {
				t.Errorf("stderr %q, want one line naming %s", line, tc.want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) > 0 {
				t.Errorf("left in the working dir: %v", ents)
			}
		})
	}
}

// TestEmitFioJobsGuarded: job files for write steps are guarded like a run
// (whatever engine runs here), and a --filename fio cannot take (a newline
// would inject job-file lines, a ':' would name two files) is refused or
// escaped; refusals write nothing.
func TestEmitFioJobsGuarded(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(existing, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"--ioengine=sim", "--size", "1m", "--rw", "randwrite", "--iodepth", "1,2", "--runtime", "100ms", "--ramp_time", "0", "-q"}
	// An existing file without --allow-write: refused, no job written.
	code, _, stderr := runSweep(t, dir, append(base, "--filename", existing, "--emit-fio-jobs", "jobs", "--output", "o1")...)
	if code != 2 || !strings.Contains(stderr, "--allow-write") {
		t.Errorf("unguarded emit: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "jobs")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("job files written despite the refusal: %v", err)
	}
	// A newline in the name: refused, nothing written.
	code, _, stderr = runSweep(t, dir, append(base, "--filename", "x\nfilename=/dev/sda", "--emit-fio-jobs", "jobs2", "--output", "o2")...)
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "control character") {
		t.Errorf("newline in --filename: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "jobs2")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("job files written for a newline name: %v", err)
	}
	// A ':' is escaped so fio opens that one file.
	code, _, stderr = runSweep(t, dir, append(base, "--filename", "d/victim:new", "--emit-fio-jobs", "jobs3", "--output", "o3")...)
	if code != 0 {
		t.Fatalf("colon name: exit %d, %s", code, stderr)
	}
	ents, err := readDirVisible(filepath.Join(dir, "jobs3"))
	if err != nil || len(ents) != 2 {
		t.Fatalf("jobs3: %v %v", ents, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "jobs3", ents[0].Name()))
	if !strings.Contains(string(b), "filename=d/victim\\:new\n") {
		t.Errorf("job file does not escape the colon:\n%s", b)
	}
}

// TestRunClosedStdout: `qdsweep run | head` closing the pipe early does not
// kill qdsweep by SIGPIPE with its scratch file left behind.
func TestRunClosedStdout(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(sweepBinary(t), "run", "--size", "16m", "--runtime", "300ms", "--output-format=qdsweep-json")
	cmd.Dir = dir
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before qdsweep writes
	cmd.Stdout = w
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Fatalf("killed by %v; stderr %s", ws.Signal(), stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "qdsweep.scratch")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("scratch file left behind: %v", err)
	}
}

// TestSweepsShareDirectory: a second default sweep started in the same
// directory while the first is running fails (its scratch file exists) and
// leaves the first one's scratch file alone; the first sweep finishes and
// removes it.
func TestSweepsShareDirectory(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--size", "16m", "--iodepth", "1:64", "--runtime", "500ms", "--ramp_time", "0", "--ss=0", "-q"}
	var stderrA bytes.Buffer
	a := startSweep(t, dir, &stderrA, append(args, "--output", "a")...)
	scratch := filepath.Join(dir, session.ScratchName)
	waitSteps(t, filepath.Join(dir, "a"), 1) // laid out and measuring
	before, err := os.Stat(scratch)
	if err != nil {
		t.Fatalf("first sweep's scratch file: %v", err)
	}
	code, _, stderrB := runSweep(t, dir, append(args, "--output", "b")...)
	if code == 0 || !strings.Contains(stderrB, session.ScratchName) {
		t.Errorf("second sweep: exit %d, %q", code, stderrB)
	}
	after, err := os.Stat(scratch)
	if err != nil || !os.SameFile(before, after) {
		t.Fatalf("the second sweep removed or replaced the first one's scratch file: %v", err)
	}
	if err := a.Wait(); err != nil {
		t.Fatalf("first sweep: %v; %s", err, stderrA.String())
	}
	if _, err := os.Stat(scratch); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("first sweep left its scratch file: %v", err)
	}
	if r, err := sweep.Read(filepath.Join(dir, "a")); err != nil || r.Interrupted || len(r.Steps) == 0 {
		t.Errorf("first sweep's results: %v %+v", err, r)
	}
}

// TestSweepsPairedStarts: two default sweeps started together in one
// directory: one lays out the scratch file and finishes; the other fails
// without touching it. Repeated, as the race once lost the winner's file in
// 4 of 15 pairs.
func TestSweepsPairedStarts(t *testing.T) {
	for i := 0; i < 5; i++ {
		dir := t.TempDir()
		args := []string{"--size", "8m", "--iodepth", "1:4", "--runtime", "300ms", "--ramp_time", "0", "--ss=0", "-q"}
		var ea, eb bytes.Buffer
		a := startSweep(t, dir, &ea, append(args, "--output", "a")...)
		b := startSweep(t, dir, &eb, append(args, "--output", "b")...)
		errs := map[string]error{"a": a.Wait(), "b": b.Wait()}
		stderr := map[string]string{"a": ea.String(), "b": eb.String()}
		wins := 0
		for name, err := range errs {
			if err != nil {
				// The loser: refused because the scratch file is there.
				if !strings.Contains(stderr[name], session.ScratchName) {
					t.Errorf("pair %d: sweep %s failed for another reason: %v: %s", i, name, err, stderr[name])
				}
				continue
			}
			wins++ // (both win when one started after the other had finished)
			r, rerr := sweep.Read(filepath.Join(dir, name))
			if rerr != nil || r.Interrupted || len(r.Steps) != 3 {
				t.Fatalf("pair %d: %s's results %v %+v", i, name, rerr, r)
			}
			for _, st := range r.Steps {
				if st.Failed != "" {
					t.Errorf("pair %d: %s's step failed: %s", i, name, st.Failed)
				}
			}
		}
		if wins == 0 {
			t.Fatalf("pair %d: both failed: %s / %s", i, stderr["a"], stderr["b"])
		}
		if _, err := os.Stat(filepath.Join(dir, session.ScratchName)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("pair %d: scratch file left: %v", i, err)
		}
	}
}
