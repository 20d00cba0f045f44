package fioadapt_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/procfs/blockdevice"

	"github.com/qdsweep/qdsweep/device"
	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestDiskUtilRoundTrip: the disk utilisation qdsweep measures is written
// in fio's terse and JSON layouts and read back by fio's parsers as fio's
// own; util is the percent of the interval with I/O in flight.
func TestDiskUtilRoundTrip(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := device.Sample{At: t0, Stats: blockdevice.IOStats{ReadIOs: 100, WriteIOs: 50, ReadMerges: 1, ReadTicks: 40, WriteTicks: 30, IOsTotalTicks: 1000, WeightedIOTicks: 70}}
	b := device.Sample{At: t0.Add(2 * time.Second), Stats: blockdevice.IOStats{ReadIOs: 10100, WriteIOs: 2050, ReadMerges: 3, WriteMerges: 4, ReadTicks: 1040, WriteTicks: 530, IOsTotalTicks: 2500, WeightedIOTicks: 1670}}
	want := fio.DiskUtil{Name: "vdb", ReadIOs: 10000, WriteIOs: 2000, ReadMerges: 2, WriteMerges: 4, ReadTicks: 1000, WriteTicks: 500, InQueue: 1600, Util: 75}
	if got := fioadapt.DiskUtilOf("vdb", a, b); got != want {
		t.Fatalf("DiskUtilOf: %+v, want %+v", got, want)
	}
	wl := ioengine.Workload{Filename: "/x", RW: ioengine.RandRead, BS: 4096, IODepth: 1, NumJobs: 1}
	st := &ioengine.Stats{Runtime: time.Second, All: ioengine.DirStats{IOPS: 10, TotalIOs: 10, Bytes: 40960}}
	st.Read = &st.All
	r := fioadapt.ReportFromStats("j", wl, "psync", time.Second, 0, true, nil, st)
	r.Version, r.Time = "qdsweep-test", t0
	r.Disks = []fio.DiskUtil{want}
	for name, write := range map[string]func(io.Writer, fio.Report) error{"terse": fio.WriteTerse, "json": func(w io.Writer, r fio.Report) error { return fio.WriteJSONJobs(w, []fio.Report{r}) }} {
		var buf bytes.Buffer
		if err := write(&buf, r); err != nil {
			t.Fatal(err)
		}
		outs, err := fio.Parse(&buf)
		if err != nil || len(outs) != 1 || len(outs[0].DiskUtil) != 1 {
			t.Fatalf("%s: %v, %+v", name, err, outs)
		}
		if got := outs[0].DiskUtil[0]; got != want {
			t.Errorf("%s read back %+v, want %+v", name, got, want)
		}
	}
}

// TestJobFileForms: the forms fio's own example job files use parse as fio
// reads them: trailing comments, $pagesize / $ncpus / $mb_memory, ${VAR}
// from the environment (unset is empty), arithmetic, N% sizes and offsets,
// and include files.
func TestJobFileForms(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "common.fio"), []byte("; shared options\nrw=randread\ndirect=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("QDSWEEP_TEST_BS", "8k")
	job := `[global]
numjobs=2 ; two of them
iodepth=(2+2)*4   # sixteen
bs=${QDSWEEP_TEST_BS}
size=50%
offset=$pagesize
description=${QDSWEEP_TEST_UNSET}x

[a]
include common.fio
filename=/tmp/x#y (fio ends a value at # or ;)
`
	p := filepath.Join(dir, "job.fio")
	if err := os.WriteFile(p, []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	jf, err := fio.ReadJobFile(p)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := fioadapt.Runs(jf)
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	w := r.Workload
	if w.NumJobs != 2 || w.IODepth != 16 || w.BS != 8192 || w.RW != "randread" || !w.Direct || r.SizePercent != 50 ||
		w.Offset != int64(os.Getpagesize()) || w.Filename != "/tmp/x" {
		t.Errorf("read as %+v (size %v%%)", w, r.SizePercent)
	}
	for _, bad := range []string{"[a]\niodepth=(2+2\n", "[a]\nsize=150%\n", "[a]\ninclude missing.fio\n"} {
		jf, err := fio.ParseJobFile(strings.NewReader(bad))
		if err == nil {
			_, err = fioadapt.Runs(jf)
		}
		if err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
