package main

import (
	"github.com/qdsweep/qdsweep/report"
	"github.com/urfave/cli/v2"
)

// manDoc is the manual page's model of app: every visible command and
// subcommand with its visible flags (the same words as --help), and the
// commands' examples.
func manDoc(app *cli.App) report.ManDoc {
	m := report.ManDoc{Version: version, Usage: app.Usage}
	add := func(name string, c *cli.Command) {
		mc := report.ManCommand{Name: name, Usage: c.Usage, Description: c.Description}
		for _, f := range c.VisibleFlags() {
			df, ok := f.(cli.DocGenerationFlag)
			if !ok {
				continue
			}
			mf := report.ManFlag{Names: f.Names(), TakesValue: df.TakesValue(), Usage: df.GetUsage(), Default: df.GetDefaultText()}
			if mf.Default == "" && df.TakesValue() {
				mf.Default = df.GetValue()
			}
			mc.Flags = append(mc.Flags, mf)
		}
		m.Commands = append(m.Commands, mc)
	}
	for _, c := range app.VisibleCommands() {
		add(c.Name, c)
		for _, sub := range c.Subcommands {
			if !sub.Hidden {
				add(c.Name+" "+sub.Name, sub)
			}
		}
	}
	for _, name := range []string{"sweep", "run", "advise", "explain", "import", "report", "compare", "diagnose"} {
		m.Examples = append(m.Examples, commandExamples[name]...)
	}
	return m
}
