//go:build linux

package ioengine

import (
	"errors"
	"slices"
	"testing"
)

// zoneOffsets draws n I/Os of w's job 0 over a region of size bytes at
// start in a file of total bytes, in units of w.BS; passEnds as a
// size-based run of one loop sets it. It stops at an I/O that ends the
// pass, returning the offsets before it.
func zoneOffsets(w Workload, start, size, total int64, passEnds bool, n int) []int64 {
	g := newOffsetGen(&w, start, []int64{size}, 0)
	g.setFileEnd(total)
	g.passEnds = passEnds
	var out []int64
	for range n {
		_, _, off, _ := g.next()
		if g.ended {
			break
		}
		out = append(out, off/w.BS)
	}
	return out
}

// TestStridedZoneOffsets: sequential I/O in strided zones as fio 3.33
// places it (fio's setup_strided_zone_mode and get_next_seq_offset): Size
// bytes a zone, from its start again past its range, the next zone
// Range+Skip bytes on, the first again past the file's end; a time-based
// job goes back to a zone's start at its region's end (and so repeats the
// first block of a zone past its region); an I/O reaching past the file's
// end ends a size-based pass.
func TestStridedZoneOffsets(t *testing.T) {
	const k = 64 << 10
	cases := []struct {
		name               string
		z                  StridedZones
		start, size, total int64
		passEnds, ends     bool    // ends: the pass ends after want
		want               []int64 // offsets in blocks of 64 KiB
	}{
		{"size = range", StridedZones{Size: 2 * k, Skip: 2 * k}, 0, 8 * k, 12 * k, true, false, []int64{0, 1, 4, 5, 8, 9, 0, 1, 4, 5}},
		{"range over size", StridedZones{Size: 2 * k, Range: 4 * k, Skip: k}, 0, 8 * k, 16 * k, true, true, []int64{0, 1, 5, 6, 10, 11, 15}},
		{"size over range", StridedZones{Size: 3 * k, Range: 2 * k}, 0, 8 * k, 8 * k, true, false, []int64{0, 1, 0, 2, 3, 2, 4, 5, 4, 6, 7, 6, 0}},
		{"skip past the file's end", StridedZones{Size: 2 * k, Skip: 1 << 30}, 2 * k, 4 * k, 8 * k, true, false, []int64{2, 3, 2, 3, 2, 3}},
		{"a zone past the region, time-based", StridedZones{Size: 3 * k, Skip: 3 * k}, 0, 3 * k, 12 * k, false, false, []int64{0, 1, 2, 6, 6, 6, 0, 1, 2}},
		{"a zone past the file's end ends the pass", StridedZones{Size: 4 * k, Skip: k}, 0, 8 * k, 8 * k, true, true, []int64{0, 1, 2, 3, 5, 6, 7}},
		{"the same, time-based: the zone's start at the region's end", StridedZones{Size: 4 * k, Skip: k}, 0, 8 * k, 8 * k, false, false, []int64{0, 1, 2, 3, 5, 6, 7, 5, 0, 1}},
	}
	for _, c := range cases {
		w := Workload{RW: Read, BS: k, Zones: c.z}
		n := len(c.want)
		if c.ends {
			n += 2
		}
		if got := zoneOffsets(w, c.start, c.size, c.total, c.passEnds, n); !slices.Equal(got, c.want) {
			t.Errorf("%s: offsets %v, want %v", c.name, got, c.want)
		}
	}
}

// TestStridedZoneRandom: random I/O in strided zones stays in its zone,
// Size bytes a zone, and does each block of a zone's range once before
// any again (fio's random map over the zone, emptied every Range bytes).
func TestStridedZoneRandom(t *testing.T) {
	const bs = 4096
	for _, z := range []StridedZones{{Size: 16 * bs, Skip: 16 * bs}, {Size: 8 * bs, Range: 32 * bs, Skip: 4 * bs}, {Size: 24 * bs, Range: 8 * bs}} {
		w := Workload{RW: RandRead, BS: bs, Zones: z, Shape: Shape{RandomMap: true}}
		total := int64(1 << 20)
		offs := zoneOffsets(w, 0, total, total, true, 2000)
		stride := (z.Span() + z.Skip) / bs
		perZone, perMap := int(z.Size/bs), int(z.Span()/bs)
		zone := int64(0)
		seen := map[int64]bool{}
		for i, b := range offs {
			if i > 0 && i%perZone == 0 {
				if zone += stride; zone*bs >= total {
					zone = 0
				}
			}
			if i%perZone%perMap == 0 {
				clear(seen)
			}
			if b < zone || b >= zone+z.Span()/bs || seen[b] {
				t.Fatalf("%+v: I/O %d at block %d: want a block of zone %d..%d not done since its map was emptied", z, i, b, zone, zone+z.Span()/bs)
			}
			seen[b] = true
		}
	}
	// Time-based, a zone reaching past the file's end starts the job over
	// at its first zone when a draw falls past the end: every I/O in the file.
	z := StridedZones{Size: 8 * bs, Range: 32 * bs, Skip: 4 * bs}
	w := Workload{RW: RandRead, BS: bs, Zones: z, Shape: Shape{RandomMap: true}}
	restarts, run := 0, 0 // I/Os in the last zone (blocks 252..283) in a row
	offs := zoneOffsets(w, 0, 1<<20, 1<<20, false, 5000)
	for i, b := range offs {
		if b+1 > 256 {
			t.Fatalf("time-based: I/O %d at block %d, past the file's 256", i, b)
		}
		switch {
		case b >= 252:
			run++
		case run > 0 && run < 8 && b < 32:
			restarts++ // left the last zone before its 8 I/Os: started over
			run = 0
		default:
			run = 0
		}
	}
	if restarts == 0 {
		t.Errorf("time-based: never started over from the zone past the file's end")
	}
}

// TestCheckZones: the zones the engines run, and each refusal naming
// the setting refused.
func TestCheckZones(t *testing.T) {
	base := Workload{RW: RandRead, BS: 4096, Size: 1 << 20}
	cases := []struct {
		w    func(w *Workload)
		want Setting // 0: runs
	}{
		{func(w *Workload) { w.Zones = StridedZones{Size: 64 << 10} }, 0},
		{func(w *Workload) { w.Zones = StridedZones{Size: 64 << 10, Range: 1 << 20, Skip: 1 << 40} }, 0},
		{func(w *Workload) { w.Zones = StridedZones{Size: -1} }, SetZoneSize},
		{func(w *Workload) { w.Zones = StridedZones{Range: 64 << 10} }, SetZoneRange},
		{func(w *Workload) { w.Zones = StridedZones{Size: 2048} }, SetZoneRange},
		{func(w *Workload) { w.Zones = StridedZones{Size: 4096, Range: 2 << 20} }, SetZoneRange},
		{func(w *Workload) { w.Zones, w.Files = StridedZones{Size: 64 << 10}, []string{"a", "b"} }, SetZoneSize},
		{func(w *Workload) { w.Zones, w.Shape.BSRange[0] = StridedZones{Size: 64 << 10}, [2]int64{4096, 8192} }, 0},
		{func(w *Workload) { w.Zones, w.Shape.RandomEvery = StridedZones{Size: 64 << 10}, 4 }, 0},
		{func(w *Workload) { w.Zones, w.Shape.Sequential[1] = StridedZones{Size: 64 << 10}, 10 }, 0},
		{func(w *Workload) { w.Zones, w.Shape.Skip = StridedZones{Size: 64 << 10}, 8192 }, SetRW},
		{func(w *Workload) { w.Zones, w.Shape.Dist.Kind = StridedZones{Size: 64 << 10}, DistZipf }, SetRandomDistribution},
		{func(w *Workload) { w.Zones, w.FioVerify.Kind = StridedZones{Size: 64 << 10}, VerifyMeta }, SetVerify},
	}
	for i, c := range cases {
		w := base
		c.w(&w)
		err := w.CheckZones()
		var se *SettingError
		switch {
		case c.want == 0 && err != nil:
			t.Errorf("case %d %+v: %v, want it run", i, w.Zones, err)
		case c.want != 0 && (!errors.As(err, &se) || !slices.Contains(se.Settings(), c.want)):
			t.Errorf("case %d %+v: %v, want a refusal naming %v", i, w.Zones, err, c.want)
		}
	}
}
