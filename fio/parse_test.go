package fio_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

func near(a, b, rel float64) bool {
	if b == 0 {
		return a == 0
	}
	return math.Abs(a-b)/math.Abs(b) <= rel
}

func readTestdata(t *testing.T, name string) []fio.Output {
	t.Helper()
	outs, err := fio.ReadOutput(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("ReadOutput(%s): %v", name, err)
	}
	return outs
}

// want holds figures read by eye from the recorded files.
type want struct {
	file      string
	format    string
	docs      int // outputs, interim included
	jobs      int // jobs in the last output
	job       int // index of the job checked in the last output
	name      string
	rw        string
	bs        int64
	engine    string
	iodepth   int
	depthFrom string
	numjobs   int
	iops      float64 // summed over directions
	latMeanNs float64 // total latency mean, I/O-weighted
	p99Ns     float64 // busiest direction
	usr, sys  float64
	disk      string
	diskIOs   int64 // read_ios of the first disk
}

func TestParseRecordedOutputs(t *testing.T) {
	tests := []want{
		{file: "randread-iouring-qd16.json", format: "json", docs: 1, jobs: 1, name: "rr", rw: "randread", bs: 4096, engine: "io_uring",
			iodepth: 16, depthFrom: "options", numjobs: 1, iops: 71202.797203, latMeanNs: 224254.800222, p99Ns: 577536,
			usr: 2.4, sys: 39.7, disk: "vda", diskIOs: 64322},
		{file: "randread-libaio-qd8.jsonplus", format: "json+", docs: 1, jobs: 1, name: "rr", rw: "randread", bs: 4096, engine: "libaio",
			iodepth: 8, depthFrom: "options", numjobs: 1, iops: 63312.687313, latMeanNs: 126002.993625, p99Ns: 181248,
			usr: 6.5, sys: 41, disk: "vda", diskIOs: 57334},
		{file: "randread-psync-terse.txt", format: "terse", docs: 1, jobs: 1, name: "rr", iodepth: 1, depthFrom: "iodepth distribution",
			numjobs: 1, iops: 19416, latMeanNs: 51251.575, p99Ns: 81000, usr: 0, sys: 42.3, disk: "vda", diskIOs: 17520},
		{file: "randrw-libaio-nj2-terse.txt", format: "terse", docs: 1, jobs: 2, job: 1, name: "t2", iodepth: 4,
			depthFrom: "iodepth distribution", numjobs: 1, iops: 15512 + 15727, latMeanNs: 127642.374, p99Ns: 0 /* read and write: not one direction's */, usr: 2.5, sys: 22.3, disk: "vda", diskIOs: 27649},
		{file: "randrw-iouring-nj2-normal.txt", format: "normal", docs: 1, jobs: 2, name: "mix", rw: "randrw", bs: 4096, engine: "io_uring",
			iodepth: 8, depthFrom: "header", numjobs: 1, iops: (24716.0 + 10580) * 1000 / 1001,
			latMeanNs: (24716*221.84e3 + 10580*236.96e3) / (24716 + 10580), p99Ns: 0 /* read and write */, usr: 0.9, sys: 20.2, disk: "vda", diskIOs: 44745},
		{file: "read-psync-nj4-group-normal.txt", format: "normal", docs: 1, jobs: 1, name: "seq", rw: "read", bs: 128 << 10, engine: "psync",
			iodepth: 1, depthFrom: "header", numjobs: 4, iops: 8854.0 * 1000 / 1003, latMeanNs: 451710, p99Ns: 594000, usr: 0.27, sys: 5.62},
		{file: "randread-libaio-qd32-normal.txt", format: "normal", docs: 1, jobs: 1, name: "deep", rw: "randread", bs: 4096, engine: "libaio",
			iodepth: 32, depthFrom: "header", numjobs: 1, iops: 87874.0 * 1000 / 1001, latMeanNs: 363880, p99Ns: 424000, usr: 4.6, sys: 42.4, disk: "vda", diskIOs: 78557},
		{file: "randwrite-libaio-nj2-json.json", format: "json", docs: 1, jobs: 2, name: "rw", rw: "randwrite", bs: 4096, engine: "libaio",
			iodepth: 4, depthFrom: "options", numjobs: 1, iops: 33358.641359, latMeanNs: 119564.087057, p99Ns: 395264, usr: 0.8, sys: 27.8, disk: "vda", diskIOs: 160},
		{file: "randwrite-libaio-nj2-group.json", format: "json", docs: 1, jobs: 1, name: "rw", rw: "randwrite", bs: 4096, engine: "libaio",
			iodepth: 4, depthFrom: "options", numjobs: 2, iops: 33932.20339, latMeanNs: 235318.838485, p99Ns: 2867200, usr: 1.946108, sys: 18.612774, disk: "vda", diskIOs: 653},
		{file: "randread-status-interval.json", format: "json", docs: 3, jobs: 1, name: "si", rw: "randread", bs: 4096, engine: "io_uring",
			iodepth: 4, depthFrom: "options", numjobs: 1, iops: 35619.690155, latMeanNs: 112012.597615, p99Ns: 790528, usr: 0.95, sys: 35.05, disk: "vda", diskIOs: 66646},
		{file: "randrw-iouring-latpct.json", format: "json", docs: 1, jobs: 1, name: "mix", rw: "randrw", bs: 4096, engine: "io_uring",
			iodepth: 8, depthFrom: "options", numjobs: 1, iops: 44244.755245 + 18878.121878, latMeanNs: 126391.467936, p99Ns: 0 /* read and write */, usr: 4.5, sys: 36.1, disk: "vda", diskIOs: 39540},
		{file: "pasted-psync-qd8-json.txt", format: "json", docs: 1, jobs: 1, name: "ps", rw: "randread", bs: 4096, engine: "psync",
			iodepth: 8, depthFrom: "options", numjobs: 1, iops: 20108.891109, latMeanNs: 49492.203885, p99Ns: 68096, usr: 0.7, sys: 45.7, disk: "vda", diskIOs: 18168},
		{file: "sweep-randread-json.json", format: "json", docs: 1, jobs: 4, job: 3, name: "qd16x2", rw: "randread", bs: 4096, engine: "io_uring",
			iodepth: 16, depthFrom: "options", numjobs: 2, iops: 88883.116883, latMeanNs: 359543.423897, p99Ns: 489472, usr: 1.7, sys: 19.75, disk: "vda", diskIOs: 209547},
		{file: "clientserver-json.json", format: "json", docs: 1, jobs: 3, job: 2, name: "All clients", rw: "randread", bs: 4096, engine: "io_uring",
			iodepth: 4, depthFrom: "options", numjobs: 2, iops: 63138.861139, latMeanNs: 126339.06253, usr: 1.65, sys: 22.4, disk: "vda", diskIOs: 56040},
		{file: "clientserver-normal.txt", format: "normal", docs: 1, jobs: 3, job: 2, name: "All clients", rw: "randread", bs: 4096, engine: "io_uring",
			iodepth: 4, depthFrom: "header", numjobs: 2, iops: 68647.0 * 1000 / 1001, latMeanNs: 116330, usr: 1.05, sys: 23.15, disk: "vda", diskIOs: 61131},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			outs := readTestdata(t, tt.file)
			if len(outs) != tt.docs {
				t.Fatalf("%d outputs, want %d", len(outs), tt.docs)
			}
			o := outs[len(outs)-1]
			if o.Format != tt.format || o.Interim {
				t.Errorf("format %q interim %v, want %q final", o.Format, o.Interim, tt.format)
			}
			if len(o.Jobs) != tt.jobs {
				t.Fatalf("%d jobs, want %d", len(o.Jobs), tt.jobs)
			}
			j := o.Jobs[tt.job]
			s := j.Summary()
			p99, _ := s.Lat.At(99)
			if j.Name != tt.name || j.RW != tt.rw || j.BS != tt.bs || j.IOEngine != tt.engine {
				t.Errorf("job %q rw %q bs %d engine %q, want %q %q %d %q", j.Name, j.RW, j.BS, j.IOEngine, tt.name, tt.rw, tt.bs, tt.engine)
			}
			if j.IODepth != tt.iodepth || j.IODepthFrom != tt.depthFrom || j.NumJobs != tt.numjobs {
				t.Errorf("iodepth %d (%s) numjobs %d (%s), want %d (%s) %d", j.IODepth, j.IODepthFrom, j.NumJobs, j.NumJobsFrom, tt.iodepth, tt.depthFrom, tt.numjobs)
			}
			if !near(s.IOPS, tt.iops, 1e-6) || !near(s.LatMeanNs, tt.latMeanNs, 1e-6) || !near(p99, tt.p99Ns, 1e-9) {
				t.Errorf("iops %.3f lat %.3f p99 %.0f, want %.3f %.3f %.0f", s.IOPS, s.LatMeanNs, p99, tt.iops, tt.latMeanNs, tt.p99Ns)
			}
			if !near(j.UsrCPU, tt.usr, 1e-9) || !near(j.SysCPU, tt.sys, 1e-9) {
				t.Errorf("cpu usr %v sys %v, want %v %v", j.UsrCPU, j.SysCPU, tt.usr, tt.sys)
			}
			if tt.disk != "" {
				if len(o.DiskUtil) == 0 || o.DiskUtil[0].Name != tt.disk || o.DiskUtil[0].ReadIOs != tt.diskIOs {
					t.Errorf("disk_util %+v, want %s with read ios %d", o.DiskUtil, tt.disk, tt.diskIOs)
				}
			}
		})
	}
}

func TestParseDetails(t *testing.T) {
	t.Run("status-interval snapshots are interim", func(t *testing.T) {
		outs := readTestdata(t, "randread-status-interval.json")
		if !outs[0].Interim || !outs[1].Interim || outs[2].Interim || len(fio.Final(outs)) != 1 {
			t.Errorf("interim flags %v %v %v", outs[0].Interim, outs[1].Interim, outs[2].Interim)
		}
		if outs[0].Jobs[0].RuntimeMs != 892 || outs[1].Jobs[0].RuntimeMs != 1892 {
			t.Errorf("interim runtimes %d %d, want 892 1892", outs[0].Jobs[0].RuntimeMs, outs[1].Jobs[0].RuntimeMs)
		}
	})
	t.Run("normal status-interval reports of one pid are interim", func(t *testing.T) {
		outs := readTestdata(t, "randread-status-interval-normal.txt")
		if len(outs) != 3 || !outs[0].Interim || !outs[1].Interim || outs[2].Interim {
			t.Fatalf("%d outputs", len(outs))
		}
		// "issued rwts: total=28882" over "(113MiB/2001msec)".
		if d := outs[2].Jobs[0].Read; d.TotalIOs != 28882 || d.RuntimeMs != 2001 || !near(d.IOPS, 28882e3/2001, 1e-12) {
			t.Errorf("final read %+v", d)
		}
	})
	t.Run("clones and clients", func(t *testing.T) {
		mix := readTestdata(t, "randrw-iouring-nj2-normal.txt")[0].Jobs
		if mix[0].NumJobsFrom != "one clone of numjobs=2" || mix[1].NumJobsFrom != "one clone of numjobs=2" {
			t.Errorf("normal clones: %q %q", mix[0].NumJobsFrom, mix[1].NumJobsFrom)
		}
		cs := readTestdata(t, "clientserver-normal.txt")[0].Jobs
		if cs[0].NumJobsFrom != "jobs=N" || cs[0].Host != "vm" || !cs[2].AllClients {
			t.Errorf("client jobs taken for clones: %+v", cs[0])
		}
	})
	t.Run("clients keep host and port", func(t *testing.T) {
		o := readTestdata(t, "clientserver-json.json")[0]
		if o.Jobs[0].Host != "127.0.0.1" || o.Jobs[0].Port != 8766 || o.Jobs[1].Port != 8767 || !o.Jobs[2].AllClients {
			t.Errorf("clients %+v", o.Jobs)
		}
		if !near(o.Jobs[1].Summary().IOPS, 31547.452547, 1e-9) {
			t.Errorf("second client iops %v", o.Jobs[1].Summary().IOPS)
		}
	})
	t.Run("json slat clat lat", func(t *testing.T) {
		d := readTestdata(t, "randread-iouring-qd16.json")[0].Jobs[0].Read
		if d.TotalIOs != 71274 || d.BWBytes != 291646657 || d.RuntimeMs != 1001 {
			t.Errorf("read %+v", d)
		}
		if _, from := d.TotalLat(); from != "lat" || d.Clat.N != 71274 || len(d.Clat.Percentiles) == 0 {
			t.Errorf("latency from %s, clat N %d, %d percentiles", from, d.Clat.N, len(d.Clat.Percentiles))
		}
	})
	t.Run("normal units", func(t *testing.T) {
		w := readTestdata(t, "randrw-iouring-nj2-normal.txt")[0].Jobs[0].Write
		// "slat (nsec): min=3195, max=79538, avg=5240.71" and "clat (usec): ... avg=231.72"
		if w.Slat.MinNs != 3195 || w.Slat.MeanNs != 5240.71 || !near(w.Clat.MeanNs, 231720, 1e-12) || w.TotalIOs != 10580 {
			t.Errorf("write %+v", w)
		}
		// "clat (nsec): min=110, max=3433.4k" in the client/server output.
		c := readTestdata(t, "clientserver-normal.txt")[0].Jobs[0].Read
		if !near(c.Clat.MaxNs, 3433.4e3, 1e-12) {
			t.Errorf("clat max %v, want 3433400", c.Clat.MaxNs)
		}
	})
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
		noOutput       bool
	}{
		{name: "empty", in: "", noOutput: true},
		{name: "prose", in: "hello\nworld\n", noOutput: true},
		{name: "fio error only", in: "fio: engine nosuch not loadable\nfio: failed to load engine\n", noOutput: true},
		{name: "broken json", in: "$ fio x\n{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ {\n", want: "line 2"},
		{name: "bad terse", in: "note: x\n3;fio-3.33;j;0;0;abc\n", want: "line 2"},
		{name: "terse v5", in: "5;fio-3.33;j;0;0\n", want: "terse version 5"},
		{name: "bad normal", in: "j: (groupid=0, jobs=1): err= 0: pid=1: x\n  read: IOPS=1.2.3k, BW=1MiB/s (1MB/s)(1MiB/1000msec)\n", want: "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fio.Parse(strings.NewReader(tt.in))
			if err == nil {
				t.Fatal("no error")
			}
			if tt.noOutput && !errors.Is(err, fio.ErrNoOutput) {
				t.Errorf("%v does not wrap ErrNoOutput", err)
			}
			if tt.want != "" && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not name %q", err, tt.want)
			}
		})
	}
	if _, err := fio.ReadOutput(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestParseVersionsAndReducedOutputs reads fio 2.x outputs (written from
// fio's documented formats: fio 2.x JSON has slat/clat/lat in µs and
// io_bytes in KiB; terse v2 has no version field), real fio 3.33
// gtod_reduce runs (IOPS without latency: not measured, never 0) and
// blocks without an iodepth (unknown, never assumed 1).
func TestParseVersionsAndReducedOutputs(t *testing.T) {
	for _, tt := range []struct {
		file, format, version string
		iops, latMeanNs       float64 // latMeanNs 0: not measured
		p99Ns                 float64 // 0: none reported
		iodepth               int
		from                  string
		ioBytes               int64
	}{
		{"fio-2.0.15-randread-libaio-qd32-normal.txt", "normal", "fio-2.0.15", 262144e3 / 15515, 1891.80e3, 2960e3, 32, "header", 1 << 30},
		{"fio-2.0.15-randread-libaio-qd32-terse-v2.txt", "terse", "", 16896, 1891.8e3, 2960e3, 32, "iodepth distribution", 1 << 30},
		{"fio-2.18-randread-libaio-qd16.json", "json", "fio-2.18", 20000, 799.51e3, 1432e3, 16, "options", 800000 << 10},
		{"gtod-libaio-qd8.json", "json", "fio-3.33", 4793.206793, 0, 0, 8, "options", 0},
		{"gtod-libaio-qd8-normal.txt", "normal", "fio-3.33", 10814e3 / 1069, 0, 0, 8, "header", 0},
		{"gtod-libaio-qd8-terse.txt", "terse", "fio-3.33", 0, 0, 0, 8, "iodepth distribution", 0},
		{"pasted-allclients-block.txt", "normal", "", 68.6e3, 116.33e3, 0, 0, "unknown", 0},
	} {
		t.Run(tt.file, func(t *testing.T) {
			outs := readTestdata(t, tt.file)
			o := fio.Final(outs)[0]
			j := o.Jobs[0]
			s := j.Summary()
			if o.Format != tt.format || o.FioVersion != tt.version {
				t.Errorf("format %q version %q", o.Format, o.FioVersion)
			}
			if tt.iops > 0 && !near(s.IOPS, tt.iops, 1e-3) || s.IOPS <= 0 {
				t.Errorf("IOPS %v, want %v", s.IOPS, tt.iops)
			}
			if tt.latMeanNs == 0 {
				if s.LatMeasured || s.LatMeanNs != 0 || s.LatFrom != "" {
					t.Errorf("latency not measured, read as %+v", s)
				}
			} else if !s.LatMeasured || !near(s.LatMeanNs, tt.latMeanNs, 1e-6) {
				t.Errorf("latency mean %v (measured %v), want %v", s.LatMeanNs, s.LatMeasured, tt.latMeanNs)
			}
			if p99, ok := s.Lat.At(99); tt.p99Ns > 0 && (!ok || !near(p99, tt.p99Ns, 1e-6)) {
				t.Errorf("p99 %v (%v), want %v", p99, ok, tt.p99Ns)
			}
			if j.IODepth != tt.iodepth || j.IODepthFrom != tt.from {
				t.Errorf("iodepth %d from %q, want %d from %q", j.IODepth, j.IODepthFrom, tt.iodepth, tt.from)
			}
			if tt.ioBytes > 0 && j.Read.IOBytes != tt.ioBytes {
				t.Errorf("io bytes %d, want %d", j.Read.IOBytes, tt.ioBytes)
			}
		})
	}
}

// TestBins reads json+ bins and merges them: the percentile of merged
// histograms is the fleet's, not one host's.
func TestBins(t *testing.T) {
	o := readTestdata(t, "randread-libaio-qd8.jsonplus")
	d := o[0].Jobs[0].Read
	if len(d.Clat.Bins) == 0 {
		t.Fatal("json+ bins not read")
	}
	var n int64
	for _, b := range d.Clat.Bins {
		n += b.Count
	}
	if n != d.TotalIOs {
		t.Errorf("bins hold %d I/Os, the job did %d", n, d.TotalIOs)
	}
	p99, _ := d.Clat.At(99)
	got, ok := fio.BinsPercentile(d.Clat.Bins, 99)
	if !ok || !near(got, p99, 1e-9) {
		t.Errorf("p99 from bins %v, fio printed %v", got, p99)
	}
	fast := []fio.Bin{{Ns: 100, Count: 90}}
	slow := []fio.Bin{{Ns: 1000, Count: 10}}
	m := fio.MergeBins(fast, slow)
	if p, _ := fio.BinsPercentile(m, 95); p != 1000 {
		t.Errorf("p95 of merged = %v, want 1000", p)
	}
	if p, _ := fio.BinsPercentile(m, 90); p != 100 {
		t.Errorf("p90 of merged = %v, want 100", p)
	}
}

// TestParseRefusesOutOfRangeDepth: a job that states an iodepth or numjobs
// out of range is refused naming it, never read as fio's default of 1.
func TestParseRefusesOutOfRangeDepth(t *testing.T) {
	b, err := os.ReadFile("../examples/fio/fio-qd16.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"iodepth" : "16"`, `"iodepth" : "99999999999999999999"`, "iodepth=99999999999999999999"},
		{`"iodepth" : "16"`, `"iodepth" : "0"`, "iodepth=0"},
		{`"numjobs" : "1"`, `"numjobs" : "-2"`, "numjobs=-2"},
	} {
		in := strings.Replace(string(b), c.from, c.to, 1)
		if in == string(b) {
			t.Fatalf("fixture lacks %s", c.from)
		}
		if _, err := fio.Parse(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a refusal naming %s", c.to, err, c.want)
		}
	}
}

// TestOldJSONDepthFromDistribution: fio ≤ 2.1 wrote no "job options", so
// an absent iodepth is not fio's default of 1 when the job's own IO depth
// distribution says it ran deeper.
func TestOldJSONDepthFromDistribution(t *testing.T) {
	b, err := os.ReadFile("../examples/fio/fio-qd64.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	doc["fio version"] = "fio-2.1.3"
	for _, j := range doc["jobs"].([]any) {
		delete(j.(map[string]any), "job options")
	}
	old, _ := json.MarshalIndent(doc, "", "  ")
	outs, err := fio.Parse(bytes.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	if j := outs[0].Jobs[0]; j.IODepth != 64 || j.IODepthFrom != "iodepth distribution" {
		t.Errorf("iodepth %d from %q, want 64 from the distribution (>=64 holds 99.97%%)", j.IODepth, j.IODepthFrom)
	}
}

// TestHeaderBlockSizeUnits: a block size in a job header is binary in
// every fio: fio 2.x's "8M-8M" is 8 MiB, fio 3's "128KiB-128KiB" 128 KiB.
func TestHeaderBlockSizeUnits(t *testing.T) {
	for _, c := range []struct {
		header string
		bs     int64
	}{
		{"seq: (g=0): rw=read, bs=8M-8M/8M-8M/8M-8M, ioengine=libaio, iodepth=4", 8 << 20},
		{"seq: (g=0): rw=read, bs=4K-4K/4K-4K/4K-4K, ioengine=libaio, iodepth=4", 4 << 10},
		{"seq: (g=0): rw=read, bs=(R) 128KiB-128KiB, (W) 128KiB-128KiB, (T) 128KiB-128KiB, ioengine=psync, iodepth=1", 128 << 10},
		{"seq: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1", 4096},
	} {
		in := c.header + "\nfio-3.33\nStarting 1 process\n\nseq: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 02:36:11 2026\n" +
			"  read: IOPS=100, BW=100KiB/s (102kB/s)(1000KiB/10001msec)\n    clat (usec): min=1, max=10, avg= 5.00, stdev= 1.00\n"
		outs, err := fio.ParseNormal(strings.NewReader(in))
		if err != nil || len(outs) == 0 || len(outs[0].Jobs) == 0 {
			t.Fatalf("%q: %v", c.header, err)
		}
		if got := outs[0].Jobs[0].BS; got != c.bs {
			t.Errorf("%q: bs %d, want %d", c.header, got, c.bs)
		}
	}
}

// An ioengine= that names no engine is not synchronous by itself; the engine
// fio runs for it, psync, is.
func TestSyncEngineAndEngineUsed(t *testing.T) {
	for _, c := range []struct {
		name, used     string
		sync, usedSync bool
	}{
		{"", "psync", false, true},
		{"psync", "psync", true, true},
		{"pvsync2", "pvsync2", true, true},
		{"libaio", "libaio", false, false},
		{"io_uring", "io_uring", false, false},
	} {
		if got := fio.IsSyncEngine(c.name); got != c.sync {
			t.Errorf("IsSyncEngine(%q) = %v, want %v", c.name, got, c.sync)
		}
		used := fio.EngineUsed(c.name)
		if used != c.used || fio.IsSyncEngine(used) != c.usedSync {
			t.Errorf("EngineUsed(%q) = %q (synchronous %v), want %q (%v)", c.name, used, fio.IsSyncEngine(used), c.used, c.usedSync)
		}
	}
}
