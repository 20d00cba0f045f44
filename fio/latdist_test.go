package fio_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

// latDistReport is a read job whose I/Os are mostly under a microsecond:
// ns 750 and 1000, us 2 to 100 (4 under 0.01 %), ms 2000 (under 0.01 %)
// and >=2000.
func latDistReport() fio.Report {
	d := &fio.Dir{TotalIOs: 16384, IOBytes: 16384 * 512, RuntimeMs: 20, IOPS: 819200, BWBytes: 419430400,
		Clat: fio.LatStat{MinNs: 600, MaxNs: 3e9, MeanNs: 900, StddevNs: 50, N: 16384}}
	d.Lat = d.Clat
	return fio.Report{Version: fio.WriterVersion("0.1.0"), Time: time.Date(2026, 12, 2, 7, 30, 0, 0, time.UTC),
		Job: fio.Job{Name: "c", RW: "read", BS: 512, IOEngine: "psync", IODepth: 1, NumJobs: 1, Read: d,
			IODepthDist: map[string]float64{"1": 100}},
		LatNs: []float64{0, 0, 0, 0, 0, 0, 0, 0, 0.09, 82},
		LatUs: []float64{17, 0.0061, 0.2, 0.1, 0.1, 0.1, 0, 0, 0, 0},
		LatMs: []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.004, 0.3},
	}
}

// TestLatDistAsFio: the latency distribution is written as fio 3.33
// writes it. JSON: latency_ns, latency_us and latency_ms with all of
// fio's keys, a bucket holding I/Os but under 0.01 % shown as 0.01. The
// normal layout: "lat (nsec)" before "lat (usec)" and "lat (msec)", the
// buckets that hold I/Os five to a line, with that floor. Terse v3: no
// ns fields (130 in all with one disk, as fio's), the ns share added to
// us "2" after the floor; it and the others read back.
func TestLatDistAsFio(t *testing.T) {
	r := latDistReport()
	var j bytes.Buffer
	if err := fio.WriteJSONJobs(&j, []fio.Report{r}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Jobs []struct {
			Ns map[string]float64 `json:"latency_ns"`
			Us map[string]float64 `json:"latency_us"`
			Ms map[string]float64 `json:"latency_ms"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(j.Bytes(), &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("JSON: %v\n%s", err, j.String())
	}
	keys := func(extra ...string) map[string]float64 {
		m := map[string]float64{}
		for _, k := range append([]string{"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"}, extra...) {
			m[k] = 0
		}
		return m
	}
	ns, us, ms := keys(), keys(), keys("2000", ">=2000")
	ns["750"], ns["1000"] = 0.09, 82
	us["2"], us["4"], us["10"], us["20"], us["50"], us["100"] = 17, 0.01, 0.2, 0.1, 0.1, 0.1
	ms["2000"], ms[">=2000"] = 0.01, 0.3
	got := doc.Jobs[0]
	for _, c := range []struct {
		name      string
		got, want map[string]float64
	}{{"latency_ns", got.Ns, ns}, {"latency_us", got.Us, us}, {"latency_ms", got.Ms, ms}} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s %v, want fio's %v", c.name, c.got, c.want)
		}
	}
	if _, err := fio.ParseJSON(bytes.NewReader(j.Bytes())); err != nil {
		t.Errorf("JSON reads back: %v", err)
	}

	var n bytes.Buffer
	if err := fio.WriteNormal(&n, []fio.Report{r}); err != nil {
		t.Fatal(err)
	}
	want := "  lat (nsec)   : 750=0.09%, 1000=82.00%\n" +
		"  lat (usec)   : 2=17.00%, 4=0.01%, 10=0.20%, 20=0.10%, 50=0.10%\n" +
		"  lat (usec)   : 100=0.10%\n" +
		"  lat (msec)   : 2000=0.01%, >=2000=0.30%\n" +
		"  cpu          :"
	if !strings.Contains(n.String(), want) {
		t.Errorf("normal layout lacks fio's lines\n%s\nin\n%s", want, n.String())
	}
	if outs, err := fio.ParseNormal(strings.NewReader(n.String())); err != nil || len(outs) != 1 || outs[0].Jobs[0].Read.TotalIOs != 16384 {
		t.Errorf("normal layout reads back: %v %+v", err, outs)
	}

	r.Disks = []fio.DiskUtil{{Name: "vda"}}
	var tr bytes.Buffer
	if err := fio.WriteTerse(&tr, r); err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(tr.String())
	if f := strings.Split(line, ";"); len(f) != 130 {
		t.Errorf("terse: %d fields, fio's 130", len(f))
	}
	wantT := ";99.09%;0.01%;0.20%;0.10%;0.10%;0.10%;0.00%;0.00%;0.00%;0.00%" + strings.Repeat(";0.00%", 10) + ";0.01%;0.30%;vda;"
	if !strings.Contains(line, wantT) {
		t.Errorf("terse lacks fio's latency fields %s\n%s", wantT, line)
	}
	if outs, err := fio.ParseTerse(strings.NewReader(line)); err != nil || len(outs) != 1 || outs[0].Jobs[0].Read.TotalIOs == 0 {
		t.Errorf("terse reads back: %v %+v", err, outs)
	}
}

// TestLatDistNotMeasured: without a histogram every bucket is 0 in JSON
// (every key there, as fio's), terse has its 22 zero fields and the
// normal layout no "lat (" bucket line.
func TestLatDistNotMeasured(t *testing.T) {
	r := latDistReport()
	r.LatNs, r.LatUs, r.LatMs = nil, nil, nil
	var j bytes.Buffer
	if err := fio.WriteJSONJobs(&j, []fio.Report{r}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Jobs []map[string]json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal(j.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for k, n := range map[string]int{"latency_ns": 10, "latency_us": 10, "latency_ms": 12} {
		var m map[string]float64
		if err := json.Unmarshal(doc.Jobs[0][k], &m); err != nil || len(m) != n {
			t.Errorf("%s: %v %v, want %d zero keys", k, err, m, n)
		}
		for key, v := range m {
			if v != 0 {
				t.Errorf("%s[%s] = %g", k, key, v)
			}
		}
	}
	var n bytes.Buffer
	if err := fio.WriteNormal(&n, []fio.Report{r}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(n.String(), ")   : ") {
		t.Errorf("bucket lines without a distribution:\n%s", n.String())
	}
	var tr bytes.Buffer
	if err := fio.WriteTerse(&tr, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tr.String(), strings.Repeat(";0.00%", 22)+"\n") {
		t.Errorf("terse latency fields not zero: %s", tr.String())
	}
}
