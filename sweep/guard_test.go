//go:build linux

package sweep_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestSweepHoldsDeviceAgainstMount: a write sweep over a real loop device
// holding ext4 (allowed with --destroy-data) keeps the device claimed from
// the first step to the last. The device mounts before the sweep; during the
// sweep every mount attempt fails with EBUSY; after it the claim is gone.
func TestSweepHoldsDeviceAgainstMount(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4")
	img := looptest.MakeImage(t, 64<<20)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
	holdsAgainstMount(t, looptest.AttachLoop(t, img, false))
}

// TestSweepHoldsZramAgainstMount: the same on a zram device holding ext4.
func TestSweepHoldsZramAgainstMount(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4")
	dev := looptest.Zram(t, 64<<20)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", dev)
	holdsAgainstMount(t, dev)
}

// holdsAgainstMount runs a write sweep over the upper half of dev (64 MiB,
// holding ext4) and checks every mount of dev during it fails with EBUSY.
func holdsAgainstMount(t *testing.T, dev string) {
	t.Helper()
	dir := t.TempDir()
	mount := func() error { return unix.Mount(dev, dir, "ext4", unix.MS_RDONLY, "") }
	// Mountable before the sweep (so EBUSY later is the hold, nothing else).
	if err := mount(); err != nil {
		looptest.Skipf(t, "cannot mount %s here: %v", dev, err)
	}
	if err := unix.Unmount(dir, 0); err != nil {
		t.Fatal(err)
	}

	eng, _, err := ioengine.New(ioengine.EnginePsync)
	if err != nil {
		t.Fatal(err)
	}
	// Writes only the upper half, so the superblock stays and only the hold can refuse the mount.
	cfg := sweep.Config{
		Engine: eng,
		Workload: ioengine.Workload{Filename: dev, Offset: 32 << 20, Size: 32 << 20, RandSeed: 1,
			Permit: guard.Permit{AllowWriteDevice: true, DestroyData: dev}},
		Runtime: 700 * time.Millisecond,
		Steady:  sweep.SteadyConfig{Interval: 50 * time.Millisecond, Window: 150 * time.Millisecond},
	}
	// Mount attempts from inside the sweep: while a step writes (OnLive,
	// from the sampling goroutine) and between steps (OnStep).
	var attempts, busy, mounted int
	var other []error
	try := func() {
		attempts++
		switch err := mount(); {
		case err == nil:
			mounted++
			unix.Unmount(dir, 0)
		case errors.Is(err, unix.EBUSY):
			busy++
		default:
			other = append(other, err)
		}
	}
	cfg.OnLive = func(sweep.Live) { try() }
	cfg.OnStep = func(*sweep.Result, sweep.Step) error { try(); return nil }
	r := sweep.NewResult(sweep.Meta{Engine: eng.Name()}, sweep.NewPlan([]ioengine.RW{ioengine.RandWrite}, []int64{4096}, []int{1}, []int{1, 2, 4}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if mounted > 0 || len(other) > 0 || busy == 0 || busy != attempts {
		t.Fatalf("%d mount attempts during the sweep: %d mounted, %d EBUSY, other errors %v; want every one EBUSY", attempts, mounted, busy, other)
	}
	for _, s := range r.Steps {
		if s.Failed != "" || s.IOPS <= 0 {
			t.Errorf("step %+v", s)
		}
	}
	t.Logf("%d mount attempts during the sweep, all EBUSY; %d steps", busy, len(r.Steps))
	if looptest.ExclusivelyHeld(t, dev) {
		t.Error("device still held after the sweep")
	}
	if err := mount(); err != nil {
		t.Errorf("mount after the sweep: %v", err)
	} else {
		unix.Unmount(dir, 0)
	}
}

// TestSweepRefusesByDefault: sweep.Run itself refuses writes the guard does
// not allow (no Permit), before any step runs; an explicit Unchecked permit
// skips the check.
func TestSweepRefusesByDefault(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(path, make([]byte, 4<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	eng, _, err := ioengine.New(ioengine.EnginePsync)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sweep.Config{Engine: eng, Workload: ioengine.Workload{Filename: path}, Runtime: 50 * time.Millisecond}
	r := sweep.NewResult(sweep.Meta{}, sweep.NewPlan([]ioengine.RW{ioengine.RandRead, ioengine.RandWrite}, []int64{4096}, []int{1}, []int{1}, true))
	if err := sweep.Run(context.Background(), cfg, r); !errors.Is(err, guard.ErrWriteRefused) || len(r.Steps) != 0 {
		t.Fatalf("got %v with %d steps, want a write refusal and no step", err, len(r.Steps))
	}
	cfg.Workload.Permit = guard.Permit{Unchecked: true}
	if err := sweep.Run(context.Background(), cfg, r); err != nil || len(r.Steps) != 2 {
		t.Fatalf("unchecked: %v, %d steps", err, len(r.Steps))
	}
}
