package sweep

import (
	"errors"
	"fmt"
	"sync"

	"github.com/qdsweep/qdsweep/device"
)

// DeviceProbe is the Probe that samples /proc/diskstats for the target's
// block device and /proc/stat plus this process's CPU time at the start and
// end of each measured window. On a target without a block device (tmpfs, …)
// it still measures CPU; Off says why device figures are missing.
type DeviceProbe struct {
	roots device.Roots
	dev   *device.Device // nil when the target has no block device
	off   string
	fs    device.FSType // the target's mount (zero when unknown)

	mu           sync.Mutex
	diskA, diskB device.Sample
	cpuA, cpuB   device.CPUSample
	diskOK       bool
	cpuOK        bool
	ended        bool // WindowEnd followed WindowStart
}

// ProbeOption configures NewDeviceProbe.
type ProbeOption func(*device.Roots)

// withRoots points the probe at other /proc and /sys trees ("" keeps the
// default), for tests that read fixtures.
func withRoots(proc, sys string) ProbeOption {
	return func(r *device.Roots) { r.Proc, r.Sys = proc, sys }
}

// NewDeviceProbe resolves target (a file, a directory it will be created
// in, or a block device) to its block device and returns a probe for it
// together with the device's queue facts for Meta.Device. A target without a
// block device is not an error: the probe then reports CPU only, the
// DeviceInfo is nil and the probe's Off method says why.
func NewDeviceProbe(target string, opts ...ProbeOption) (*DeviceProbe, *DeviceInfo, error) {
	p := &DeviceProbe{}
	for _, o := range opts {
		o(&p.roots)
	}
	if fs, err := p.roots.FSTypeOf(target); err == nil {
		p.fs = fs
	}
	d, err := p.roots.Resolve(target)
	if errors.Is(err, device.ErrNoBlockDevice) {
		p.off = err.Error()
		return p, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("device telemetry: %w", err)
	}
	p.dev = d
	return p, DeviceInfoOf(d), nil
}

// FS is the mount the target lives on (zero when the mount table did not
// say).
func (p *DeviceProbe) FS() device.FSType { return p.fs }

// Off is "" when device figures are measured, else why they are not
// (e.g. "/dev/shm/x is on tmpfs: no block device").
func (p *DeviceProbe) Off() string { return p.off }

// Device is the resolved block device, nil when Off is set.
func (p *DeviceProbe) Device() *device.Device { return p.dev }

// WindowStart samples the counters at the start of a measured window.
func (p *DeviceProbe) WindowStart() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.diskOK, p.cpuOK, p.ended = false, false, false
	if p.dev != nil {
		s, err := p.dev.Sample()
		p.diskA, p.diskOK = s, err == nil
	}
	c, err := p.roots.SampleCPU()
	p.cpuA, p.cpuOK = c, err == nil
}

// WindowEnd samples the counters at the end of a measured window.
func (p *DeviceProbe) WindowEnd() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dev != nil && p.diskOK {
		s, err := p.dev.Sample()
		p.diskB, p.diskOK = s, err == nil
	}
	if p.cpuOK {
		c, err := p.roots.SampleCPU()
		p.cpuB, p.cpuOK = c, err == nil
	}
	p.ended = true
}

// Collect returns iostat -x's figures and the CPU use of the last window;
// either is nil when it could not be measured.
func (p *DeviceProbe) Collect() (*DeviceStats, *HostCPU) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var ds *DeviceStats
	var hc *HostCPU
	if !p.ended {
		return nil, nil
	}
	if p.diskOK {
		if r, err := device.Rate(p.diskA, p.diskB); err == nil {
			ds = &DeviceStats{
				ReadsPerSec: r.ReadsPerSec, WritesPerSec: r.WritesPerSec,
				ReadMBps: r.ReadMiBps, WriteMBps: r.WriteMiBps,
				ReadAwaitMs: r.ReadAwaitMs, WriteAwaitMs: r.WriteAwaitMs,
				AquSz: r.AquSz, UtilPct: r.UtilPct,
				RareqSzKB: r.RareqSzKiB, WareqSzKB: r.WareqSzKiB,
			}
		}
	}
	if p.cpuOK {
		if u, err := device.CPURate(p.cpuA, p.cpuB); err == nil {
			hc = &HostCPU{
				UserPct: u.UserPct, SystemPct: u.SystemPct, IOWaitPct: u.IOWaitPct,
				SoftIRQPct: u.SoftIRQPct, SelfPct: u.SelfPct,
			}
		}
	}
	p.diskOK, p.cpuOK, p.ended = false, false, false
	return ds, hc
}

// DeviceInfoOf converts a resolved device into the result's DeviceInfo.
func DeviceInfoOf(d *device.Device) *DeviceInfo {
	q := d.Queue
	return &DeviceInfo{
		Name: d.Name, MajMin: d.MajMin(), Parent: d.Parent, Members: d.Members,
		Model: q.Model, Vendor: q.Vendor, Rotational: q.Rotational,
		LogicalBlockSize: q.LogicalBlockSize, PhysicalBlockSize: q.PhysicalBlockSize,
		NrRequests: q.NrRequests, Scheduler: q.Scheduler, HWQueues: q.HWQueues,
		MaxSectorsKB: q.MaxSectorsKB, WriteCache: q.WriteCache, ReadAheadKB: q.ReadAheadKB,
	}
}

var _ Probe = (*DeviceProbe)(nil)
