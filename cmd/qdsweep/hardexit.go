package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/guard"
)

// hardExit holds cleanups (removal of the files this process created) that
// must run even when a second signal exits at once.
var hardExit struct {
	sync.Mutex
	fns map[int]func()
	n   int
}

// onHardExit registers fn to run on a forced exit; the returned func unregisters it.
func onHardExit(fn func()) func() {
	hardExit.Lock()
	defer hardExit.Unlock()
	if hardExit.fns == nil {
		hardExit.fns = map[int]func(){}
	}
	hardExit.n++
	id := hardExit.n
	hardExit.fns[id] = fn
	return func() {
		hardExit.Lock()
		delete(hardExit.fns, id)
		hardExit.Unlock()
	}
}

func runHardExit() {
	fioengine.StopAll() // fio and its jobs do not outlive qdsweep
	hardExit.Lock()
	defer hardExit.Unlock()
	for _, fn := range hardExit.fns {
		fn()
	}
	guard.RemovePartialWrites()
}

// stopsOnItsOwn is set by the commands that end their own work on the
// first stop signal and keep what they measured (run, sweep). Any other
// command has nothing to keep: the first signal ends it at once, however
// large the input it is reading.
var stopsOnItsOwn atomic.Bool

// stopSignals end a run the way Ctrl-C does: SIGINT, SIGTERM, SIGHUP (the
// terminal closed) and SIGQUIT (Ctrl-\, which would otherwise dump every
// goroutine and exit 2, the usage-error code).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// interruptSignal is the number of the first stop signal received (0: none).
var interruptSignal atomic.Int32

// interruptExitCode is the shell's code for death by the signal that
// stopped the run, 128 + its number (SIGINT 130, SIGHUP 129, SIGQUIT 131,
// SIGTERM 143); 130 when no signal was seen (an interrupted context).
func interruptExitCode() int {
	if n := interruptSignal.Load(); n > 0 {
		return 128 + int(n)
	}
	return 130
}

// signalEcho is how soon after the first stop signal another is taken as
// the same interrupt delivered twice, not a second Ctrl-C.
const signalEcho = 500 * time.Millisecond

// signalContext is cancelled by the first stop signal: the run ends as on
// Ctrl-C, keeping valid partial results marked interrupted and removing its
// scratch file. A second signal exits at once (cleanups registered with
// onHardExit run first: scratch files and partial layouts are removed).
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, stopSignals...)
	// A closed stdout (qdsweep … | head) makes writes fail with EPIPE instead
	// of killing the process by SIGPIPE mid-run, so the run still removes
	// its scratch file and ends through its normal path.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	go func() {
		var first time.Time
		for sig := range ch {
			if first.IsZero() {
				first = time.Now()
				if s, ok := sig.(syscall.Signal); ok {
					interruptSignal.Store(int32(s))
				}
				if !stopsOnItsOwn.Load() {
					runHardExit()
					os.Exit(interruptExitCode())
				}
				cancel()
				continue
			}
			// One interrupt reaches a process more than once when it is sent
			// to the process and then to its group (timeout -s INT, a
			// terminal's Ctrl-C beside a supervisor): signals within
			// signalEcho of the first are that same interrupt.
			if time.Since(first) < signalEcho {
				continue
			}
			runHardExit()
			os.Exit(interruptExitCode())
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}
