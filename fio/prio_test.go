package fio_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

// fioPrioNormal is the read block of fio 3.33's normal output of its
// cmdprio-percentage example (rewritten to a 16 MiB file, libaio).
const fioPrioNormal = `randread: (g=0): rw=randread, bs=(R) 128KiB-128KiB, (W) 128KiB-128KiB, (T) 128KiB-128KiB, ioengine=libaio, iodepth=8
fio-3.33
Starting 1 process

randread: (groupid=0, jobs=1): err= 0: pid=14678: Thu Dec  3 09:02:21 2026
  read: IOPS=2782, BW=348MiB/s (365MB/s)(16.0MiB/46msec)
    slat (usec): min=13, max=1526, avg=46.16, stdev=136.18
    clat (usec): min=143, max=23493, avg=2426.87, stdev=5176.33
     lat (usec): min=170, max=23512, avg=2473.03, stdev=5169.99
    clat prio 3/0 (usec): min=266, max=23493, avg=2399.41, stdev=4858.41
    clat prio 1/0 (usec): min=143, max=23265, avg=2552.23, stdev=6563.04
    clat percentiles (usec):
     |  1.00th=[  147],  5.00th=[  208], 10.00th=[  326], 20.00th=[  553],
     | 99.99th=[23462]
    clat prio 3/0 (82.03% of IOs) percentiles (usec):
     |  1.00th=[  293],  5.00th=[  457], 10.00th=[  553], 20.00th=[  644],
     | 99.99th=[23462]
    clat prio 1/0 (17.97% of IOs) percentiles (usec):
     |  1.00th=[  143],  5.00th=[  147], 10.00th=[  149], 20.00th=[  204],
     | 99.99th=[23200]
  lat (usec)   : 250=5.47%, 500=10.94%, 750=25.00%, 1000=21.09%
  cpu          : usr=4.44%, sys=11.11%, ctx=28, majf=0, minf=290
  IO depths    : 1=0.8%, 2=1.6%, 4=3.1%, 8=94.5%, 16=0.0%, 32=0.0%, >=64=0.0%
     issued rwts: total=128,0,0,0 short=0,0,0,0 dropped=0,0,0,0
`

// TestPrioLatencies: fio's per-priority latencies ("clat prio C/L" lines
// and percentiles; JSON's "prios") read into Dir.Prios, the direction's own
// percentiles left alone, and written back as fio writes them, in JSON and
// in the normal layout, they read back the same.
func TestPrioLatencies(t *testing.T) {
	outs, err := fio.ParseNormal(strings.NewReader(fioPrioNormal))
	if err != nil {
		t.Fatal(err)
	}
	r := outs[0].Jobs[0].Read
	if len(r.Prios) != 2 || r.Prios[0].Class != 3 || r.Prios[1].Class != 1 || r.Prios[1].Clat.MeanNs != 2552230 ||
		len(r.Prios[0].Clat.Percentiles) != 5 || r.Prios[1].Clat.Percentiles[4].Ns != 23200e3 || len(r.Clat.Percentiles) != 5 {
		t.Fatalf("read %+v, want prios 3/0 then 1/0 with their means and 5 percentiles each, clat's 5 its own", r)
	}
	r.Prios[0].Clat.N, r.Prios[1].Clat.N = 105, 23
	rep := fio.Report{Version: fio.WriterVersion("0.1.0"), Time: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC),
		Job: fio.Job{Name: "randread", RW: "randread", BS: 131072, IOEngine: "libaio", IODepth: 8, NumJobs: 1, Read: r}}
	var j, n bytes.Buffer
	if err := fio.WriteJSONJobs(&j, []fio.Report{rep}); err != nil {
		t.Fatal(err)
	}
	if err := fio.WriteNormal(&n, []fio.Report{rep}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(j.String(), `"prios"`) || !strings.Contains(n.String(), "clat prio 1/0 (17.97% of IOs) percentiles (usec):") {
		t.Errorf("written without fio's prios:\n%s\n%s", j.String(), n.String())
	}
	for _, parse := range []func() ([]fio.Output, error){
		func() ([]fio.Output, error) { return fio.ParseJSON(&j) },
		func() ([]fio.Output, error) { return fio.ParseNormal(&n) },
	} {
		back, err := parse()
		if err != nil {
			t.Fatal(err)
		}
		got := back[0].Jobs[0].Read.Prios
		if len(got) != 2 || got[0].Class != 3 || got[1].Class != 1 || got[1].Clat.MeanNs != 2552230 || len(got[1].Clat.Percentiles) != 5 {
			t.Errorf("read back as %+v", got)
		}
	}
}

// TestLogPrio: a log's last column is the I/O's priority as fio 3.33
// writes it: in hex with log_prio, else 1 for the real-time class and 0
// for the rest; ParseLog reads it back either way.
func TestLogPrio(t *testing.T) {
	es := []fio.LogEntry{{TimeMs: 3, Value: 2708195, BS: 131072, Prio: 0x2000}, {TimeMs: 3, Value: 854213, BS: 131072, Prio: 0x6000}}
	for _, c := range []struct {
		hex, offset bool
		want        string
	}{
		{true, false, "3, 2708195, 0, 131072, 0x2000\n3, 854213, 0, 131072, 0x6000\n"},
		{false, false, "3, 2708195, 0, 131072, 1\n3, 854213, 0, 131072, 0\n"},
		{true, true, "3, 2708195, 0, 131072, 0, 0x2000\n3, 854213, 0, 131072, 0, 0x6000\n"},
	} {
		for i := range es {
			es[i].HexPrio, es[i].WithOffset = c.hex, c.offset
		}
		var b bytes.Buffer
		if err := fio.WriteLog(&b, es); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("log_prio=%v log_offset=%v: wrote %q, want fio's %q", c.hex, c.offset, b.String(), c.want)
		}
		back, err := fio.ParseLog(&b)
		if err != nil {
			t.Fatal(err)
		}
		if c.hex && (back[0].Prio != 0x2000 || back[1].Prio != 0x6000 || back[0].Offset != 0) {
			t.Errorf("log_prio=%v log_offset=%v: read back %+v", c.hex, c.offset, back)
		}
	}
}
