//go:build linux

package main_test

// Rows of the attack table (issue 33) as the user meets them: the real
// binary, the data at stake checksummed before and after.

import (
	"bytes"
	"crypto/rand"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/looptest"
)

// TestOutputNeverALayer: run's --output naming the image behind the loop
// device it measures, or the image behind a mounted loop device, is
// refused before anything runs (exit 2, one line naming the loop device):
// the image keeps its bytes and its name (the loop device is not left over
// a deleted file).
func TestOutputNeverALayer(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4")
	dir := t.TempDir()
	for _, mounted := range []bool{false, true} {
		img := looptest.MakeImage(t, 16<<20)
		if mounted {
			looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
		} else {
			b := make([]byte, 16<<20)
			rand.Read(b)
			if err := os.WriteFile(img, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dev := looptest.AttachLoop(t, img, false)
		target := dev
		if mounted {
			looptest.Mount(t, dev)
			target = filepath.Join(dir, "other.dat")
			if err := os.WriteFile(target, make([]byte, 1<<20), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		before := looptest.FileSum(t, img)
		_, stderr, code := runWithin(t, dir, nil, 2*time.Minute, "run", "--filename="+target, "--rw=read", "--size=1m", "--runtime=200ms", "--output="+img)
		if code != 2 || !strings.Contains(stderr, filepath.Base(dev)) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("run --filename=%s --output=%s (mounted %v): exit %d, %q; want 2 and one line naming %s", target, img, mounted, code, stderr, dev)
		}
		if looptest.FileSum(t, img) != before {
			t.Errorf("the image behind %s changed", dev)
		}
		b, err := os.ReadFile("/sys/class/block/" + filepath.Base(dev) + "/loop/backing_file")
		if err != nil || strings.Contains(string(b), "(deleted)") {
			t.Errorf("%s's backing file %q (%v): the image lost its name", dev, b, err)
		}
	}
}

// TestFioSweepRenameRace: a write sweep through the fio engine while its
// target and a victim swap names every 2 ms (renameat2 RENAME_EXCHANGE).
// The sweep lays out its target (ours by inode) and fio writes only the
// held descriptor; the victim, a file the sweep has no --allow-write for,
// keeps every byte (sha256 through a descriptor of its own, whatever name
// it ends under), whether the sweep finished or stopped on the swap.
func TestFioSweepRenameRace(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio not installed")
	}
	for i := 0; i < 3; i++ { // before the descriptors, 1 sweep in 4 wrote the victim here
		raceOnce(t)
	}
}

func raceOnce(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	tgt, vic := filepath.Join(dir, "target"), filepath.Join(dir, "victim")
	looptest.RandomFile(t, vic, 8<<20)
	victim, err := os.Open(vic)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()
	before := looptest.SumOf(t, victim)
	stop := looptest.SwapNames(tgt, vic, 2*time.Millisecond) // from the moment the sweep has laid out its target
	_, stderr, code := runWithin(t, dir, nil, 2*time.Minute, "sweep", "--ioengine=fio", "--filename="+tgt, "--rw=write", "--bs=64k", "--size=8m",
		"--iodepth=1,2,4", "--runtime=300ms", "--ramp_time=0", "--ss=0", "--output=res", "--quiet")
	swaps := stop()
	if after := looptest.SumOf(t, victim); after != before {
		t.Fatalf("the victim changed during a fio write sweep (exit %d, %d swaps): %s", code, swaps, stderr)
	}
	t.Logf("exit %d after %d swaps; the victim unchanged: %s", code, swaps, firstLines(stderr, 1))
}

// TestRunKeepsFiguresWhenOutputGoes: --output is checked before the run
// measures; when its directory is removed while the run measures, the
// figures are written to standard output (exit 1, one line saying so)
// rather than lost.
func TestRunKeepsFiguresWhenOutputGoes(t *testing.T) {
	dir := t.TempDir()
	outDir := filepath.Join(dir, "out")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(bin, "run", "--filename=t.dat", "--size=1m", "--rw=read", "--time_based", "--runtime=3s",
		"--output-format=qdsweep-json", "--output="+filepath.Join(outDir, "run.json"))
	c.Dir = dir
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	// The target is laid out after every check passed: then the
	// directory goes.
	for i := 0; i < 6000; i++ {
		if _, err := os.Stat(filepath.Join(dir, "t.dat")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := os.RemoveAll(outDir); err != nil {
		t.Fatal(err)
	}
	err := c.Wait()
	var ee *exec.ExitError
	if err == nil {
		if _, serr := os.Stat(filepath.Join(outDir, "run.json")); serr != nil {
			t.Fatalf("exit 0 and no results file: %s", stderr.String())
		}
		t.Skip("the run ended before its output directory was removed")
	}
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "standard output") {
		t.Fatalf("exit %v, stderr %q; want 1 and a line saying the figures went to standard output", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), `"iops"`) && !strings.Contains(stdout.String(), "iops") {
		t.Fatalf("stdout holds no figures: %.300s", stdout.String())
	}
}
