package fioadapt_test

import (
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestRowValuesAnswerFirst: a value an option's row does not allow is
// refused by the row (fio.CheckAllowed), in its words, before the
// option's handler reads it; the handlers of rw, rate_process and kb_base
// hold no list of their own.
func TestRowValuesAnswerFirst(t *testing.T) {
	for _, c := range [][2]string{
		{fio.OptRW, "bogus"}, {fio.OptRW, "RandRead"}, {fio.OptRW, "readx:8k"},
		{fio.OptRateProcess, "Poisson"}, {fio.OptRateProcess, "uniform"},
		{fio.OptKBBase, "999"}, {fio.OptKBBase, "1k"},
	} {
		row := fio.CheckAllowed(c[0], c[1])
		if row == nil {
			t.Fatalf("%s=%s: the row allows it", c[0], c[1])
		}
		_, err := runOf(t, "--name=x --"+c[0]+"="+c[1])
		if want := "--" + c[0] + "=" + c[1] + ": " + row.Error(); err == nil || err.Error() != want {
			t.Errorf("%s=%s: %v, want %q", c[0], c[1], err, want)
		}
	}
	for _, v := range []string{"1024", "1000"} {
		if _, err := runOf(t, "--name=x --kb_base="+v); err != nil {
			t.Errorf("kb_base=%s: %v", v, err)
		}
	}
}
