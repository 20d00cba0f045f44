package main

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"

	"github.com/urfave/cli/v2"
)

// The naming rules of the command line, checked over every command of
// newApp():
//
//  1. Where fio has the concept, the flag is spelled as fio spells it
//     (underscores included: ramp_time, offset_increment), so a fio command
//     line with fio swapped for `qdsweep run` works.
//  2. qdsweep's own flags are kebab-case (target-iops, chart-format).
//  3. One concept has one name in every command that has it (the latency
//     objective is --latency-slo everywhere, not --slo here and
//     --latency-slo there): the canonical name is the flag's primary name,
//     every command offers the same aliases for it (--output, --out and -o
//     wherever a command writes a directory), with the same flag type (so
//     --target-iops=160k works wherever --target-iops does) and the same
//     default; and a one-letter alias means the same everywhere.
//
// Deviations that exist today are listed below with the rule they break, so
// the test passes on the current names while any new deviation fails it;
// an entry that no longer occurs fails too, so the list stays true.

// fioOptions are the fio option names qdsweep takes, spelled as fio does.
var fioOptions = []string{
	"rw", "bs", "iodepth", "numjobs", "direct", "filename", "size",
	"offset", "offset_increment", "runtime", "ramp_time", "ioengine",
	"rwmixread", "randseed", "output-format", "output", "name", "time_based",
	"group_reporting", "continue_on_error", "ss", "ss_dur", "ss_interval",
	"max_latency",
	// and run's other flags: fio.RunOptions and fio.UringOptions.
}

// fioSynonyms are other words people use for fio's concepts; a flag named
// like this should carry fio's name instead.
var fioSynonyms = map[string]string{
	"queue-depth": "iodepth", "qd": "iodepth", "depth": "iodepth",
	"block-size": "bs", "blocksize": "bs",
	"jobs": "numjobs", "threads": "numjobs",
	"engine": "ioengine",
	"seed":   "randseed",
	"file":   "filename", "path": "filename", "device": "filename",
	"duration": "runtime", "time": "runtime",
	"ramp": "ramp_time", "warmup": "ramp_time",
	"format":   "output-format",
	"read-mix": "rwmixread", "read-percent": "rwmixread",
	"pattern":    "rw",
	"o_direct":   "direct",
	"steady":     "ss",
	"size-bytes": "size",
}

// concepts maps a concept's canonical flag name to every spelling that
// means it.
var concepts = map[string][]string{
	"output":        {"output", "out", "outdir", "output-dir", "out-dir"},
	"latency-slo":   {"latency-slo", "slo", "latency_slo", "lat-slo"},
	"target-iops":   {"target-iops", "target_iops", "iops-target", "iops"},
	"output-format": {"output-format", "format", "output_format"},
	"chart-format":  {"chart-format", "chart_format", "charts"},
	"max-iodepth":   {"max-iodepth", "max_iodepth", "max-depth"},
	"max-jobs":      {"max-jobs", "max_jobs", "max-numjobs"},
	"quiet":         {"quiet", "silent"},
	"target-bw":     {"target-bw", "target_bw", "target-throughput"},
}

// aliases are the one-letter aliases and the concept each stands for.
var aliases = map[string]string{"o": "output", "q": "quiet", "h": "help"}

// spellingDeviations are today's flags that break rule 1 or 2, in any
// command: flag → why it is listed.
var spellingDeviations = map[string]string{
	"io_timeout":   "not a fio option, yet spelled with an underscore",
	"sim_latency":  "qdsweep's own flag spelled with an underscore",
	"sim_jitter":   "qdsweep's own flag spelled with an underscore",
	"sim_channels": "qdsweep's own flag spelled with an underscore",
	"sim_iops":     "qdsweep's own flag spelled with an underscore",
	"sim_bw":       "qdsweep's own flag spelled with an underscore",
	// The burst and throttle knobs are spelled as the rest of the sim family.
	"sim_burst_iops":      "qdsweep's own flag spelled with an underscore",
	"sim_burst_credits":   "qdsweep's own flag spelled with an underscore",
	"sim_burst_carry":     "qdsweep's own flag spelled with an underscore (beside the other sim flags)",
	"sim_throttle_period": "qdsweep's own flag spelled with an underscore",
	"sim_throttle_iops":   "qdsweep's own flag spelled with an underscore",
}

// conceptDeviations are today's flags that break rule 3: "command --flag" →
// why it is listed.
var conceptDeviations = map[string]string{
	"sweep --slo": "hidden old name of --latency-slo, kept so existing scripts still run",
}

// flagCommand is one command (subcommands by their full path) and its flags.
type flagCommand struct {
	path  string
	flags []cli.Flag
}

// allCommands walks the app's commands and subcommands.
func allCommands(cs []*cli.Command, prefix string) []flagCommand {
	var out []flagCommand
	for _, c := range cs {
		p := strings.TrimSpace(prefix + " " + c.Name)
		out = append(out, flagCommand{path: p, flags: c.Flags})
		out = append(out, allCommands(c.Subcommands, p)...)
	}
	return out
}

// squash drops case, hyphens and underscores: "Ramp-Time" → "ramptime".
func squash(s string) string {
	return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(s))
}

var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

func TestFlagNamesFollowFio(t *testing.T) {
	isFio := map[string]bool{}
	squashed := map[string]string{}
	names := slices.Clone(fioOptions)
	for _, d := range fio.RunOptions { // run's flags are made from fio's table
		names = append(names, d.Name)
	}
	names = append(names, fio.UringOptionNames()...)
	for _, n := range names {
		isFio[n] = true
		squashed[squash(n)] = n
	}
	used := map[string]bool{}
	for _, c := range allCommands(newApp().Commands, "") {
		for _, f := range c.flags {
			for _, n := range f.Names() {
				if len(n) == 1 {
					continue // aliases: TestFlagConceptsHaveOneName
				}
				if isFio[n] {
					continue
				}
				listed := spellingDeviations[n] != ""
				if listed {
					used[n] = true
				}
				if want, ok := squashed[squash(n)]; ok {
					if !listed {
						t.Errorf("%s --%s: fio spells it --%s", c.path, n, want)
					}
					continue
				}
				if want, ok := fioSynonyms[n]; ok {
					if !listed {
						t.Errorf("%s --%s: fio's name for this is --%s", c.path, n, want)
					}
					continue
				}
				if !kebab.MatchString(n) && !listed {
					t.Errorf("%s --%s: qdsweep's own flags are kebab-case (e.g. --%s)", c.path, n,
						strings.ReplaceAll(strings.ToLower(n), "_", "-"))
				}
			}
		}
	}
	checkStale(t, used, spellingDeviations)
}

func TestFlagConceptsHaveOneName(t *testing.T) {
	spelling := map[string]string{} // spelling → canonical
	for canon, names := range concepts {
		for _, n := range names {
			spelling[n] = canon
		}
	}
	used := map[string]bool{}
	// who records which command spells each concept how, for the error text.
	who := map[string]map[string][]string{}
	// shape records, per concept, the first command's names, type and
	// default, which every other command must match.
	type flagShape struct{ cmd, names, typ, def string }
	shape := map[string]flagShape{}
	for _, c := range allCommands(newApp().Commands, "") {
		for _, f := range c.flags {
			names := f.Names()
			for _, n := range names {
				if len(n) == 1 {
					if want, ok := aliases[n]; ok && !contains(names, want) {
						t.Errorf("%s -%s: -%s is the alias of --%s elsewhere, here of --%s", c.path, n, n, want, names[0])
					}
					continue
				}
				canon, ok := spelling[n]
				if !ok {
					continue
				}
				if who[canon] == nil {
					who[canon] = map[string][]string{}
				}
				who[canon][n] = append(who[canon][n], c.path)
				if key := c.path + " --" + n; conceptDeviations[key] != "" {
					used[key] = true
					continue
				}
				if names[0] != canon {
					t.Errorf("%s --%s: this concept is --%s; make that the flag's name (an alias may keep --%s)", c.path, n, canon, n)
					continue
				}
				if n != canon {
					continue // the shape is checked once per flag, at its name
				}
				got := flagShape{cmd: c.path, names: strings.Join(names, ","), typ: fmt.Sprintf("%T", f)}
				if d, ok := f.(cli.DocGenerationFlag); ok {
					got.def = d.GetValue()
				}
				want, seen := shape[canon]
				if !seen {
					shape[canon] = got
					continue
				}
				if got.names != want.names {
					t.Errorf("%s --%s: names %s, but %s names it %s; give both the same aliases", c.path, canon, got.names, want.cmd, want.names)
				}
				if got.typ != want.typ {
					t.Errorf("%s --%s: a %s, but %s's is a %s; one concept parses one way", c.path, canon, got.typ, want.cmd, want.typ)
				}
				if got.def != want.def {
					t.Errorf("%s --%s: default %q, but %s's is %q; one concept has one default", c.path, canon, got.def, want.cmd, want.def)
				}
			}
		}
	}
	for canon, by := range who {
		if len(by) > 1 {
			var parts []string
			for n, cmds := range by {
				parts = append(parts, "--"+n+" in "+strings.Join(cmds, ", "))
			}
			sort.Strings(parts)
			t.Logf("concept %s has several spellings: %s", canon, strings.Join(parts, "; "))
		}
	}
	checkStale(t, used, conceptDeviations)
}

// checkStale fails for every listed deviation that the CLI no longer has,
// so the list never hides a fix.
func checkStale(t *testing.T, used map[string]bool, listed map[string]string) {
	t.Helper()
	for key := range listed {
		if !used[key] {
			t.Errorf("deviation %q no longer occurs: remove it from the list", key)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestFioFlagsAreInTheTable: every flag spelled as fio's is an option of
// fio's own table (package fio), run by qdsweep or accepted there: the
// flags and the job reader speak of the same options.
func TestFioFlagsAreInTheTable(t *testing.T) {
	// sweep's own criteria, named after fio's (the job reader, run's,
	// refuses fio's ss rules and max_latency; ss_interval is a later fio's
	// name, not 3.33's).
	sweepOnly := map[string]bool{"ss": true, "ss_dur": true, "ss_interval": true, "max_latency": true}
	for _, n := range fioOptions {
		switch h := fio.OptionHandling(n); {
		case sweepOnly[n], h == fio.Honoured, h == fio.Ignored, h == fio.Batching:
		default:
			t.Errorf("--%s is a flag spelled as fio's, but fio's table has it as %v", n, h)
		}
	}
}
