package fio_test

import (
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestRunOptionsAreTheHonouredOnes: the options run's help documents are
// exactly those the option table says qdsweep runs, each a fio 3.33 option
// read as fio reads it (a switch or a value).
func TestRunOptionsAreTheHonouredOnes(t *testing.T) {
	docs := map[string]bool{}
	for _, d := range fio.RunOptions {
		docs[d.Name] = true
		if fio.OptionHandling(d.Name) != fio.Honoured || fio.OptionTakesValue(d.Name) == d.Switch || d.Help == "" {
			t.Errorf("%s: handling %v, takes a value %v, switch %v, help %q", d.Name, fio.OptionHandling(d.Name), fio.OptionTakesValue(d.Name), d.Switch, d.Help)
		}
	}
	for _, u := range fio.UringOptions {
		docs[u.Name] = true
		if fio.OptionHandling(u.Name) != fio.Honoured || u.Help == "" {
			t.Errorf("io_uring %s: handling %v, help %q", u.Name, fio.OptionHandling(u.Name), u.Help)
		}
	}
	for _, n := range fio.OptionNames() {
		if fio.OptionHandling(n) == fio.Honoured && !docs[n] {
			t.Errorf("%s is run but not documented in fio.RunOptions", n)
		}
	}
}
