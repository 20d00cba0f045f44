package fioadapt

import (
	"github.com/qdsweep/qdsweep/device"
	"github.com/qdsweep/qdsweep/fio"
)

// DiskWatch reads the counters of the block devices behind a run's files
// when the measured window opens and when it closes.
type DiskWatch struct {
	devs []*device.Device
	// Start and End read the counters; give them to Control.OnWindowStart
	// and OnWindowEnd.
	Start, End func()
	a, b       []device.Sample
}

// NewDiskWatch watches the distinct block devices holding files; files on
// no block device (tmpfs) have none, as in fio.
func NewDiskWatch(files []string) *DiskWatch {
	dw := &DiskWatch{}
	seen := map[string]bool{}
	for _, f := range files {
		if d, err := device.Resolve(f); err == nil && !seen[d.MajMin()] {
			seen[d.MajMin()] = true
			dw.devs = append(dw.devs, d)
		}
	}
	read := func(into *[]device.Sample) func() {
		return func() {
			*into = (*into)[:0]
			for _, d := range dw.devs {
				s, _ := d.Sample() // a failed reading leaves a zero sample: no figures
				*into = append(*into, s)
			}
		}
	}
	dw.Start, dw.End = read(&dw.a), read(&dw.b)
	return dw
}

// Utils returns fio's disk utilisation of each device over the window; nil
// when the window did not open and close (or dw is nil: no watch).
func (dw *DiskWatch) Utils() []fio.DiskUtil {
	if dw == nil || len(dw.a) != len(dw.devs) || len(dw.b) != len(dw.devs) {
		return nil
	}
	var out []fio.DiskUtil
	for i, d := range dw.devs {
		if dw.a[i].At.IsZero() || dw.b[i].At.IsZero() {
			continue
		}
		out = append(out, DiskUtilOf(d.Name, dw.a[i], dw.b[i]))
	}
	return out
}
