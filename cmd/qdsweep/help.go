package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/report"
	"github.com/urfave/cli/v2"
)

// commandExamples are shown under EXAMPLES in each command's help; fio's
// options in them are named by their keys (fio.Flag, fio.FlagSet).
var commandExamples = map[string][]string{
	"run": {
		words("qdsweep run", flagIs(fio.OptName, "x"), flagIs(fio.OptFilename, "/data/f"), flagIs(fio.OptIOEngine, "libaio"), flagIs(fio.OptDirect, "1"), cont,
			flagIs(fio.OptRW, "randread"), flagIs(fio.OptBS, "4k"), flagIs(fio.OptIODepth, "32"), flagIs(fio.OptNumJobs, "1"), flagIs(fio.OptRuntime, "30"), cont,
			fio.Flag(fio.OptTimeBased), fio.Flag(fio.OptGroupReporting), flagIs(fio.OptSize, "1G"), "  # a fio command line as is"),
		words("qdsweep run", flagIs(fio.OptDirectory, "/mnt/vol"), fio.Flag(fio.OptName), "fio_test_file", flagIs(fio.OptDirect, "1"), cont,
			flagIs(fio.OptRW, "randread"), flagIs(fio.OptBS, "4k"), flagIs(fio.OptSize, "1G"), flagIs(fio.OptNumJobs, "16"), fio.Flag(fio.OptTimeBased), cont,
			flagIs(fio.OptRuntime, "180"), fio.Flag(fio.OptNoRandomMap), "  # fio's psync at QD 1 per job, 16 files"),
	},
	"sweep": {
		"qdsweep sweep        # 4k randread, iodepth 1:256, scratch file here",
		words("qdsweep sweep", flagIs(fio.OptFilename, "/dev/nvme0n2"), flagIs(fio.OptIODepth, "1:256"), flagIs(fio.OptNumJobs, "1,4"), cont,
			"--target-iops=160000 --latency-slo=p99=5ms"),
		words("qdsweep sweep --sim=latency=1.3ms,iops=160000", cont,
			flagIs(fio.OptIODepth, "1:256"), flagIs(fio.OptNumJobs, "1,4"), "    # what-if model, no device"),
	},
	"advise": {
		"qdsweep advise --target-iops 160000 --latency 1.3ms",
		"qdsweep advise --cloud gcp-hyperdisk-balanced --target-iops 160000",
		"qdsweep advise --from qdsweep-20261130-101500 --for postgres",
		"qdsweep advise --from io --for seastar        # io_properties.yaml",
		"qdsweep advise --table",
	},
	"report": {
		"qdsweep report qdsweep-20261130-101500 --target-iops 80000 --latency-slo p99=2ms",
	},
	"compare": {
		"qdsweep compare before/ after/ --output cmp",
	},
	"explain": {
		words("fio", flagIs(fio.OptName, "t"), flagIs(fio.OptRW, "randread"), flagIs(fio.OptIODepth, "32"), "... --output-format=json | qdsweep explain -"),
		"qdsweep explain --target-iops 160000 fio-output.txt",
	},
	"import": {
		"qdsweep import fio --output imported qd1.json qd4.json qd16.json qd64.json",
	},
	"diagnose": {
		"qdsweep diagnose qdsweep-20261130-101500",
	},
}

// flagIs is fio option k given value v on a command line: --iodepth=32.
var flagIs = fio.FlagSet

// cont continues an example's command line on the next line.
const cont = "\\\n    "

// words is an example's command line: its words joined by spaces.
func words(w ...string) string { return strings.Join(w, " ") }

// reflow joins the lines of each prose paragraph of a description (lines
// that do not start with a space, between blank lines) so that the help
// printer wraps it at helpWidth; indented lines (examples) stay as they are.
func reflow(desc string) string {
	var out []string
	for _, l := range strings.Split(desc, "\n") {
		n := len(out)
		if n > 0 && l != "" && !strings.HasPrefix(l, " ") && out[n-1] != "" && !strings.HasPrefix(out[n-1], " ") && !strings.HasSuffix(out[n-1], ":") {
			out[n-1] += " " + l
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// addExamples appends an EXAMPLES section to every command's description,
// after reflowing its prose for the help printer.
func addExamples(cmds []*cli.Command) {
	for _, c := range cmds {
		c.Description = reflow(c.Description)
		for _, sub := range c.Subcommands {
			sub.Description = reflow(sub.Description)
		}
		ex := commandExamples[c.Name]
		for _, sub := range c.Subcommands {
			ex = append(ex, commandExamples[c.Name+" "+sub.Name]...)
		}
		if len(ex) == 0 {
			continue
		}
		var b strings.Builder
		if c.Description != "" {
			b.WriteString(strings.TrimRight(c.Description, "\n"))
			b.WriteString("\n\n")
		}
		b.WriteString("EXAMPLES:\n")
		for _, e := range ex {
			b.WriteString("   " + e + "\n")
		}
		c.Description = strings.TrimRight(b.String(), "\n")
	}
}

// versionText is what --version prints: version, commit and Go version.
func versionText() string {
	rev := commit
	if rev == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" {
					rev = s.Value
					if len(rev) > 12 {
						rev = rev[:12]
					}
				}
			}
		}
	}
	if rev == "" {
		rev = "unknown"
	}
	return fmt.Sprintf("qdsweep %s (commit %s, %s %s/%s)", version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func manCommand() *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "print the manual page (roff, section 1), generated from the command definitions",
		UsageText: "qdsweep man > qdsweep.1 && man ./qdsweep.1",
		Action: func(c *cli.Context) error {
			err := report.WriteManPage(c.App.Writer, manDoc(c.App))
			return err
		},
	}
}

// completionScripts hold shell completion glue around urfave/cli's
// --generate-bash-completion.
var completionScripts = map[string]string{
	"bash": `_qdsweep_complete() {
  local cur opts
  cur="${COMP_WORDS[COMP_CWORD]}"
  if [[ "$cur" == -* ]]; then
    opts=$("${COMP_WORDS[@]:0:$COMP_CWORD}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${COMP_WORDS[@]:0:$COMP_CWORD}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o default -F _qdsweep_complete qdsweep
`,
	"zsh": `#compdef qdsweep
_qdsweep() {
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  _describe 'values' opts
}
compdef _qdsweep qdsweep
`,
}

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash or zsh)",
		ArgsUsage: "bash|zsh",
		UsageText: "source <(qdsweep completion bash)",
		Action: func(c *cli.Context) error {
			sh := c.Args().First()
			script, ok := completionScripts[sh]
			if !ok || c.NArg() != 1 {
				return usagef("completion: name one shell: bash or zsh (e.g. source <(qdsweep completion bash))")
			}
			_, err := fmt.Fprint(c.App.Writer, script)
			return err
		},
	}
}
