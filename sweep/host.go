package sweep

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
)

// HostFacts returns the host name, the kernel release (uname -r, read from
// procRoot/sys/kernel/osrelease; procRoot is normally "/proc") and the
// number of CPUs usable by this process. Unknown values are empty.
func HostFacts(procRoot string) (hostname, kernel string, cpus int) {
	hostname, _ = os.Hostname()
	if b, err := os.ReadFile(filepath.Join(procRoot, "sys", "kernel", "osrelease")); err == nil {
		kernel = strings.TrimSpace(string(b))
	}
	return hostname, kernel, runtime.NumCPU()
}

// MetaFor fills m, a sweep's meta, with what this run is: the host, the
// engine (and why it replaced the one asked for), the target (none for
// the simulator, whose settings sim gives), and the fixed part of the
// workload the plan does not vary. rwmixread is kept only when the plan
// mixes reads and writes. The shape and the io_uring options are left to
// the caller, whose option table spells them (Workload.Shape, IOUring).
func MetaFor(m *Meta, plan Plan, w ioengine.Workload, engine, fallback string, sim *ioengine.SimConfig, ramp, runtime time.Duration) {
	m.Hostname, m.Kernel, m.CPUs = HostFacts("/proc")
	m.Engine, m.EngineFallbackReason = engine, fallback
	m.Target = w.Filename
	m.Simulated = sim != nil
	m.Workload = Workload{Size: w.Size, Direct: w.Direct, RampNs: int64(ramp), RuntimeNs: int64(runtime)}
	for _, rw := range plan.RW {
		if ioengine.RW(rw).Mixed() {
			m.Workload.RWMixRead = w.RWMixRead
		}
	}
	if sim != nil {
		m.Workload.Sim = sim.String()
		m.Target = ""
	}
}
