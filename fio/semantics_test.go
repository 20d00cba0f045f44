package fio_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestParseSizeKBBase: fio's units as fio 3.33 reads them (checked with
// fio itself by the differential test in cmd/qdsweep): under kb_base=1024
// k and m are powers of 1024 and KiB, MiB powers of 1000 (fio's quirk),
// under 1000 the other way round.
func TestParseSizeKBBase(t *testing.T) {
	for _, c := range []struct {
		in   string
		base int
		want int64
	}{
		{"4k", 1024, 4096}, {"4KiB", 1024, 4000}, {"1MiB", 1024, 1000000}, {"1m", 1024, 1 << 20}, {"1kb", 1024, 1024},
		{"4k", 1000, 4000}, {"4KiB", 1000, 4096}, {"1m", 1000, 1000000}, {"1g", 1000, 1e9}, {"1GiB", 1000, 1 << 30},
		{"512", 1024, 512}, {"1.5k", 1024, 1536},
		// fio matches a suffix by its start and reads 0x as hexadecimal
		// (fio 3.33: 64Ki and 0x10000 are 65536 bytes, 1Mi 1 MiB).
		{"64Ki", 1024, 65536}, {"1Mi", 1024, 1 << 20}, {"64kB", 1024, 65536}, {"2Gi", 1000, 2e9},
		{"0x1000", 1024, 4096}, {"0X10000", 1024, 65536}, {"8kib", 1024, 8000},
	} {
		if got, err := fio.ParseSize(c.in, c.base); err != nil || got != c.want {
			t.Errorf("%s under kb_base=%d: %d (%v), want %d", c.in, c.base, got, err, c.want)
		}
	}
	for _, bad := range []string{"4q", "0x1k", "4k9", "0xg"} {
		if _, err := fio.ParseSize(bad, 1024); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestJobFileScopingAndGroups: a [global] applies to the sections after
// it only, a [global] name= names no job, kb_base is read first in its
// section, a value ends at ; or #, new_group and stonewall start a
// reporting group, wait_for keeps it, stonewall starts a wave (wait_for
// holds its job alone: WaitFor).
func TestJobFileScopingAndGroups(t *testing.T) {
	jf, err := fio.ParseJobFile(strings.NewReader(`[a]
bs=4k;x
[global]
name=g
bs=8k # eight
[b]
size=1m
kb_base=1000
[c]
new_group
[d]
wait_for=a
[e]
stonewall
`))
	if err != nil {
		t.Fatal(err)
	}
	val := func(i int, key string) string {
		v := ""
		for _, o := range jf.Scoped(i) {
			if o.Key == key {
				v = o.Value
			}
		}
		return v
	}
	if val(0, "bs") != "4k" || val(1, "bs") != "8k" || val(1, "name") != "" {
		t.Errorf("a's bs %q, b's %q and name %q; want 4k, 8k and none", val(0, "bs"), val(1, "bs"), val(1, "name"))
	}
	if b := jf.Jobs[1].Options; b[0].Key != "kb_base" {
		t.Errorf("[b] %v: kb_base not first", b)
	}
	if g, w := jf.Groups(), jf.Waves(); !slices.Equal(g, []int{0, 0, 1, 1, 2}) || !slices.Equal(w, []int{0, 0, 0, 0, 1}) {
		t.Errorf("groups %v (want 0 0 1 1 2), waves %v (want 0 0 0 0 1)", g, w)
	}
	withCmd := jf.WithDefaults([]fio.Option{{Key: "bs", Value: "16k"}, {Key: "iodepth", Value: "4"}})
	if v := withCmd.Scoped(0); v[0].Value != "16k" || v[len(v)-1].Value != "4k" {
		t.Errorf("command line then job: %v; the job's own bs is last (wins)", v)
	}
}

// TestJSONOptionsReadAsFio: a fio JSON's job options are read as fio read
// them: aliases are their options, bs in fio's units under the job's
// kb_base (4KiB is 4,000 bytes by default, 4,096 under kb_base=1000).
func TestJSONOptionsReadAsFio(t *testing.T) {
	for _, c := range []struct {
		opts string
		bs   int64
	}{{`"readwrite" : "randread", "blocksize" : "4KiB"`, 4000}, {`"rw" : "randread", "bs" : "4KiB", "kb_base" : "1000"`, 4096}} {
		doc := `{"fio version" : "fio-3.33", "jobs" : [{"jobname" : "j", "groupid" : 0, "error" : 0, "job options" : {` + c.opts + `},
  "read" : {"io_bytes" : 4096000, "bw_bytes" : 409600, "iops" : 100.0, "runtime" : 10000, "total_ios" : 1000,
  "clat_ns" : {"min" : 1000, "max" : 9000, "mean" : 5000.0, "stddev" : 10.0, "N" : 1000}}}]}`
		outs, err := fio.ParseJSON(strings.NewReader(doc))
		if err != nil || len(outs) != 1 || len(outs[0].Jobs) != 1 {
			t.Fatalf("%s: %v", c.opts, err)
		}
		if j := outs[0].Jobs[0]; j.RW != "randread" || j.BS != c.bs {
			t.Errorf("%s: rw %q bs %d, want randread %d", c.opts, j.RW, j.BS, c.bs)
		}
	}
}

// TestWaitFor: a job waits for every earlier job of the name (fio's
// waitee_running), none other; a later or unknown name and the job's own
// are refused, as fio 3.33 refuses them.
func TestWaitFor(t *testing.T) {
	w, err := fio.WaitFor([]string{"a", "b", "c", "a", "d"}, []string{"", "", "a", "", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 5 || w[0] != nil || w[1] != nil || !slices.Equal(w[2], []int{0}) || w[3] != nil || !slices.Equal(w[4], []int{0, 3}) {
		t.Errorf("waits %v; want [] [] [0] [] [0 3]", w)
	}
	for _, bad := range [][2][]string{
		{{"a", "b"}, {"b", ""}},  // a later job
		{{"a", "b"}, {"", "zz"}}, // no such job
		{{"a", "b"}, {"", "b"}},  // itself
	} {
		if _, err := fio.WaitFor(bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), "wait_for=") {
			t.Errorf("names %v wait_for %v: %v; want wait_for refused", bad[0], bad[1], err)
		}
	}
}
