package fio_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestMixedJobPercentiles: a mixed job's percentiles from fio's JSON
// (each direction's own, no histogram) are those the directions' figures
// pin down, each at or above the one the merged json+ histograms give
// and within 5% of it; p50 is among them. fio 3.33's json+ of a randrw
// job, 496 reads and 528 writes, read with and without its bins.
func TestMixedJobPercentiles(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "randrw-psync-plus.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	outs, err := fio.ParseJSON(f)
	if err != nil || len(outs) != 1 || len(outs[0].Jobs) != 1 {
		t.Fatalf("%v %+v", err, outs)
	}
	withBins := outs[0].Jobs[0]
	exact := map[float64]float64{}
	for _, p := range withBins.Summary().Lat.Percentiles {
		exact[p.Pct] = p.Ns
	}
	plain := withBins
	for _, d := range []**fio.Dir{&plain.Read, &plain.Write} {
		c := **d
		c.Clat.Bins, c.Lat.Bins = nil, nil
		*d = &c
	}
	got := plain.Summary().Lat.Percentiles
	has50 := false
	for _, p := range got {
		e, ok := exact[p.Pct]
		if !ok || p.Ns < e || p.Ns > e*1.05 {
			t.Errorf("p%g: %.0f ns from the directions' percentiles, %.0f from the merged histograms", p.Pct, p.Ns, e)
		}
		has50 = has50 || p.Pct == 50
	}
	if len(got) >= len(exact) {
		t.Errorf("every percentile given (%d): this job's reads' p95 and p99 (181 µs, 3.7 ms) cannot fix its p99", len(got))
	}
	if !has50 || len(exact) == 0 {
		t.Errorf("p50 left out: %v (histograms: %v)", got, exact)
	}
}
