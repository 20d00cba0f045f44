package fioadapt

import (
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestHandlersAreTheRunOptions: the job reader has a handler for every
// option fio's table says qdsweep runs, and none for another.
func TestHandlersAreTheRunOptions(t *testing.T) {
	run := runOptionNames()
	for n := range run {
		if jobOptions[n].apply == nil {
			t.Errorf("%s is run (fio.RunOptions) but the job reader has no handler for it", n)
		}
	}
	for n := range jobOptions {
		if !run[n] {
			t.Errorf("the job reader handles %s, which fio.RunOptions does not list", n)
		}
	}
}

// runOptionNames are the options fio's table says qdsweep runs.
func runOptionNames() map[string]bool {
	run := map[string]bool{}
	for _, d := range fio.RunOptions {
		run[d.Name] = true
	}
	for _, n := range fio.UringOptionNames() {
		run[n] = true
	}
	return run
}
