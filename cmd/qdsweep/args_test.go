package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// argsTestFlags stand for a command's flags: two that take values (one
// with an alias) and a bool.
var argsTestFlags = []cli.Flag{
	&cli.StringFlag{Name: "output", Aliases: []string{"out", "o"}},
	&cli.IntFlag{Name: "max-iodepth"},
	&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}},
}

func TestMoveFlagsFirst(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr string
	}{
		{"nothing to move", "--out d a b", "--out d a b", ""},
		{"value after positional", "a --out d", "--out d a", ""},
		{"alias and short alias", "a -o d b --output=e", "-o d --output=e a b", ""},
		{"bool takes no value", "a --quiet b", "--quiet a b", ""},
		{"bool with =", "a -q=false b", "-q=false a b", ""},
		{"value that looks like a flag", "a --max-iodepth -5", "--max-iodepth -5 a", ""},
		{"stdin is positional", "- --out d", "--out d -", ""},
		{"unknown flag takes no value", "a --bogus b", "--bogus a b", ""},
		{"double dash ends flags", "a --out d -- -x --quiet", "--out d -- a -x --quiet", ""},
		{"double dash first", "-- --out d", "-- --out d", ""},
		{"missing value at the end", "a --out", "", "flag needs an argument: -out"},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := moveFlagsFirst(argsTestFlags, strings.Fields(tt.in))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("got %q, want %q", strings.Join(got, " "), tt.want)
			}
		})
	}
}

// FuzzMoveFlagsFirst checks, for any command line, that moving keeps every
// argument, keeps the positionals in order, and that moving twice changes
// nothing more (flagsAnywhere relies on it to stop).
func FuzzMoveFlagsFirst(f *testing.F) {
	for _, s := range []string{"a --out d", "a -- --out", "- -q b --max-iodepth=3", "--out", "a b c", "x --bogus -- -"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		in := strings.Fields(line)
		got, err := moveFlagsFirst(argsTestFlags, in)
		if err != nil {
			return
		}
		a, b := slices.Clone(in), slices.Clone(got)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Fatalf("%q → %q: not a permutation", in, got)
		}
		again, err := moveFlagsFirst(argsTestFlags, got)
		if err != nil || !slices.Equal(again, got) {
			t.Fatalf("%q → %q → %q (%v): not idempotent", in, got, again, err)
		}
	})
}

// TestFlagsAfterArguments: every command that takes files or directories
// prints the same with its flags after them as with its flags first.
func TestFlagsAfterArguments(t *testing.T) {
	res := savedSweep(t, "res", 90000)
	other := savedSweep(t, "other", 60000)
	fioOut, err := filepath.Abs(filepath.Join("..", "..", "fio", "testdata", "randread-libaio-qd32-normal.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	tests := []struct {
		name       string
		cmd        []string // the command (and subcommand)
		flags, pos []string
		want       string // in the output of both orders
	}{
		{"explain", []string{"explain"}, []string{"--target-iops", "160000"}, []string{fioOut}, "160,000 IOPS"},
		{"explain json", []string{"explain"}, []string{"--output-format=json", "--max-iodepth", "16"}, []string{fioOut}, `"jobs"`},
		{"diagnose", []string{"diagnose"}, []string{"--output-format", "json", "--target-iops=50k"}, []string{res}, `"target_iops": 50000`},
		{"report", []string{"report"}, []string{"--target-iops", "80k", "--out", filepath.Join(out, "r")}, []string{res}, "80,000 IOPS"},
		{"compare", []string{"compare"}, []string{"-o", filepath.Join(out, "c")}, []string{res, other}, "Saturation points"},
		{"import fio", []string{"import", "fio"}, []string{"--output", filepath.Join(out, "i"), "--overwrite", "--target-iops", "1k"}, []string{fioOut}, "Imported 1 step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := slices.Concat(tt.cmd, tt.flags, tt.pos)
			last := slices.Concat(tt.cmd, tt.pos, tt.flags)
			o1, e1, c1 := runMain(t, first...)
			o2, e2, c2 := runMain(t, last...)
			if c1 != 0 || c2 != 0 {
				t.Fatalf("exit %d with flags first (%s), %d with flags last (%s)", c1, e1, c2, e2)
			}
			if o1 != o2 {
				t.Errorf("output differs:\nflags first:\n%s\nflags last:\n%s", o1, o2)
			}
			if !strings.Contains(strings.Join(strings.Fields(o2), " "), tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, o2)
			}
		})
	}
}
