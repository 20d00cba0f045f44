package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/urfave/cli/v2"
)

// writeGuardFlags are the flags that permit writing over existing data.
func writeGuardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "allow-write", Usage: "allow write workloads on an existing regular file (its contents are overwritten)"},
		&cli.BoolFlag{Name: "allow-write-device", Usage: "allow write workloads on a blank, unmounted block device or partition (its contents are destroyed)"},
		&cli.StringFlag{Name: "destroy-data", Usage: "name the target block device again (--destroy-data=/dev/X) to overwrite its partitions or data; needs --allow-write-device, never overrides a mounted or busy device"},
	}
}

// writeGuardFromFlags reads the write permissions. The files qdsweep lays
// out are added to Permit.Ours by identity once they exist.
func writeGuardFromFlags(c *cli.Context) guard.Permit {
	return guard.Permit{
		AllowWrite:       c.Bool("allow-write"),
		AllowWriteDevice: c.Bool("allow-write-device"),
		DestroyData:      c.String("destroy-data"),
	}
}

// checkWrites runs the write guard for w under every pattern in rws, before
// anything is laid out or run. Refusals are usage errors (exit 2) whose one
// line names the flag that would allow the write.
func checkWrites(w ioengine.Workload, rws []ioengine.RW, g guard.Permit) error {
	if g.DestroyData != "" {
		di, derr := os.Stat(g.DestroyData)
		ti, terr := os.Stat(w.Filename)
		if derr != nil || terr != nil || !os.SameFile(di, ti) {
			return usagef("--destroy-data=%s does not name the target --filename=%s; name the same block device twice to confirm", g.DestroyData, w.Filename)
		}
	}
	writes := false
	for _, rw := range rws {
		writes = writes || rw.IsWrite()
	}
	if err := guard.Check(w.GuardTarget(w.Filename, writes, 0), g); err != nil {
		if errors.Is(err, guard.ErrWriteRefused) {
			return usageErr(err)
		}
		return fmt.Errorf("--filename=%s: %w", w.Filename, err)
	}
	return nil
}

// checkRemoteWrites runs the write guard of an engine whose target is on
// other hosts (fio servers) for w under every pattern in rws, before
// anything runs; a refusal is a usage error.
func checkRemoteWrites(c *cli.Context, eng ioengine.Engine, w ioengine.Workload, rws []ioengine.RW) error {
	rc, ok := eng.(ioengine.RemoteTargetChecker)
	if !ok {
		return nil
	}
	for _, rw := range rws {
		if !rw.IsWrite() {
			continue
		}
		w.RW = rw
		if err := rc.CheckRemoteTarget(c.Context, w); err != nil {
			if errors.Is(err, guard.ErrWriteRefused) {
				return usageErr(err)
			}
			return err
		}
		return nil // one probe per target
	}
	return nil
}
