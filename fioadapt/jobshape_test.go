package fioadapt_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestShapeOptions: fio's shape options read as fio reads them, and the
// job written for the fio engine reads back to the same workload.
func TestShapeOptions(t *testing.T) {
	sh := func(bs int64, p int) ioengine.BSShare { return ioengine.BSShare{BS: bs, Perc: p} }
	zp := func(a, size int) ioengine.Zone { return ioengine.Zone{Access: a, SizePerc: size} }
	za := func(a int, size int64) ioengine.Zone { return ioengine.Zone{Access: a, Size: size} }
	cases := []struct {
		cmd  string
		bs   int64
		want ioengine.Shape
	}{
		{"--rw=randread --bssplit=4k/50:64k/30:16k", 4096, ioengine.Shape{BSSplit: [2][]ioengine.BSShare{
			{sh(16384, 20), sh(65536, 30), sh(4096, 50)}, {sh(16384, 20), sh(65536, 30), sh(4096, 50)}}}},
		{"--rw=randrw --bssplit=4k/50:64k/50,8k/100", 4096, ioengine.Shape{BSSplit: [2][]ioengine.BSShare{
			{sh(4096, 50), sh(65536, 50)}, {sh(8192, 100)}}}},
		{"--rw=write --bssplit=4k/50:64k/50,8k/100", 8192, ioengine.Shape{BSSplit: [2][]ioengine.BSShare{
			{sh(4096, 50), sh(65536, 50)}, {sh(8192, 100)}}}},
		{"--rw=randread --bsrange=4k-64k", 4096, ioengine.Shape{BSRange: [2][2]int64{{4096, 65536}, {4096, 65536}}}},
		{"--rw=rw --bs=8k,32k", 8192, ioengine.Shape{BSRange: [2][2]int64{{8192, 8192}, {32768, 32768}}}},
		{"--rw=randread --random_distribution=zipf:1.2", 4096, ioengine.Shape{Dist: ioengine.Distribution{Kind: ioengine.DistZipf, Value: 1.2}}},
		{"--rw=randread --random_distribution=zipf", 4096, ioengine.Shape{Dist: ioengine.Distribution{Kind: ioengine.DistZipf, Value: 1.1}}},
		{"--rw=randread --random_distribution=pareto:0.3:0.5", 4096, ioengine.Shape{Dist: ioengine.Distribution{Kind: ioengine.DistPareto, Value: 0.3, Center: 0.5, HasCenter: true}}},
		{"--rw=randread --random_distribution=normal:20", 4096, ioengine.Shape{Dist: ioengine.Distribution{Kind: ioengine.DistNormal, Value: 20}}},
		{"--rw=randread --random_distribution=zoned:60/10:30/20:8/30:2/40", 4096, ioengine.Shape{Dist: ioengine.Distribution{Kind: ioengine.DistZoned,
			Zones: [2][]ioengine.Zone{{zp(60, 10), zp(30, 20), zp(8, 30), zp(2, 40)}, {zp(60, 10), zp(30, 20), zp(8, 30), zp(2, 40)}}}}},
		{"--rw=randread --random_distribution=zoned_abs:70/1m:30/8m", 4096, ioengine.Shape{Dist: ioengine.Distribution{Kind: ioengine.DistZonedAbs,
			Zones: [2][]ioengine.Zone{{za(70, 1<<20), za(30, 8<<20)}, {za(70, 1<<20), za(30, 8<<20)}}}}},
		{"--rw=randread --percentage_random=60", 4096, ioengine.Shape{Sequential: [2]int{40, 40}}},
		{"--rw=randrw --percentage_random=90,20", 4096, ioengine.Shape{Sequential: [2]int{10, 80}}},
		{"--rw=read:8k", 4096, ioengine.Shape{Skip: 8192}},
		{"--rw=read:-8k", 4096, ioengine.Shape{Skip: -8192}},
		{"--rw=randread:4", 4096, ioengine.Shape{RandomEvery: 4}},
		{"--rw=randread --random_generator=tausworthe64", 4096, ioengine.Shape{}},
		{"--rw=randread --bssplit=512/50:4k/50 --blockalign=4k", 512, ioengine.Shape{Align: [2]int64{4096, 4096},
			BSSplit: [2][]ioengine.BSShare{{sh(512, 50), sh(4096, 50)}, {sh(512, 50), sh(4096, 50)}}}},
	}
	for _, c := range cases {
		t.Run(c.cmd, func(t *testing.T) {
			run, err := runOf(t, "--name=x --filename=f "+c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			w := run.Workload
			c.want.RandomMap = w.RW.IsRandom() // no case gives norandommap
			if w.BS != c.bs || !reflect.DeepEqual(w.Shape, c.want) {
				t.Fatalf("bs %d, shape %+v; want bs %d, %+v", w.BS, w.Shape, c.bs, c.want)
			}
			var b bytes.Buffer
			if err := fioadapt.WriteJobFileEngine(&b, w, time.Second, 0, "psync"); err != nil {
				t.Fatal(err)
			}
			jf, err := fio.ParseJobFile(strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			back, err := fioadapt.Runs(jf)
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			if got := back[0].Workload; got.BS != w.BS || !reflect.DeepEqual(got.Shape, w.Shape) {
				t.Fatalf("written and read back: bs %d, %+v; want bs %d, %+v\n%s", got.BS, got.Shape, w.BS, w.Shape, b.String())
			}
		})
	}
	for cmd, want := range map[string]bool{"--rw=randread": true, "--rw=randread --norandommap": false, "--rw=read": false} {
		run, err := runOf(t, "--name=x --filename=f "+cmd)
		if err != nil || run.Workload.Shape.RandomMap != want {
			t.Errorf("%s: random map %v (%v), want %v", cmd, run.Workload.Shape.RandomMap, err, want)
		}
	}
}

// TestShapeOptionsRefused: what fio refuses, or qdsweep does not run, in one line naming the option.
func TestShapeOptionsRefused(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"--bssplit=4k/80:8k/40:16k", "more than 100"},
		{"--random_distribution=bogus", "random, zipf, pareto"},
		{"--random_distribution=zipf:x", "not a number"},
		{"--random_generator=xorshift", "random_generator"},
		{"--percentage_random=101", "percentage"},
	} {
		_, err := runOf(t, "--name=x --filename=f --rw=randread "+c.cmd)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.cmd, err, c.want)
		}
	}
}

// TestLFSRKeepsTheRandomMap: random_generator=lfsr visits every block once
// per pass whatever norandommap says (fio 3.33, 256 reads of a 1 MiB file
// at 4k with norandommap: 256 blocks under lfsr, 157 under tausworthe), so
// the workload keeps the random map; other distributions do not use lfsr
// (fio: 66 blocks of 256 under zipf:1.2), nor does a sequential job.
func TestLFSRKeepsTheRandomMap(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"--rw=randread --norandommap --random_generator=lfsr", true},
		{"--rw=randread --random_generator=lfsr", true},
		{"--rw=randread --norandommap --random_generator=tausworthe", false},
		{"--rw=randread --norandommap", false},
		{"--rw=randread --norandommap --random_generator=lfsr --random_distribution=zipf:1.2", false},
		{"--rw=read --norandommap --random_generator=lfsr", false},
	} {
		r, err := runOf(t, "--name=x --filename=f --size=1m "+c.cmd)
		if err != nil {
			t.Fatalf("%s: %v", c.cmd, err)
		}
		if got := r.Workload.Shape.RandomMap; got != c.want {
			t.Errorf("%s: random map %v, want %v", c.cmd, got, c.want)
		}
	}
}
