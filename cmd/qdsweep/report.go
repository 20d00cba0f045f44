package main

import (
	"strings"

	"github.com/qdsweep/qdsweep/session"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/urfave/cli/v2"
)

func reportCommand() *cli.Command {
	return flagsAnywhere(&cli.Command{
		Name:      "report",
		Usage:     "re-render the table, summary.md and charts of a saved sweep (no device needed)",
		ArgsUsage: "DIR|results.json",
		Description: "Reads a results directory (or its results.json), re-runs the analysis with the given\n" +
			"targets and writes summary.md and the charts into --output (default: the results directory).\n" +
			"Flags may follow the results directory.",
		Flags:  renderFlags(false),
		Action: reportAction,
	})
}

// renderFlags are the flags report and compare share.
func renderFlags(outRequired bool) []cli.Flag {
	outUsage := "directory to write summary.md and charts into (default: the results directory)"
	if outRequired {
		outUsage = "directory to write compare.md and charts into (required)"
	}
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"out", "o"}, Usage: outUsage},
		overwriteOpt(),
		targetIOPSFlag("target I/Os per second to size for and draw, e.g. 160000 or 160k"),
		latencySLOFlag("latency objective to answer and draw, e.g. p99=5ms (mean, p50, p90, p99, p999)"),
		&cli.StringFlag{Name: "chart-format", Value: "png", Usage: "png or svg"},
		&cli.BoolFlag{Name: "device-stats", Usage: "add the device's r/s, w/s, aqu-sz, %util and await columns to the table"},
	}
}

// renderOpts are the parsed flags of report and compare.
type renderOpts struct {
	args    []string
	out     string
	analyze littleslaw.Options
	report  report.Options
}

// parseRenderFlags reads report's and compare's flags (they may also
// follow the positional arguments: see flagsAnywhere). Errors are usage
// errors.
func parseRenderFlags(c *cli.Context) (renderOpts, error) {
	o := renderOpts{args: c.Args().Slice(), out: c.String("output")}
	var err error
	if o.analyze.TargetIOPS, err = targetIOPS(c); err != nil {
		return o, err
	}
	if o.analyze.SLO, err = latencySLO(c, "latency-slo"); err != nil {
		return o, err
	}
	f := strings.ToLower(c.String("chart-format"))
	if f != "png" && f != "svg" {
		return o, usagef("--chart-format: %q; use png or svg", c.String("chart-format"))
	}
	o.report = report.Options{
		TargetIOPS:  o.analyze.TargetIOPS,
		SLO:         o.analyze.SLO,
		ChartFormat: f,
		DeviceStats: c.Bool("device-stats"),
		Width:       writerWidth(c.App.Writer),
	}
	return o, nil
}

func reportAction(c *cli.Context) error {
	o, err := parseRenderFlags(c)
	if err != nil {
		return err
	}
	if len(o.args) != 1 {
		return usagef("report needs one results directory or results.json, e.g. qdsweep report qdsweep-20261130-101500 (got %d arguments)", len(o.args))
	}
	return session.RunReport(session.ReportRequest{Path: o.args[0], Output: o.out, Overwrite: c.Bool(overwriteFlag),
		Analyze: o.analyze, Report: o.report, Out: session.Out{Stdout: c.App.Writer, Stderr: c.App.ErrWriter}})
}
