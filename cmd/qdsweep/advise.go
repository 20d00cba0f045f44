package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func adviseCommand() *cli.Command {
	return &cli.Command{
		Name:  "advise",
		Usage: "(not yet implemented)",
		Action: func(*cli.Context) error {
			return errors.New("advise: not yet implemented")
		},
	}
}
