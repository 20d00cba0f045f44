package fio

import (
	"strings"
	"testing"
)

// TestBlankAfterEqualsRefused: fio 3.33 keeps a blank after '=' (a block
// size "bs= 8k" ran 131,072 I/Os of 8 bytes over 1 MiB, "rw= read" failed
// to parse), so a job file saying so is refused naming the line and the
// fix; a blank before '=' or around a plain number reads as fio reads it
// (fio: "bs =8k" 128 I/Os, "bs= 4096" and "iodepth = 4" as written).
func TestBlankAfterEqualsRefused(t *testing.T) {
	for _, c := range []struct {
		line, want string
	}{
		{"bs = 8k", "write bs=8k"},
		{"rw= read", "write rw=read"},
		{"filename=\t f", "write filename=f"},
		{"bs =8k", ""},
		{"bs= 4096", ""},
		{"iodepth = 4", ""},
		{"rw=read ; c", ""},
		{"description= a test", ""},
	} {
		_, err := ParseJobFile(strings.NewReader("[a]\n" + c.line + "\n"))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v, want it read", c.line, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "line 2")):
			t.Errorf("%q: %v, want line 2 and %q", c.line, err, c.want)
		}
	}
}
