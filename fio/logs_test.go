package fio_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

func TestLogName(t *testing.T) {
	for _, tc := range []struct {
		name, prefix string
		kind         fio.LogKind
		job          int
		ok           bool
	}{
		{"qd4_iops.1.log", "qd4", fio.LogIOPS, 1, true},
		{"dir/run_a_clat.12.log", "run_a", fio.LogClat, 12, true},
		{"x_lat.log", "x", fio.LogLat, 0, true},
		{"qd4.json", "", "", 0, false},
		{"qd4_foo.1.log", "", "", 0, false},
	} {
		p, k, j, ok := fio.LogName(tc.name)
		if p != tc.prefix || k != tc.kind || j != tc.job || ok != tc.ok {
			t.Errorf("LogName(%q) = %q %q %d %v", tc.name, p, k, j, ok)
		}
	}
}

// TestLogSeriesAveraged reads fio 3.33's log_avg_msec=250 logs of a QD 4
// run: each slice carries the log's IOPS and latency as written.
func TestLogSeriesAveraged(t *testing.T) {
	iops, err := fio.ReadLog(filepath.Join("testdata", "logs", "qd4_iops.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	lat, err := fio.ReadLog(filepath.Join("testdata", "logs", "qd4_lat.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	ivs := fio.LogSeries([][]fio.LogEntry{iops}, [][]fio.LogEntry{lat}, 0)
	// fio flushes the last partial latency window at the same time as the
	// last full one, with no iops line: 7 windows with a rate.
	if len(ivs) != len(iops) {
		t.Fatalf("%d slices from %d iops lines", len(ivs), len(iops))
	}
	for i, iv := range ivs[:7] {
		if iv.DurNs != int64(250*time.Millisecond) || iv.StartNs != int64(i)*iv.DurNs {
			t.Errorf("slice %d at %d for %d ns", i, iv.StartNs, iv.DurNs)
		}
		if i < len(iops) && iv.ReadIOPS != float64(iops[i].Value) {
			t.Errorf("slice %d: %.0f IOPS, the log says %d", i, iv.ReadIOPS, iops[i].Value)
		}
		if math.Abs(iv.LatMeanNs-float64(lat[i].Value)) > 0.5 {
			t.Errorf("slice %d: mean %.0f ns, the log says %d", i, iv.LatMeanNs, lat[i].Value)
		}
	}
}

// TestLogSeriesPerIO bins a per-I/O latency log (no log_avg_msec): counts,
// means and p99 come from the I/Os themselves.
func TestLogSeriesPerIO(t *testing.T) {
	lat, err := fio.ReadLog(filepath.Join("testdata", "logs", "raw_lat.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	ivs := fio.LogSeries(nil, [][]fio.LogEntry{lat}, 50*time.Millisecond)
	var n int64
	for _, iv := range ivs {
		n += iv.IOs
		if iv.IOs > 0 && (float64(iv.LatP99Ns) < iv.LatMeanNs*0.5 || iv.ReadBWBytes != iv.ReadIOPS*4096) {
			t.Errorf("slice at %d: p99 %d, mean %.0f, %.0f B/s at %.0f IOPS", iv.StartNs, iv.LatP99Ns, iv.LatMeanNs, iv.ReadBWBytes, iv.ReadIOPS)
		}
	}
	if n != int64(len(lat)) {
		t.Errorf("slices count %d I/Os, the log has %d", n, len(lat))
	}
}

// TestStatusSeries differences fio's --status-interval=1 reports.
func TestStatusSeries(t *testing.T) {
	outs, err := fio.ReadOutput(filepath.Join("testdata", "logs", "qd4.json"))
	if err != nil {
		t.Fatal(err)
	}
	ivs := fio.StatusSeries(outs, "qd4")
	if len(ivs) != 3 {
		t.Fatalf("%d slices from %d reports", len(ivs), len(outs))
	}
	final := fio.Final(outs)[0].Jobs[0].Read
	var n int64
	var latSum float64
	for _, iv := range ivs {
		n += iv.IOs
		latSum += iv.LatMeanNs * float64(iv.IOs)
	}
	if n != final.TotalIOs || math.Abs(latSum/float64(n)-final.Lat.MeanNs) > 1 {
		t.Errorf("slices hold %d I/Os at %.0f ns, the final report %d at %.0f", n, latSum/float64(n), final.TotalIOs, final.Lat.MeanNs)
	}
	if fio.StatusSeries(fio.Final(outs), "qd4") != nil {
		t.Error("one report gave slices")
	}
}

func TestParseLogErrors(t *testing.T) {
	for _, bad := range []string{"1, x, 0", "1, 2", "5, 3, 7, 0, 0", "-1, 3, 0"} {
		if _, err := fio.ParseLog(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseLog(%q) accepted", bad)
		}
	}
}

func FuzzParseLog(f *testing.F) {
	for _, name := range []string{"qd4_iops.1.log", "raw_lat.1.log"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "logs", name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		es, err := fio.ParseLog(bytes.NewReader(b))
		if err != nil {
			return
		}
		ivs := fio.LogSeries([][]fio.LogEntry{es}, [][]fio.LogEntry{es}, 100*time.Millisecond)
		for _, iv := range ivs {
			if iv.DurNs <= 0 || math.IsNaN(iv.LatMeanNs) {
				t.Fatalf("bad slice %+v", iv)
			}
		}
	})
}
