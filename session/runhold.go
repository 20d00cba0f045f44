package session

import (
	"errors"
	"fmt"
	"slices"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/sweep"
)

// holdJobFiles checks and opens every file the native engine will run
// before any job starts (guard.Hold), once per file (in its first job's
// mode; each job opens it again through that descriptor in its own), for
// writing when any job writes it, and hands the holds to the jobs
// (Workload.HeldFiles): a later group uses the descriptor judged now,
// never the path again, so a file swapped for a symlink, or deleted and
// replaced by another on the same inode number, after the start is never
// written; the file held must be the one judged before (runJob.judged).
// A job fio runs gets the same holds: the fio engine hands fio their
// descriptors and proves its paths still lead to them. release closes the
// holds when the run ends.
func holdJobFiles(jobs []*runJob) (release func(), err error) {
	type key = string // one hold per file, whatever its jobs' modes
	writes := map[key]bool{}
	var order []key
	var natives []*runJob
	for _, j := range jobs {
		if !j.es.Local() {
			continue // fio's servers' files are theirs to open
		}
		natives = append(natives, j)
		for _, f := range j.t.files {
			k := f
			if _, ok := writes[k]; !ok {
				order = append(order, k)
			}
			writes[k] = writes[k] || j.w.RW.IsWrite()
		}
	}
	held := map[key]*guard.Held{}
	release = func() {
		for _, h := range held {
			h.Close()
		}
	}
	for _, k := range order {
		for _, j := range natives {
			if !slices.Contains(j.t.files, k) {
				continue
			}
			fw := j.w
			fw.Filename, fw.Size, fw.Files = k, j.t.perFile, nil
			h, err := guard.Hold(fw.GuardTarget(k, writes[k], 0), j.w.Permit)
			if errors.Is(err, guard.ErrWriteRefused) {
				return release, UsageErr(guard.Named(err, sweep.GuardFlag))
			} else if err != nil {
				return release, fmt.Errorf("--%s=%s: %w", fio.OptFilename, k, err)
			}
			held[k] = h
			if want, ok := j.judged[k]; ok && h.ID() != want {
				return release, fmt.Errorf("%w: %s is another file than the one checked before the run (a rename or a symlink put in its place since); nothing was written to it", guard.ErrTargetChanged, k)
			}
			break
		}
	}
	for _, j := range natives {
		for _, f := range j.t.files {
			if h := held[f]; h != nil {
				j.w.HeldFiles = append(j.w.HeldFiles, h)
			}
		}
	}
	return release, nil
}
