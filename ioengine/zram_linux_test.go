//go:build linux

package ioengine_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/device"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestEnginesOnZram: every kernel engine on a zram device (a block device
// of its own driver and queue, served from memory). Sizing: --size 0 is the
// whole device (BLKGETSIZE64), a region past its end is refused naming its
// size. Writes to the blank device run; reads are counted by the device's
// /sys/block/zram0/stat (at least the window's I/Os: the ramp reads too).
// Once it holds ext4, every engine refuses to write it and it keeps every
// byte.
func TestEnginesOnZram(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4")
	const size = 16 << 20
	dev := looptest.Zram(t, size)
	d, err := device.Resolve(dev)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "zram0" {
		t.Fatalf("%s resolves to %q, want zram0", dev, d.Name)
	}
	names := []string{ioengine.EngineIOUring, ioengine.EngineLibaio, ioengine.EnginePsync}
	run := func(name string, w ioengine.Workload) (*ioengine.Stats, error) {
		t.Helper()
		eng, _, err := ioengine.New(name)
		if err != nil {
			t.Logf("engine %s: %v", name, err)
			return nil, errors.ErrUnsupported
		}
		w.Filename, w.BS, w.IODepth, w.NumJobs, w.Direct = dev, 4096, 4, 1, true
		if name == ioengine.EnginePsync {
			w.IODepth = 1
		}
		return eng.Run(context.Background(), w, ioengine.Control{Runtime: 200 * time.Millisecond})
	}
	for _, name := range names {
		if _, err := run(name, ioengine.Workload{RW: ioengine.RandWrite, Permit: guard.Permit{AllowWriteDevice: true}}); err != nil && !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("%s: write to the blank %s: %v", name, dev, err)
		}
		// The last block alone: the region is what the device's size leaves.
		if _, err := run(name, ioengine.Workload{RW: ioengine.Read, Offset: size - 4096}); err != nil && !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("%s: read of %s's last block (--size 0): %v", name, dev, err)
		}
		_, err := run(name, ioengine.Workload{RW: ioengine.RandRead, Size: size + 4096})
		if err != nil && !errors.Is(err, errors.ErrUnsupported) && !strings.Contains(err.Error(), "("+strconv.Itoa(size)+" bytes)") {
			t.Errorf("%s: a region 4 KiB past %s's end: %v, want a refusal naming its %d bytes", name, dev, err, size)
		} else if err == nil {
			t.Errorf("%s: a region 4 KiB past %s's end ran", name, dev)
		}
		a, err := d.Sample()
		if err != nil {
			t.Fatal(err)
		}
		st, err := run(name, ioengine.Workload{RW: ioengine.RandRead})
		if errors.Is(err, errors.ErrUnsupported) {
			continue
		} else if err != nil {
			t.Fatalf("%s: read %s: %v", name, dev, err)
		}
		b, err := d.Sample()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(st.Buffers, "tmpfs") {
			t.Errorf("%s: buffers on %s: %q; a block device is no tmpfs (its node's fstatfs names /dev's)", name, dev, st.Buffers)
		}
		if got := int64(b.Stats.ReadIOs - a.Stats.ReadIOs); st.All.TotalIOs == 0 || got < st.All.TotalIOs {
			t.Errorf("%s: %s's stat counted %d reads, the engine measured %d in its window", name, d.Name, got, st.All.TotalIOs)
		}
	}

	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", dev)
	before := looptest.FileSum(t, dev)
	for _, name := range names {
		_, err := run(name, ioengine.Workload{RW: ioengine.Write, Permit: guard.Permit{AllowWriteDevice: true}})
		if !errors.Is(err, errors.ErrUnsupported) && (!errors.Is(err, guard.ErrHasSignature) || !errors.Is(err, guard.ErrWriteRefused)) {
			t.Errorf("%s: write to %s holding ext4 with --allow-write-device: %v, want a refusal naming its filesystem", name, dev, err)
		}
	}
	if after := looptest.FileSum(t, dev); after != before {
		t.Errorf("%s holding ext4 changed: sha256 %s → %s", dev, before, after)
	}
}
