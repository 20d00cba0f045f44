package main

import (
	"errors"
	"fmt"

	"github.com/qdsweep/qdsweep/littleslaw"
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
	var o littleslaw.Options
	if o.TargetIOPS, err = targetIOPS(c); err != nil {
		return err
	}
	r, err := session.ReadSaved(paths[0])
	if err != nil {
		return err
	}
	if err := r.Analyze(o); err != nil {
		if errors.Is(err, littleslaw.ErrBadOptions) {
			return usagef("%v", err)
		}
		fmt.Fprintf(c.App.ErrWriter, "qdsweep: diagnosing without the analysis: %v\n", err)
		r.Analysis = nil
	}
	findings := r.Diagnose(o)
	if asJSON {
		return report.WriteDiagnoseJSON(c.App.Writer, paths[0], o.TargetIOPS, findings)
	}
	return report.WriteFindings(c.App.Writer, findings, writerWidth(c.App.Writer))
}
