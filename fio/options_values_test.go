package fio_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestAllowedValues: a row with Values takes each of them (with a ':'
// suffix too) and refuses any other word in one line naming the option
// and every value it takes; a row's Values are fio 3.33's: fio
// --parse-only takes the first (the others may need a suffix, as
// zoned_abs does) and refuses the words CheckAllowed refuses (case
// counts, as in fio).
func TestAllowedValues(t *testing.T) {
	fioBin, _ := exec.LookPath("fio")
	rows := 0
	for _, d := range fio.RunOptions {
		if d.Values == nil {
			continue
		}
		rows++
		for _, v := range d.Values {
			for _, given := range []string{v, v + ":1"} {
				if err := fio.CheckAllowed(d.Name, given); err != nil {
					t.Errorf("%s=%s: %v", d.Name, given, err)
				}
			}
		}
		for _, bad := range []string{"x", strings.ToUpper(d.Values[len(d.Values)-1]), d.Values[0] + "x:1"} {
			if slices.Contains(d.Values, bad) {
				continue // a number: no case
			}
			err := fio.CheckAllowed(d.Name, bad)
			if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), d.Name) {
				t.Errorf("%s=%s: %v; want one line naming the option", d.Name, bad, err)
				continue
			}
			for _, v := range d.Values {
				if !strings.Contains(err.Error(), v) {
					t.Errorf("%s=%s: %q does not name %s", d.Name, bad, err, v)
				}
			}
		}
		if fioBin == "" {
			continue
		}
		for _, c := range []struct {
			v  string
			ok bool
		}{{d.Values[0], true}, {"x", false}, {strings.ToUpper(d.Values[0]), false}} {
			if !c.ok && slices.Contains(d.Values, c.v) {
				continue // a number: no case
			}
			err := exec.Command(fioBin, "--name=a", "--size=1m", "--"+d.Name+"="+c.v, "--parse-only").Run()
			if (err == nil) != c.ok {
				t.Errorf("fio --%s=%s --parse-only: %v; qdsweep's row says it takes it: %v", d.Name, c.v, err, c.ok)
			}
		}
	}
	if rows < 6 {
		t.Errorf("%d rows list their values; want rw, rate_process, kb_base, random_distribution, random_generator, sync …", rows)
	}
}

// TestHelpListsRowValues: the help of a row with Values, run's and
// sweep's, lists them from the row, in the words CheckAllowed refuses any
// other with; a row without Values adds nothing to its Help.
func TestHelpListsRowValues(t *testing.T) {
	n := 0
	for _, d := range fio.RunOptions {
		if len(d.Values) == 0 {
			if d.Usage() != d.Help {
				t.Errorf("%s: usage %q, help %q", d.Name, d.Usage(), d.Help)
			}
			continue
		}
		n++
		err := fio.CheckAllowed(d.Name, "not-a-value")
		want := "; " + err.Error()
		if !strings.HasSuffix(d.Usage(), want) || !strings.HasSuffix(d.SweepUsage(), want) {
			t.Errorf("%s: help %q, sweep's %q; want each to end %q", d.Name, d.Usage(), d.SweepUsage(), want)
		}
	}
	if n < 7 {
		t.Errorf("%d rows with Values; the table had 7", n)
	}
}
