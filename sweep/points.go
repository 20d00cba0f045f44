package sweep

import (
	"encoding/csv"
	"errors"
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// ErrPointsCSV is wrapped by ReadPointsCSV for any malformed points file.
var ErrPointsCSV = errors.New("bad points CSV")

// ReadPointsCSV reads measured points from a CSV file for
// `advise --from points.csv`. See parsePointsCSV for the format.
func ReadPointsCSV(path string) ([]littleslaw.Point, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read points: %w", err)
	}
	defer f.Close()
	pts, err := parsePointsCSV(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pts, nil
}

// pointColumn says where a point field comes from: a column name and the
// factor that turns the cell into the field's unit (ns for latencies).
type pointColumn struct {
	names []string
	scale float64
	set   func(p *littleslaw.Point, v float64)
}

// pointColumns lists the columns parsePointsCSV knows. Latencies are read
// from *_us columns (microseconds) or from the *_ns columns results.csv has.
var pointColumns = []pointColumn{
	{[]string{fio.OptIODepth}, 1, func(p *littleslaw.Point, v float64) { p.IODepth = int(v) }},
	{[]string{fio.OptNumJobs}, 1, func(p *littleslaw.Point, v float64) { p.NumJobs = int(v) }},
	{[]string{"qd"}, 1, func(p *littleslaw.Point, v float64) { p.QD = v }},
	{[]string{"iops"}, 1, func(p *littleslaw.Point, v float64) { p.IOPS = v }},
	{[]string{"bw_bytes"}, 1, func(p *littleslaw.Point, v float64) { p.BWBytes = v }},
	{[]string{"lat_mean_us", "lat_mean_ns"}, 0, func(p *littleslaw.Point, v float64) { p.LatMeanNs = v }},
	{[]string{"p50_us", "lat_p50_ns"}, 0, func(p *littleslaw.Point, v float64) { p.P50Ns = v }},
	{[]string{"p90_us", "lat_p90_ns"}, 0, func(p *littleslaw.Point, v float64) { p.P90Ns = v }},
	{[]string{"p99_us", "lat_p99_ns"}, 0, func(p *littleslaw.Point, v float64) { p.P99Ns = v }},
	{[]string{"p999_us", "lat_p999_ns"}, 0, func(p *littleslaw.Point, v float64) { p.P999Ns = v }},
	{[]string{"inflight_mean"}, 1, func(p *littleslaw.Point, v float64) { p.InflightMean = v }},
}

// parsePointsCSV parses points from CSV with a header row. Columns are
// found by name, in any order; unknown columns are ignored:
//   - required: iops, lat_mean_us (or lat_mean_ns), and iodepth (numjobs
//     defaults to 1) or qd;
//   - optional: numjobs, qd, bw_bytes, p50_us p90_us p99_us p999_us (or
//     lat_p50_ns … lat_p999_ns), inflight_mean.
//
// A results.csv written by a sweep reads as it is; its rows with a
// non-empty failed or skipped cell are left out. Empty lines and lines
// starting with # are ignored. Errors name the line and the column.
func parsePointsCSV(rd io.Reader) ([]littleslaw.Point, error) {
	cr := csv.NewReader(rd)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	col, err := readPointsHeader(cr)
	if err != nil {
		return nil, err
	}
	uses := pointUses(col)
	var skipCols []int
	for _, n := range []string{"failed", "skipped"} {
		if i, ok := col[n]; ok {
			skipCols = append(skipCols, i)
		}
	}
	var pts []littleslaw.Point
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrPointsCSV, err)
		}
		line, _ := cr.FieldPos(0)
		if skipRow(rec, skipCols) {
			continue
		}
		p, err := pointOfRow(rec, uses, line)
		if err != nil {
			return nil, err
		}
		pts = append(pts, p)
	}
	return pts, nil
}

// readPointsHeader reads the header row: each column's index by its
// lower-case name; an error names a repeated or a missing column.
func readPointsHeader(cr *csv.Reader) (map[string]int, error) {
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%w: empty file (want a header such as iodepth,numjobs,iops,lat_mean_us)", ErrPointsCSV)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPointsCSV, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if _, dup := col[h]; dup && h != "" {
			return nil, fmt.Errorf("%w: line 1: column %q appears twice", ErrPointsCSV, h)
		}
		col[h] = i
	}
	has := func(n string) bool { _, ok := col[n]; return ok }
	var missing []string
	if !has("iops") {
		missing = append(missing, "iops")
	}
	if !has("lat_mean_us") && !has("lat_mean_ns") {
		missing = append(missing, "lat_mean_us")
	}
	if !has(fio.OptIODepth) && !has("qd") {
		missing = append(missing, fio.OptIODepth)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: line 1: missing column(s) %s (want a header such as iodepth,numjobs,iops,lat_mean_us)",
			ErrPointsCSV, strings.Join(missing, ", "))
	}
	return col, nil
}

// pointUse is one column read into a point: its index, name, unit scale
// and setter.
type pointUse struct {
	idx   int
	name  string
	scale float64
	set   func(*littleslaw.Point, float64)
}

// pointUses maps the header's columns onto pointColumns (the first of a
// column's names present wins; _us columns scale to ns).
func pointUses(col map[string]int) []pointUse {
	var uses []pointUse
	for _, pc := range pointColumns {
		for _, n := range pc.names {
			i, ok := col[n]
			if !ok {
				continue
			}
			scale := pc.scale
			if scale == 0 {
				scale = 1
				if strings.HasSuffix(n, "_us") {
					scale = 1e3
				}
			}
			uses = append(uses, pointUse{i, n, scale, pc.set})
			break
		}
	}
	return uses
}

// skipRow reports whether a row is blank or marked failed or skipped.
func skipRow(rec []string, skipCols []int) bool {
	if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
		return true
	}
	for _, i := range skipCols {
		if i < len(rec) && strings.TrimSpace(rec[i]) != "" {
			return true
		}
	}
	return false
}

// pointOfRow reads one row (at line) into a point and checks it.
func pointOfRow(rec []string, uses []pointUse, line int) (littleslaw.Point, error) {
	var p littleslaw.Point
	for _, u := range uses {
		if u.idx >= len(rec) {
			return p, fmt.Errorf("%w: line %d: column %s is missing (the row has %d cells)", ErrPointsCSV, line, u.name, len(rec))
		}
		cell := strings.TrimSpace(rec[u.idx])
		if cell == "" {
			continue
		}
		v, err := pointCell(cell, u.name, line)
		if err != nil {
			return p, err
		}
		u.set(&p, v*u.scale)
	}
	if p.NumJobs == 0 && p.IODepth > 0 {
		p.NumJobs = 1
	}
	if p.QD == 0 {
		p.QD = float64(p.IODepth * p.NumJobs)
	}
	switch {
	case !(p.QD > 0):
		return p, fmt.Errorf("%w: line %d: column iodepth: the queue depth must be positive", ErrPointsCSV, line)
	case !(p.IOPS > 0):
		return p, fmt.Errorf("%w: line %d: column iops: must be positive", ErrPointsCSV, line)
	case !(p.LatMeanNs > 0):
		return p, fmt.Errorf("%w: line %d: column lat_mean: must be positive", ErrPointsCSV, line)
	}
	return p, nil
}

// pointCell reads one cell of column name: a finite, non-negative number,
// whole for iodepth and numjobs.
func pointCell(cell, name string, line int) (float64, error) {
	v, err := strconv.ParseFloat(cell, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: line %d: column %s: %q is not a number", ErrPointsCSV, line, name, cell)
	}
	if v < 0 {
		return 0, fmt.Errorf("%w: line %d: column %s: %q must not be negative", ErrPointsCSV, line, name, cell)
	}
	if (name == fio.OptIODepth || name == fio.OptNumJobs) && (v != math.Trunc(v) || v > 1<<20) {
		return 0, fmt.Errorf("%w: line %d: column %s: %q must be a whole number", ErrPointsCSV, line, name, cell)
	}
	return v, nil
}
