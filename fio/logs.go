package fio

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// fio's per-interval logs: --write_iops_log / --write_bw_log /
// --write_lat_log files (NAME_iops.N.log, NAME_lat.N.log, …) and the
// interim reports of --status-interval, turned into ioengine.Interval
// slices.

// LogKind is what a fio log holds, from its file name.
type LogKind string

// Log kinds.
const (
	LogIOPS LogKind = "iops" // I/Os per second (averaged) or one line per I/O
	LogBW   LogKind = "bw"   // KiB per second (averaged) or one line per I/O
	LogLat  LogKind = "lat"  // total latency, ns
	LogClat LogKind = "clat" // completion latency, ns
	LogSlat LogKind = "slat" // submission latency, ns
)

var logNameRE = regexp.MustCompile(`^(.+)_(iops|bw|lat|clat|slat)(?:\.(\d+))?\.log$`)

// LogName splits a fio log's file name into its prefix (the value of
// --write_*_log), its kind and its job number (1-based; 0 when fio wrote
// none). ok is false for other names.
func LogName(path string) (prefix string, kind LogKind, job int, ok bool) {
	m := logNameRE.FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return "", "", 0, false
	}
	if m[3] != "" {
		job, _ = strconv.Atoi(m[3])
	}
	return m[1], LogKind(m[2]), job, true
}

// LogEntry is one line of a fio log: time since the job started (ms), the
// value (see LogKind), the direction (0 read, 1 write, 2 trim), the block
// size (bytes; 0 in averaged logs) and the offset.
type LogEntry struct {
	TimeMs int64
	Value  int64
	Dir    int
	BS     int64
	Offset int64
	// Prio is the I/O's priority, the kernel's ioprio value (class << 13 |
	// level; 0 for fio's averaged entries and for I/Os without one).
	Prio uint16
	// HexPrio writes the last column as fio's log_prio does: Prio in hex;
	// without it fio writes 1 for the real-time class, else 0.
	HexPrio bool
	// WithOffset writes the offset column, as fio's log_offset does;
	// without it fio 3.33 writes none.
	WithOffset bool
}

// ParseLog reads a fio log: "time, value, direction, bs, offset[, prio]"
// per line; a fifth field in hex (log_prio's) is the priority, not an
// offset.
func ParseLog(r io.Reader) ([]LogEntry, error) {
	var out []LogEntry
	err := scanLogLines(r, "fio log", func(line int, t string, f []string) error {
		if len(f) < 3 {
			return fmt.Errorf("fio log line %d: %q: want time, value, direction[, bs, offset]", line, t)
		}
		var v [6]int64
		hexPrio := false
		for i := 0; i < len(f) && i < 6; i++ {
			s := strings.TrimSpace(f[i])
			base := 10
			if h, ok := strings.CutPrefix(s, "0x"); ok && i >= 4 {
				s, base = h, 16 // log_prio's priority
				hexPrio = true
			}
			n, err := strconv.ParseInt(s, base, 64)
			if err != nil {
				return fmt.Errorf("fio log line %d: field %d: %w", line, i+1, err)
			}
			v[i] = n
		}
		if v[0] < 0 || v[2] < 0 || v[2] > 2 {
			return fmt.Errorf("fio log line %d: %q: time must be ≥ 0 and direction 0, 1 or 2", line, t)
		}
		e := LogEntry{TimeMs: v[0], Value: v[1], Dir: int(v[2]), BS: v[3], Offset: v[4]}
		switch {
		case len(f) >= 6:
			e.Prio = uint16(v[5])
		case hexPrio:
			e.Prio, e.Offset = uint16(v[4]), 0
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanLogLines calls fn with each line of a fio log (ParseLog,
// ParseHistLog) that is not blank: its number (from 1), its text trimmed
// and its comma-separated fields; what names the log in a read error.
// Lines may be as long as a histogram log's (1856 bins).
func scanLogLines(r io.Reader, what string, fn func(line int, text string, fields []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			continue
		}
		if err := fn(line, t, strings.Split(t, ",")); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// ReadLog reads the fio log at path.
func ReadLog(path string) ([]LogEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	es, err := ParseLog(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return es, nil
}

// LogPath is the name fio gives a log: prefix_kind.N.log for job N
// (1-based, counting every numjobs clone), or prefix_kind.log when
// per_job_logs=0.
func LogPath(prefix string, kind LogKind, job int, perJob bool) string {
	if !perJob {
		return prefix + "_" + string(kind) + ".log"
	}
	return fmt.Sprintf("%s_%s.%d.log", prefix, kind, job)
}

// prioClassShift and prioClassRT are the kernel's: a priority's class is
// its value >> 13, and 1 is the real-time class (fio's
// ioprio_value_is_class_rt).
const (
	prioClassShift = 13
	prioClassRT    = 1
)

// WriteLog writes entries as fio 3.33 writes a log (flush_samples):
// "time, value, direction, bs, priority" per line, "time, value,
// direction, bs, offset, priority" with WithOffset. The priority is
// Prio in hex with HexPrio, else 1 for the real-time class and 0 for the
// rest, as fio writes it.
func WriteLog(w io.Writer, entries []LogEntry) error {
	bw := bufio.NewWriter(w)
	for _, e := range entries {
		fmt.Fprintf(bw, "%d, %d, %d, %d, ", e.TimeMs, e.Value, e.Dir, e.BS)
		if e.WithOffset {
			fmt.Fprintf(bw, "%d, ", e.Offset)
		}
		switch {
		case e.HexPrio:
			fmt.Fprintf(bw, "0x%04x\n", e.Prio)
		case e.Prio>>prioClassShift == prioClassRT:
			bw.WriteString("1\n")
		default:
			bw.WriteString("0\n")
		}
	}
	return bw.Flush()
}
