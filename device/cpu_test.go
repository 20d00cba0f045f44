package device_test

import (
	"math"
	"testing"
	"time"

	"github.com/prometheus/procfs"
	"github.com/qdsweep/qdsweep/device"
)

func TestCPURate(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := device.CPUSample{At: t0, Host: procfs.CPUStat{User: 10, Nice: 1, System: 5, Idle: 100, Iowait: 2, IRQ: 0.5, SoftIRQ: 1, Steal: 0}, SelfCPU: time.Second}
	tests := []struct {
		name string
		b    device.CPUSample
		want device.CPUUse
	}{
		{
			name: "two cores over 1 s, one busy submitting",
			// 2 CPU-seconds: user 0.6+0.1, system 0.4+0.1, iowait 0.3, softirq 0.2, idle 0.3.
			b: device.CPUSample{At: t0.Add(time.Second), Host: procfs.CPUStat{User: 10.6, Nice: 1.1, System: 5.4, Idle: 100.3,
				Iowait: 2.3, IRQ: 0.6, SoftIRQ: 1.2}, SelfCPU: 1900 * time.Millisecond},
			want: device.CPUUse{Interval: time.Second, UserPct: 35, SystemPct: 25, IOWaitPct: 15, SoftIRQPct: 10, IdlePct: 15, SelfPct: 90},
		},
		{
			name: "counters unchanged",
			b:    device.CPUSample{At: t0.Add(time.Second), Host: a.Host, SelfCPU: time.Second},
			want: device.CPUUse{Interval: time.Second},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := device.CPURate(a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct {
				name      string
				got, want float64
			}{
				{"user", got.UserPct, tc.want.UserPct}, {"system", got.SystemPct, tc.want.SystemPct},
				{"iowait", got.IOWaitPct, tc.want.IOWaitPct}, {"softirq", got.SoftIRQPct, tc.want.SoftIRQPct},
				{"idle", got.IdlePct, tc.want.IdlePct}, {"self", got.SelfPct, tc.want.SelfPct},
			} {
				if math.Abs(f.got-f.want) > 1e-9 {
					t.Errorf("%s: got %v, want %v", f.name, f.got, f.want)
				}
			}
		})
	}
	if _, err := device.CPURate(a, a); err == nil {
		t.Error("zero interval: want an error")
	}
}

func TestSampleCPUFixture(t *testing.T) {
	s, err := device.Roots{Proc: "testdata/proc"}.SampleCPU()
	if err != nil {
		t.Fatal(err)
	}
	// testdata/proc/stat: cpu 2420 10 2418 72010 365 5 40 … in USER_HZ (100).
	if s.Host.User != 24.2 || s.Host.Idle != 720.1 || s.Host.SoftIRQ != 0.4 {
		t.Errorf("host counters %+v", s.Host)
	}
}

// TestSampleCPUSelf spins for a moment and checks that this process's CPU
// share over the spin is visible.
func TestSampleCPUSelf(t *testing.T) {
	a, err := device.Roots{}.SampleCPU()
	if err != nil {
		t.Fatal(err)
	}
	x := 1.0
	for end := time.Now().Add(100 * time.Millisecond); time.Now().Before(end); {
		x = math.Sqrt(x + 1)
	}
	b, err := device.Roots{}.SampleCPU()
	if err != nil {
		t.Fatal(err)
	}
	u, err := device.CPURate(a, b)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("spin: self %.0f%% of a core, host user %.0f%% system %.0f%% (x=%v)", u.SelfPct, u.UserPct, u.SystemPct, x)
	if u.SelfPct <= 0 || u.SelfPct > 100*float64(4096) {
		t.Errorf("self CPU %.1f%% over a busy spin", u.SelfPct)
	}
	if sum := u.UserPct + u.SystemPct + u.IOWaitPct + u.SoftIRQPct + u.IdlePct + u.StealPct; sum > 0 && math.Abs(sum-100) > 1e-6 {
		t.Errorf("host shares sum to %v", sum)
	}
}
