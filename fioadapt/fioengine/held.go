package fioengine

import (
	"github.com/qdsweep/qdsweep/fio"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// heldFiles are a local run's targets as fio gets them: each file checked
// and opened once (a sweep's held target, or held here for this run), and
// handed to fio as an inherited descriptor. fio's filename for target i is
// /proc/self/fd/(3+i): a name that reaches only that open file, in fio and
// in every job process it forks, whatever is renamed, linked or swapped
// at the path meanwhile. fio opens it with its own flags (O_DIRECT, O_SYNC)
// on the same inode or device.
type heldFiles struct {
	paths []string   // the targets, as the workload names them
	files []*os.File // duplicates of the held descriptors, for fio
	holds []*guard.Held
	free  func() // holdLocal's release
}

// heldTargets holds w's local targets for one fio run (none for fio
// servers). The sweep's hold (w.Held) is used for its target; every other
// file is held here, under the same write guard, and let go by close.
func (e *Engine) heldTargets(w ioengine.Workload) (*heldFiles, error) {
	h := &heldFiles{free: func() {}}
	if e.NoLocalTarget() {
		return h, nil
	}
	main := w.HeldFile(w.Filename) // the sweep's hold, or the run's (session's holdJobFiles)
	if main == nil {
		hd, err := guard.Hold(w.GuardTarget(w.Filename, w.RW.IsWrite(), 0), w.Permit)
		if err != nil {
			return nil, err
		}
		h.holds = append(h.holds, hd)
		main = hd
	}
	// The engine's own checks of the main target (symbolic links, the
	// path still leading to the held file) with the hold in place.
	mw := w
	mw.Held, mw.Files = main, nil
	free, err := e.holdLocal(mw)
	if err != nil {
		h.close()
		return nil, err
	}
	h.free = free
	for _, f := range w.Targets() {
		hd := main
		if f != w.Filename {
			hd = w.HeldFile(f)
		}
		if hd == nil {
			if hd, err = guard.Hold(w.GuardTarget(f, w.RW.IsWrite(), 0), w.Permit); err != nil {
				h.close()
				return nil, err
			}
			h.holds = append(h.holds, hd)
		}
		fd, err := hd.Dup()
		if err != nil {
			h.close()
			return nil, err
		}
		h.paths = append(h.paths, f)
		h.files = append(h.files, os.NewFile(uintptr(fd), f))
	}
	return h, nil
}

// fdName is the name fio opens for the i-th inherited descriptor.
func fdName(i int) string { return "/proc/self/fd/" + strconv.Itoa(3+i) }

// rename replaces the job's filename (a path or fio's list a:b) with the
// held descriptors' names, in the same order.
func (h *heldFiles) rename(job [][2]string) [][2]string {
	if len(h.files) == 0 {
		return job
	}
	names := make([]string, len(h.files))
	for i := range h.files {
		names[i] = fdName(i)
	}
	out := slices.Clone(job)
	for i, kv := range out {
		if kv[0] == fio.OptFilename {
			out[i][1] = strings.Join(names, ":")
		}
	}
	return out
}

// close lets every descriptor and hold go. Safe on nil and more than once.
func (h *heldFiles) close() {
	if h == nil {
		return
	}
	for _, f := range h.files {
		f.Close()
	}
	h.files = nil
	for _, hd := range h.holds {
		hd.Close()
	}
	h.holds = nil
	if h.free != nil {
		h.free()
		h.free = nil
	}
}
