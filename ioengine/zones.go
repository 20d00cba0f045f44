package ioengine

// StridedZones is fio's zonemode=strided: a job's I/O stays in one zone of
// its file, Range bytes from the zone's start, until Size bytes have been
// transferred there, then moves Range+Skip bytes on; a zone starting at or
// past the file's end is the job's first again (its region's start). In a
// zone, sequential I/O runs from the zone's start (and from it again once
// it reaches the zone's end, where Size is over Range); random I/O draws
// uniform offsets within the zone, each block once per Range bytes (fio's
// random map over the zone), a random job's sequential follow-ons
// (rw=randread:N, percentage_random) from its last I/O. The zones run past the job's region (Size
// bytes from Offset) up to the file's end, as fio's do; the write guard
// judges the whole file (GuardTarget). A job of one file only: fio ignores
// the zones of a job with several (Validate refuses them).
//
// As in fio 3.33, an I/O that cannot be placed (a zone reaching past the
// file's end, a zone's offset at or past the region's size) ends a
// size-based job (Control.PassEnds) and starts a time-based one over from
// its first zone; a time-based sequential job in a zone past its region's
// end repeats the zone's first block, as fio's does. The zero value is no
// zones.
type StridedZones struct {
	Size  int64 // fio's zonesize: bytes transferred in a zone before the next (0: no zones)
	Range int64 // fio's zonerange: the bytes of a zone (0: Size)
	Skip  int64 // fio's zoneskip: bytes from a zone's range to the next zone
}

// On reports whether z sets zones.
func (z StridedZones) On() bool { return z.Size > 0 }

// Span is the zone's bytes: Range, else Size (fio's zonerange default).
func (z StridedZones) Span() int64 {
	if z.Range > 0 {
		return z.Range
	}
	return z.Size
}

// CheckZones checks w's strided zones (StridedZones), as Validate does:
// sizes not negative, a zone size wherever a range or skip is given, zones
// of an I/O or more and no larger than the job's region, and a job whose
// zones the engines run: one file, uniform random offsets, no skips
// (rw=read:8k) and no fio verify. A refusal is a *SettingError naming
// Zones' settings or the one they do not run with.
func (w Workload) CheckZones() error {
	z := w.Zones
	switch {
	case z == StridedZones{}:
		return nil
	case z.Size < 0 || z.Range < 0 || z.Skip < 0:
		return refusef("%s/%s/%s: negative values; use sizes like 256m, 0", SetZoneSize, SetZoneRange, SetZoneSkip)
	case !z.On():
		return refusef("%s/%s: zones without a size, which fio refuses too; add %s", SetZoneRange, SetZoneSkip, use(SetZoneSize, "256m"))
	case len(w.Files) > 1:
		return refusef("%s: strided zones over a list of %d files, where fio runs no zones (one file only); drop the zones or list one file", SetZoneSize, len(w.Files))
	case w.Size > 0 && z.Span() > w.FileSize():
		return refusef("%s: zones of %d bytes over a region of %d; use zones no larger than %s", SetZoneRange, z.Span(), w.FileSize(), SetSize)
	case z.Span() < w.MaxBS():
		return refusef("%s: zones of %d bytes hold no I/O of %d bytes; use zones of a block or more, e.g. %s", SetZoneRange, z.Span(), w.MaxBS(), use(SetZoneRange, w.MaxBS()))
	}
	s := w.Shape
	switch {
	case s.Skip != 0:
		return refusef("%s: skips with strided zones, which qdsweep does not run; use %s", SetRW, use(SetRW, w.RW))
	case s.Dist.Kind != DistRandom:
		return refusef("%s with strided zones: qdsweep draws uniform offsets within a zone; drop it", SetRandomDistribution)
	case w.FioVerify.Kind != "":
		return refusef("%s with strided zones, which qdsweep does not run; drop it or the zones", SetVerify)
	}
	return nil
}
