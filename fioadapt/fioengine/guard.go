package fioengine

import (
	"fmt"
	"os"
	"slices"

	"github.com/qdsweep/qdsweep/fio"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// CheckExtraArgs checks --fio-arg values against fio's allow-list of
// options passed as given (fio.CheckPassArg): options spelled in full that
// touch no file, region, direction, job or command, engines that open the
// guarded target and nothing else. The error names the argument and says
// why, in one line.
func CheckExtraArgs(args []string) error {
	for _, a := range args {
		if err := fio.CheckPassArg(a); err != nil {
			return fmt.Errorf("--fio-arg=%s: %w", a, err)
		}
	}
	return nil
}

// NoLocalTarget reports whether the job runs on fio servers (--fio-clients):
// their target is not on this host, so the local write guard neither checks
// nor holds it.
func (e *Engine) NoLocalTarget() bool { return len(e.opt.Clients) > 0 }

// holdLocal checks and holds w's targets (each file of a filename list)
// for one fio run when no sweep holds them already (w.Held): fio opens the
// targets itself, without O_EXCL, so the exclusive claim stays with qdsweep
// while fio runs. release lets them go.
func (e *Engine) holdLocal(w ioengine.Workload) (release func(), err error) {
	if e.NoLocalTarget() {
		return func() {}, nil
	}
	files := w.Targets()
	if w.RW.IsWrite() {
		// fio opens by path: a symlink's destination could change between
		// the check and fio's open, so a write names the file itself.
		for _, f := range files {
			if fi, err := os.Lstat(f); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				return nil, errSymlinkWrite(f)
			}
		}
	}
	if w.Held != nil {
		// Held for the whole sweep: prove before each fio run that the path
		// still leads to it (fio reopens by path at every step). Any other
		// file of a list is held here for this run.
		if err := w.Held.Same(w.Filename); err != nil {
			return nil, err
		}
		files = slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == w.Filename })
	}
	var held []*guard.Held
	release = func() {
		for _, h := range held {
			h.Close()
		}
	}
	for _, f := range files {
		h, err := guard.Hold(w.GuardTarget(f, w.RW.IsWrite(), 0), w.Permit)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, h)
		if err := h.Same(f); err != nil { // swapped between the hold and now
			release()
			return nil, err
		}
	}
	return release, nil
}

// errSymlinkWrite refuses a write to f, a symbolic link: fio opens by
// path, so a write names its target itself.
func errSymlinkWrite(f string) error {
	return fmt.Errorf("%w: --%s=%s is a symbolic link; the fio engine writes only a target named directly: name the file or device it leads to",
		guard.ErrWriteRefused, fio.OptFilename, f)
}
