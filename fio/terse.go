package fio

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Field counts of fio's terse format (versions 3 and 4).
const (
	terseHeader  = 5  // version; fio version; jobname; groupid; error
	terseDir     = 41 // per direction: io, bw, iops, runtime, slat×4, clat×4, 20 percentiles, lat×4, bw×5
	terseCPU     = 5  // usr; sys; ctx; majf; minf
	terseDepths  = 7  // IO depths 1,2,4,8,16,32,>=64
	terseLatBins = 22 // latency distribution: 10 µs bins, 12 ms bins
	terseDisk    = 9  // name; read ios; write ios; read merges; write merges; read ticks; write ticks; in_queue; util
	// terseV2Min is the field count of a version 2 record (no fio version):
	// header 4, two directions, CPU, depths, latency bins.
	terseV2Min = 4 + 2*terseDir + terseCPU + terseDepths + terseLatBins
)

// ParseTerse parses fio --output-format=terse lines (terse versions 2, 3 and 4;
// 3 is fio's default). Lines that are not terse records (notes, prompts,
// blank lines) are skipped; a malformed record is an error naming its line.
// All records of the input form one Output.
func ParseTerse(r io.Reader) ([]Output, error) {
	sc := bufio.NewScanner(io.LimitReader(r, maxInput))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	out := Output{Format: "terse"}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		f := strings.Split(text, ";")
		if len(f) >= terseV2Min && f[0] == "2" {
			// Version 2 (fio 1.x/2.x): no fio version field, else as version 3.
			f = append([]string{"2", ""}, f[1:]...)
		} else if len(f) < terseHeader || !strings.HasPrefix(f[1], "fio-") && !strings.HasPrefix(f[1], "qdsweep-") {
			continue
		}
		ver, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		if ver < 2 || ver > 4 {
			return nil, fmt.Errorf("fio terse line %d: terse version %d is not supported (use --terse-version=3)", line, ver)
		}
		j, err := parseTerseRecord(f, ver)
		if err != nil {
			return nil, fmt.Errorf("fio terse line %d: %w", line, err)
		}
		if out.Line == 0 {
			out.Line = line
			out.FioVersion = f[1]
		}
		out.Jobs = append(out.Jobs, j.job)
		out.DiskUtil = append(out.DiskUtil, j.disks...)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read fio terse output: %w", err)
	}
	if len(out.Jobs) == 0 {
		return nil, fmt.Errorf("%w: no terse record (lines starting \"3;fio-\" or \"2;\")", ErrNoOutput)
	}
	out.DiskUtil = dedupDisks(out.DiskUtil)
	return []Output{out}, nil
}

type terseRecord struct {
	job   Job
	disks []DiskUtil
}

// terseFields reads numbers out of one record, remembering the first error.
type terseFields struct {
	f   []string
	err error
}

func (t *terseFields) num(i int) float64 {
	if i >= len(t.f) {
		if t.err == nil {
			t.err = fmt.Errorf("record has %d fields, field %d missing", len(t.f), i+1)
		}
		return 0
	}
	s := strings.TrimSuffix(strings.TrimSpace(t.f[i]), "%")
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		if t.err == nil {
			t.err = fmt.Errorf("field %d: %q is not a number", i+1, t.f[i])
		}
		return 0
	}
	return v
}

// lat reads min, max, mean, stddev in µs at i, as ns.
func (t *terseFields) lat(i int) LatStat {
	return LatStat{MinNs: t.num(i) * 1e3, MaxNs: t.num(i+1) * 1e3, MeanNs: t.num(i+2) * 1e3, StddevNs: t.num(i+3) * 1e3}
}

// dir reads one direction starting at field i.
func (t *terseFields) dir(i int) *Dir {
	d := &Dir{
		IOBytes: int64(t.num(i) * 1024), BWBytes: t.num(i+1) * 1024, IOPS: t.num(i + 2),
		RuntimeMs: int64(t.num(i + 3)),
		Slat:      t.lat(i + 4), Clat: t.lat(i + 8), Lat: t.lat(i + 32),
	}
	for k := 0; k < 20; k++ {
		idx := i + 12 + k
		if idx >= len(t.f) {
			t.num(idx)
			break
		}
		p, v, ok := strings.Cut(t.f[idx], "=")
		if !ok {
			if t.err == nil {
				t.err = fmt.Errorf("field %d: %q is not a percentile (want 99.000000%%=123)", idx+1, t.f[idx])
			}
			break
		}
		pct, err1 := strconv.ParseFloat(strings.TrimSuffix(p, "%"), 64)
		us, err2 := strconv.ParseFloat(v, 64)
		if err1 != nil || err2 != nil || math.IsNaN(pct) || math.IsNaN(us) || math.IsInf(us, 0) {
			if t.err == nil {
				t.err = fmt.Errorf("field %d: %q is not a percentile", idx+1, t.f[idx])
			}
			break
		}
		if pct > 0 {
			d.Clat.Percentiles = append(d.Clat.Percentiles, Percentile{Pct: pct, Ns: us * 1e3})
		}
	}
	sortPercentiles(d.Clat.Percentiles)
	if len(d.Clat.Percentiles) > 0 {
		// fio fills these fields with lat's percentiles under
		// lat_percentiles=1, and the output does not say so.
		d.Clat.PercentilesOf = PercentilesTerse
	}
	d.TotalIOs = int64(math.Round(d.IOPS * float64(d.RuntimeMs) / 1e3))
	for _, l := range []*LatStat{&d.Slat, &d.Clat, &d.Lat} {
		if l.MeanNs > 0 {
			l.N = d.TotalIOs
		}
	}
	if d.IOPS == 0 && d.IOBytes == 0 {
		return nil
	}
	return d
}

// parseTerseRecord parses one split terse line.
func parseTerseRecord(f []string, ver int) (terseRecord, error) {
	t := &terseFields{f: f}
	ndirs := 2
	if ver >= 4 {
		ndirs = 3
	}
	j := Job{Name: f[2], GroupID: int(t.num(3)), Error: int(t.num(4))}
	dirs := make([]*Dir, ndirs)
	for k := range dirs {
		dirs[k] = t.dir(terseHeader + k*terseDir)
	}
	j.Read, j.Write = dirs[0], dirs[1]
	if ndirs == 3 {
		j.Trim = dirs[2]
	}
	c := terseHeader + ndirs*terseDir
	j.UsrCPU, j.SysCPU, j.Ctx = t.num(c), t.num(c+1), int64(t.num(c+2))
	d := c + terseCPU
	j.IODepthDist = map[string]float64{}
	for k, b := range depthBuckets {
		j.IODepthDist[b.key] = t.num(d + k)
	}
	if t.err != nil {
		return terseRecord{}, t.err
	}
	for _, dir := range j.Dirs() {
		j.RuntimeMs = max(j.RuntimeMs, dir.RuntimeMs)
	}
	j.fillDefaults(false)
	rec := terseRecord{job: j}
	for k := d + terseDepths + terseLatBins; k+terseDisk <= len(f); k += terseDisk {
		dt := &terseFields{f: f[k : k+terseDisk]}
		du := DiskUtil{Name: f[k], ReadIOs: int64(dt.num(1)), WriteIOs: int64(dt.num(2)),
			ReadMerges: int64(dt.num(3)), WriteMerges: int64(dt.num(4)), ReadTicks: int64(dt.num(5)), WriteTicks: int64(dt.num(6)), InQueue: int64(dt.num(7)), Util: dt.num(8)}
		if dt.err != nil || du.Name == "" {
			break
		}
		rec.disks = append(rec.disks, du)
	}
	return rec, nil
}

// dedupDisks keeps the last figures of each device name (terse repeats them per job).
func dedupDisks(ds []DiskUtil) []DiskUtil {
	idx := map[string]int{}
	var out []DiskUtil
	for _, d := range ds {
		if i, ok := idx[d.Name]; ok {
			out[i] = d
			continue
		}
		idx[d.Name] = len(out)
		out = append(out, d)
	}
	return out
}
