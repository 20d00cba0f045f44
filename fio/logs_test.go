package fio_test

import (
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

func TestLogName(t *testing.T) {
	for _, tc := range []struct {
		name, prefix string
		kind         fio.LogKind
		job          int
		ok           bool
	}{
		{"qd4_iops.1.log", "qd4", fio.LogIOPS, 1, true},
		{"dir/run_a_clat.12.log", "run_a", fio.LogClat, 12, true},
		{"x_lat.log", "x", fio.LogLat, 0, true},
		{"qd4.json", "", "", 0, false},
		{"qd4_foo.1.log", "", "", 0, false},
	} {
		p, k, j, ok := fio.LogName(tc.name)
		if p != tc.prefix || k != tc.kind || j != tc.job || ok != tc.ok {
			t.Errorf("LogName(%q) = %q %q %d %v", tc.name, p, k, j, ok)
		}
	}
}

func TestParseLogErrors(t *testing.T) {
	for _, bad := range []string{"1, x, 0", "1, 2", "5, 3, 7, 0, 0", "-1, 3, 0"} {
		if _, err := fio.ParseLog(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseLog(%q) accepted", bad)
		}
	}
}
