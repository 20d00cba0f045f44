package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:  "explain",
		Usage: "(not yet implemented)",
		Action: func(*cli.Context) error {
			return errors.New("explain: not yet implemented")
		},
	}
}
