package main

import (
	"github.com/qdsweep/qdsweep/guard"
	"github.com/urfave/cli/v2"
)

// overwriteFlag is qdsweep's own --overwrite (an output directory), not
// fio's overwrite option: guard's, whose refusals name it.
const overwriteFlag = guard.OverwriteFlag

// overwriteOpt lets a command write into a directory holding files
// qdsweep did not write (or, for sweep, a finished sweep).
func overwriteOpt() cli.Flag {
	return &cli.BoolFlag{Name: overwriteFlag, Usage: "write into an existing --output directory that holds other files or a finished sweep (qdsweep's own file names are replaced; nothing else is touched)"}
}

// outOptions maps the output flags to the writer's options: flag names
// the flag that chose the path; protect lists the files the command reads
// or measures, which are never replaced.
func outOptions(c *cli.Context, flag string, protect ...string) guard.OutOptions {
	return guard.OutOptions{Flag: "--" + flag, Overwrite: c.Bool(overwriteFlag), Protect: protect}
}
