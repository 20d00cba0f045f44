package fioadapt_test

import (
	"testing"

	"github.com/qdsweep/qdsweep/fioadapt"
)

// TestPassEnds: which size-based jobs end where a sequential follow-on
// would start past their region, as fio 3.33's do (a 4 MiB file): random
// with follow-ons, one loop, no io_size, every region short of the file.
func TestPassEnds(t *testing.T) {
	const file = 4 << 20
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"--rw=randread:4 --size=1m", true},
		{"--rw=randread --percentage_random=50 --size=1m", true},
		{"--rw=randread:4 --size=1m --numjobs=2 --offset_increment=1m", true},
		{"--rw=randread:4 --size=1m --numjobs=4 --offset_increment=1m", false}, // the last region reaches the file's end
		{"--rw=randread:4 --size=4m", false},
		{"--rw=randread:4", false},
		{"--rw=randread --size=1m", false},
		{"--rw=read --size=1m", false},
		{"--rw=randread:4 --size=1m --loops=2", false},
		{"--rw=randread:4 --size=1m --io_size=1m", false},
	} {
		r, err := runOf(t, "--name=x --filename=f "+c.cmd)
		if err != nil {
			t.Fatalf("%s: %v", c.cmd, err)
		}
		if got := fioadapt.PassEnds(r, r.Workload, file); got != c.want {
			t.Errorf("%s: PassEnds %v, want %v", c.cmd, got, c.want)
		}
	}
}
