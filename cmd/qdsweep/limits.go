package main

import (
	"fmt"
	"os"

	"github.com/qdsweep/qdsweep/guard"
)

// A process started under limits too tight for any run stops here with one
// line and exit 1, before a command can fail halfway (or the runtime abort
// with a stack trace when an allocation or a descriptor is refused).
func init() {
	if err := guard.CheckLimits(guard.Need{}); err != nil {
		fmt.Fprintln(os.Stderr, "qdsweep: "+err.Error())
		os.Exit(1)
	}
}
