package ioengine

// zoneGen is a job's place in its strided zones (StridedZones), every
// offset from the start of the job's region: fio's file_offset,
// zone_bytes and real_file_size.
type zoneGen struct {
	StridedZones
	span  int64 // the zone's bytes (Span)
	end   int64 // the file's end (fio's real_file_size)
	off   int64 // the zone's start (fio's file_offset)
	bytes int64 // bytes transferred in the zone (fio's zone_bytes)
	loops zoneLoops
}

// zoneLoops are the loops of a size-based job in zones (Control.Loops),
// as fio 3.33's do_io and keep_running run them: a loop ends at an I/O
// its zones cannot place, and the next starts at the job's first zone
// (fio's clear_io_state). An engine that queues its I/Os (io_uring,
// libaio: fio's FIO_Q_QUEUED) also ends a loop once it has issued its
// share of the job's I/Os and bytes, the rest of a loop ended early
// dropped; a synchronous one (psync) counts only the job's total, so its
// loops go on in the zone they reached.
type zoneLoops struct {
	left       int   // loops after this one
	ios, bytes int64 // each loop's share of the job's I/Os and bytes (0: none)
	doneIOs    int64 // this loop's so far
	doneBytes  int64
	// cut says the I/O drawn last began a loop that has a share before
	// the loop before had issued its own.
	cut bool
}

// setLoops gives a size-based job in zones that ends its passes
// (passEnds) ctl's loops; queued says whether its engine queues its I/Os,
// each loop then with its share of the job's I/Os and bytes.
func (g *offsetGen) setLoops(ctl Control, queued bool) {
	z := g.zone
	if z == nil || !g.passEnds || ctl.Loops <= 1 {
		return
	}
	z.loops = zoneLoops{left: ctl.Loops - 1}
	if queued {
		n := int64(ctl.Loops)
		z.loops.ios, z.loops.bytes = ctl.IOsPerJob/n, ctl.BytesPerJob/n
	}
}

// shareDone reports whether this loop has issued its share.
func (l *zoneLoops) shareDone() bool {
	return l.ios > 0 && l.doneIOs >= l.ios || l.bytes > 0 && l.doneBytes >= l.bytes
}

// nextLoop begins the job's next loop, if one is left, at its first zone;
// early says the loop before had not issued its share (cut).
func (g *offsetGen) nextLoop(early bool) bool {
	z := g.zone
	l := &z.loops
	if l.left == 0 {
		return false
	}
	l.left--
	l.doneIOs, l.doneBytes = 0, 0
	l.cut = early && (l.ios > 0 || l.bytes > 0)
	z.off, z.bytes = 0, 0
	g.newPass = true
	return true
}

// setFileEnd tells the zones where the job's file ends (total bytes).
func (g *offsetGen) setFileEnd(total int64) {
	if z := g.zone; z != nil {
		z.end = total - g.regions[0].start
	}
}

// nextInZone is the offset (from r's start) and size of the next I/O of
// direction dir in the zones: fio's setup_strided_zone_mode, then its
// offset in the zone. An I/O fio cannot place ends a size-based pass
// (passEnds: ended), or its loop where loops remain (zoneLoops), and
// starts a time-based job, or the next loop, over from its first zone;
// where none can be placed, the I/O is the region's first block, so that
// no I/O reaches past the file's end.
func (g *offsetGen) nextInZone(r *genRegion, dir int) (rel, n int64) {
	z := g.zone
	if z.loops.shareDone() {
		g.nextLoop(false)
	}
	for range 64 {
		g.enterZone(r, dir)
		drawn := g.random && !g.followsOn(dir)
		if drawn {
			rel = z.off + g.rand(r, dir)
		} else {
			rel = g.seqInZone(r, dir)
		}
		if n = g.lenInZone(r, dir, rel); n > 0 && rel+n <= z.end && rel-z.off < r.size {
			if drawn && r.done != nil {
				n = g.mark(r, dir, rel-z.off, n)
			}
			r.pos[dir] = rel + n
			z.bytes += n
			z.loops.doneIOs++
			z.loops.doneBytes += n
			return rel, n
		}
		if g.passEnds {
			if !g.nextLoop(true) {
				g.ended = true
				break
			}
			continue // the next loop
		}
		// fio's file is done: a time-based job opens it again, its zones
		// from the first.
		z.off, z.bytes = 0, 0
		g.newPass = true
	}
	return 0, g.lo[dir]
}

// lenInZone is the size of direction dir's I/O at rel (from the region's
// start) in the zones: its block size, or where sizes vary (bssplit,
// bsrange) one fio's get_next_buflen picks to end within the job's
// region, and 0 where not even the smallest does (fio's io_u_fits, which
// ends the pass there).
func (g *offsetGen) lenInZone(r *genRegion, dir int, rel int64) int64 {
	lo := g.lo[dir]
	switch {
	case g.hi[dir] == lo:
		return lo
	case rel+lo > r.size:
		return 0
	}
	return g.size(dir, rel, r.size)
}

// enterZone is fio's setup_strided_zone_mode: the next zone once Size
// bytes are done in this one (the first again past the file's end),
// direction dir's sequential offset back at the zone's start once past its
// range, and both directions' offsets and the random map anew every Range
// bytes.
func (g *offsetGen) enterZone(r *genRegion, dir int) {
	z := g.zone
	if z.bytes >= z.Size {
		z.bytes = 0
		if z.off += z.span + z.Skip; z.off >= z.end {
			z.off = 0
		}
		r.pos[dir] = z.off
	}
	if r.pos[dir] >= z.off+z.span {
		r.pos[dir] = z.off
	}
	if z.bytes%z.span == 0 {
		r.pos = [2]int64{z.off, z.off}
		if r.done != nil {
			r.done.reset()
		}
	}
}

// seqInZone is fio's get_next_seq_offset in a zone: where dir's last I/O
// ended; in a time-based job, at or past the region's end, the zone's
// start (fio's wrap to file_offset, its cache dropped as it does).
func (g *offsetGen) seqInZone(r *genRegion, dir int) int64 {
	if !g.passEnds && r.pos[dir] >= r.size {
		r.pos[dir] = g.zone.off
		g.newPass = true
	}
	return r.pos[dir]
}
