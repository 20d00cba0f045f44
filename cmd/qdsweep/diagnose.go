package main

import (
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/session"
	"github.com/urfave/cli/v2"
)

func diagnoseCommand() *cli.Command {
	return flagsAnywhere(&cli.Command{
		Name:      "diagnose",
		Usage:     "explain what limited a saved sweep: queue depth, engine, CPU, cache or the device's cap",
		ArgsUsage: "DIR|results.json",
		Description: report.WrapHanging("Reads a results directory (or its results.json) and applies the bottleneck rules ("+
			report.RuleList()+") to each curve, using the device's diskstats, the CPU use "+
			"and the per-interval series recorded per step, and the control step measured again at the end. "+
			"Flags may follow the results directory (qdsweep diagnose DIR --output-format=json).", 78, "", ""),
		Flags: []cli.Flag{
			targetIOPSFlag("the load the sweep was for, e.g. 160000 or 160k"),
			jsonFormatFlag(),
		},
		Action: diagnoseAction,
	})
}

func diagnoseAction(c *cli.Context) error {
	paths := c.Args().Slice()
	if len(paths) != 1 {
		return usagef("diagnose needs one results directory or results.json, e.g. qdsweep diagnose qdsweep-20261130-101500 (got %d arguments)", len(paths))
	}
	asJSON, err := jsonOutput(c)
	if err != nil {
		return err
	}
	target, err := targetIOPS(c)
	if err != nil {
		return err
	}
	return session.RunDiagnose(session.DiagnoseRequest{Path: paths[0], TargetIOPS: target, JSON: asJSON, Width: writerWidth(c.App.Writer),
		Out: session.Out{Stdout: c.App.Writer, Stderr: c.App.ErrWriter}})
}
