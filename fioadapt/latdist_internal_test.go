package fioadapt

import (
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// TestLatencyDistBinsAsFio: an I/O's completion latency lands in fio
// 3.33's bucket, each key an exclusive upper bound (fio's
// io_u_mark_latency, seen with clocksource=gettimeofday, where every
// latency is a whole µs: 0 ns in ns "2", 1000 ns in us "2", 2000 ns in
// us "4"): 0 and 1 ns in ns "2", 999 ns in ns "1000", 1000 and 1999 ns in
// us "2", 2000 ns in us "4", 1.5 ms in ms "2", 1.5 s in ms "2000", 3 s
// in ms ">=2000".
func TestLatencyDistBinsAsFio(t *testing.T) {
	h := hdrhistogram.New(1, 10e9, 2)
	for _, v := range []int64{1, 1, 999, 1000, 1999, 2000, 1.5e6, 1.5e9, 3e9, 3e9} {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	ns, us, ms := latencyDist(histBars(h))
	for _, c := range []struct {
		name string
		got  []float64
		want []float64
	}{
		{"ns", ns, []float64{20, 0, 0, 0, 0, 0, 0, 0, 0, 10}},
		{"us", us, []float64{20, 10, 0, 0, 0, 0, 0, 0, 0, 0}},
		{"ms", ms, []float64{10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 20}},
	} {
		if len(c.got) != len(c.want) {
			t.Fatalf("%s: %d buckets, want %d", c.name, len(c.got), len(c.want))
		}
		for i := range c.want {
			if d := c.got[i] - c.want[i]; d > 1e-9 || d < -1e-9 {
				t.Errorf("%s %v, want fio's %v", c.name, c.got, c.want)
				break
			}
		}
	}
}
