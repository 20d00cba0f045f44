package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestNullEngine: fio's null engine runs natively, as fio's: every I/O
// done at once, no file laid out, opened or written. fio's null.fio as
// shipped (size=100g, no filename) runs and leaves nothing behind; a
// size-bound job does fio's count in each of its clones (64 MiB at 4k:
// 16,384 I/Os a clone, split between reads and writes).
func TestNullEngine(t *testing.T) {
	const shipped = "[global]\nbs=4k\nruntime=300ms\n[null]\nioengine=null\nsize=100g\nrw=randread\nnorandommap\n"
	const sized = "[n]\nbs=4k\nioengine=null\nsize=64m\nrw=randrw\nnumjobs=2\n"
	run := func(bin, text string, args ...string) ([]fio.Job, string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, append(args, "--output-format=json", "j.fio")...)
		cmd.Dir = dir
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v: %s", bin, err, stderr.String())
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("%s left %d files beside the job file; the null engine touches none", bin, len(ents)-1)
		}
		outs, err := fio.ParseJSON(strings.NewReader(stdout.String()))
		if err != nil {
			t.Fatalf("%s's JSON: %v", bin, err)
		}
		return fio.Final(outs)[0].Jobs, stderr.String()
	}
	qj, stderr := run(sweepBinary(t), shipped, "run")
	if strings.Contains(stderr, "through fio") || strings.Contains(stderr, "laying out") {
		t.Errorf("want the null job run natively with nothing laid out; stderr:\n%s", stderr)
	}
	if len(qj) != 1 || qj[0].Read == nil || qj[0].Read.TotalIOs == 0 {
		t.Fatalf("null.fio: %+v", qj)
	}
	qj, _ = run(sweepBinary(t), sized, "run")
	check := func(who string, jobs []fio.Job) {
		if len(jobs) != 2 {
			t.Fatalf("%s reported %d jobs, want 2 clones", who, len(jobs))
		}
		for _, j := range jobs {
			if n := j.Read.TotalIOs + j.Write.TotalIOs; n != 16384 || j.Read.TotalIOs == 0 || j.Write.TotalIOs == 0 {
				t.Errorf("%s: clone %s did %d reads and %d writes; want 16,384 in all, both directions", who, j.Name, j.Read.TotalIOs, j.Write.TotalIOs)
			}
		}
	}
	check("qdsweep", qj)
	if _, err := exec.LookPath("fio"); err == nil {
		fj, _ := run("fio", sized)
		check("fio", fj)
	}
}
