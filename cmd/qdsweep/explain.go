package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/qdsweep/qdsweep/report"
)

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "explain a fio result with Little's Law: in-flight I/Os, the depth's ceiling, what a target needs",
		ArgsUsage: "FILE|- …  (fio output: json, json+, terse or normal, pasted text around it is fine)",
		Flags: []cli.Flag{
			&cli.Float64Flag{Name: "target-iops", Usage: "IOPS to size the queue depth and iodepth × numjobs for"},
			&cli.IntFlag{Name: "max-iodepth", Value: 64, Usage: "deepest per-job iodepth to suggest"},
			&cli.IntFlag{Name: "max-jobs", Value: 0, Usage: "most jobs to suggest (0: no limit)"},
			&cli.StringFlag{Name: "output-format", Value: formatNormal, Usage: "normal or json"},
		},
		Action: explainAction,
	}
}

func explainAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("explain: name a fio output file, or - for standard input (e.g. fio --output-format=json ... | qdsweep explain -)")
	}
	format := c.String("output-format")
	if format != formatNormal && format != formatJSON {
		return usagef("--output-format: %q; use normal or json", format)
	}
	o := report.ExplainOptions{TargetIOPS: c.Float64("target-iops"), MaxIODepth: c.Int("max-iodepth"), MaxJobs: c.Int("max-jobs")}
	if o.TargetIOPS < 0 {
		return usagef("--target-iops: %v is negative; use e.g. --target-iops=160000", o.TargetIOPS)
	}
	if o.MaxIODepth < 1 || o.MaxJobs < 0 {
		return usagef("--max-iodepth must be at least 1 and --max-jobs at least 0; use e.g. --max-iodepth=64")
	}
	outs, err := readFioOutputs("explain", c.Args().Slice())
	if err != nil {
		return err
	}
	jobs := report.ExplainFio(outs, o)
	if format == formatJSON {
		return report.WriteExplainJSON(os.Stdout, jobs)
	}
	return report.WriteExplain(os.Stdout, jobs)
}
