package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestOptionRangesRefused: for every row of fio's option table with a
// range, a value just outside it (below its minimum, above its maximum) is
// refused by `run` in one line that names the option and the range, exit 2,
// nothing written; fio 3.33 refuses the same value (--parse-only) where fio
// checks it, and the value at each bound is accepted by both.
func TestOptionRangesRefused(t *testing.T) {
	fioBin, _ := exec.LookPath("fio")
	if fioBin == "" {
		t.Log("fio not installed: qdsweep's refusals are checked without fio's")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	rows := 0
	for _, d := range fio.RunOptions {
		if d.Range == nil {
			continue
		}
		rows++
		f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
		outside := []string{f(d.Range.Min - 1)}
		inside := []string{f(d.Range.Min)}
		if d.Range.Max != fio.NoMax {
			outside = append(outside, f(d.Range.Max+1))
			inside = append(inside, f(d.Range.Max))
		}
		for i, v := range append(outside, inside...) {
			refuse := i < len(outside)
			args := []string{"--name=x", "--filename=" + target, "--size=1m", "--" + d.Name + "=" + v, "--parse-only"}
			if engines := fio.OptionEngines(d.Name); len(engines) > 0 {
				// An engine's option: after its engine, as fio reads it.
				args = append(args[:3:3], append([]string{fio.FlagSet(fio.OptIOEngine, engines[len(engines)-1])}, args[3:]...)...)
			}
			_, stderr, code := runQdsweep(t, dir, append([]string{"run"}, args...)...)
			msg := strings.TrimSpace(stderr)
			switch {
			case refuse && (code != 2 || strings.Contains(msg, "\n") || !strings.Contains(msg, "--"+d.Name+"=") || !strings.Contains(msg, d.Range.String())):
				t.Errorf("%s=%s: exit %d, %q; want exit 2 and one line naming --%s and %s", d.Name, v, code, msg, d.Name, d.Range)
			case !refuse && d.Refused[v] != "":
				// fio takes it; qdsweep refuses it with the row's reason.
				if code != 2 || !strings.Contains(msg, d.Refused[v]) {
					t.Errorf("%s=%s: exit %d, %q; want exit 2 and the row's reason %q", d.Name, v, code, msg, d.Refused[v])
				}
			case !refuse && code != 0:
				t.Errorf("%s=%s (a bound of %s): exit %d, %q; want it accepted", d.Name, v, d.Range, code, msg)
			}
			if fioBin == "" || !refuse && v != inside[0] {
				continue // fio is asked about every value outside, and each row's minimum
			}
			_, err := runIn(dir, fioBin, args...)
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			switch {
			case refuse && err == nil && d.Range.Min == 0 && v == "-1":
				// fio 3.33 reads a negative value of an unsigned option as a
				// huge one and checks only its maximum: qdsweep refuses it.
				t.Logf("intended: fio accepts %s=%s, qdsweep refuses it", d.Name, v)
			case refuse && err == nil:
				t.Errorf("%s=%s: qdsweep refuses it (%s), fio accepts it", d.Name, v, d.Range)
			case !refuse && err != nil:
				t.Errorf("%s=%s: fio refuses a bound of %s", d.Name, v, d.Range)
			}
		}
	}
	if rows < 10 {
		t.Fatalf("only %d rows have a range; the table lost them", rows)
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Errorf("--parse-only wrote %v (%v)", ents, err)
	}
}
