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
