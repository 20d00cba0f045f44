// Command qdsweep sweeps a storage device across queue depths, finds where it
// saturates and uses Little's Law to recommend queue depths and worker counts.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"
)

// Set by the linker: -ldflags "-X main.version=… -X main.commit=…".
var (
	version = "0.1.0-dev"
	commit  = ""
)

func main() {
	os.Exit(realMain(os.Args))
}

func realMain(args []string) int {
	ctx, stop := signalContext()
	defer stop()
	app := newApp()
	err := app.RunContext(ctx, args)
	return exitCode(err)
}

func newApp() *cli.App {
	return &cli.App{
		Name:                 "qdsweep",
		Usage:                "sweep a storage device across queue depths and size it with Little's Law",
		Version:              version,
		EnableBashCompletion: true,
		Suggest:              true,
		HideHelpCommand:      false,
		Commands: []*cli.Command{
			runCommand(),
			sweepCommand(),
			adviseCommand(),
			reportCommand(),
			compareCommand(),
			explainCommand(),
			importCommand(),
			diagnoseCommand(),
		},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usageErr(err)
		},
		ErrWriter:      os.Stderr,
		ExitErrHandler: func(*cli.Context, error) {},
	}
}

// usageError marks an error the user can fix by changing the command line (exit 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// usagef returns a usage error (exit 2) with a one-line message.
func usagef(format string, a ...any) error {
	return usageError{fmt.Errorf(format, a...)}
}

func usageErr(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// errInterrupted is returned by commands stopped by SIGINT/SIGTERM (exit 130).
var errInterrupted = errors.New("interrupted")

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ue usageError
	switch {
	case errors.Is(err, errInterrupted) || errors.Is(err, context.Canceled):
		fmt.Fprintln(os.Stderr, "qdsweep: interrupted")
		return 130
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "qdsweep: "+ue.Error())
		return 2
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, "qdsweep: "+msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "qdsweep: "+err.Error())
	return 1
}

// signalContext is cancelled by the first SIGINT or SIGTERM; a second one
// exits at once with 130 (cleanup registered with onHardExit runs first).
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		n := 0
		for range ch {
			n++
			if n == 1 {
				cancel()
				continue
			}
			runHardExit()
			os.Exit(130)
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}
