//go:build linux

package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/looptest"
)

// TestLaterGroupWritesWhatWasJudged: a job file's second group (stonewall)
// used to open its file by path when it started, seconds after the check:
// a symlink to another file put in its place meanwhile (with
// --allow-write) sent the writes there, and a file qdsweep laid out,
// deleted and replaced by a copy of data that took its inode number was
// taken for qdsweep's own and overwritten. Every file is now checked and
// held before the first group starts, and a later group writes through
// that descriptor: whichever moment the swap lands, the file behind the
// symlink and the file put in the path keep their bytes.
func TestLaterGroupWritesWhatWasJudged(t *testing.T) {
	bin := sweepBinary(t)
	const job = "[a]\nrw=write\nsize=4m\nfilename=fa\nruntime=2\ntime_based\n[b]\nstonewall\nrw=randwrite\nsize=8m\nfilename=fb\n"
	const first, second = "[a]\nrw=write\nsize=4m\nfilename=fa\nruntime=2\ntime_based\n", "[b]\nrw=randwrite\nsize=8m\nfilename=fb\nsync_file_range=write:8\n"
	for _, c := range []struct {
		name     string
		args     []string
		existing bool // fb holds 8 MiB of zeros before the run (else laid out)
		swap     func(dir string) error
		fio      bool // the second job goes through fio (sync_file_range)
	}{
		{"symlink", []string{"run", "two.fio", "--allow-write"}, true, func(dir string) error {
			if err := os.Rename(filepath.Join(dir, "fb"), filepath.Join(dir, "fb.orig")); err != nil {
				return err
			}
			return os.Symlink("victim", filepath.Join(dir, "fb"))
		}, false},
		{"inode reused", []string{"run", "two.fio"}, false, func(dir string) error {
			if err := os.Remove(filepath.Join(dir, "fb")); err != nil {
				return err
			}
			b, err := os.ReadFile(filepath.Join(dir, "victim"))
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "fb"), b, 0o644)
		}, false},
		// A second job file whose job fio runs: its file is held from the
		// start too, and fio is handed that descriptor.
		{"hard link renamed over, fio's job", []string{"run", "--allow-write", "one.fio", "two.fio"}, true, func(dir string) error {
			if err := os.Link(filepath.Join(dir, "victim"), filepath.Join(dir, "fb.tmp")); err != nil {
				return err
			}
			return os.Rename(filepath.Join(dir, "fb.tmp"), filepath.Join(dir, "fb"))
		}, true},
	} {
		if c.fio {
			if _, err := exec.LookPath("fio"); err != nil && os.Getenv("CI") != "true" {
				t.Logf("%s: fio is not installed", c.name)
				continue
			}
		}
		dir := t.TempDir()
		victim := make([]byte, 8<<20)
		rand.Read(victim)
		files := map[string][]byte{"victim": victim, "two.fio": []byte(job)}
		if c.fio {
			files["one.fio"], files["two.fio"] = []byte(first), []byte(second)
		}
		if c.existing {
			files["fb"] = make([]byte, 8<<20)
		}
		for n, b := range files {
			if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(bin, c.args...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Swap once fb is there at its size and group a is under way.
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			fa, errA := os.Stat(filepath.Join(dir, "fa"))
			fb, errB := os.Stat(filepath.Join(dir, "fb"))
			if errA == nil && errB == nil && fa.Size() == 4<<20 && fb.Size() == 8<<20 {
				break
			}
		}
		time.Sleep(300 * time.Millisecond)
		if err := c.swap(dir); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		t.Logf("%s: %v\n%s", c.name, err, out.String())
		for _, n := range []string{"victim", "fb"} {
			b, rerr := os.ReadFile(filepath.Join(dir, n))
			if rerr != nil || !bytes.Equal(b, victim) {
				t.Errorf("%s: %s no longer holds the 8 MiB it held (%d bytes, %v)", c.name, n, len(b), rerr)
			}
		}
	}
}

// TestDeviceInTwoModesAcrossGroups: a block device written by two groups,
// one with direct=1 and one with direct=0, runs both: it is held once from
// the start (its O_EXCL claim qdsweep's), and each job opens it again
// through that descriptor in its own mode. Holding it once per mode
// refused the job file as busy, qdsweep's own claim taken for another's.
func TestDeviceInTwoModesAcrossGroups(t *testing.T) {
	looptest.RequireRootTools(t)
	dev := looptest.AttachLoop(t, looptest.MakeImage(t, 64<<20), false)
	dir := t.TempDir()
	job := fmt.Sprintf("[a]\nfilename=%s\nrw=randwrite\nsize=8m\ndirect=1\nnumber_ios=100\n[b]\nstonewall\nfilename=%s\nrw=randwrite\nsize=8m\ndirect=0\nnumber_ios=100\n", dev, dev)
	if err := os.WriteFile(filepath.Join(dir, "d.fio"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runQdsweep(t, dir, "run", "d.fio", "--allow-write-device", "--destroy-data="+dev, "--output-format=terse")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var jobs []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if f := strings.Split(l, ";"); len(f) > 50 && f[0] == "3" {
			jobs = append(jobs, f[2]+" wrote "+f[46]+" KiB")
		}
	}
	if got := strings.Join(jobs, ", "); got != "a wrote 400 KiB, b wrote 400 KiB" {
		t.Errorf("jobs: %s, want each to write its 100 I/Os of 4 KiB", got)
	}
}
