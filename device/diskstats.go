package device

import (
	"fmt"
	"time"

	"github.com/prometheus/procfs/blockdevice"
)

// Sample is one reading of a device's /proc/diskstats counters.
type Sample struct {
	At    time.Time // when the counters were read (monotonic clock)
	Stats blockdevice.IOStats
}

// Sample reads the device's own line of /proc/diskstats (a partition's line
// for a partition, a dm or md device's line for a stack).
func (d *Device) Sample() (Sample, error) {
	fs, err := blockdevice.NewFS(d.roots.proc(), d.roots.sys())
	if err != nil {
		return Sample{}, fmt.Errorf("open proc and sys roots: %w", err)
	}
	lines, err := fs.ProcDiskstats()
	if err != nil {
		return Sample{}, fmt.Errorf("read diskstats: %w", err)
	}
	at := time.Now()
	for _, l := range lines {
		if l.MajorNumber == d.Major && l.MinorNumber == d.Minor {
			return Sample{At: at, Stats: l.IOStats}, nil
		}
	}
	return Sample{}, fmt.Errorf("diskstats has no line for %s (%s)", d.Name, d.MajMin())
}
