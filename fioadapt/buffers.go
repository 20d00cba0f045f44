package fioadapt

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// bufConv is what fio's buffer options set so far, in the order given:
// fio's callbacks read what the job set before them (buffer_pattern's
// refill depends on the compression and the direction set until then),
// and fio's fix-ups then read the whole job (finishBuffers).
type bufConv struct {
	refill     bool // refill_buffers, as set so far
	noScramble bool // scramble_buffers=0, or buffer_pattern
	zero       bool // zero_buffers
	// compress is fio's TD_F_COMPRESS: buffer_compress_percentage or
	// dedupe_percentage given (any value), which turns scrambling off.
	compress bool
}

// bufferHandlers convert fio's buffer-content options (ioengine.Buffers).
func bufferHandlers() map[string]handler {
	buf := func(c *jobConv) *ioengine.Buffers { return &c.run.Workload.Buffers }
	hs := map[string]handler{
		fio.OptBufferCompress: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.buf.compress = true
			buf(c).Compress, err = optPercent(o)
			return err
		}},
		fio.OptBufferCompressChunk: {apply: func(c *jobConv, _ string, o fio.Option) error {
			n, err := c.size(o)
			if n == 0 {
				n = ioengine.ChunkWrite // fio's 0: the smallest write
			}
			buf(c).Chunk = n
			return err
		}},
		fio.OptBufferPattern: {apply: convBufferPattern},
		fio.OptDedupe: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.buf.compress, c.buf.refill = true, true // fio's str_dedupe_cb
			buf(c).Dedupe, err = optPercent(o)
			return err
		}},
		fio.OptDedupeMode: {apply: func(c *jobConv, _ string, o fio.Option) error {
			buf(c).Mode = ""
			if o.Value == ioengine.DedupeWorkingSet {
				buf(c).Mode = ioengine.DedupeWorkingSet // the row's Values refused any other
			}
			return nil
		}},
		fio.OptDedupeWorkingSet: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			buf(c).WorkingSet, err = optPercent(o)
			return err
		}},
		fio.OptDedupeGlobal: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			buf(c).Global, err = optBool(o)
			return err
		}},
		fio.OptRefillBuffers: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.buf.refill, err = optSet(o)
			return err
		}},
		fio.OptScrambleBuffers: {apply: func(c *jobConv, _ string, o fio.Option) error {
			on, err := optBool(o)
			c.buf.noScramble = !on
			return err
		}},
		fio.OptZeroBuffers: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.buf.zero, err = optSet(o)
			return err
		}},
	}
	for k, render := range bufferRenders {
		h := hs[k]
		h.render = render
		hs[k] = h
	}
	return hs
}

// optSet reads a switch fio takes as any whole number (its
// FIO_OPT_STR_SET: refill_buffers=2 is on), alone, or as a word.
func optSet(o fio.Option) (bool, error) {
	if n, err := strconv.Atoi(strings.TrimSpace(o.Value)); err == nil {
		return n != 0, nil
	}
	return optBool(o)
}

// convBufferPattern reads buffer_pattern as fio's str_buffer_pattern_cb:
// the pattern, refilled for every write when the job reads or compresses
// (as set so far), neither scrambled nor zeroed.
func convBufferPattern(c *jobConv, _ string, o fio.Option) (err error) {
	b := &c.run.Workload.Buffers
	if b.Pattern, err = fio.ParseVerifyPattern(o.Value); err != nil {
		return fmt.Errorf("%s: %w", label(o), err)
	}
	c.buf.refill = b.Compress != 0 || c.run.Workload.RW.IsRead()
	c.buf.noScramble, c.buf.zero = true, false
	return nil
}

// finishBuffers applies fio 3.33's fix-ups of the buffer options
// (fixup_options, td_set_flags) and refuses what fio refuses of them: a
// working set without size=, over several files, or that leaves too few
// blocks for the dedupe percentage.
func (c *jobConv) finishBuffers() error {
	b, set := &c.run.Workload.Buffers, c.run.Set
	refill, zero := c.buf.refill, c.buf.zero
	switch {
	case b.Compress == 100:
		zero, b.Compress = true, 0 // fio: fully compressible is zeros
	case b.Compress > 0 && !set[fio.OptRefillBuffers]:
		refill = true
	}
	scramble := !c.buf.noScramble && (set[fio.OptScrambleBuffers] || !(zero && set[fio.OptZeroBuffers]))
	b.Random, b.Refill, b.Scramble = !zero, refill, scramble && !c.buf.compress
	if b.Dedupe == 0 || b.Mode != ioengine.DedupeWorkingSet {
		return nil
	}
	if !set[fio.OptDedupeWorkingSet] {
		b.WorkingSet = fio.Row(fio.OptDedupeWorkingSet).DefaultInt()
	}
	switch name := c.run.Name; {
	case !set[fio.OptSize]:
		return fmt.Errorf("job %s: %s needs %s, as in fio (\"pregenerated dedupe working set requires size to be set\"); set %s", name,
			fio.Setting(fio.OptDedupeMode, ioengine.DedupeWorkingSet), fio.OptSize, fio.Setting(fio.OptSize, "1g"))
	case len(fio.SplitFilenames(c.filename)) > 1:
		return fmt.Errorf("job %s: %s runs on one file per job, as in fio; give %s one file", name,
			fio.Setting(fio.OptDedupeMode, ioengine.DedupeWorkingSet), fio.OptFilename)
	case b.WorkingSet+b.Dedupe > 100:
		return fmt.Errorf("job %s: %s=%d and %s=%d add up to over 100, which fio refuses (the working set's blocks are unique); lower one of them", name,
			fio.OptDedupe, b.Dedupe, fio.OptDedupeWorkingSet, b.WorkingSet)
	}
	return nil
}

// numberBufferJobs numbers the jobs of runs that run together for their
// buffers' data (ioengine.Buffers' JobBase and Jobs): each its own data,
// and dedupe_global's working set spanning them all, as fio's thread
// numbers.
func numberBufferJobs(runs []JobRun) {
	total := 0
	for i := range runs {
		runs[i].Workload.Buffers.JobBase = total
		total += max(runs[i].Workload.NumJobs, 1)
	}
	if len(runs) < 2 {
		return // one section: its NumJobs (Jobs 0)
	}
	for i := range runs {
		runs[i].Workload.Buffers.Jobs = total
	}
}

// bufferRenders write the buffer options back from a workload.
var bufferRenders = map[string]func(wl ioengine.Workload) (string, bool){
	fio.OptBufferCompress: func(wl ioengine.Workload) (string, bool) {
		return strconv.Itoa(wl.Buffers.Compress), wl.Buffers.Compress > 0
	},
	fio.OptBufferCompressChunk: func(wl ioengine.Workload) (string, bool) {
		if wl.Buffers.Chunk == ioengine.ChunkWrite {
			return "0", true
		}
		return strconv.FormatInt(wl.Buffers.Chunk, 10), wl.Buffers.Chunk > 0
	},
	fio.OptBufferPattern: func(wl ioengine.Workload) (string, bool) {
		return "0x" + hex.EncodeToString(wl.Buffers.Pattern), len(wl.Buffers.Pattern) > 0
	},
	fio.OptDedupe: func(wl ioengine.Workload) (string, bool) {
		return strconv.Itoa(wl.Buffers.Dedupe), wl.Buffers.Dedupe > 0
	},
	fio.OptDedupeMode: func(wl ioengine.Workload) (string, bool) {
		return wl.Buffers.Mode, wl.Buffers.Mode == ioengine.DedupeWorkingSet
	},
	fio.OptDedupeWorkingSet: func(wl ioengine.Workload) (string, bool) {
		b := wl.Buffers
		return strconv.Itoa(b.WorkingSet), b.Mode == ioengine.DedupeWorkingSet && b.WorkingSet != fio.Row(fio.OptDedupeWorkingSet).DefaultInt()
	},
	fio.OptDedupeGlobal: func(wl ioengine.Workload) (string, bool) { return "1", wl.Buffers.Global },
	// zero_buffers is not written back: the zero value's zeros are
	// qdsweep's own default, and a job file without it writes fio's.
	fio.OptRefillBuffers: renderRefill,
	fio.OptScrambleBuffers: func(wl ioengine.Workload) (string, bool) {
		b := wl.Buffers
		return "0", b.Random && !b.Scramble && b.Compress == 0 && b.Dedupe == 0 && len(b.Pattern) == 0
	},
}

// renderRefill writes refill_buffers back where fio would not set it
// alike itself: fio's table puts it before buffer_pattern, whose callback
// then decides (refill when the job reads or compresses, the same bytes
// otherwise), and compression refills unless told not to.
func renderRefill(wl ioengine.Workload) (string, bool) {
	b := wl.Buffers
	switch {
	case len(b.Pattern) > 0:
		return "", false
	case b.Refill:
		return "1", true
	case b.Compress > 0:
		return "0", true
	}
	return "", false
}
