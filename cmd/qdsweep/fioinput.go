package main

import (
	"errors"
	"os"

	"github.com/qdsweep/qdsweep/fio"
)

// readFioOutputs parses every fio output file named in args ("-": standard
// input). Unreadable or unrecognised files are usage errors naming the
// command cmd and the file.
func readFioOutputs(cmd string, args []string) ([]fio.Output, error) {
	var outs []fio.Output
	for _, path := range args {
		got, err := fio.ReadOutput(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, usagef("%s: %v; name an existing fio output file", cmd, err)
		case err != nil:
			return nil, usagef("%s: %v", cmd, err)
		}
		outs = append(outs, got...)
	}
	return outs, nil
}
