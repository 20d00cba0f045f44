package main

import (
	"github.com/urfave/cli/v2"

	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/session"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:  "import",
		Usage: "turn results of other tools into a qdsweep result",
		Subcommands: []*cli.Command{flagsAnywhere(&cli.Command{
			Name:      "fio",
			Usage:     "turn fio outputs (one point per file or per job) into a sweep result with analysis and charts",
			ArgsUsage: "FILE …",
			Description: "Each FILE is fio output (json, json+, terse or normal), plus any NAME_iops.N.log / " +
				"NAME_lat.N.log per-interval logs of those runs.",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "output", Aliases: []string{"out", "o"}, Usage: "results directory to create (default ./qdsweep-YYYYMMDD-HHMMSS)"},
				overwriteOpt(),
				targetIOPSFlag("target I/Os per second to size for in the recommendation, e.g. 160000 or 160k"),
				&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors (no table, no file list)"},
			},
			Action: importFioAction,
		})},
	}
}

func importFioAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("import fio: name one or more fio output files (e.g. qdsweep import fio qd*.json --output DIR)")
	}
	target, err := targetIOPS(c)
	if err != nil {
		return err
	}
	return session.RunImport(session.ImportRequest{Paths: c.Args().Slice(), Output: c.String("output"), Overwrite: c.Bool(overwriteFlag),
		Report: report.Options{TargetIOPS: target, Width: writerWidth(c.App.Writer)}, Quiet: c.Bool("quiet"), Version: version,
		Out: session.Out{Stdout: c.App.Writer, Stderr: c.App.ErrWriter}})
}
