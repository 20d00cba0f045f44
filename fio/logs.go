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
	// HexPrio writes the last column as fio's log_prio does: the I/O's
	// priority in hex (0x0000 for fio's averaged entries).
	HexPrio bool
	// WithOffset writes the offset column, as fio's log_offset does;
	// without it fio 3.33 writes none.
	WithOffset bool
}

// ParseLog reads a fio log: "time, value, direction, bs, offset[, prio]"
// per line.
func ParseLog(r io.Reader) ([]LogEntry, error) {
	var out []LogEntry
	err := scanLogLines(r, "fio log", func(line int, t string, f []string) error {
		if len(f) < 3 {
			return fmt.Errorf("fio log line %d: %q: want time, value, direction[, bs, offset]", line, t)
		}
		var v [5]int64
		for i := 0; i < len(f) && i < 5; i++ {
			s := strings.TrimSpace(f[i])
			base := 10
			if h, ok := strings.CutPrefix(s, "0x"); ok && i == 4 {
				s, base = h, 16 // log_prio's priority
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
		out = append(out, LogEntry{TimeMs: v[0], Value: v[1], Dir: int(v[2]), BS: v[3], Offset: v[4]})
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

// WriteLog writes entries as fio 3.33 writes a log (flush_samples):
// "time, value, direction, bs, priority" per line, "time, value,
// direction, bs, offset, priority" with WithOffset. The priority is 0
// (qdsweep sets none, and fio writes 0 on averaged lines), in hex with
// HexPrio.
func WriteLog(w io.Writer, entries []LogEntry) error {
	bw := bufio.NewWriter(w)
	for _, e := range entries {
		fmt.Fprintf(bw, "%d, %d, %d, %d, ", e.TimeMs, e.Value, e.Dir, e.BS)
		if e.WithOffset {
			fmt.Fprintf(bw, "%d, ", e.Offset)
		}
		if e.HexPrio {
			bw.WriteString("0x0000\n")
			continue
		}
		bw.WriteString("0\n")
	}
	return bw.Flush()
}
