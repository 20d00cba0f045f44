package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/qdsweep/qdsweep/fio"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
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
		overwriteFlag(),
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

// readForReport reads a saved result for report or compare; a file that
// cannot be used is a usage error naming it and the fix.
func readForReport(path string) (*sweep.Result, error) {
	r, err := sweep.Read(path)
	if err != nil {
		if errors.Is(err, sweep.ErrSchema) {
			if outs, ferr := fio.ReadOutput(path); ferr == nil && len(outs) > 0 {
				return nil, usagef("%s is fio output, not a qdsweep result: turn it into one with qdsweep import fio --output %s %s (then report that directory), or read it as it is with qdsweep explain %s",
					path, importDirFor(path), path, path)
			}
		}
		return nil, usagef("%v; give a qdsweep results directory or its results.json", err)
	}
	n := 0
	for _, s := range r.Steps {
		if s.Skipped == "" && s.Failed == "" && s.IOPS > 0 {
			n++
		}
	}
	if n == 0 {
		return nil, usagef("%s has no measured steps: nothing to report; run a sweep first", path)
	}
	return r, nil
}

// resultsFile is the results.json a result path stands for.
func resultsFile(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return filepath.Join(path, sweep.ResultsJSON)
	}
	return path
}

// resultDir is the directory a result path stands for.
func resultDir(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return path
	}
	return filepath.Dir(path)
}

func reportAction(c *cli.Context) error {
	o, err := parseRenderFlags(c)
	if err != nil {
		return err
	}
	if len(o.args) != 1 {
		return usagef("report needs one results directory or results.json, e.g. qdsweep report qdsweep-20261130-101500 (got %d arguments)", len(o.args))
	}
	r, err := readForReport(o.args[0])
	if err != nil {
		return err
	}
	if o.out == "" {
		o.out = resultDir(o.args[0])
	}
	if err := r.Analyze(o.analyze); err != nil {
		if errors.Is(err, littleslaw.ErrBadOptions) {
			return usagef("%v", err)
		}
		return fmt.Errorf("analyse %s: %w", o.args[0], err)
	}
	// The results file read is never replaced; report's own files in the
	// results directory (summary.md, charts) are.
	out, err := openOut(o.out, outOptions(c, "output", resultsFile(o.args[0])))
	if err != nil {
		return err
	}
	files, err := report.WriteAll(out, r, o.report)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	w := c.App.Writer
	if err := report.Table(w, r, o.report); err != nil {
		return err
	}
	report.WriteWritten(w, c.App.ErrWriter, files, "")
	return nil
}

// importDirFor is a results directory name for importing the fio output
// at path: its base name without extension, prefixed "fio-".
func importDirFor(path string) string {
	b := filepath.Base(path)
	return "fio-" + strings.TrimSuffix(b, filepath.Ext(b))
}
