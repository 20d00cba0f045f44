package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func diagnoseCommand() *cli.Command {
	return &cli.Command{
		Name:  "diagnose",
		Usage: "(not yet implemented)",
		Action: func(*cli.Context) error {
			return errors.New("diagnose: not yet implemented")
		},
	}
}
