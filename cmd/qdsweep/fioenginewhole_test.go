package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

// TestFioEngineRunsTheFileAsFio: `run --ioengine=fio` of a job file
// qdsweep could run natively hands fio the whole file, as `fio FILE`
// runs it: each job on its own ioengine at its own depth (a libaio job at
// iodepth 4 ran psync at depth 1 before: 100% of I/Os at depth 1), its
// numjobs clones reported apart without group_reporting (they were
// merged into one job), stonewall's groups, and exitall, which ends the
// run when the first job ends (refused before: one fio per job could not
// stop the others). Names, groups, per-direction counts and fio's own
// I/O depth distribution are fio's on the same file.
func TestFioEngineRunsTheFileAsFio(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("fio is not installed (.ci/run installs it)")
		}
		t.Skip("fio is not installed")
	}
	const head = "[global]\nfilename=f\nsize=4m\nbs=4k\n"
	for _, c := range []struct {
		name, file string
		jobs       int
		exitAll    bool
	}{
		{"engines, depths, clones, groups", head +
			"[a]\nioengine=libaio\niodepth=4\nrw=randread\nnumjobs=2\nnumber_ios=100\n" +
			"[b]\nstonewall\nrw=read\nnumber_ios=50\n" +
			"[c]\nioengine=io_uring\niodepth=8\nrw=randwrite\nnumber_ios=64\n", 4, false},
		{"exitall", head + "exitall\n[long]\nrw=randread\ntime_based\nruntime=20\n[short]\nrw=read\nnumber_ios=200\n", 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(bin string, args ...string) ([]fio.Job, time.Duration) {
				dir := t.TempDir()
				for name, b := range map[string][]byte{"f": make([]byte, 4<<20), "j.fio": []byte(c.file)} {
					if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				start := time.Now()
				cmd := exec.Command(bin, append(args, "--output-format=json", "j.fio")...)
				cmd.Dir = dir
				var stdout, stderr strings.Builder
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%s: %v: %s", bin, err, stderr.String())
				}
				took := time.Since(start)
				outs, err := fio.ParseJSON(strings.NewReader(stdout.String()))
				if err != nil {
					t.Fatalf("%s's JSON: %v\n%s", bin, err, stdout.String())
				}
				return fio.Final(outs)[0].Jobs, took
			}
			fj, _ := run("fio")
			qj, took := run(sweepBinary(t), "run", "--allow-write", "--ioengine=fio")
			if len(fj) != c.jobs || len(qj) != len(fj) {
				t.Fatalf("qdsweep reported %d jobs, fio %d; want %d", len(qj), len(fj), c.jobs)
			}
			if c.exitAll && took > 15*time.Second {
				t.Errorf("the run took %v: exitall ends it when [short] ends, not after [long]'s 20 s", took)
			}
			for i := range fj {
				f, q := fj[i], qj[i]
				if f.Name != q.Name || f.GroupID != q.GroupID || f.IOEngine != q.IOEngine {
					t.Errorf("job %d: qdsweep's %s in group %d on %s; fio's %s in group %d on %s", i, q.Name, q.GroupID, q.IOEngine, f.Name, f.GroupID, f.IOEngine)
				}
				if c.exitAll {
					continue // [long]'s count is where exitall cut it
				}
				if dirIOs(f.Read) != dirIOs(q.Read) || dirIOs(f.Write) != dirIOs(q.Write) || !reflect.DeepEqual(f.IODepthDist, q.IODepthDist) {
					t.Errorf("job %d (%s): qdsweep %d reads, %d writes, depths %v; fio %d, %d, %v",
						i, f.Name, dirIOs(q.Read), dirIOs(q.Write), q.IODepthDist, dirIOs(f.Read), dirIOs(f.Write), f.IODepthDist)
				}
			}
		})
	}
}

// dirIOs is a direction's I/O count in fio's report (0 when absent).
func dirIOs(d *fio.Dir) int64 {
	if d == nil {
		return 0
	}
	return d.TotalIOs
}
