package main

import (
	"runtime"

	"github.com/urfave/cli/v2"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/session"
)

func explainCommand() *cli.Command {
	return flagsAnywhere(&cli.Command{
		Name:      "explain",
		Usage:     "explain a fio result with Little's Law: in-flight I/Os, the depth's ceiling, what a target needs",
		ArgsUsage: "FILE|- …",
		Description: "Each FILE is fio output (json, json+, terse or normal; pasted text around it is fine), " +
			"or - for standard input.",
		Flags: []cli.Flag{
			targetIOPSFlag("target I/Os per second to size the queue depth and iodepth × numjobs for, e.g. 160000 or 160k"),
			&cli.IntFlag{Name: "max-iodepth", Value: littleslaw.DefaultMaxIODepth, Usage: "deepest queue per job to suggest (NVMe queues hold 256)"},
			&cli.IntFlag{Name: "max-jobs", Usage: "most jobs to suggest (as advise)", DefaultText: "the CPU count"},
			&cli.StringFlag{Name: "base-latency", Usage: "the unqueued (QD 1) mean latency of this device, e.g. 80us: tells a depth-bound run from a device-bound one and sizes targets"},
			jsonFormatFlag(),
		},
		Action: explainAction,
	})
}

func explainAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("explain: name a fio output file, or - for standard input (e.g. fio --output-format=json ... | qdsweep explain -)")
	}
	asJSON, err := jsonOutput(c)
	if err != nil {
		return err
	}
	o := fioadapt.ExplainOptions{MaxIODepth: c.Int("max-iodepth"), MaxJobs: c.Int("max-jobs")}
	if !c.IsSet("max-jobs") {
		// The same limits advise splits with.
		_, o.MaxJobs = littleslaw.Options{MaxIODepth: o.MaxIODepth, CPUs: runtime.NumCPU()}.Limits()
	}
	if s := c.String("base-latency"); s != "" {
		if o.BaseLatNs, err = parseLatency(s); err != nil {
			return usagef("--base-latency: %v", err)
		}
	}
	if o.TargetIOPS, err = targetIOPS(c); err != nil {
		return err
	}
	if o.MaxIODepth < 1 {
		return usagef("--max-iodepth: %d; use at least 1, e.g. --max-iodepth=256", o.MaxIODepth)
	}
	if o.MaxJobs < 0 {
		return usagef("--max-jobs: %d; use 1 or more, e.g. --max-jobs=8", o.MaxJobs)
	}
	return session.RunExplain(session.ExplainRequest{Paths: c.Args().Slice(), Explain: o, JSON: asJSON,
		Out: session.Out{Stdout: c.App.Writer, Stderr: c.App.ErrWriter}})
}
