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
