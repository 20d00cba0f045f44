package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:  "import",
		Usage: "turn results of other tools into a qdsweep result",
		Subcommands: []*cli.Command{{
			Name:      "fio",
			Usage:     "turn fio outputs (one point per file or per job) into a sweep result with analysis and charts",
			ArgsUsage: "FILE …  (fio output: json, json+, terse or normal)",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "out", Aliases: []string{"output", "o"}, Usage: "results directory (default ./qdsweep-YYYYMMDD-HHMMSS)"},
				&cli.Float64Flag{Name: "target-iops", Usage: "IOPS to size for in the recommendation"},
				&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			},
			Action: importFioAction,
		}},
	}
}

func importFioAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("import fio: name one or more fio output files (e.g. qdsweep import fio qd*.json --out DIR)")
	}
	if c.Float64("target-iops") < 0 {
		return usagef("--target-iops: %v is negative; use e.g. --target-iops=160000", c.Float64("target-iops"))
	}
	outs, err := readFioOutputs("import fio", c.Args().Slice())
	if err != nil {
		return err
	}
	r, err := sweep.FromFio(outs)
	if err != nil {
		return usagef("%v; the files hold no job that did I/O", err)
	}
	dir, err := outputDir(c.String("out"))
	if err != nil {
		return err
	}
	r.Meta.Version = version
	if err := r.Analyze(littleslaw.Options{TargetIOPS: c.Float64("target-iops")}); err != nil {
		return fmt.Errorf("import fio: analyse: %w", err)
	}
	if err := sweep.Write(dir, r); err != nil {
		return fmt.Errorf("import fio: %w", err)
	}
	files, err := report.WriteAll(dir, r, report.Options{})
	if err != nil {
		return fmt.Errorf("import fio: report: %w", err)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(os.Stderr, "Imported %d steps from %d fio files into %s (%s, %d curves).\n",
			len(r.Steps), c.NArg(), dir, r.Meta.Engine, len(r.Curves()))
		for _, f := range files {
			fmt.Fprintln(os.Stderr, "  "+f)
		}
	}
	return nil
}
