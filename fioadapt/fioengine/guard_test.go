//go:build linux

package fioengine_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestFioFilenameColon: fio splits filename on ':'. A target named
// "d/victim:new" must be the one file of that name; the file "d/victim"
// beside it must come through untouched.
func TestFioFilenameColon(t *testing.T) {
	needFio(t)
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	keep := []byte(strings.Repeat("keep me ", 512))
	if err := os.WriteFile(victim, keep, 0o600); err != nil {
		t.Fatal(err)
	}
	target := victim + ":new"
	if err := os.WriteFile(target, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	w := ioengine.Workload{Filename: target, Size: 1 << 20, RW: ioengine.Write, BS: 4096, IODepth: 1, NumJobs: 1,
		Permit: guard.Permit{AllowWrite: true}}
	if _, err := fioengine.NewEngine(fioengine.Options{IOEngine: "psync"}).Run(context.Background(), w, ioengine.Control{Runtime: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(victim)
	if err != nil || string(got) != string(keep) {
		t.Fatalf("%s changed (%d bytes, %v): fio did not get the escaped name", victim, len(got), err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("fio created files: %v", ents)
	}
}

// TestFioNeedsPermit: the fio engine refuses to write an existing file
// without a Permit, before fio starts.
func TestFioNeedsPermit(t *testing.T) {
	needFio(t)
	path := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	w := ioengine.Workload{Filename: path, Size: 1 << 20, RW: ioengine.RandWrite, BS: 4096, IODepth: 1, NumJobs: 1}
	_, err := fioengine.NewEngine(fioengine.Options{}).Run(context.Background(), w, ioengine.Control{Runtime: 100 * time.Millisecond})
	if !errors.Is(err, guard.ErrWriteRefused) {
		t.Fatalf("got %v, want a write refusal", err)
	}
}

// TestFioRefusedArgs: --fio-arg is an allow-list matched as fio's getopt
// matches: options that add jobs or change the target, region or
// direction are refused by name, and so are abbreviations (fio takes a
// unique prefix: --opend is opendir, --exec_prer exec_prerun), engines
// that delete or create files, memory backed by a file, and a value given
// as the next argument (fio would read qdsweep's next option as it);
// harmless tuning passes.
func TestFioRefusedArgs(t *testing.T) {
	for _, a := range []string{"--ioengine=filedelete", "--ioengine=filecreate", "--ioengine=external:/tmp/x.so",
		"--opend=/tmp", "--mem=mmap:/tmp/f", "--iomem=mmaphuge:/tmp/f", "--exec_prer=touch /tmp/x", "--write_iol=/tmp/f",
		"--fileoffset=3m", "--threa", "--nice", "--ioscheduler=none", "--trim_percentage=100", "--allow_mounted_write=1",
		"--Thread", "--cpus_allowed=0/1", "--name=extra", "--filename=/dev/loop13", "--directory=/", "--filename_format=x",
		"--opendir=/", "--rw=write", "--readwrite=randwrite", "--rwmixread=0", "--RWMIXWRITE=100", "--size=1g",
		"--offset=1m", "--numjobs=4", "--exec_prerun=rm", "--output=/etc/x", "--write-lat-log=/tmp/x", "extra.fio", "-", "--"} {
		err := fioengine.CheckExtraArgs([]string{"--thread", a})
		if err == nil || !strings.Contains(err.Error(), a) {
			t.Errorf("%s: %v, want a refusal naming it", a, err)
		}
	}
	if err := fioengine.CheckExtraArgs([]string{"--thread", "--hipri", "--fixedbufs=1", "--norandommap", "--gtod_reduce=1",
		"--ioengine=libaio", "--mem=shm", "--cpus_allowed=0-1", "--percentile_list=99:99.9", "--iodepth_batch_submit=8"}); err != nil {
		t.Errorf("harmless args refused: %v", err)
	}
	if err := fioengine.CheckExtraArgs([]string{"--description=a\nb"}); err == nil {
		t.Error("a newline in --fio-arg passed")
	}
}

// TestFioHoldsDevice: while the fio engine writes a blank loop device, the
// device is claimed exclusively: an O_EXCL open elsewhere fails with EBUSY.
func TestFioHoldsDevice(t *testing.T) {
	needFio(t)
	looptest.RequireRootTools(t)
	dev := looptest.AttachLoop(t, looptest.MakeImage(t, 16<<20), false)
	w := ioengine.Workload{Filename: dev, Size: 8 << 20, RW: ioengine.RandWrite, BS: 4096, IODepth: 1, NumJobs: 1,
		Permit: guard.Permit{AllowWriteDevice: true}}
	done := make(chan error, 1)
	go func() {
		_, err := fioengine.NewEngine(fioengine.Options{IOEngine: "psync"}).Run(context.Background(), w, ioengine.Control{Runtime: 1500 * time.Millisecond})
		done <- err
	}()
	// The engine holds the device before fio starts; ask until fio ends.
	var held bool
	for end := time.After(10 * time.Second); !held; {
		select {
		case err := <-done:
			t.Fatalf("fio run ended (%v) before the device was seen held", err)
		case <-end:
			t.Fatal("device never held")
		case <-time.After(20 * time.Millisecond):
		}
		held = looptest.ExclusivelyHeld(t, dev)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if looptest.ExclusivelyHeld(t, dev) {
		t.Error("device still held after the run")
	}
}

// TestFioTargetSwappedBetweenSteps: fio opens the target by path at every
// step, so before each one the engine proves the path still leads to the
// file the sweep holds. A symlink to another file swapped in between two
// steps stops the second before fio opens anything, and that file keeps
// every byte; a write through a symlinked --filename is refused outright.
func TestFioTargetSwappedBetweenSteps(t *testing.T) {
	needFio(t)
	dir := t.TempDir()
	target, victim := filepath.Join(dir, "target"), filepath.Join(dir, "victim")
	for _, p := range []string{target, victim} {
		if err := os.WriteFile(p, bytes.Repeat([]byte(p), (8<<20)/len(p)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	permit := guard.Permit{AllowWrite: true}
	w := ioengine.Workload{Filename: target, Size: 4 << 20, RW: ioengine.RandWrite, BS: 4096, IODepth: 1, NumJobs: 1, Permit: permit}
	h, err := guard.Hold(guard.Target{Path: target, Write: true, End: 4 << 20}, permit)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	w.Held = h
	e := fioengine.NewEngine(fioengine.Options{IOEngine: "psync"})
	ctl := ioengine.Control{Runtime: 200 * time.Millisecond}
	if _, err := e.Run(context.Background(), w, ctl); err != nil {
		t.Fatalf("first step: %v", err)
	}
	before := looptest.FileSum(t, victim)
	if err := os.Rename(target, target+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, target); err != nil { // another file under the name
		t.Fatal(err)
	}
	if _, err := e.Run(context.Background(), w, ctl); !errors.Is(err, guard.ErrTargetChanged) {
		t.Fatalf("second step after the swap: %v, want ErrTargetChanged", err)
	}
	if err := os.Remove(target); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, target); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(context.Background(), w, ctl); !errors.Is(err, guard.ErrWriteRefused) {
		t.Fatalf("a symlink swapped in: %v, want a refusal", err)
	}
	w.Held = nil
	if _, err := e.Run(context.Background(), w, ctl); !errors.Is(err, guard.ErrWriteRefused) {
		t.Fatalf("a write through a symlinked --filename: %v, want a refusal", err)
	}
	if looptest.FileSum(t, victim) != before {
		t.Fatal("the swapped-in file changed")
	}
}
