package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// showcmdFiles are job files for TestShowCmdAsFio: [global] sections
// before, between and after jobs, aliases, switches, a description,
// options fio sorts (kb_base first, filename last), an engine's options
// (after fio's own), comments, a variable and an include. Each writes the
// file "out" in its directory were it run.
var showcmdFiles = map[string]string{
	"global-and-jobs.fio": "[global]\nioengine=psync\nbs=4k\nsize=64k\n; comment\n[a]\nrw=write\nfilename=out\n[b]\nrw=randread\niodepth=4\nfilename=out\n",
	"one-job.fio":         "[job1]\nrw=write\nsize=1m\ndirect=1\nthread\nfilename=out\n",
	"globals-between.fio": "[global]\nreadwrite=randwrite\nbs=4K  ; trailing comment\n# hash comment\nsize=${SHOWCMD_SIZE}\niodepth_batch=2\n" +
		"description=hello world\n[my job]\nfilename=out\nrw=randrw\nrate=1m,2m\ntime_based\nruntime=2s\n[global]\nbs=8k\n[z]\nfilename=out\nrw=write\n",
	"engine-options.fio": "[global]\nioengine=io_uring\nhipri\nsqthread_poll=1\nfilename=out\nkb_base=1000\nbs=4k\n" +
		"[j]\nfixedbufs\nrw=write\niodepth=16\nsize=1m\n[k]\ndescription=two words\nthread\nrw=write\nsize=64k\n",
	"include.fio": "[global]\ninclude parts.inc\nsize=1m\n[a]\nfilename=out\n",
}

// TestShowCmdAsFio: `qdsweep run --showcmd` prints what fio 3.33's
// --showcmd prints for each job file, byte for byte (one file, several
// files, a --section), exits 0 and writes nothing, writes allowed or not;
// a file fio fails (an option fio does not have) is refused in one line,
// exit 2.
func TestShowCmdAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	t.Setenv("SHOWCMD_SIZE", "10m")
	runs := [][]string{
		{"global-and-jobs.fio"}, {"one-job.fio"}, {"globals-between.fio"}, {"engine-options.fio"}, {"include.fio"},
		{"global-and-jobs.fio", "one-job.fio"},
		{"--section=b", "global-and-jobs.fio"},
	}
	for _, args := range runs {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			dir := showcmdDir(t)
			cmd := exec.Command(fioBin, append([]string{"--showcmd"}, args...)...)
			cmd.Dir = dir
			want, err := cmd.Output()
			if err != nil {
				t.Fatalf("fio --showcmd %v: %v", args, err)
			}
			for _, pre := range [][]string{{"run", "--showcmd"}, {"run", "--showcmd", "--allow-write"}} {
				got, stderr, rc := runQdsweep(t, dir, append(pre, args...)...)
				if rc != 0 || got != string(want) || stderr != "" {
					t.Errorf("%v: exit %d, stderr %q\nfio:     %q\nqdsweep: %q", pre, rc, stderr, want, got)
				}
				if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
					t.Fatalf("%v wrote out", pre)
				}
			}
		})
	}
	dir := showcmdDir(t)
	if err := os.WriteFile(filepath.Join(dir, "bad.fio"), []byte("[a]\nfoo=1\nrw=write\nfilename=out\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(fioBin, "--showcmd", filepath.Join(dir, "bad.fio")).Run(); err == nil {
		t.Fatal("fio --showcmd accepted foo=1")
	}
	stdout, stderr, rc := runQdsweep(t, dir, "run", "--showcmd", "--allow-write", "bad.fio")
	if rc != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "foo") {
		t.Errorf("bad.fio: exit %d, stdout %q, stderr %q; want exit 2 and one line naming foo", rc, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Fatal("bad.fio: out written")
	}
}

// showcmdDir is a directory holding showcmdFiles and the include's part.
func showcmdDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"parts.inc": "bs=16k\nrw=write\n"}
	for name, text := range showcmdFiles {
		files[name] = text
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
