package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:  "run",
		Usage: "(not yet implemented)",
		Action: func(*cli.Context) error {
			return errors.New("run: not yet implemented")
		},
	}
}
