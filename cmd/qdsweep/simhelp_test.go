package main

import (
	"testing"

	"github.com/qdsweep/qdsweep/ioengine"
)

// TestSimHelpNamesEveryKey: --sim's help says what each key of the spec
// sets, in the order ioengine.SimKeys lists them.
func TestSimHelpNamesEveryKey(t *testing.T) {
	if len(simKeyHelp) != len(ioengine.SimKeys) {
		t.Fatalf("%d keys with help, %d keys", len(simKeyHelp), len(ioengine.SimKeys))
	}
	for i, k := range ioengine.SimKeys {
		if simKeyHelp[i][0] != k || simKeyHelp[i][1] == "" {
			t.Errorf("key %d: help for %q (%q), want %q", i, simKeyHelp[i][0], simKeyHelp[i][1], k)
		}
	}
}
