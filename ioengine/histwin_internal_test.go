package ioengine

import (
	"slices"
	"testing"
	"time"
)

// TestHistWindowsAsFio: fio 3.33's histogram log rule. A completion at
// 0 ms does not start a window (fio's hist_last stays 0); the first at
// 3 ms does; a window closes at the first completion at least 50 ms after
// its start and holds every completion since the window before, that one
// included; the next starts where it should have ended (53, then 103,
// 153), however late the closing completion came; each direction has its
// own windows (writes from 10 ms: 59 is short of 60, 61 closes it with
// three); what is open at the end is not kept.
func TestHistWindowsAsFio(t *testing.T) {
	h := newHistWindows(50 * time.Millisecond)
	ms := func(v int64) int64 { return v * int64(time.Millisecond) }
	for _, c := range []struct{ dir, at int64 }{{0, 0}, {0, 3}, {1, 10}, {0, 40}, {0, 53}, {1, 59}, {0, 60}, {1, 61}, {0, 120}, {0, 150}, {0, 190}} {
		h.record(int(c.dir), 1000, ms(c.at))
	}
	var got [][3]int64 // end ms, direction, I/Os
	for _, iv := range h.out {
		dir := int64(0)
		if len(iv.Bins[1]) > 0 {
			dir = 1
		}
		got = append(got, [3]int64{(iv.StartNs + iv.DurNs) / 1e6, dir, iv.IOs})
	}
	want := [][3]int64{{53, 0, 4}, {61, 1, 3}, {120, 0, 2}, {190, 0, 2}}
	if !slices.Equal(got, want) {
		t.Errorf("windows (end ms, direction, I/Os) %v, want %v", got, want)
	}
	h.reset()
	if h.out != nil || h.last != [2]int64{} || h.every != 50 {
		t.Errorf("reset kept %v, %v, every %d", h.out, h.last, h.every)
	}
}
