package fio_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

// TestWriteNormalReadsBack: fio's normal layout as WriteNormal writes it
// reads back through ParseNormal (the reader of fio's own output) with
// each report's name, group, job count, depth, block size, I/Os per
// direction, runtime and percentiles; clones reported apart share one
// header and fio's "..." mark; the version is fio's prefix naming qdsweep.
func TestWriteNormalReadsBack(t *testing.T) {
	lat := func(ns float64) fio.LatStat {
		return fio.LatStat{MinNs: ns / 2, MaxNs: ns * 3, MeanNs: ns, StddevNs: ns / 10, N: 1000,
			Percentiles: []fio.Percentile{{Pct: 50, Ns: ns}, {Pct: 99, Ns: 2 * ns}, {Pct: 99.9, Ns: 3 * ns}}}
	}
	dir := func(ios, bs, ms int64, ns float64) *fio.Dir {
		return &fio.Dir{TotalIOs: ios, IOBytes: ios * bs, RuntimeMs: ms, IOPS: float64(ios) * 1000 / float64(ms),
			BWBytes: float64(ios*bs) * 1000 / float64(ms), Clat: lat(ns), Lat: lat(ns)}
	}
	when := time.Date(2026, 12, 2, 7, 30, 0, 0, time.UTC)
	job := func(name string, g int, rw string, r, w *fio.Dir) fio.Report {
		return fio.Report{Version: fio.WriterVersion("0.1.0"), Time: when, Job: fio.Job{Name: name, GroupID: g, RW: rw, BS: 4096,
			IOEngine: "libaio", IODepth: 8, NumJobs: 1, Read: r, Write: w, IODepthDist: map[string]float64{"8": 100}}}
	}
	rs := []fio.Report{
		job("mix", 0, "randrw", dir(2600, 4096, 1000, 150e3), dir(1400, 4096, 1000, 40e3)),
		job("mix", 0, "randrw", dir(2500, 4096, 1000, 160e3), dir(1500, 4096, 1000, 45e3)),
		job("after", 1, "read", dir(250000, 4096, 2000, 9e3), nil),
	}
	var b bytes.Buffer
	if err := fio.WriteNormal(&b, rs); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"mix: (g=0): rw=randrw, bs=(R) 4096B-4096B", "\n...\nafter: (g=1)", "\nfio-3.33 (qdsweep 0.1.0)\n",
		"Starting 3 processes", "  read: IOPS=125k, BW=488MiB/s (512MB/s)(977MiB/2000msec)", "Run status group 1 (all jobs):"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	outs, err := fio.ParseNormal(strings.NewReader(text))
	if err != nil || len(outs) != 1 || len(outs[0].Jobs) != 3 {
		t.Fatalf("read back: %v, %+v\n%s", err, outs, text)
	}
	if outs[0].FioVersion != "fio-3.33 (qdsweep 0.1.0)" {
		t.Errorf("version read back as %q", outs[0].FioVersion)
	}
	for i, j := range outs[0].Jobs {
		want := rs[i].Job
		if j.Name != want.Name || j.GroupID != want.GroupID || j.IODepth != 8 || j.BS != 4096 || j.RW != want.RW {
			t.Errorf("job %d read back as %s g%d depth %d bs %d %s", i, j.Name, j.GroupID, j.IODepth, j.BS, j.RW)
		}
		for k, d := range []*fio.Dir{want.Read, want.Write} {
			got := []*fio.Dir{j.Read, j.Write}[k]
			if d == nil {
				if got != nil {
					t.Errorf("job %d: a direction it did not do read back", i)
				}
				continue
			}
			if got == nil || got.TotalIOs != d.TotalIOs || got.RuntimeMs != d.RuntimeMs {
				t.Fatalf("job %d direction %d read back as %+v, want %d I/Os in %d ms", i, k, got, d.TotalIOs, d.RuntimeMs)
			}
			if p99, ok := got.Clat.At(99); !ok || p99 != 2*d.Clat.MeanNs {
				t.Errorf("job %d direction %d: p99 %v ns, want %v", i, k, p99, 2*d.Clat.MeanNs)
			}
		}
	}
}

// TestWriteNormalFieldsAsFio: the fields fio 3.33 wrote for runs of
// bs=4k,8k,16k (with kb_base=1000 too), as WriteNormal writes the same
// figures: the header's trims with their own sizes in the job's units,
// IOPS, bandwidth and size in four digits decimal first under
// kb_base=1000, a latency line's max in six digits (5039.8k, not 5.04M),
// 1,522,999 ns as 1523.0k (the carry), avg and stdev at least five wide.
func TestWriteNormalFieldsAsFio(t *testing.T) {
	d := &fio.Dir{TotalIOs: 28, IOBytes: 28 * 4096, RuntimeMs: 7, IOPS: 4000, BWBytes: 28 * 4096 * 1000 / 7,
		Clat: fio.LatStat{MinNs: 1603, MaxNs: 5039812, MeanNs: 959694.91, StddevNs: 1672923, N: 28},
		Lat:  fio.LatStat{MinNs: 72001, MaxNs: 1522999, MeanNs: 6.5, StddevNs: 433.53, N: 28}}
	for _, c := range []struct {
		kbBase int
		bounds [3][2]int64
		want   []string
	}{
		{1024, [3][2]int64{{4096, 4096}, {8192, 8192}, {16384, 16384}}, []string{
			"r: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 8192B-8192B, (T) 16.0KiB-16.0KiB, ioengine=psync, iodepth=1\n",
			"  read: IOPS=4000, BW=15.6MiB/s (16.4MB/s)(112KiB/7msec)\n",
			"    clat (nsec): min=1603, max=5039.8k, avg=959694.91, stdev=1672923.00\n",
			"     lat (nsec): min=72001, max=1523.0k, avg= 6.50, stdev=433.53\n"}},
		{1000, [3][2]int64{{4000, 4000}, {8000, 8000}, {16000, 16000}}, []string{
			"r: (g=0): rw=randrw, bs=(R) 4000B-4000B, (W) 8000B-8000B, (T) 16.0kB-16.0kB, ioengine=psync, iodepth=1\n",
			"  read: IOPS=4000, BW=16.4MB/s (15.6MiB/s)(115kB/7msec)\n",
			"   READ: bw=16.4MB/s (15.6MiB/s), 16.4MB/s-16.4MB/s (15.6MiB/s-15.6MiB/s), io=115kB (112KiB), run=7-7msec\n"}},
	} {
		r := fio.Report{Version: "fio-3.33", Job: fio.Job{Name: "r", RW: "randrw", BS: c.bounds[0][0], BSBounds: c.bounds, KBBase: c.kbBase,
			IOEngine: "psync", IODepth: 1, NumJobs: 1, Read: d}}
		var b bytes.Buffer
		if err := fio.WriteNormal(&b, []fio.Report{r}); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("kb_base=%d: lacks %q:\n%s", c.kbBase, w, b.String())
			}
		}
	}
}
