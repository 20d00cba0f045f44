package report

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"io"
	"strings"
)

// ManDoc is what the manual page says of the command line: its commands,
// flags and examples (the same words as --help), in the order given.
type ManDoc struct {
	Version  string
	Usage    string
	Commands []ManCommand
	Examples []string // one block each, lines split by "\n"
}

// ManCommand is one command (or "command subcommand") of the manual.
type ManCommand struct {
	Name, Usage, Description string
	Flags                    []ManFlag
}

// ManFlag is one flag: its names (long and short), whether it takes a
// value, its help and its default ("": none shown).
type ManFlag struct {
	Names      []string
	TakesValue bool
	Usage      string
	Default    string
}

// The manual page: section 1, generated from the command definitions (the
// same words as --help), with the examples, exit statuses and files a
// manual has. Roff is written by hand so that every line is valid for
// `groff -man -ww` and every non-ASCII character is a groff escape.

// manExit are the exit statuses, as the code returns them (exitCode).
var manExit = [][2]string{
	{"0", "Success."},
	{"1", "A runtime failure: a device or file error, fio failing, every step failing, a target that changed during a sweep. What was measured is kept."},
	{"2", "A usage error: a bad flag, value or input file, or a write the guard refuses. One line names the flag or file and the fix; nothing is written."},
	{"130", "Interrupted by SIGINT (128 + the signal: 143 for SIGTERM, 129 for SIGHUP). A sweep keeps its results, marked interrupted, and prints how to resume; a second signal exits at once, still leaving whole files."},
}

// manFiles are the files a sweep writes.
var manFiles = [][2]string{
	{"./qdsweep.scratch", "the scratch file a sweep or run lays out when no " + fio.Flag(fio.OptFilename) + " is given, removed when it ends"},
	{"DIR/results.json", "the result: plan, steps, series, control step, analysis and diagnosis (schema qdsweep/v1)"},
	{"DIR/results.csv, DIR/results-series.csv", "one row per step; one row per interval of each step"},
	{"DIR/summary.md", "the report in Markdown, beside the charts (iops-vs-qd, latency-vs-qd, latency-vs-iops, timeline, dashboard; an open-loop sweep draws iops-, latency- and inflight-vs-offered-load where the -vs-qd ones would be; PNG or SVG)"},
	{"DIR/.qdsweep-files", "the names qdsweep wrote into DIR: what a later run may replace there without --" + guard.OverwriteFlag},
	{"DIR/.qdsweep.lock", "held while a sweep writes DIR, removed when it ends"},
}

// WriteManPage writes the manual page (roff, section 1) of m.
func WriteManPage(w io.Writer, m ManDoc) error {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line(`.TH QDSWEEP 1 "" "qdsweep ` + roffText(m.Version) + `" "User Commands"`)
	line(".SH NAME")
	line("qdsweep \\- " + roffText(m.Usage))
	line(".SH SYNOPSIS")
	line(".B qdsweep")
	line(".I command")
	line("[\\fIoptions\\fR] [\\fIarguments\\fR]")
	line(".SH DESCRIPTION")
	line(roffText("qdsweep measures a storage device across increasing queue depths, finds where it saturates, and uses " +
		"Little's Law (QD = IOPS × latency) to say what queue depth, iodepth × numjobs split and worker count reach " +
		"the IOPS a volume is provisioned for. Its flags are fio's wherever fio has the concept, and it reads, " +
		"runs and explains fio's job files and outputs."))
	line(".SH COMMANDS")
	for _, c := range m.Commands {
		manCommandSection(&b, c)
	}
	line(".SH EXAMPLES")
	for _, e := range m.Examples {
		line(".PP")
		line(".EX")
		for _, l := range strings.Split(e, "\n") {
			line(roffText(l))
		}
		line(".EE")
	}
	line(".SH EXIT STATUS")
	for _, e := range manExit {
		line(".TP")
		line(".B " + e[0])
		line(roffText(e[1]))
	}
	line(".SH FILES")
	for _, f := range manFiles {
		line(".TP")
		line(".I " + roffText(f[0]))
		line(roffText(f[1]))
	}
	line(".SH SEE ALSO")
	line(".BR fio (1)")
	_, err := io.WriteString(w, b.String())
	return err
}

// manCommandSection writes one command: its usage, description and options.
func manCommandSection(b *strings.Builder, c ManCommand) {
	line := func(s string) { b.WriteString(s + "\n") }
	line(".SS " + `"` + roffText("qdsweep "+c.Name) + `"`)
	if c.Usage != "" {
		line(roffText(c.Usage) + ".")
	}
	for _, para := range strings.Split(c.Description, "\n\n") {
		if strings.HasPrefix(para, "EXAMPLES:") || strings.TrimSpace(para) == "" {
			continue // the EXAMPLES section shows them
		}
		line(".PP")
		line(roffText(strings.Join(strings.Fields(para), " ")))
	}
	for _, f := range c.Flags {
		var names []string
		for _, n := range f.Names {
			dash := "\\-\\-"
			if len(n) == 1 {
				dash = "\\-"
			}
			names = append(names, dash+roffText(n))
		}
		head := "\\fB" + strings.Join(names, ", ") + "\\fR"
		if f.TakesValue {
			head += " \\fIvalue\\fR"
		}
		usage := f.Usage
		if f.Default != "" {
			usage += " (default: " + f.Default + ")"
		}
		line(".TP")
		line(head)
		line(roffText(usage))
	}
}

// roffText escapes s for a roff text line: backslashes, a leading dot or
// quote, hyphens as minus signs where they start an option, and every
// non-ASCII character as a groff escape.
func roffText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString("\\e")
		case r == '-':
			b.WriteString("\\-")
		case r > 126 || r < 32:
			fmt.Fprintf(&b, "\\[u%04X]", r)
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if strings.HasPrefix(out, ".") || strings.HasPrefix(out, "'") {
		out = "\\&" + out
	}
	return out
}
