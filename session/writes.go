package session

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

// CheckWrites runs the write guard for w under every pattern in rws, before
// anything is laid out or run. Refusals are usage errors whose one line
// names the flag that would allow the write.
func CheckWrites(w ioengine.Workload, rws []ioengine.RW, g guard.Permit) error {
	if g.DestroyData != "" {
		di, derr := os.Stat(g.DestroyData)
		ti, terr := os.Stat(w.Filename)
		if derr != nil || terr != nil || !os.SameFile(di, ti) {
			return Usagef("--destroy-data=%s does not name the target --%s=%s; name the same block device twice to confirm", g.DestroyData, fio.OptFilename, w.Filename)
		}
	}
	writes := false
	for _, rw := range rws {
		writes = writes || rw.IsWrite()
	}
	if err := guard.Check(w.GuardTarget(w.Filename, writes, 0), g); err != nil {
		if errors.Is(err, guard.ErrWriteRefused) {
			return UsageErr(guard.Named(err, sweep.GuardFlag))
		}
		return fmt.Errorf("--%s=%s: %w", fio.OptFilename, w.Filename, err)
	}
	return nil
}

// CheckRemoteWrites runs the write guard of an engine whose target is on
// other hosts (fio servers) for w under every pattern in rws, before
// anything runs; a refusal is a usage error.
func CheckRemoteWrites(ctx context.Context, eng ioengine.Engine, w ioengine.Workload, rws []ioengine.RW) error {
	rc, ok := eng.(ioengine.RemoteTargetChecker)
	if !ok {
		return nil
	}
	for _, rw := range rws {
		if !rw.IsWrite() {
			continue
		}
		w.RW = rw
		if err := rc.CheckRemoteTarget(ctx, w); err != nil {
			if errors.Is(err, guard.ErrWriteRefused) {
				return UsageErr(err)
			}
			return err
		}
		return nil // one probe per target
	}
	return nil
}

// CheckRunLimits checks the process limits against the largest step of a
// run: jobs parallel jobs, each with iodepth buffers of bs bytes. The error
// is a runtime error (exit 1) with one line.
func CheckRunLimits(jobs, iodepth int, bs int64) error {
	return guard.CheckLimits(guard.Need{Jobs: jobs, BufferBytes: int64(jobs) * int64(iodepth) * bs})
}

// CheckSweepLimits is CheckRunLimits for the deepest step of a plan.
func CheckSweepLimits(p sweep.Plan) error {
	jobs, depth, bs := 1, 1, int64(0)
	for _, n := range p.NumJobs {
		jobs = max(jobs, n)
	}
	for _, d := range p.IODepth {
		depth = max(depth, d)
	}
	for _, b := range p.BS {
		bs = max(bs, b)
	}
	return CheckRunLimits(jobs, depth, bs)
}
