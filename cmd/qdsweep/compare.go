package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:  "compare",
		Usage: "(not yet implemented)",
		Action: func(*cli.Context) error {
			return errors.New("compare: not yet implemented")
		},
	}
}
