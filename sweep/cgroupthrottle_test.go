//go:build linux

package sweep_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// blkioThrottle puts this process in a new cgroup-v1 blkio group that caps
// reads of the device majmin at iops (the kernel's blk-throttle), and undoes
// it in t.Cleanup. It skips, saying why, where the machine has no such
// controller (cgroup v2's io.max is the same limit under another name; this
// kernel mounts v1's blkio, as many VMs do).
func blkioThrottle(t *testing.T, majmin string, iops int) {
	t.Helper()
	root := "/sys/fs/cgroup/blkio"
	if _, err := os.Stat(filepath.Join(root, "blkio.throttle.read_iops_device")); err != nil {
		looptest.Skipf(t, "no cgroup-v1 blkio throttling here (%v); a kernel-enforced IOPS limit cannot be set", err)
	}
	dir := filepath.Join(root, fmt.Sprintf("qdsweep-test-%d", os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		looptest.Skipf(t, "cannot create a blkio cgroup: %v", err)
	}
	pid := strconv.Itoa(os.Getpid())
	t.Cleanup(func() {
		if err := os.WriteFile(filepath.Join(root, "cgroup.procs"), []byte(pid), 0); err != nil {
			t.Errorf("leave the blkio cgroup: %v", err)
		}
		if err := os.Remove(dir); err != nil {
			t.Errorf("remove the blkio cgroup: %v", err)
		}
	})
	if err := os.WriteFile(filepath.Join(dir, "blkio.throttle.read_iops_device"), []byte(fmt.Sprintf("%s %d", majmin, iops)), 0); err != nil {
		t.Fatalf("set the read IOPS limit: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(pid), 0); err != nil {
		t.Fatalf("join the blkio cgroup: %v", err)
	}
}

// TestSeriesUnderKernelThrottle sweeps a loop device whose reads the kernel
// caps at 400 IOPS: every step stays under the cap, its slices count every
// I/O and keep Little's Law over the series, no burst is made up, and mean
// latency grows as QD / limit.
func TestSeriesUnderKernelThrottle(t *testing.T) {
	looptest.RequireRootTools(t)
	dev := looptest.AttachLoop(t, looptest.MakeImage(t, 64<<20), false)
	mm, err := os.ReadFile(filepath.Join("/sys/class/block", filepath.Base(dev), "dev"))
	if err != nil {
		t.Fatal(err)
	}
	const limit = 400
	blkioThrottle(t, strings.TrimSpace(string(mm)), limit)

	eng, _, err := ioengine.New("libaio")
	if err != nil {
		t.Fatal(err)
	}
	probe, _, err := sweep.NewDeviceProbe(dev)
	if err != nil || probe.Off() != "" {
		t.Fatalf("device probe of %s: %v %s", dev, err, probe.Off())
	}
	cfg := sweep.Config{Engine: eng, Workload: ioengine.Workload{Filename: dev, Direct: true, RandSeed: 1}, Probe: probe,
		Ramp: 200 * time.Millisecond, Runtime: 2 * time.Second, LogInterval: 250 * time.Millisecond,
		Steady: sweep.SteadyConfig{Interval: 250 * time.Millisecond, Window: time.Second}}
	r := sweep.NewResult(sweep.Meta{Engine: eng.Name()}, plan([]int{1, 4, 16}, true))
	if err := sweep.Run(context.Background(), cfg, r); err != nil {
		t.Fatal(err)
	}
	if err := r.Analyze(littleslaw.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Steps {
		t.Logf("QD %d: %.0f IOPS at %.2f ms, %.2f in flight", s.QD, s.IOPS, s.Lat.MeanNs/1e6, s.InflightMean)
		if s.IOPS > 1.1*limit || s.IOPS < 0.5*limit {
			t.Errorf("QD %d: %.0f IOPS under a %d IOPS kernel limit", s.QD, s.IOPS, limit)
		}
		if s.Series == nil || len(s.Series.Points) < 6 {
			t.Fatalf("QD %d: series %+v", s.QD, s.Series)
		}
		// blk-throttle dispatches in slices of its own, so a 250 ms slice
		// may run over the limit and Little's Law holds over the series,
		// not slice by slice, at latencies this long: check the sums.
		var ios int64
		var dur, latIOs, area float64
		for _, p := range s.Series.Points {
			ios += p.IOs
			dur += float64(p.DurNs) / 1e9
			latIOs += p.LatMeanNs * float64(p.IOs)
			area += p.InflightMean * float64(p.DurNs) / 1e9
		}
		// The device's own counters, slice by slice, saw the same reads.
		var devReads float64
		for i, p := range s.Series.Points {
			if p.Device == nil {
				t.Fatalf("QD %d slice %d has no device figures", s.QD, i)
			}
			devReads += p.Device.ReadsPerSec * float64(p.DurNs) / 1e9
		}
		// The probe samples when the coordinator calls it, which a loaded
		// machine delays past the jobs' own window ends: agree roughly.
		t.Logf("QD %d: the device counted %.0f reads over the slices, the engine %d", s.QD, devReads, ios)
		if math.Abs(devReads-float64(ios)) > 0.3*float64(ios) {
			t.Errorf("QD %d: the device counted %.0f reads over the slices, the engine %d", s.QD, devReads, ios)
		}
		if ios != s.Read.TotalIOs {
			t.Errorf("QD %d: slices count %d I/Os, the step %d", s.QD, ios, s.Read.TotalIOs)
		}
		if l := float64(ios) / dur * latIOs / float64(ios) / 1e9; math.Abs(l-area/dur)/(area/dur) > 0.2 {
			t.Errorf("QD %d: over the series IOPS × latency %.2f, in flight %.2f", s.QD, l, area/dur)
		}
		if f := s.Time.Find(diagnosis.TimeNoisy); f != nil {
			t.Logf("QD %d: slices vary by σ %.0f%% (kernel dispatch slices)", s.QD, f.CV*100)
		}
		if s.Time.Has(diagnosis.TimeBurst) {
			t.Errorf("QD %d: a burst found under a flat kernel limit: %+v", s.QD, s.Time.Findings)
		}
	}
	// Under a cap, latency grows with the queue: QD / IOPS ≥ QD / limit.
	for _, s := range r.Steps {
		if min := float64(s.QD) / (1.1 * limit) * 1e9; s.Lat.MeanNs < min {
			t.Errorf("QD %d: mean latency %.2f ms below QD / limit = %.2f ms", s.QD, s.Lat.MeanNs/1e6, min/1e6)
		}
	}
}
