package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
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
	names := inputNames(o.args)
	ins := make([]report.Input, len(o.args))
	for i, p := range o.args {
		r, err := readForReport(p)
		if err != nil {
			return err
		}
		if err := r.Analyze(o.analyze); err != nil {
			if errors.Is(err, littleslaw.ErrBadOptions) {
				return usagef("%v", err)
			}
			return fmt.Errorf("analyse %s: %w", p, err)
		}
		ins[i] = report.Input{Name: names[i], Result: r}
	}
	out, err := openOut(o.out, outOptions(c, "output", o.args...))
	if err != nil {
		return err
	}
	files, err := report.WriteCompare(out, ins, o.report)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if err := report.CompareTable(c.App.Writer, ins, o.report); err != nil {
		return err
	}
	report.WriteWritten(c.App.Writer, c.App.ErrWriter, files, "")
	return nil
}

// inputNames names each result by its directory or file name ("before",
// "after", "nvme.json"), adding parent directories, then "#n", until the
// names differ.
func inputNames(paths []string) []string {
	base := func(p string, depth int) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if filepath.Base(p) == sweep.ResultsJSON {
			p = filepath.Dir(p)
		}
		parts := strings.Split(strings.Trim(filepath.ToSlash(p), "/"), "/")
		if depth > len(parts) {
			depth = len(parts)
		}
		n := strings.Join(parts[len(parts)-depth:], "/")
		return strings.TrimSuffix(n, ".json")
	}
	names := make([]string, len(paths))
	for depth := 1; depth <= 3; depth++ {
		seen := map[string]int{}
		for i, p := range paths {
			names[i] = base(p, depth)
			seen[names[i]]++
		}
		dup := false
		for _, n := range seen {
			dup = dup || n > 1
		}
		if !dup {
			return names
		}
	}
	count := map[string]int{}
	for i, n := range names {
		count[n]++
		if count[n] > 1 {
			names[i] = fmt.Sprintf("%s #%d", n, count[n])
		}
	}
	return names
}
