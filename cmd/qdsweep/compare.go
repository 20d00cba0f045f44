package main

import (
	"github.com/qdsweep/qdsweep/session"
	"github.com/urfave/cli/v2"
)

func compareCommand() *cli.Command {
	return flagsAnywhere(&cli.Command{
		Name:      "compare",
		Usage:     "overlay several saved sweeps (before/after, seq vs rand, two disks or engines) in one set of charts",
		ArgsUsage: "A B [C …] --output DIR",
		Description: "Each argument is a results directory or results.json; legends name each by its directory\n" +
			"or file name. Prints the saturation points and the deltas against the first result at each\n" +
			"common QD, and writes compare.md and the charts into --output. Flags may follow the results.",
		Flags:  renderFlags(true),
		Action: compareAction,
	})
}

func compareAction(c *cli.Context) error {
	o, err := parseRenderFlags(c)
	if err != nil {
		return err
	}
	if len(o.args) < 2 {
		return usagef("compare needs at least two results (directories or results.json), e.g. qdsweep compare before after --output cmp")
	}
	if o.out == "" {
		return usagef("compare needs --output DIR for compare.md and the charts, e.g. --output before-vs-after")
	}
	return session.RunCompare(session.CompareRequest{Paths: o.args, Output: o.out, Overwrite: c.Bool(overwriteFlag),
		Analyze: o.analyze, Report: o.report, Out: session.Out{Stdout: c.App.Writer, Stderr: c.App.ErrWriter}})
}
