// Command qdsweep sweeps a storage device across queue depths, finds where it
// saturates and uses Little's Law to recommend queue depths and worker counts.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/session"
	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
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
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintln(c.App.Writer, versionText()) }
	ctx, stop := signalContext()
	defer stop()
	app := newApp()
	err := app.RunContext(ctx, args)
	return exitCode(app.ErrWriter, err)
}

func newApp() *cli.App {
	app := &cli.App{
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
			manCommand(),
			completionCommand(),
		},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usageErr(err)
		},
		ErrWriter:      os.Stderr,
		ExitErrHandler: func(*cli.Context, error) {},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			name := c.Args().First()
			hint := ""
			if s := suggestCommand(c.App.Commands, name); s != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", s)
			}
			return usagef("unknown command %q%s; see qdsweep --help", name, hint)
		},
	}
	addExamples(app.Commands)
	for _, cmd := range app.Commands {
		if cmd.OnUsageError == nil {
			name := cmd.Name
			cmd.OnUsageError = func(c *cli.Context, err error, _ bool) error {
				return usagef("%s: %s%s; see qdsweep %s --help", name, flagErrText(err), suggestFlag(c, err), name)
			}
		}
	}
	return app
}

// suggestFlag returns " (did you mean --x?)" for an unknown flag close to a known one.
func suggestFlag(c *cli.Context, err error) string {
	const prefix = "flag provided but not defined: -"
	msg := err.Error()
	i := strings.Index(msg, prefix)
	if i < 0 || c.Command == nil {
		return ""
	}
	name := strings.TrimLeft(msg[i+len(prefix):], "-")
	best, bestD := "", 3
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			if d := levenshtein(name, n); d < bestD {
				best, bestD = n, d
			}
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean --" + best + "?)"
}

// flagErrText rewrites the flag package's messages in the CLI's own words:
// "flag provided but not defined: -x" → "unknown flag --x", and
// `invalid boolean value "y" for -x: parse error` → `invalid value "y" for --x`.
func flagErrText(err error) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + strings.TrimLeft(rest, "-")
	}
	if i := strings.Index(msg, " for -"); i >= 0 && strings.HasPrefix(msg, "invalid ") {
		if j := strings.Index(msg[:i], " value "); j >= 0 {
			flag := strings.TrimLeft(msg[i+len(" for "):], "-")
			if k := strings.Index(flag, ":"); k >= 0 {
				flag = flag[:k]
			}
			return "invalid value " + msg[j+len(" value "):i] + " for --" + flag
		}
	}
	return msg
}

// suggestCommand returns the command name closest to name, or "".
func suggestCommand(cmds []*cli.Command, name string) string {
	best, bestD := "", 3
	for _, c := range cmds {
		if d := levenshtein(name, c.Name); d < bestD {
			best, bestD = c.Name, d
		}
	}
	return best
}

// usagef returns a usage error (exit 2) with a one-line message.
var usagef = session.Usagef

// usageErr marks err as a usage error.
var usageErr = session.UsageErr

// errInterrupted is returned by commands stopped by SIGINT/SIGTERM (exit 130).
var errInterrupted = session.ErrInterrupted

// exitCode prints err's one line to w (the app's error writer) and
// returns the exit status: 2 for usage errors, 130 on interrupt, 1 else.
func exitCode(w io.Writer, err error) int {
	if err == nil {
		return 0
	}
	var ue session.UsageError
	switch {
	case errors.Is(err, errInterrupted) || errors.Is(err, context.Canceled):
		fmt.Fprintln(w, "qdsweep: interrupted")
		return interruptExitCode()
	case errors.As(err, &ue):
		fmt.Fprintln(w, "qdsweep: "+fioadapt.ErrorLine(ue))
		return 2
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := fioadapt.ErrorLine(err); msg != "" {
			fmt.Fprintln(w, "qdsweep: "+msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(w, "qdsweep: "+fioadapt.ErrorLine(err))
	return 1
}

// levenshtein is the edit distance between a and b (insert, delete and
// substitute each cost 1).
func levenshtein(a, b string) int { return smetrics.WagnerFischer(a, b, 1, 1, 1) }
