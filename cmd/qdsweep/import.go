package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:  "import",
		Usage: "(not yet implemented)",
		Action: func(*cli.Context) error {
			return errors.New("import: not yet implemented")
		},
	}
}
