package main

import (
	"errors"
	"os"
	"strings"

	"github.com/qdsweep/qdsweep/ioengine/fio"
)

// readFioOutputs parses every fio output file named in args ("-": standard
// input). Unreadable or unrecognised files are usage errors naming the file.
func readFioOutputs(cmd string, args []string) ([]fio.Output, error) {
	var outs []fio.Output
	for _, path := range args {
		if strings.HasPrefix(path, "-") && path != "-" {
			return nil, usagef("%s: flag %s after the files; put flags first (qdsweep %s %s FILE)", cmd, path, cmd, path)
		}
		got, err := fio.ReadOutput(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, usagef("%v; name an existing fio output file", err)
		case err != nil:
			return nil, usagef("%v", err)
		}
		outs = append(outs, got...)
	}
	return outs, nil
}
