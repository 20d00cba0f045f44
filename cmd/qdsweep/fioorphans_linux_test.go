package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// fioRunProcs are the live processes of the fio runs of qdsweep process
// pid: fio and its forked jobs carry QDSWEEP_FIO_RUN=pid.N in their
// environment (a zombie has none, and is not counted).
func fioRunProcs(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	prefix := []byte("QDSWEEP_FIO_RUN=" + strconv.Itoa(pid) + ".")
	var pids []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.HasPrefix(kv, prefix) {
				pids = append(pids, p)
				break
			}
		}
	}
	return pids
}

// TestFioRunLeavesNoProcess: a run through fio (an engine qdsweep does not
// run, fio forking a process per job, each in a session of its own) that
// is stopped by SIGINT or SIGTERM, once or twice (at once, or apart: the
// second exits at once), in its ramp or its window, leaves no fio process
// of its run and no file but the job's own: nor the private directory of
// fio's state files in TMPDIR.
func TestFioRunLeavesNoProcess(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed: this test stops runs through fio 3.33 (CI installs it)")
	}
	cases := []struct {
		name  string
		ramp  string
		sig   syscall.Signal
		twice bool
		gap   time.Duration
		hung  bool // fio itself stopped (SIGSTOP): it cannot end on SIGINT, its jobs run on
	}{
		{"SIGINT in the window", "0", syscall.SIGINT, false, 0, false},
		{"SIGINT twice apart in the window", "0", syscall.SIGINT, true, 700 * time.Millisecond, false},
		{"SIGTERM twice at once in the ramp", "30", syscall.SIGTERM, true, 0, false},
		{"SIGTERM twice apart in the ramp", "30", syscall.SIGTERM, true, 700 * time.Millisecond, false},
		{"SIGINT in the ramp", "30", syscall.SIGINT, false, 0, false},
		{"SIGINT to a hung fio", "0", syscall.SIGINT, false, 0, true},
		{"SIGTERM twice apart to a hung fio", "0", syscall.SIGTERM, true, 700 * time.Millisecond, true},
	}
	for _, tc := range cases {
		for _, numjobs := range []string{"1", "2"} {
			t.Run(tc.name+" numjobs="+numjobs, func(t *testing.T) {
				dir := t.TempDir()
				args := []string{"run", "--name=a", "--ioengine=posixaio", "--rw=randread", "--size=8m", "--numjobs=" + numjobs,
					"--group_reporting", "--ramp_time=" + tc.ramp, "--runtime=60", "--time_based"}
				if numjobs != "1" {
					// Each job its own file otherwise, which fio does not run for qdsweep.
					args = append(args, "--filename=f")
				}
				cmd := exec.Command(sweepBinary(t), args...)
				cmd.Dir = dir
				tmp := t.TempDir()
				cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				want, _ := strconv.Atoi(numjobs)
				want++ // fio and its jobs
				for deadline := time.Now().Add(2 * time.Minute); len(fioRunProcs(cmd.Process.Pid)) < want; time.Sleep(50 * time.Millisecond) {
					if time.Now().After(deadline) {
						cmd.Process.Kill()
						t.Fatalf("fio's %d processes never ran: %s", want, stderr.String())
					}
				}
				if tc.hung {
					syscall.Kill(fioMain(cmd.Process.Pid), syscall.SIGSTOP)
				}
				cmd.Process.Signal(tc.sig)
				if tc.twice {
					time.Sleep(tc.gap)
					cmd.Process.Signal(tc.sig)
				}
				err := cmd.Wait()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 128+int(tc.sig) {
					t.Errorf("ended with %v, want exit %d; %s", err, 128+int(tc.sig), stderr.String())
				}
				// Killed processes leave /proc as the kernel ends them.
				left := fioRunProcs(cmd.Process.Pid)
				for deadline := time.Now().Add(10 * time.Second); len(left) > 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
					left = fioRunProcs(cmd.Process.Pid)
				}
				for _, p := range left {
					syscall.Kill(p, syscall.SIGKILL)
				}
				if len(left) > 0 {
					t.Fatalf("fio processes %v outlived qdsweep; %s", left, stderr.String())
				}
				// The job's own file stays, as fio leaves it; nothing else.
				ents, _ := os.ReadDir(dir)
				for _, e := range ents {
					if e.Name() != "f" && e.Name() != "a.0.0" {
						t.Errorf("%s left", e.Name())
					}
				}
				if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
					t.Errorf("%s left in TMPDIR", ents[0].Name())
				}
			})
		}
	}
}

// fioMain is the fio process qdsweep process pid started (its child), or 0.
func fioMain(pid int) int {
	for _, p := range fioRunProcs(pid) {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …
		if i := bytes.LastIndexByte(stat, ')'); i > 0 {
			var state string
			var ppid int
			if _, err := fmt.Sscan(string(stat[i+1:]), &state, &ppid); err == nil && ppid == pid {
				return p
			}
		}
	}
	return 0
}
