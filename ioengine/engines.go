//go:build linux

package ioengine

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// kernelEngine is an Engine backed by one of this package's job loops.
type kernelEngine struct {
	name     string
	fallback string // why this engine replaced the one asked for ("" if it did not)
	newLoop  newLoopFunc
}

func (e *kernelEngine) Name() string { return e.name }

// Run runs w through the engine; see Engine.
func (e *kernelEngine) Run(ctx context.Context, w Workload, ctl Control) (*Stats, error) {
	st, err := runWorkload(ctx, w, ctl, e.name, e.fallback, e.newLoop)
	return st, err
}

// New returns the engine called name: "io_uring" (also ""), "libaio" or
// "psync". When io_uring is unavailable (io_uring_setup refused by seccomp
// with ENOSYS, by kernel.io_uring_disabled with EPERM, or an opcode missing)
// it returns libaio and a one-sentence fallback reason; the reason is "" when
// the engine asked for is the one returned. Stats.Engine and
// Stats.FallbackReason of its runs say the same.
//
// A run gives each job its own OS thread and, for as long as it runs, one
// more P (GOMAXPROCS) per job, so that jobs blocked in the kernel keep their
// I/Os in flight whatever the CPU count; GOMAXPROCS is restored when the
// last run of the process ends. Jobs that a limit stops from starting
// (threads, open files, memory, AIO events) leave the others to run, and
// Stats.Shortfall says so.
func New(name string) (Engine, string, error) { return newEngine(name, probeUring) }

// newEngine is New with the io_uring probe given (tests make it fail to
// reach the fallback on a machine where io_uring works).
func newEngine(name string, probeUring func() error) (Engine, string, error) {
	switch name {
	case EngineIOUring, "":
		if err := probeUring(); err != nil {
			reason := fmt.Sprintf("io_uring unavailable (%s); using libaio", describeUringErr(err))
			if aerr := probeAIO(); aerr != nil {
				return nil, "", settingErrf(aerr, "no asynchronous engine: io_uring: %v; libaio: %v (use %s)", err, aerr, use(SetEngine, EnginePsync))
			}
			return &kernelEngine{name: EngineLibaio, fallback: reason, newLoop: newAIOLoop}, reason, nil
		}
		return &kernelEngine{name: EngineIOUring, newLoop: newUringLoop}, "", nil
	case EngineLibaio:
		if err := probeAIO(); err != nil {
			return nil, "", settingErrf(err, "libaio unavailable: %v (use %s or psync)", err, use(SetEngine, EngineIOUring))
		}
		return &kernelEngine{name: EngineLibaio, newLoop: newAIOLoop}, "", nil
	case EnginePsync:
		return &kernelEngine{name: EnginePsync, newLoop: newPsyncLoop}, "", nil
	case EngineNull:
		return &kernelEngine{name: EngineNull, newLoop: newNullLoop}, "", nil
	}
	return nil, "", refusef("%s: unknown engine %q; use io_uring, libaio or psync", SetEngine, name)
}

// describeUringErr adds the likely cause to an io_uring setup error.
func describeUringErr(err error) string {
	s := err.Error()
	switch {
	case errors.Is(err, unix.EPERM):
		return s + "; kernel.io_uring_disabled?"
	case errors.Is(err, unix.ENOSYS):
		return s + "; blocked by seccomp (containers) or not built in?"
	case errors.Is(err, unix.ENOMEM):
		return s + "; the locked-memory limit (ulimit -l) too low?"
	}
	return s
}
