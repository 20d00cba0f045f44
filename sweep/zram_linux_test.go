package sweep_test

import (
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestDeviceProbeOnZram: the step telemetry of a zram device, read from its
// driver's /sys/block/zram0/stat, counts at least the direct reads dd
// issued to it inside one window, at dd's size.
func TestDeviceProbeOnZram(t *testing.T) {
	if _, err := exec.LookPath("dd"); err != nil {
		t.Skip("dd not installed")
	}
	dev := looptest.Zram(t, 8<<20)
	p, info, err := sweep.NewDeviceProbe(dev)
	if err != nil {
		t.Fatal(err)
	}
	if info == nil || info.Name != "zram0" {
		t.Fatalf("%s: device info %+v (%s), want zram0", dev, info, p.Off())
	}
	const count, bs = 300, 4096
	start := time.Now()
	p.WindowStart()
	if out, err := exec.Command("dd", "if="+dev, "of=/dev/null", fmt.Sprintf("bs=%d", bs), fmt.Sprintf("count=%d", count), "iflag=direct").CombinedOutput(); err != nil {
		t.Fatalf("direct reads of %s: %v: %s", dev, err, out)
	}
	p.WindowEnd()
	elapsed := time.Since(start)
	ds, _ := p.Collect()
	if ds == nil {
		t.Fatal("no device figures for the window")
	}
	reads := ds.ReadsPerSec * elapsed.Seconds()
	t.Logf("%s: r/s %.0f (≈%.0f reads) rareq-sz %.1f KiB util %.1f%%", info.Name, ds.ReadsPerSec, reads, ds.RareqSzKB, ds.UtilPct)
	// The window is a little longer than dd's run: at least dd's reads.
	if reads < count*0.98 {
		t.Errorf("%s counted ≈%.0f reads in the window, dd issued %d", info.Name, reads, count)
	}
	if ds.RareqSzKB < 4 {
		t.Errorf("rareq-sz %.1f KiB below dd's 4 KiB reads", ds.RareqSzKB)
	}
}
