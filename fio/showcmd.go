package fio

import (
	"fmt"
	"slices"
	"strings"
)

// ShowCmd is the job file as fio 3.33's --showcmd prints it: "fio ", then
// each section in order, a job's as "--name=SECTION " and its own
// options, a [global]'s as every [global] option read so far; each option
// "--name=value " (a switch "--name "; a description's value quoted) by
// its canonical name, a section's in fio's order (by showPrio, then as
// written, an engine's options last); one line. A job section not in
// sections (when any is named) is skipped, as fio's --section.
func ShowCmd(jf JobFile, sections []string) (string, error) {
	if err := checkShown(jf); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("fio ")
	g := 0
	for i := 0; i <= len(jf.Jobs); i++ {
		for ; g < len(jf.globals) && jf.globals[g].jobs == i; g++ {
			writeShown(&b, globalsShown(jf, g))
		}
		if i == len(jf.Jobs) {
			break
		}
		js := jf.Jobs[i]
		if len(sections) > 0 && !slices.Contains(sections, js.Name) {
			continue
		}
		b.WriteString(FlagSet(OptName, js.Name) + " ")
		writeShown(&b, showOrder(js.Options))
	}
	b.WriteString("\n")
	return b.String(), nil
}

// globalsShown is every [global] option up to the end of section g, each
// section's in fio's order.
func globalsShown(jf JobFile, g int) []Option {
	var out []Option
	start := 0
	for _, s := range jf.globals[:g+1] {
		out = append(out, showOrder(jf.Global[start:s.end])...)
		start = s.end
	}
	return out
}

// showOrder is a section's options in the order fio reads them: fio's own
// by priority (stable), then the engines'.
func showOrder(opts []Option) []Option {
	out := slices.Clone(opts)
	slices.SortStableFunc(out, func(a, b Option) int {
		ea, eb := isEngineOption(a.Key), isEngineOption(b.Key)
		if ea != eb {
			return cmpBool(ea, eb)
		}
		return showPrio[OptionName(b.Key)] - showPrio[OptionName(a.Key)]
	})
	return out
}

// isEngineOption reports whether key is only an engine's option.
func isEngineOption(key string) bool {
	_, ok := engineOf[OptionName(key)]
	return ok
}

// writeShown writes opts as fio's --showcmd does.
func writeShown(b *strings.Builder, opts []Option) {
	for _, o := range opts {
		name := OptionName(o.Key)
		switch {
		case o.Value == "" && !takesValue(o.Key):
			fmt.Fprintf(b, "--%s ", name)
		case name == string(OptDescription):
			fmt.Fprintf(b, "--%s=\"%s\" ", name, o.Value)
		default:
			fmt.Fprintf(b, "--%s=%s ", name, o.Value)
		}
	}
}

// checkShown refuses an option fio does not know, as fio's --showcmd
// fails on it.
func checkShown(jf JobFile) error {
	all := slices.Clone(jf.Global)
	for _, j := range jf.Jobs {
		all = append(all, j.Options...)
	}
	for _, o := range all {
		if _, ok := options[OptionName(o.Key)]; !ok {
			return fmt.Errorf("line %d: %s is not a fio option", o.Line, o.Key)
		}
	}
	return nil
}

// Listed is job i's options as fio 3.33's JSON lists them, by fio's
// names, each time given: its "job options" (a job file section's in the
// order fio reads them, showOrder; a command line's as given) and its
// "global options" (the command line's before the job file as given, then
// each [global] section's in fio's order).
func (jf JobFile) Listed(i int) (job, global []Option) {
	js := jf.Jobs[i]
	job = js.Options
	if js.Line > 0 {
		job = showOrder(js.Options)
	}
	fileGlobals := 0
	if n := len(jf.globals); n > 0 {
		fileGlobals = jf.globals[n-1].end
	}
	cmdline := max(len(jf.Global)-fileGlobals, 0)
	global = slices.Clone(jf.Global[:cmdline])
	start := cmdline
	for _, s := range jf.globals {
		end := min(cmdline+s.end, len(jf.Global))
		global = append(global, showOrder(jf.Global[start:end])...)
		start = end
	}
	global = append(global, jf.Global[start:]...)
	return canonical(job), canonical(global)
}

// canonical is opts with each key fio's name for it.
func canonical(opts []Option) []Option {
	out := make([]Option, len(opts))
	for i, o := range opts {
		out[i] = Option{Key: OptionName(o.Key), Value: o.Value, Line: o.Line}
	}
	return out
}

// OptionValue is the value of option k (fio's name) last given in opts.
func OptionValue(opts []Option, k string) (string, bool) {
	for i := len(opts) - 1; i >= 0; i-- {
		if opts[i].Key == k {
			return opts[i].Value, true
		}
	}
	return "", false
}
