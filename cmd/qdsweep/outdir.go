package main

import (
	"errors"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/urfave/cli/v2"
)

// overwriteFlag lets a command write into a directory holding files
// qdsweep did not write (or, for sweep, a finished sweep).
func overwriteFlag() cli.Flag {
	return &cli.BoolFlag{Name: "overwrite", Usage: "write into an existing --output directory that holds other files or a finished sweep (qdsweep's own file names are replaced; nothing else is touched)"}
}

// outOptions maps the output flags to the writer's options: flag names
// the flag that chose the path; protect lists the files the command reads
// or measures, which are never replaced.
func outOptions(c *cli.Context, flag string, protect ...string) guard.OutOptions {
	return guard.OutOptions{Flag: "--" + flag, Overwrite: c.Bool("overwrite"), Protect: protect}
}

// openOut opens dir through the one writer; a refusal is a usage error.
func openOut(dir string, o guard.OutOptions) (*guard.Out, error) {
	out, err := guard.OpenOut(dir, o)
	return out, outErr(err)
}

// outErr makes a refusal of an output path a usage error (exit 2).
func outErr(err error) error {
	if errors.Is(err, guard.ErrOutput) {
		return usageErr(err)
	}
	return err
}
