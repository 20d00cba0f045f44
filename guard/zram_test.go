//go:build linux

package guard_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
)

// TestSafetyZram: the write guard on a zram device, a block device with a
// driver and queue of its own (no backing file): blank, a write is allowed
// with --allow-write-device; holding an ext4 filesystem, it is refused as
// on a loop device (the same cases); held for a run, the device is claimed
// exclusively and a second writer is refused; mounted, it is busy with
// every flag. The device keeps every byte throughout.
func TestSafetyZram(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4", "mount", "umount")
	dev := looptest.Zram(t, 32<<20)
	st, err := guard.StackOf(dev)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Layers) != 1 || st.Layers[0].Path != dev || st.Busy() != nil {
		t.Errorf("stack of a blank %s: %s (busy: %v), want the device alone and free", dev, st, st.Busy())
	}
	before := looptest.FileSum(t, dev)
	checkGuard(t, dev, blankCases(dev))
	if after := looptest.FileSum(t, dev); after != before {
		t.Errorf("blank %s changed: sha256 %s → %s", dev, before, after)
	}

	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", "-U", safetyUUID, "-L", "qdsafety", dev)
	link := filepath.Join(t.TempDir(), "by-id")
	if err := os.Symlink(dev, link); err != nil {
		t.Fatal(err)
	}
	before = looptest.FileSum(t, dev)
	checkGuard(t, dev, ext4Cases(dev, link))

	// Held for a write run: claimed exclusively until closed.
	p := guard.Permit{AllowWriteDevice: true, DestroyData: dev}
	h, err := guard.Hold(guard.Target{Path: dev, Write: true, End: 1 << 20}, p)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Exclusive() || !looptest.ExclusivelyHeld(t, dev) {
		t.Errorf("%s held for writing: Exclusive %v, O_EXCL open elsewhere refused %v; want both", dev, h.Exclusive(), looptest.ExclusivelyHeld(t, dev))
	}
	refusedBusy(t, dev, p, dev, "opened exclusively elsewhere")
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if looptest.ExclusivelyHeld(t, dev) {
		t.Errorf("%s still claimed after Close", dev)
	}

	if after := looptest.FileSum(t, dev); after != before {
		t.Errorf("%s holding ext4 changed: sha256 %s → %s", dev, before, after)
	}

	dir := looptest.Mount(t, dev)
	before = looptest.FileSum(t, dev) // the mount itself writes (ext4's superblock)
	refusedBusy(t, dev, p, dev+" is mounted at "+dir)
	if after := looptest.FileSum(t, dev); after != before {
		t.Errorf("mounted %s changed: sha256 %s → %s", dev, before, after)
	}
}
