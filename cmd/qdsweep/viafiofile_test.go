package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

// wholeFileJobs is a job file fio must run (serialize_overlap: qdsweep
// does not run it natively) whose jobs are tied together: w and r share
// their I/Os 1:8 by fio's flow, s is stonewalled after them (0.5 s at its rate), and t
// starts a group of its own beside s, 1 s after it (startdelay).
const wholeFileJobs = `[global]
filename=f
size=4m
bs=4k
serialize_overlap=1
flow_sleep=100
[w]
rw=write
flow=1
time_based
runtime=1
[r]
rw=randread
flow=8
time_based
runtime=1
[s]
stonewall
rw=read
rate_iops=200
number_ios=100
[t]
new_group
startdelay=1
rw=randwrite
number_ios=64
`

// TestViaFioWholeFile: a job file that goes through fio runs as one fio
// invocation, so what ties its jobs together holds as in fio run on the
// same file: the same jobs, in order, in the same groups; flow's share
// (fio 3.33 reads 8 blocks for each one written, 1,386 writes and 11,097
// reads here, where one fio per job ran them 65,537 against 47,105); the
// stonewalled wave after the first, t after its startdelay (the run lasts
// the first wave and t's delay: a lower bound, never a speed); and the
// size-bound jobs' counts.
func TestViaFioWholeFile(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed (CI installs it)")
	}
	run := func(bin string, args ...string) []fio.Job {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 4<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(wholeFileJobs), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		cmd := exec.Command(bin, append(args, "--output-format=json", "j.fio")...)
		cmd.Dir = dir
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v: %s", bin, err, stderr.String())
		}
		if took := time.Since(start); took < 1900*time.Millisecond {
			t.Errorf("%s ran the file in %v: its first wave lasts 1 s, and t starts 1 s into the second", bin, took)
		}
		if bin != "fio" && strings.Count(stderr.String(), "through fio") != 1 {
			t.Errorf("want one line saying the file runs through fio; stderr:\n%s", stderr.String())
		}
		outs, err := fio.ParseJSON(strings.NewReader(stdout.String()))
		if err != nil {
			t.Fatalf("%s's JSON: %v\n%s", bin, err, stdout.String())
		}
		return fio.Final(outs)[0].Jobs
	}
	fj, qj := run("fio"), run(sweepBinary(t), "run", "--allow-write")
	if len(fj) != 4 || len(qj) != len(fj) {
		t.Fatalf("qdsweep reported %d jobs, fio %d; want 4", len(qj), len(fj))
	}
	ios := func(d *fio.Dir) int64 {
		if d == nil {
			return 0
		}
		return d.TotalIOs
	}
	for i := range fj {
		f, q := fj[i], qj[i]
		if f.Name != q.Name || f.GroupID != q.GroupID {
			t.Errorf("job %d: qdsweep's %s in group %d, fio's %s in group %d", i, q.Name, q.GroupID, f.Name, f.GroupID)
		}
	}
	for k, jobs := range [][]fio.Job{fj, qj} {
		who := []string{"fio", "qdsweep"}[k]
		// About 8 reads a write; a loaded machine's starved job falls
		// behind its share (5.5 seen at load 30), and one fio per job
		// read fewer than it wrote.
		w, r := ios(jobs[0].Write), ios(jobs[1].Read)
		if w == 0 || float64(r)/float64(w) < 3 || float64(r)/float64(w) > 24 {
			t.Errorf("%s: flow: %d writes, %d reads; want about 8 reads a write", who, w, r)
		}
		if s, tw := ios(jobs[2].Read), ios(jobs[3].Write); s != 100 || tw != 64 {
			t.Errorf("%s: s read %d, t wrote %d; want 100 and 64", who, s, tw)
		}
	}
	t.Logf("fio: w %d writes, r %d reads; qdsweep: w %d, r %d", ios(fj[0].Write), ios(fj[1].Read), ios(qj[0].Write), ios(qj[1].Read))
}

// TestViaFioOneJob: a job file of one job that goes through fio (an
// engine qdsweep does not run) runs on the same whole-file path as one of
// several, so its numjobs clones are reported as fio reports them: each
// apart without group_reporting (4 jobs in fio's JSON), as one with it;
// the same on fio's command line. Names, groups and each direction's I/O
// counts are fio's on the same file (fio's randrepeat seeds both runs'
// read/write mix alike). A steady-state test without group_reporting is
// fio's test of each clone, reported with it (it was refused).
func TestViaFioOneJob(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed (CI installs it)")
	}
	const head = "[global]\nfilename=f\nsize=4m\nbs=4k\nioengine=posixaio\n"
	for _, c := range []struct {
		name, file string
		args       []string
		jobs       int
		steady     bool // time-based: each clone's steady-state test, not its count
	}{
		{"clones apart", head + "[j]\nrw=randread\nnumjobs=4\nnumber_ios=50\n", nil, 4, false},
		{"group_reporting", head + "group_reporting\n[j]\nrw=randrw\nnumjobs=4\nnumber_ios=50\n", nil, 1, false},
		{"command line", "", []string{"--name=c", "--filename=f", "--size=4m", "--ioengine=posixaio", "--rw=randrw", "--numjobs=3", "--number_ios=40"}, 3, false},
		{"steadystate per clone", head + "[j]\nrw=randread\nnumjobs=2\nruntime=3\ntime_based\nss=iops_slope:200%\nss_dur=2\nss_ramp=0\n", nil, 2, true},
		// fio 3.33 prints a one-second window's slope as -nan (C's %f).
		{"steadystate of one second", head + "[j]\nrw=randread\nnumjobs=2\nruntime=2\ntime_based\nss=iops_slope:200%\nss_dur=1\nss_ramp=0\n", nil, 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(bin string, args ...string) []fio.Job {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 4<<20), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "--output-format=json")
				if c.file != "" {
					if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(c.file), 0o644); err != nil {
						t.Fatal(err)
					}
					args = append(args, "j.fio")
				}
				cmd := exec.Command(bin, append(args, c.args...)...)
				cmd.Dir = dir
				var stdout, stderr strings.Builder
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%s: %v: %s", bin, err, stderr.String())
				}
				outs, err := fio.ParseJSON(strings.NewReader(stdout.String()))
				if err != nil {
					t.Fatalf("%s's JSON: %v\n%s", bin, err, stdout.String())
				}
				return fio.Final(outs)[0].Jobs
			}
			fj, qj := run("fio"), run(sweepBinary(t), "run", "--allow-write")
			if len(fj) != c.jobs || len(qj) != len(fj) {
				t.Fatalf("qdsweep reported %d jobs, fio %d; want %d", len(qj), len(fj), c.jobs)
			}
			ios := func(d *fio.Dir) int64 {
				if d == nil {
					return 0
				}
				return d.TotalIOs
			}
			for i := range fj {
				f, q := fj[i], qj[i]
				if c.steady {
					if f.Name != q.Name || f.GroupID != q.GroupID || f.Steady == nil || q.Steady == nil || q.Steady.Spec != f.Steady.Spec || len(q.Steady.IOPS) != len(f.Steady.IOPS) {
						t.Errorf("job %d: qdsweep's %s in group %d, steadystate %+v; fio's %s in group %d, %+v", i, q.Name, q.GroupID, q.Steady, f.Name, f.GroupID, f.Steady)
					}
					continue
				}
				if f.Name != q.Name || f.GroupID != q.GroupID || ios(f.Read) != ios(q.Read) || ios(f.Write) != ios(q.Write) {
					t.Errorf("job %d: qdsweep's %s in group %d, %d reads, %d writes; fio's %s in group %d, %d reads, %d writes",
						i, q.Name, q.GroupID, ios(q.Read), ios(q.Write), f.Name, f.GroupID, ios(f.Read), ios(f.Write))
				}
			}
		})
	}
}
