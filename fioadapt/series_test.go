package fioadapt_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
)

// TestLogSeriesAveraged reads fio 3.33's log_avg_msec=250 logs of a QD 4
// run: each slice carries the log's IOPS and latency as written.
func TestLogSeriesAveraged(t *testing.T) {
	iops, err := fio.ReadLog(filepath.Join(fioTestdata, "logs", "qd4_iops.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	lat, err := fio.ReadLog(filepath.Join(fioTestdata, "logs", "qd4_lat.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	ivs := fioadapt.LogSeries([][]fio.LogEntry{iops}, [][]fio.LogEntry{lat}, 0)
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
	lat, err := fio.ReadLog(filepath.Join(fioTestdata, "logs", "raw_lat.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	ivs := fioadapt.LogSeries(nil, [][]fio.LogEntry{lat}, 50*time.Millisecond)
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
	outs, err := fio.ReadOutput(filepath.Join(fioTestdata, "logs", "qd4.json"))
	if err != nil {
		t.Fatal(err)
	}
	ivs := fioadapt.StatusSeries(outs, "qd4")
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
	if fioadapt.StatusSeries(fio.Final(outs), "qd4") != nil {
		t.Error("one report gave slices")
	}
}

func FuzzParseLog(f *testing.F) {
	for _, name := range []string{"qd4_iops.1.log", "raw_lat.1.log"} {
		if b, err := os.ReadFile(filepath.Join(fioTestdata, "logs", name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		es, err := fio.ParseLog(bytes.NewReader(b))
		if err != nil {
			return
		}
		ivs := fioadapt.LogSeries([][]fio.LogEntry{es}, [][]fio.LogEntry{es}, 100*time.Millisecond)
		for _, iv := range ivs {
			if iv.DurNs <= 0 || math.IsNaN(iv.LatMeanNs) {
				t.Fatalf("bad slice %+v", iv)
			}
		}
	})
}
