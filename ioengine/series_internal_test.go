package ioengine

import (
	"math"
	"testing"
)

func TestIntervalHistogramBuckets(t *testing.T) {
	for v := int64(1); v < 1<<40; v = v*3/2 + 1 {
		got := ivValue(ivSlot(v))
		if v >= ivSub && math.Abs(float64(got-v))/float64(v) > 1.0/32 {
			t.Fatalf("value %d lands in a slot worth %d", v, got)
		}
		if v < ivSub && got != v {
			t.Fatalf("small value %d lands in a slot worth %d", v, got)
		}
	}
	var h ivHist
	for v := int64(1); v <= 1000; v++ {
		h[ivSlot(v*1000)]++
	}
	if p := ivQuantile(h.sparse(), 0.99); math.Abs(float64(p)-990e3)/990e3 > 1.0/32 {
		t.Fatalf("p99 of 1..1000 µs = %d ns", p)
	}
	if h != (ivHist{}) {
		t.Fatal("sparse did not clear the histogram")
	}
}
