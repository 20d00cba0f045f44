package sweep_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

func TestParseIntSpec(t *testing.T) {
	tests := []struct {
		in   string
		want []int
	}{
		{"1:256", []int{1, 2, 4, 8, 16, 32, 64, 128, 256}},
		{"1:256:x4", []int{1, 4, 16, 64, 256}},
		{"3:50", []int{3, 6, 12, 24, 48}},
		{"8", []int{8}},
		{"4:4", []int{4}},
		{" 1, 2,4,8 ", []int{1, 2, 4, 8}},
		{"1,3,1000", []int{1, 3, 1000}},
	}
	for _, tc := range tests {
		got, err := sweep.ParseIntSpec(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseIntSpec(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "1:0", "256:1", "0:4", "a,b", "1,,2", "4,2", "2,2", "1:256:x1", "1:256:4", "1:2:3:4", "-1", "1.5", "1:9999999"} {
		if got, err := sweep.ParseIntSpec(bad); err == nil || !errors.Is(err, sweep.ErrBadSpec) {
			t.Errorf("ParseIntSpec(%q) = %v, %v; want ErrBadSpec", bad, got, err)
		}
	}
}

func TestParseSizeAndRWLists(t *testing.T) {
	bs, err := sweep.ParseSizeList("4k,16k,64k,1m")
	if err != nil || !slices.Equal(bs, []int64{4096, 16384, 65536, 1 << 20}) {
		t.Errorf("ParseSizeList = %v, %v", bs, err)
	}
	rw, err := sweep.ParseRWList("read, RandRead")
	if err != nil || !slices.Equal(rw, []ioengine.RW{ioengine.Read, ioengine.RandRead}) {
		t.Errorf("ParseRWList = %v, %v", rw, err)
	}
	for _, bad := range []string{"", "4k,", "0", "4x", "4k,4096"} {
		if _, err := sweep.ParseSizeList(bad); !errors.Is(err, sweep.ErrBadSpec) {
			t.Errorf("ParseSizeList(%q) err = %v", bad, err)
		}
	}
	for _, bad := range []string{"", "reed", "read,read", "read,"} {
		if _, err := sweep.ParseRWList(bad); !errors.Is(err, sweep.ErrBadSpec) {
			t.Errorf("ParseRWList(%q) err = %v", bad, err)
		}
	}
}

func FuzzParseIntSpec(f *testing.F) {
	for _, s := range []string{"1:256", "1:256:x4", "1,2,4", "8", "1:0", "a", "1:2:x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := sweep.ParseIntSpec(s)
		if err != nil {
			return
		}
		if len(v) == 0 {
			t.Fatalf("%q: no values and no error", s)
		}
		for i := range v {
			if v[i] < 1 || (i > 0 && v[i] <= v[i-1]) {
				t.Fatalf("%q: bad values %v", s, v)
			}
		}
	})
}

func FuzzParseSizeList(f *testing.F) {
	for _, s := range []string{"4k,16k,64k,1m", "4096", "1.5m", "0", "4k,", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := sweep.ParseSizeList(s)
		if err != nil {
			return
		}
		for _, b := range v {
			if b <= 0 {
				t.Fatalf("%q: size %d", s, b)
			}
		}
	})
}

func FuzzParseRWList(f *testing.F) {
	for _, s := range []string{"read,randread", "randrw", "RW", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := sweep.ParseRWList(s)
		if err != nil {
			return
		}
		for _, rw := range v {
			if !rw.IsRead() && !rw.IsWrite() {
				t.Fatalf("%q: pattern %q neither reads nor writes", s, rw)
			}
		}
	})
}

func TestPlanGridOrderAndValidate(t *testing.T) {
	p := sweep.NewPlan([]ioengine.RW{ioengine.RandRead, ioengine.Read}, []int64{4096}, []int{1, 2, 4}, []int{1, 2}, false)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range p.Grid() {
		got = append(got, g.String())
	}
	want := []string{
		"randread 4k 1×1", "randread 4k 2×1", "randread 4k 1×2", "randread 4k 4×1", "randread 4k 2×2", "randread 4k 4×2",
		"read 4k 1×1", "read 4k 2×1", "read 4k 1×2", "read 4k 4×1", "read 4k 2×2", "read 4k 4×2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("grid\n got %v\nwant %v", got, want)
	}
	big := sweep.NewPlan([]ioengine.RW{ioengine.Read}, []int64{4096}, make([]int, 101), make([]int, 100), false)
	for i := range big.IODepth {
		big.IODepth[i] = i + 1
	}
	for i := range big.NumJobs {
		big.NumJobs[i] = i + 1
	}
	if err := big.Validate(); !errors.Is(err, sweep.ErrBadSpec) {
		t.Errorf("10,100-step grid accepted without Full: %v", err)
	}
	big.Full = true
	if err := big.Validate(); err != nil {
		t.Errorf("Full grid rejected: %v", err)
	}
	if p.Equal(big) || !p.Equal(p) {
		t.Error("Plan.Equal wrong")
	}
}
