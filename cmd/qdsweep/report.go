package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "(not yet implemented)",
		Action: func(*cli.Context) error {
			return errors.New("report: not yet implemented")
		},
	}
}
