package fio_test

import (
	"fmt"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
)

// Parse takes fio output as people paste it: here one job of fio's normal
// format, trimmed.
func ExampleParse() {
	pasted := `$ fio --name=deep --rw=randread --ioengine=libaio --iodepth=32 ...
deep: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=32
deep: (groupid=0, jobs=1): err= 0: pid=8009: Mon Nov 30 02:37:07 2026
  read: IOPS=87.8k, BW=343MiB/s (360MB/s)(343MiB/1001msec)
     lat (usec): min=168, max=5903, avg=363.88, stdev=205.85
     issued rwts: total=87874,0,0,0 short=0,0,0,0 dropped=0,0,0,0
`
	outs, err := fio.Parse(strings.NewReader(pasted))
	if err != nil {
		fmt.Println(err)
		return
	}
	j := outs[0].Jobs[0]
	s := j.Summary()
	fmt.Printf("%s: %s %s iodepth=%d, %.0f IOPS at %.2f µs, %.1f in flight\n",
		j.Name, j.RW, j.IOEngine, j.IODepth, s.IOPS, s.LatMeanNs/1e3, s.IOPS*s.LatMeanNs/1e9)
	// Output: deep: randread libaio iodepth=32, 87786 IOPS at 363.88 µs, 31.9 in flight
}

// ParseJobFile reads a job file as fio does: [global] options apply to the
// jobs whose sections follow them (Scoped), and values may hold arithmetic.
func ExampleParseJobFile() {
	jf, err := fio.ParseJobFile(strings.NewReader(`; one workload at two depths
[global]
rw=randread
bs=4k
ioengine=libaio

[qd1]
iodepth=1

[qd32]
iodepth=(16*2)
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, j := range jf.Jobs {
		var opts []string
		for _, o := range jf.Scoped(i) {
			opts = append(opts, o.Key+"="+o.Value)
		}
		fmt.Printf("%s: %s\n", j.Name, strings.Join(opts, " "))
	}
	// Output:
	// qd1: rw=randread bs=4k ioengine=libaio iodepth=1
	// qd32: rw=randread bs=4k ioengine=libaio iodepth=32
}

// A histogram log as fio 3.33 writes it (write_hist_log): each line is
// "msec, direction, bs, " then fio's 1856 latency bins summed 2^coarseness
// at a time; ParseHistLog reads it back.
func ExampleParseHistLog() {
	counts := make([]uint64, fio.PlatNR)
	counts[fio.PlatIndex(100_000)] = 250 // 250 reads of about 100 µs
	var log strings.Builder
	if err := fio.WriteHistLog(&log, []fio.HistEntry{{TimeMs: 1000, Dir: 0, BS: 4096, Counts: counts}}, 6); err != nil {
		panic(err)
	}
	entries, err := fio.ParseHistLog(strings.NewReader(log.String()))
	if err != nil {
		panic(err)
	}
	e := entries[0]
	var total uint64
	for _, c := range e.Counts {
		total += c
	}
	fmt.Println(e.TimeMs, e.Dir, e.BS, len(e.Counts), total)
	// Output: 1000 0 4096 29 250
}

// OptionKind says how fio reads an option's name.
func ExampleOptionKind() {
	for _, name := range []string{"iodepth", "direct", "sqthread_poll", "nonsense"} {
		fmt.Printf("%s: %q\n", name, fio.OptionKind(name))
	}
	// Output:
	// iodepth: "value"
	// direct: "switch"
	// sqthread_poll: "engine"
	// nonsense: ""
}
