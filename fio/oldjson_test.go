package fio_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestFio21JSONBlockSizes: fio 2.1's JSON has neither total_ios nor job
// options, and prints IOPS as a whole number; each job's I/O count (so
// its block size, bytes ÷ I/Os) is the one block size that divides its
// bytes and rounds to its IOPS: five jobs of 512 B to 1 MiB, each read
// back exactly. A job whose figures fit two sizes keeps fio's estimate.
func TestFio21JSONBlockSizes(t *testing.T) {
	type job struct {
		bs, ios, ms int64
	}
	jobs := []job{{4096, 11230, 2127550}, {8192, 50000, 10000}, {65536, 3000, 9000}, {512, 123456, 30000}, {1 << 20, 700, 10000}}
	var b strings.Builder
	b.WriteString("{\n  \"fio version\" : \"fio-2.1.4\",\n  \"jobs\" : [\n")
	for i, j := range jobs {
		if i > 0 {
			b.WriteString(",\n")
		}
		iops := math.Round(float64(j.ios) / (float64(j.ms) / 1e3))
		fmt.Fprintf(&b, `    {"jobname" : "j%d", "groupid" : 0, "error" : 0, "read" : {"io_bytes" : %d, "bw" : %d, "iops" : %.0f, "runtime" : %d,
      "clat" : {"min" : 53, "max" : 6329, "mean" : 255.34, "stddev" : 94.40}}}`, i, j.bs*j.ios/1024, int64(float64(j.bs*j.ios)/1024/(float64(j.ms)/1e3)), iops, j.ms)
	}
	b.WriteString("\n  ]\n}\n")
	outs, err := fio.ParseJSON(strings.NewReader(b.String()))
	if err != nil || len(outs) != 1 || len(outs[0].Jobs) != len(jobs) {
		t.Fatalf("%v %+v\n%s", err, outs, b.String())
	}
	for i, j := range outs[0].Jobs {
		d := j.Read
		if d == nil || d.TotalIOs != jobs[i].ios || d.IOBytes != jobs[i].bs*jobs[i].ios {
			t.Errorf("job %d (bs %d): %+v, want %d I/Os", i, jobs[i].bs, d, jobs[i].ios)
		}
	}
}
