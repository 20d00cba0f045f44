//go:build linux

package device

import (
	"fmt"
	"time"

	"github.com/prometheus/procfs"
	"golang.org/x/sys/unix"
)

// SampleCPU reads the host's CPU counters under the proc root and this
// process's CPU time.
func (r Roots) SampleCPU() (CPUSample, error) {
	fs, err := procfs.NewFS(r.proc())
	if err != nil {
		return CPUSample{}, fmt.Errorf("open proc root: %w", err)
	}
	st, err := fs.Stat()
	if err != nil {
		return CPUSample{}, fmt.Errorf("read %s/stat: %w", r.proc(), err)
	}
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return CPUSample{}, fmt.Errorf("getrusage: %w", err)
	}
	self := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return CPUSample{At: time.Now(), Host: st.CPUTotal, SelfCPU: self}, nil
}
