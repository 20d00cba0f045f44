package device

import (
	"fmt"
	"time"

	"github.com/prometheus/procfs"
)

// CPUSample is one reading of the host's CPU time (from /proc/stat) and of
// this process's own CPU time (from getrusage).
type CPUSample struct {
	At      time.Time      // when it was read (monotonic clock)
	Host    procfs.CPUStat // all CPUs summed, seconds per state
	SelfCPU time.Duration  // this process's user + system time
}

// CPUUse is CPU use over the interval between two samples.
type CPUUse struct {
	Interval   time.Duration
	UserPct    float64 // user + nice, percent of all CPUs
	SystemPct  float64 // system + hardirq, percent of all CPUs
	IOWaitPct  float64 // iowait, percent of all CPUs
	SoftIRQPct float64 // softirq, percent of all CPUs
	IdlePct    float64 // idle, percent of all CPUs
	StealPct   float64 // stolen by the hypervisor, percent of all CPUs
	SelfPct    float64 // this process, percent of one core (200 = two cores busy)
}

// CPURate computes CPU use between samples a and b (b later). The host
// shares are of the sum of all states' growth (guest time is already part of
// user time and is not counted twice).
func CPURate(a, b CPUSample) (CPUUse, error) {
	dt := b.At.Sub(a.At)
	if dt <= 0 {
		return CPUUse{}, fmt.Errorf("cpu interval %v: samples out of order", dt)
	}
	x, y := a.Host, b.Host
	user := (y.User - x.User) + (y.Nice - x.Nice)
	sys := (y.System - x.System) + (y.IRQ - x.IRQ)
	iow := y.Iowait - x.Iowait
	soft := y.SoftIRQ - x.SoftIRQ
	idle := y.Idle - x.Idle
	steal := y.Steal - x.Steal
	total := user + sys + iow + soft + idle + steal
	u := CPUUse{
		Interval: dt,
		SelfPct:  float64(b.SelfCPU-a.SelfCPU) / float64(dt) * 100,
	}
	if total > 0 {
		u.UserPct = user / total * 100
		u.SystemPct = sys / total * 100
		u.IOWaitPct = iow / total * 100
		u.SoftIRQPct = soft / total * 100
		u.IdlePct = idle / total * 100
		u.StealPct = steal / total * 100
	}
	return u, nil
}
