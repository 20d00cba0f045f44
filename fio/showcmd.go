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
