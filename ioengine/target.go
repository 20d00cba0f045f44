//go:build linux

package ioengine

import (
	"fmt"

	"github.com/qdsweep/qdsweep/guard"
)

// openTarget opens the workload's file or device for the run: read-only or
// read-write as the pattern needs, O_DIRECT when asked, never creating,
// truncating or extending it. A write runs only past the write guard
// (w.Permit; guard.Hold): a block device is opened with O_EXCL and stays
// claimed while the returned descriptor is open. When w.Held is set the run
// uses a duplicate of that descriptor, the one open file of the whole sweep
// (for w.Filename; any other file, such as a per-job file, is held here).
func openTarget(w *Workload) (int, error) {
	if h := heldFor(w); h != nil { // another file (a per-job file) is held on its own below
		if h != w.Held {
			// A run's file held from its start (HeldFiles), perhaps by a
			// job of another mode: this job's own open of that very file.
			return noAtime(h.Reopen(w.GuardTarget(w.Filename, w.RW.IsWrite(), 0)))
		}
		switch {
		case w.RW.IsWrite() && !h.Write():
			return -1, fmt.Errorf("open %s: held read-only, and %s writes", w.Filename, w.RW)
		case h.Direct() != w.Direct:
			return -1, settingErrf(nil, "open %s: held with %s, and the run asks %s", w.Filename, use(SetDirect, h.Direct()), use(SetDirect, w.Direct))
		}
		return noAtime(h.Dup())
	}
	h, err := guard.Hold(w.GuardTarget(w.Filename, w.RW.IsWrite(), 0), w.Permit)
	if err != nil {
		return -1, guardErr(err)
	}
	defer h.Close()
	return noAtime(h.Dup())
}

// heldFor is the hold of w.Filename among w.Held and w.HeldFiles, or nil.
func heldFor(w *Workload) *guard.Held { return w.HeldFile(w.Filename) }
