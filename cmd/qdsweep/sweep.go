package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:  "sweep",
		Usage: "(not yet implemented)",
		Action: func(*cli.Context) error {
			return errors.New("sweep: not yet implemented")
		},
	}
}
