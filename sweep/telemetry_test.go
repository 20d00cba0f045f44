package sweep_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/sweep"
)

// TestDeviceProbeCountsDirectReads reads a laid-out file with dd's direct
// I/O inside one window and checks the device saw at least those reads.
func TestDeviceProbeCountsDirectReads(t *testing.T) {
	if _, err := exec.LookPath("dd"); err != nil {
		t.Skip("dd not installed")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	p, info, err := sweep.NewDeviceProbe(target)
	if err != nil {
		t.Fatal(err)
	}
	if info == nil {
		t.Skipf("no device telemetry here: %s", p.Off())
	}
	if info.Name == "" || info.MajMin == "" || info.LogicalBlockSize == 0 {
		t.Errorf("device info %+v", info)
	}
	const count, bs = 300, 4096
	out, err := exec.Command("dd", "if=/dev/urandom", "of="+target, "bs=1M", "count=4", "conv=fsync").CombinedOutput()
	if err != nil {
		t.Fatalf("lay out: %v: %s", err, out)
	}
	start := time.Now()
	p.WindowStart()
	cmd := exec.Command("dd", "if="+target, "of=/dev/null", fmt.Sprintf("bs=%d", bs), fmt.Sprintf("count=%d", count), "iflag=direct")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("direct reads: %v: %s", err, out)
	}
	p.WindowEnd()
	elapsed := time.Since(start)
	ds, hc := p.Collect()
	if ds == nil || hc == nil {
		t.Fatalf("collect: device %v cpu %v", ds, hc)
	}
	reads := ds.ReadsPerSec * elapsed.Seconds()
	t.Logf("%s: r/s %.0f (≈%.0f reads) r_await %.3f ms rareq-sz %.1f KiB aqu-sz %.2f util %.1f%%; cpu user %.1f%% sys %.1f%% self %.1f%%",
		info.Name, ds.ReadsPerSec, reads, ds.ReadAwaitMs, ds.RareqSzKB, ds.AquSz, ds.UtilPct, hc.UserPct, hc.SystemPct, hc.SelfPct)
	// The window is a little longer than dd's run and other processes
	// may read too: the device saw at least dd's reads.
	if reads < count*0.98 {
		t.Errorf("device counted ≈%.0f reads in the window, dd issued %d", reads, count)
	}
	if ds.RareqSzKB < 4 {
		t.Errorf("rareq-sz %.1f KiB below dd's 4 KiB reads", ds.RareqSzKB)
	}
	if d2, _ := p.Collect(); d2 != nil {
		t.Error("a second Collect without a window returned figures")
	}
}

func TestDeviceProbeWithoutBlockDevice(t *testing.T) {
	if fi, err := os.Stat("/dev/shm"); err != nil || !fi.IsDir() {
		t.Skip("no /dev/shm")
	}
	p, info, err := sweep.NewDeviceProbe("/dev/shm/qdsweep-probe-target")
	if err != nil {
		t.Fatal(err)
	}
	if info != nil {
		t.Skipf("/dev/shm has a block device here: %s", info.Name)
	}
	if !strings.Contains(p.Off(), "no block device") {
		t.Errorf("Off() = %q", p.Off())
	}
	p.WindowStart()
	time.Sleep(20 * time.Millisecond)
	p.WindowEnd()
	ds, hc := p.Collect()
	if ds != nil || hc == nil {
		t.Errorf("tmpfs target: device %v (want nil), cpu %v (want figures)", ds, hc)
	}
}

// TestDeviceProbeEmptySys points the probe at a sys tree without the
// device's entry: telemetry is off, with the reason, and not an error.
func TestDeviceProbeEmptySys(t *testing.T) {
	dir := t.TempDir()
	p, info, err := sweep.NewDeviceProbe(dir, sweep.WithRoots("", dir))
	if err != nil {
		t.Fatal(err)
	}
	if info != nil || !strings.Contains(p.Off(), "no entry") {
		t.Errorf("info %+v, Off() = %q", info, p.Off())
	}
}

// TestDeviceProbeUnfinishedWindow: a window that started but never ended
// (the step failed) yields no figures.
func TestDeviceProbeUnfinishedWindow(t *testing.T) {
	p, _, err := sweep.NewDeviceProbe(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p.WindowStart()
	if ds, hc := p.Collect(); ds != nil || hc != nil {
		t.Errorf("unfinished window: device %v, cpu %v", ds, hc)
	}
}
