package fio

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
)

// fio's completion-latency histogram log (write_hist_log, log_hist_msec,
// log_hist_coarseness): PREFIX_clat_hist.N.log, one line per window and
// direction, "msec, direction, bs, " then the window's completions in
// each of fio's latency bins.

// fio's latency bins (stat.h): 64 bins to a power of two of nanoseconds,
// 29 groups, 1856 bins; a value from 2^34 ns (17 s) on lands in the last.
const (
	PlatBits   = 6
	PlatVal    = 1 << PlatBits
	PlatGroups = 29
	PlatNR     = PlatGroups * PlatVal
)

// MaxHistCoarseness is the largest log_hist_coarseness fio takes.
const MaxHistCoarseness = 6

// LogClatHist is the kind of a histogram log, in its file name.
const LogClatHist LogKind = "clat_hist"

// PlatIndex is the bin of fio's latency histogram a completion latency of
// ns nanoseconds lands in (fio's plat_val_to_idx): below 128 ns one bin a
// nanosecond, then 64 bins to a power of two.
func PlatIndex(ns int64) int {
	if ns <= 0 {
		return 0
	}
	msb := bits.Len64(uint64(ns)) - 1
	if msb <= PlatBits {
		return int(ns)
	}
	errBits := msb - PlatBits
	idx := (errBits+1)<<PlatBits + int(uint64(ns)>>errBits)&(PlatVal-1)
	return min(idx, PlatNR-1)
}

// HistEntry is one line of a histogram log: the time it was written (ms
// since the job began), the direction (0 read, 1 write, 2 trim), the block
// size, and the completions since the direction's previous line in each
// of fio's PlatNR bins (Counts[i] for bin i; shorter: the rest are 0).
type HistEntry struct {
	TimeMs int64
	Dir    int
	BS     int64
	Counts []uint64
}

// WriteHistLog writes entries as fio 3.33 writes a histogram log
// (flush_hist_samples): each line's bins summed 2^coarseness at a time,
// PlatNR >> coarseness counts after "msec, direction, bs, ".
func WriteHistLog(w io.Writer, entries []HistEntry, coarseness int) error {
	if coarseness < 0 || coarseness > MaxHistCoarseness {
		return fmt.Errorf("log_hist_coarseness %d: want 0 to %d", coarseness, MaxHistCoarseness)
	}
	stride := 1 << coarseness
	bw := bufio.NewWriter(w)
	for _, e := range entries {
		fmt.Fprintf(bw, "%d, %d, %d, ", e.TimeMs, e.Dir, e.BS)
		for j := 0; j < PlatNR; j += stride {
			var sum uint64
			for k := j; k < j+stride && k < len(e.Counts); k++ {
				sum += e.Counts[k]
			}
			bw.WriteString(strconv.FormatUint(sum, 10))
			if j+stride < PlatNR {
				bw.WriteString(", ")
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ParseHistLog reads a histogram log as WriteHistLog and fio write it:
// Counts holds a line's bins as written (PlatNR >> coarseness of them).
func ParseHistLog(r io.Reader) ([]HistEntry, error) {
	var out []HistEntry
	err := scanLogLines(r, "fio histogram log", func(line int, _ string, f []string) error {
		if len(f) < 4 {
			return fmt.Errorf("fio histogram log line %d: want msec, direction, bs, then the bins", line)
		}
		var head [3]int64
		for i := range head {
			n, err := strconv.ParseInt(strings.TrimSpace(f[i]), 10, 64)
			if err != nil {
				return fmt.Errorf("fio histogram log line %d: field %d: %w", line, i+1, err)
			}
			head[i] = n
		}
		e := HistEntry{TimeMs: head[0], Dir: int(head[1]), BS: head[2], Counts: make([]uint64, len(f)-3)}
		for i, s := range f[3:] {
			n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return fmt.Errorf("fio histogram log line %d: bin %d: %w", line, i, err)
			}
			e.Counts[i] = n
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
