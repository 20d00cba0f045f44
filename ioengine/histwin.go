package ioengine

import "time"

// histWindows cuts one job's completion latencies into windows as fio
// 3.33 cuts its histogram log (Control.HistWindow): each direction's
// first window begins at its first completion past the job's first
// millisecond (fio starts it at the first completion whose time, in ms
// since the job's epoch, is not 0), and a window closes at the first
// completion at least its length after it began, holding that completion
// and the direction's others since the window before; the next begins
// where the closed one should have ended. A window still open when the
// job ends is not kept, as fio writes none.
type histWindows struct {
	every int64     // window length, ms
	last  [2]int64  // ms each direction's open window began (0: none yet)
	from  [2]int64  // ns since the window start at which it began
	hist  [2]ivHist // each direction's completions since the last window
	out   []Interval
}

func newHistWindows(every time.Duration) *histWindows {
	if every <= 0 {
		return nil
	}
	return &histWindows{every: every.Milliseconds()}
}

// record adds a completion of dir with latency lat ns at elapsed ns since
// the job's measured window began.
func (h *histWindows) record(dir int, lat, elapsed int64) {
	h.hist[dir][ivSlot(lat)]++
	ms := elapsed / int64(time.Millisecond)
	if h.last[dir] == 0 {
		h.last[dir] = ms
		h.from[dir] = elapsed
	}
	if ms-h.last[dir] < h.every {
		return
	}
	bins := h.hist[dir].sparse()
	iv := Interval{StartNs: h.from[dir], DurNs: elapsed - h.from[dir]}
	for _, b := range bins {
		iv.IOs += int64(b.count)
	}
	iv.Bins[dir] = latBins(bins)
	h.out = append(h.out, iv)
	h.last[dir] += h.every
	h.from[dir] = h.last[dir] * int64(time.Millisecond)
}

// reset forgets every completion: the measured window begins.
func (h *histWindows) reset() {
	every := h.every
	*h = histWindows{every: every}
}
