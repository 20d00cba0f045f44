package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/sweep"
)

// runSweep runs `qdsweep sweep args…` in dir and returns its exit code,
// stdout and stderr.
func runSweep(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	stdout, stderr, code := runQdsweep(t, dir, append([]string{"sweep"}, args...)...)
	return code, stdout, stderr
}

func TestSweepBadInput(t *testing.T) {
	var big []string // 1..101: with numjobs 1..100 a grid of 10,100 steps
	for i := 1; i <= 101; i++ {
		big = append(big, strconv.Itoa(i))
	}
	tests := []struct {
		name string
		args []string
		want string // in the one-line message
	}{
		{"empty range", []string{"--iodepth", "1:0"}, "--iodepth"},
		{"descending range", []string{"--iodepth", "256:1"}, "descending"},
		{"descending list", []string{"--numjobs", "4,2"}, "ascending"},
		{"non-numeric list", []string{"--iodepth", "1,two"}, "not a whole number"},
		{"empty list", []string{"--iodepth", ""}, "--iodepth"},
		{"bad bs", []string{"--bs", "4k,zz"}, "--bs"},
		{"bad rw", []string{"--rw", "reed"}, "--rw"},
		{"grid over 10000", []string{"--iodepth", strings.Join(big, ","), "--numjobs", strings.Join(big[:100], ",")}, "--full"},
		{"bad ss", []string{"--ss", "lots"}, "--ss"},
		{"ss window too short", []string{"--ss_dur", "100ms"}, "--ss_dur"},
		{"bad max_latency", []string{"--max_latency", "soon"}, "--max_latency"},
		{"bad runtime", []string{"--runtime", "-1"}, "--runtime"},
		{"unknown engine", []string{"--ioengine", "nope"}, "--ioengine"},
		{"bad sim latency", []string{"--ioengine", "sim", "--sim_latency", "0"}, "--sim_latency"},
		{"foreign output dir", []string{"--output", "foreign"}, "holds files qdsweep did not write"},
		{"output is a file", []string{"--output", "foreign/file"}, "is not a directory"},
		{"missing resume dir", []string{"--resume", "nothing-here"}, "--resume"},
		{"argument", []string{"now"}, "unexpected argument"},
		{"falling loads", []string{"--rate_iops", "2k,1k"}, "must rise"},
		{"bad load", []string{"--rate_iops", "lots"}, "--rate_iops"},
		{"bad rate_process", []string{"--rate_process", "bursty"}, "--rate_process"},
		{"loads over depths", []string{"--rate_iops", "1000", "--iodepth", "1,2"}, "one iodepth"},
		{"shares of two curves", []string{"--rate_iops", "50%", "--rw", "read,randread"}, "one --rw"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, "foreign"), 0o755)
			os.WriteFile(filepath.Join(dir, "foreign", "file"), []byte("keep"), 0o644)
			// Short sim settings first, so a case that wrongly passes ends fast.
			args := append([]string{"--ioengine=sim", "--iodepth=1", "--runtime=20ms", "--ramp_time=0"}, tc.args...)
			code, stdout, stderr := runSweep(t, dir, args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Errorf("want one line naming %q on stderr, got %q (stdout %q)", tc.want, stderr, stdout)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("bad input wrote files: %v", entries)
			}
		})
	}
}

func TestSweepSimJSON(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runSweep(t, dir, "--ioengine=sim", "--iodepth", "1,32", "--runtime", "200ms",
		"--ramp_time", "20ms", "--output-format=json", "--output", "res")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r sweep.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
	}
	if !r.Meta.Simulated || r.Meta.Engine != "sim" || len(r.Steps) != 2 || len(r.Analysis) != 1 {
		t.Fatalf("result %+v", r.Meta)
	}
	// 1.3 ms at QD 32: 32 / 1.3 ms ≈ 24.6k IOPS.
	if iops := r.Steps[1].IOPS; math.Abs(iops-32/1.3e-3)/(32/1.3e-3) > 0.05 {
		t.Errorf("QD 32: %.0f IOPS, want ≈ 24.6k", iops)
	}
	if !strings.Contains(stderr, "SIMULATED") {
		t.Errorf("human table (stderr) does not say SIMULATED:\n%s", stderr)
	}
	if _, err := sweep.Read(filepath.Join(dir, "res")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "res", sweep.ResultsCSV)); err != nil {
		t.Error(err)
	}
}

// waitSteps polls dir's results.json until it holds n steps.
func waitSteps(t *testing.T, dir string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if r, err := sweep.Read(dir); err == nil && len(r.Steps) >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never held %d steps", dir, n)
}

// interruptSweep starts a sweep in dir, sends SIGINT once the results hold a
// step, and returns the exit code and stderr.
func interruptSweep(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(sweepBinary(t), append([]string{"sweep"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitSteps(t, filepath.Join(dir, "res"), 1)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("sweep ended with %v, want exit 130; stderr %s", err, stderr.String())
	}
	return ee.ExitCode(), stderr.String()
}

func TestSweepSIGINTRealEngine(t *testing.T) {
	dir := t.TempDir()
	code, stderr := interruptSweep(t, dir, "--size", "16m", "--iodepth", "1:64", "--runtime", "300ms",
		"--ramp_time", "50ms", "--output", "res")
	if code != 130 {
		t.Fatalf("exit %d, want 130; stderr %s", code, stderr)
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || len(r.Steps) == 0 || len(r.Steps) == 7 {
		t.Errorf("interrupted %v with %d steps", r.Interrupted, len(r.Steps))
	}
	if _, err := os.Stat(filepath.Join(dir, session.ScratchName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("scratch file left behind: %v", err)
	}
	if m := r.Meta; m.Simulated || m.Engine == "" || m.Hostname == "" || m.Kernel == "" || m.CPUs == 0 || m.Target != session.ScratchName {
		t.Errorf("meta %+v", m)
	}
}

func TestSweepResume(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--ioengine=sim", "--sim_latency", "500us", "--iodepth", "1:16", "--runtime", "250ms", "--ramp_time", "0", "--output", "res"}
	if code, stderr := interruptSweep(t, dir, args...); code != 130 {
		t.Fatalf("exit %d, want 130; stderr %s", code, stderr)
	}
	before, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil || !before.Interrupted {
		t.Fatalf("%v %+v", err, before)
	}
	if code, _, stderr := runSweep(t, dir, "--resume", "res", "--iodepth", "1:8"); code != 2 || !strings.Contains(stderr, "differs") {
		t.Errorf("resume with another plan: exit %d, %q", code, stderr)
	}
	code, _, stderr := runSweep(t, dir, "--resume", "res", "-q")
	if code != 0 || stderr != "" {
		t.Fatalf("resume: exit %d, stderr %q", code, stderr)
	}
	after, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	if after.Interrupted || len(after.Steps) != 5 || !after.Meta.Simulated || after.Meta.Start != before.Meta.Start {
		t.Fatalf("after resume: interrupted %v, %d steps, meta %+v", after.Interrupted, len(after.Steps), after.Meta)
	}
	for i, s := range after.Steps {
		if s.QD != 1<<i {
			t.Errorf("step %d has QD %d", i, s.QD)
		}
		if i < len(before.Steps) && s.IOPS != before.Steps[i].IOPS {
			t.Errorf("step %d was measured again", i)
		}
		// 500 µs per I/O: QD / 0.5 ms.
		if want := float64(s.QD) / 0.5e-3; math.Abs(s.IOPS-want)/want > 0.06 {
			t.Errorf("QD %d: %.0f IOPS, want %.0f", s.QD, s.IOPS, want)
		}
	}
}

// TestSweepWriteGuard: every pattern of the sweep is checked before any
// I/O, the existing file stays untouched, nothing is created; with
// --allow-write the sweep runs.
func TestSweepWriteGuard(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing")
	content := bytes.Repeat([]byte("keep me "), 1<<17) // 1 MiB
	if err := os.WriteFile(existing, content, 0o644); err != nil {
		t.Fatal(err)
	}
	cheap := []string{"--runtime=200ms", "--ramp_time=0", "--iodepth=1,2", "--ss=0", "--quiet", "--filename=" + existing}
	code, _, stderr := runSweep(t, dir, append(cheap, "--rw=randread,randwrite", "--output=res")...)
	if code != 2 || !strings.Contains(stderr, "--allow-write") {
		t.Fatalf("randwrite in the list without --allow-write: exit %d, %q", code, stderr)
	}
	if got, _ := os.ReadFile(existing); !bytes.Equal(got, content) {
		t.Fatal("the refused sweep changed the file")
	}
	if _, err := os.Stat(filepath.Join(dir, "res")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the refused sweep created its results directory: %v", err)
	}
	code, _, stderr = runSweep(t, dir, append(cheap, "--rw=randwrite", "--allow-write", "--output=res")...)
	if code != 0 {
		t.Fatalf("with --allow-write: exit %d, %s", code, stderr)
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil || len(r.Steps) != 2 || r.Steps[0].IOPS <= 0 {
		t.Fatalf("results: %v %+v", err, r)
	}
	code, _, stderr = runSweep(t, dir, append(cheap, "--output="+filepath.Join(dir, "missing", "a", "b"))...)
	if code != 2 || !strings.Contains(stderr, "--output") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("--output under a missing parent: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing parent of --output was created: %v", err)
	}
}

// TestSweepEmitFioJobs writes one fio job file per planned step, readable
// back as the same workload.
func TestSweepEmitFioJobs(t *testing.T) {
	dir := t.TempDir()
	jobs := filepath.Join(dir, "jobs")
	code, _, stderr := runSweep(t, dir, "--ioengine=sim", "--rw=randread,randwrite", "--iodepth=1,4", "--runtime=100ms",
		"--ramp_time=0", "--ss=0", "--quiet", "--size=64m", "--output=res", "--emit-fio-jobs="+jobs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ents, err := readDirVisible(jobs)
	if err != nil || len(ents) != 4 {
		t.Fatalf("job files: %v %v", err, ents)
	}
	seen := map[string]bool{}
	for _, e := range ents {
		jf, err := fio.ReadJobFile(filepath.Join(jobs, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		runs, err := fioadapt.Runs(jf)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		w := runs[0].Workload
		if fioadapt.JobFileName(w) != e.Name() || w.BS != 4096 || w.Size != 64<<20 || runs[0].Runtime != 100*time.Millisecond {
			t.Errorf("%s holds %+v (runtime %v)", e.Name(), w, runs[0].Runtime)
		}
		seen[fmt.Sprintf("%s/%d", w.RW, w.IODepth)] = true
	}
	for _, want := range []string{"randread/1", "randread/4", "randwrite/1", "randwrite/4"} {
		if !seen[want] {
			t.Errorf("no job file for %s: %v", want, seen)
		}
	}
}

// TestSweepFioEngine sweeps through the installed fio, the workload taken
// from a job file.
func TestSweepFioEngine(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio not installed")
	}
	dir := t.TempDir()
	job := filepath.Join(dir, "job.fio")
	if err := os.WriteFile(job, []byte("[global]\nsize=4m\nruntime=300ms\n[j]\nrw=randread\nbs=4k\ndirect=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runSweep(t, dir, "--ioengine=fio", "--jobfile="+job, "--filename=data", "--iodepth=1,4",
		"--ramp_time=0", "--ss=0", "--quiet", "--output=res")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Meta.Engine != "fio" || len(r.Steps) != 2 || r.Steps[1].IODepth != 4 || r.Steps[0].IOPS <= 0 || r.Steps[1].IOPS <= 0 {
		t.Fatalf("fio sweep: engine %s, steps %+v", r.Meta.Engine, r.Steps)
	}
}

// TestSweepDeviceErrors sweeps writes over a loop device whose backing
// file sits on a 1 MiB tmpfs: past 1 MiB (16 writes of 64 KiB, done in any
// step however busy the machine) the kernel fails the writes. The
// results file must stay valid and each step record the error.
func TestSweepDeviceErrors(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs and attach a loop device")
	}
	for _, tool := range []string{"mount", "umount", "losetup"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", mnt).Run() })
	img := filepath.Join(mnt, "backing")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 64<<20); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "-f", "--show", img).Output()
	if err != nil {
		t.Skipf("losetup: %v", err)
	}
	dev := strings.TrimSpace(string(out))
	t.Cleanup(func() {
		for i := 0; i < 20 && exec.Command("losetup", "-d", dev).Run() != nil; i++ {
			time.Sleep(50 * time.Millisecond)
		}
	})
	dir := t.TempDir()
	code, _, stderr := runSweep(t, dir, "--filename="+dev, "--allow-write-device", "--destroy-data="+dev,
		"--rw=write", "--bs=64k", "--iodepth=1,4", "--runtime=300ms", "--ramp_time=0", "--ss=0", "--quiet", "--output=res")
	if code == 0 || code == 2 {
		t.Fatalf("exit %d (want a runtime failure): %s", code, stderr)
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatalf("results file after the failed sweep: %v", err)
	}
	if len(r.Steps) == 0 {
		t.Fatal("no steps recorded")
	}
	for _, s := range r.Steps {
		if s.Failed == "" || !strings.Contains(s.Failed, "offset") ||
			!(strings.Contains(s.Failed, "ENOSPC") || strings.Contains(s.Failed, "EIO")) {
			t.Errorf("step QD %d: failed %q", s.QD, s.Failed)
		}
	}
	t.Logf("exit %d; step 1: %s", code, r.Steps[0].Failed)
}

// TestSweepKeepsNewTarget: a --filename that does not exist is laid out,
// measured and kept, as fio does, and the last line says so; an existing
// one is not announced.
func TestSweepKeepsNewTarget(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--filename=new.dat", "--size=1m", "--iodepth=1", "--runtime=100ms", "--ramp_time=0", "--ss=0", "--output=res"}
	code, _, stderr := runSweep(t, dir, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Stat(filepath.Join(dir, "new.dat")); err != nil || fi.Size() != 1<<20 {
		t.Fatalf("new.dat not kept at 1 MiB: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if want := "kept new.dat (created by qdsweep; remove it when done)"; lines[len(lines)-1] != want {
		t.Errorf("last stderr line %q, want %q", lines[len(lines)-1], want)
	}
	args[len(args)-1] = "--output=res2"
	code, _, stderr = runSweep(t, dir, args...)
	if code != 0 || strings.Contains(stderr, "kept") {
		t.Errorf("existing target: exit %d, stderr %q; want 0 and no kept line", code, stderr)
	}
}

// A target turns the refine pass on: the answer is read from measured
// depths between the grid steps, marked in results.json and the table.
func TestSweepRefinesAroundTarget(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runSweep(t, dir, "--ioengine=sim", "--sim_latency=1ms", "--sim_iops=20000", "--iodepth", "1:64",
		"--runtime", "100ms", "--ramp_time", "0", "--target-iops", "15k", "--output-format=json", "--output", "res")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r sweep.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	refined := 0
	for _, s := range r.Steps {
		if s.Refined != "" {
			refined++
			if s.QD&(s.QD-1) == 0 {
				t.Errorf("refined step at grid depth %d", s.QD)
			}
		}
	}
	if refined == 0 || !strings.Contains(stderr, "* refined") {
		t.Fatalf("%d refined steps; table:\n%s", refined, stderr)
	}
	// --refine=false keeps the grid.
	code, stdout, stderr = runSweep(t, dir, "--ioengine=sim", "--sim_latency=1ms", "--sim_iops=20000", "--iodepth", "1:64",
		"--runtime", "50ms", "--ramp_time", "0", "--target-iops", "15k", "--refine=false", "--output-format=json", "--output", "res2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r = sweep.Result{}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 7 {
		t.Errorf("--refine=false ran %d steps, want the 7 of the grid", len(r.Steps))
	}
}

// readDirVisible lists dir without its hidden entries (the writer's
// manifest of the files qdsweep wrote there).
func readDirVisible(dir string) ([]os.DirEntry, error) {
	ents, err := os.ReadDir(dir)
	return slices.DeleteFunc(ents, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), ".") }), err
}

// --sim is the simulated device in one spec: it selects the sim engine,
// sets what the old --sim_* flags set (kept, hidden, for scripts), and a
// resume keeps it.
func TestSweepSimSpec(t *testing.T) {
	dir := t.TempDir()
	read := func(stdout string) sweep.Result {
		t.Helper()
		var r sweep.Result
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	base := []string{"--iodepth", "1:4", "--runtime", "50ms", "--ramp_time", "0", "--randseed", "7", "--output-format=json"}
	code, stdout, stderr := runSweep(t, dir, append([]string{"--sim=latency=1ms,iops=20000,bw=100m,channels=3", "--output", "a"}, base...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	spec := read(stdout)
	code, stdout, stderr = runSweep(t, dir, append([]string{"--ioengine=sim", "--sim_latency=1ms", "--sim_iops=20000", "--sim_bw=100m",
		"--sim_channels=3", "--output", "b"}, base...)...)
	if code != 0 {
		t.Fatalf("old flags: exit %d: %s", code, stderr)
	}
	old := read(stdout)
	want := "latency=1ms,jitter=0.05,channels=3,iops=20000,bw_bytes=104857600,seed=7"
	if spec.Meta.Engine != "sim" || spec.Meta.Workload.Sim != want || old.Meta.Workload.Sim != want {
		t.Fatalf("--sim gave engine %q sim %q, the old flags sim %q; want %q", spec.Meta.Engine, spec.Meta.Workload.Sim, old.Meta.Workload.Sim, want)
	}
	code, stdout, stderr = runSweep(t, dir, "--resume", "a", "--output-format=json")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if r := read(stdout); r.Meta.Workload.Sim != want {
		t.Errorf("resumed sweep: sim %q; want %q", r.Meta.Workload.Sim, want)
	}
	code, _, stderr = runSweep(t, dir, "--resume", "a", "--sim=latency=2ms", "--output-format=json")
	if code != 2 || !strings.Contains(stderr, "resume") || !strings.Contains(stderr, "latency=2ms") {
		t.Errorf("resume with another --sim: exit %d: %s", code, stderr)
	}
}

// TestResumeRefusesAnotherTarget: a sweep records the identity of the
// file it holds (device, inode, size); when the file at its path is
// replaced before --resume (another file renamed over it), the resume is
// refused in one line, exit 2, before anything is written: the new file
// keeps every byte, even with --allow-write, and results.json is as it
// was (the old code wrote the new file and merged two targets' steps).
func TestResumeRefusesAnotherTarget(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--filename=t.dat", "--size=4m", "--rw=randwrite", "--iodepth", "1:64", "--runtime", "300ms", "--ramp_time", "0", "--ss=0", "--output", "res"}
	if code, stderr := interruptSweep(t, dir, args...); code != 130 {
		t.Fatalf("exit %d, want 130; stderr %s", code, stderr)
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "t.dat"))
	if err != nil {
		t.Fatal(err)
	}
	ino, dev := fileID(t, fi)
	if id := r.Meta.TargetID; id == nil || id.Ino != ino || id.Dev != dev || id.Size != fi.Size() {
		t.Fatalf("recorded target %+v, want inode %d on %d, %d bytes", r.Meta.TargetID, ino, dev, fi.Size())
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, bytes.Repeat([]byte("another file "), int(fi.Size())/13+1)[:fi.Size()], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, filepath.Join(dir, "t.dat")); err != nil {
		t.Fatal(err)
	}
	sum := func(p string) [32]byte {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return sha256.Sum256(b)
	}
	target, results := sum("t.dat"), sum("res/results.json")
	code, _, stderr := runSweep(t, dir, "--resume", "res", "--allow-write", "-q")
	if code != 2 || !strings.Contains(stderr, "not the file the sweep measured") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("resume onto a replaced target: exit %d, %q; want 2 and one line", code, stderr)
	}
	if sum("t.dat") != target {
		t.Error("the file put in the target's place was written")
	}
	if sum("res/results.json") != results {
		t.Error("results.json changed on a refused resume")
	}
}

// TestSweepJobFileShapesCurveAndAdvice sweeps a job file of mixed block
// sizes (bssplit) over a hot spot (zipf): every step runs the job's
// shapes, recorded in results.json, and the curve is analysed and advised
// on as any other: its points, its knee sentence, and advise's depth.
// The same workload given as sweep's flags (fio's names, made from the
// option table's step rows) is swept the same way.
func TestSweepJobFileShapesCurveAndAdvice(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shape func(dir string) []string
	}{
		{"job file", func(dir string) []string {
			job := filepath.Join(dir, "shapes.fio")
			if err := os.WriteFile(job, []byte("[db]\nrw=randread\nbssplit=4k/70:64k/30\nrandom_distribution=zipf:1.2\nsize=16m\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{"--jobfile=" + job}
		}},
		{"flags", func(string) []string {
			return []string{"--rw=randread", "--bssplit=4k/70:64k/30", "--random_distribution=zipf:1.2", "--size=16m"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { sweepShapesCurveAndAdvice(t, tc.shape) })
	}
}

func sweepShapesCurveAndAdvice(t *testing.T, shape func(dir string) []string) {
	dir := t.TempDir()
	code, stdout, stderr := runSweep(t, dir, append(shape(dir), "--filename=data", "--iodepth=1,2,4,8",
		"--ramp_time=0", "--runtime=300ms", "--ss=0", "--control=false", "--output=res")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Meta.Workload.Shape; !strings.Contains(s, "bssplit") || !strings.Contains(s, "zipf") {
		t.Errorf("results.json workload.shape %q: want the job's bssplit and zipf", s)
	}
	if len(r.Analysis) != 1 || len(r.Analysis[0].Analysis.Points) != 4 {
		t.Fatalf("analysis %+v: want one curve of 4 points", r.Analysis)
	}
	if !strings.Contains(stdout, "Saturates at") && !strings.Contains(stdout, "No saturation") {
		t.Errorf("no knee sentence in the sweep's output:\n%s", stdout)
	}
	out, _, code2 := runMain(t, "advise", "--from", filepath.Join(dir, "res"), "--output-format=json")
	if code2 != 0 {
		t.Fatalf("advise: exit %d", code2)
	}
	var adv struct {
		QueueDepth float64 `json:"queue_depth"`
		IODepth    int     `json:"iodepth"`
		NumJobs    int     `json:"numjobs"`
	}
	if err := json.Unmarshal([]byte(out), &adv); err != nil {
		t.Fatalf("advise JSON: %v\n%s", err, out)
	}
	if adv.QueueDepth <= 0 || adv.IODepth*max(adv.NumJobs, 1) < littleslaw.CeilQD(adv.QueueDepth) {
		t.Errorf("advice %+v: no depth for the shaped curve", adv)
	}
}

// TestSweepOpenLoopCLI sweeps Poisson arrivals at two offered loads from
// the command line: results.json records each step's offered and achieved
// rate, latency and in-flight, the analysis its load curve, and the
// latency-vs-offered-load chart is written.
func TestSweepOpenLoopCLI(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runSweep(t, dir, "--filename=data", "--size=8m", "--direct=0", "--rate_process=poisson",
		"--rate_iops=100,200", "--iodepth=8", "--ramp_time=0", "--runtime=500ms", "--control=false",
		"--latency-slo=mean=1s", "--output=res")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Plan.Rates, []float64{100, 200}) || len(r.Steps) != 2 {
		t.Fatalf("plan %+v, %d steps", r.Plan, len(r.Steps))
	}
	for i, s := range r.Steps {
		if s.OfferedIOPS != r.Plan.Rates[i] || s.IOPS <= 0 || s.Lat.P99Ns <= 0 || s.InflightMean <= 0 || s.QD != 8 {
			t.Errorf("step %d: offered %v, achieved %v, p99 %v, in flight %v, QD %d", i, s.OfferedIOPS, s.IOPS, s.Lat.P99Ns, s.InflightMean, s.QD)
		}
		// The response time runs from each I/O's scheduled arrival, before
		// its issue: never shorter than the latency from issue.
		if a := s.ArrivalLat; a == nil || a.MeanNs < s.Lat.MeanNs || a.P50Ns < s.Lat.P50Ns {
			t.Errorf("step %d: response time %+v against latency from issue %+v", i, a, s.Lat)
		}
	}
	if len(r.Analysis) != 1 || r.Analysis[0].Analysis.Load == nil || len(r.Analysis[0].Analysis.Load.Steps) != 2 {
		t.Fatalf("analysis %+v: want a load curve of 2 loads", r.Analysis)
	}
	if !strings.Contains(stdout, "offered") || !strings.Contains(stdout, "In flight each offered load keeps") || !strings.Contains(stdout, "response time") {
		t.Errorf("the table and sentences do not speak of the loads:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "res", "latency-vs-offered-load.png")); err != nil {
		t.Error(err)
	}
}
