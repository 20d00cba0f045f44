package fio

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// WriteNormal writes rs in fio's normal (human-readable) layout, as fio
// 3.33 prints a run: a header line per job (numjobs clones as "..."), the
// version, "Starting N processes", a block per report ("name: (groupid=G,
// jobs=N): err= E: pid=0: date", each direction's IOPS, bandwidth and
// size, clat and lat, clat percentiles, the latency buckets, cpu, IO
// depths, issued I/Os), "Run status group G (all jobs):" with each
// direction's aggregate, and the disks' stats. Figures qdsweep does not
// measure are left out (slat) or written as fio writes them when it has
// none (pid 0, majf, minf, short, dropped: 0). fio's normal readers, and
// ParseNormal, read it.
func WriteNormal(w io.Writer, rs []Report) error {
	if err := WriteNormalHead(w, rs); err != nil {
		return err
	}
	return WriteNormalRest(w, rs)
}

// WriteNormalHead writes the lines fio 3.33's normal output begins with,
// before any other format it prints with it (--output-format=terse,normal):
// a header line per job (numjobs clones as "..."), the version and
// "Starting N processes".
func WriteNormalHead(w io.Writer, rs []Report) error {
	if len(rs) == 0 {
		return fmt.Errorf("fio normal output: no job to write")
	}
	bw := bufio.NewWriter(w)
	procs := 0
	for i, r := range rs {
		j := r.Job
		procs += max(j.NumJobs, 1)
		if i > 0 && rs[i-1].Job.Name == j.Name && rs[i-1].Job.GroupID == j.GroupID {
			continue // a clone reported apart: its header was said
		}
		fmt.Fprintf(bw, "%s: (g=%d): %s=%s, %s=%s, %s=%s, %s=%d\n",
			j.Name, j.GroupID, OptRW, j.RW, OptBS, j.headerBS(), OptIOEngine, j.IOEngine, OptIODepth, j.IODepth)
		if j.NumJobs > 1 || i+1 < len(rs) && rs[i+1].Job.Name == j.Name && rs[i+1].Job.GroupID == j.GroupID {
			fmt.Fprintln(bw, "...") // fio's mark for a job's further clones
		}
	}
	fmt.Fprintln(bw, rs[0].Version)
	fmt.Fprintf(bw, "Starting %d %s\n", procs, map[bool]string{true: "process", false: "processes"}[procs == 1])
	return bw.Flush()
}

// WriteNormalRest writes the rest of fio's normal output, which fio 3.33
// prints after the other formats it prints with it (--output-format=
// json,normal): a blank line, a block per report, one blank line after the
// last, each group's run status and the disks' stats.
func WriteNormalRest(w io.Writer, rs []Report) error {
	if len(rs) == 0 {
		return fmt.Errorf("fio normal output: no job to write")
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw)
	for _, r := range rs {
		writeNormalJob(bw, r)
	}
	fmt.Fprintln(bw) // fio's blocks follow each other; one blank line after the last
	for i, r := range rs {
		if i+1 == len(rs) || rs[i+1].Job.GroupID != r.Job.GroupID {
			writeGroupStatus(bw, rs, r.Job.GroupID)
		}
	}
	writeNormalDisks(bw, rs)
	return bw.Flush()
}

// headerBS is the block sizes of fio's header line, each direction's
// smallest and largest under the job's kb_base ("(R) 4096B-4096B, (W)
// 16.0KiB-16.0KiB, (T) 4096B-4096B"): a direction without bounds has BS,
// trim without its own has the writes'.
func (j Job) headerBS() string {
	var bs [3]string
	for d := range bs {
		lo, hi := j.BS, j.BS
		if b := j.BSBounds[d]; b[0] > 0 {
			lo, hi = b[0], b[1]
		} else if d == 2 {
			lo, hi = j.BS, j.BS
			if b := j.BSBounds[1]; b[0] > 0 {
				lo, hi = b[0], b[1]
			}
		}
		bs[d] = fioBytes(float64(lo), j.pow2()) + "-" + fioBytes(float64(hi), j.pow2()) // fio's 4096B, 16.0KiB, 1024KiB
	}
	return fmt.Sprintf("(R) %s, (W) %s, (T) %s", bs[0], bs[1], bs[2])
}

// pow2 reports whether fio writes the job's sizes and rates in binary
// units first (kb_base=1024, its default) or decimal ones (kb_base=1000).
func (j Job) pow2() bool { return j.KBBase != 1000 }

// writeNormalJob writes one report's block.
func writeNormalJob(w *bufio.Writer, r Report) {
	j := r.Job
	when := r.Time
	if when.IsZero() {
		when = time.Now()
	}
	fmt.Fprintf(w, "%s: (groupid=%d, jobs=%d): err=%2d: pid=%d: %s\n", j.Name, j.GroupID, max(j.NumJobs, 1), j.Error, j.PID,
		when.Format("Mon Jan  2 15:04:05 2006"))
	for _, d := range r.dirs() {
		if d.dir == nil || d.dir.TotalIOs == 0 {
			continue
		}
		r.writeNormalDir(w, d.name, d.dir)
	}
	writeLatBuckets(w, "nsec", LatBucketsNs, r.LatNs)
	writeLatBuckets(w, "usec", LatBucketsUs, r.LatUs)
	writeLatBuckets(w, "msec", LatBucketsMs, r.LatMs)
	fmt.Fprintf(w, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%d, majf=0, minf=0\n", j.UsrCPU, j.SysCPU, j.Ctx)
	fmt.Fprintf(w, "  IO depths    : %s\n", bucketList(depthKeys(), j.IODepthDist))
	fmt.Fprintf(w, "     submit    : %s\n", bucketList(batchBuckets, j.IODepthSubmit))
	fmt.Fprintf(w, "     complete  : %s\n", bucketList(batchBuckets, j.IODepthComplete))
	var n [3]int64
	for k, d := range r.dirs()[:min(3, len(r.dirs()))] {
		if d.dir != nil {
			n[k] = d.dir.TotalIOs // mixed: all of them first, as fio's
		}
	}
	fmt.Fprintf(w, "     issued rwts: total=%d,%d,%d,0 short=0,0,0,0 dropped=0,0,0,0\n", n[0], n[1], n[2])
	lt := LatTarget{Percentile: 100, Depth: j.IODepth}
	if j.LatTarget != nil {
		lt = *j.LatTarget
	}
	fmt.Fprintf(w, "     latency   : target=%d, window=%d, percentile=%.2f%%, depth=%d\n", lt.TargetNs, lt.WindowUs, lt.Percentile, lt.Depth)
	writeNormalSteady(w, j.Steady)
}

// writeNormalDir writes one direction: its summary line, clat and lat,
// each priority's (fio's "clat prio 1/0" lines, cmdprio; "lat prio" with
// lat_percentiles), clat's percentiles, lat's (lat_percentiles) and each
// priority's.
func (r Report) writeNormalDir(w *bufio.Writer, name string, d *Dir) {
	zones := ""
	if name == "write" {
		zones = "; 0 zone resets" // fio 3.33's write line; qdsweep resets no zones
	}
	p2 := r.Job.pow2()
	fmt.Fprintf(w, "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%dmsec)%s\n", name, fioNum(d.IOPS), fioBytes(d.BWBytes, p2),
		fioBytes(d.BWBytes, !p2), fioBytes(float64(d.IOBytes), p2), d.RuntimeMs, zones)
	// Each line in its own unit, as fio's display_lat.
	if d.Slat.N > 0 && d.Slat.MeanNs > 0 {
		writeLatLine(w, "    slat", d.Slat) // timed apart when fio ran the job
	}
	writeLatLine(w, "    clat", d.Clat)
	writeLatLine(w, "     lat", d.Lat)
	for _, p := range d.Prios {
		// Each priority's line in its own unit, as fio's display_lat.
		kind, _ := r.prioShape(p.Clat)
		writeLatLine(w, fmt.Sprintf("    %s prio %d/%d", kind, p.Class, p.Level), p.Clat)
	}
	clat, lat := r.shapedLat(d)
	writePercentiles(w, "    clat percentiles", clat.Percentiles)
	writePercentiles(w, "    lat percentiles", lat.Percentiles)
	for _, p := range d.Prios {
		share := 0.0
		if d.Clat.N > 0 {
			share = 100 * float64(p.Clat.N) / float64(d.Clat.N)
		}
		kind, l := r.prioShape(p.Clat)
		writePercentiles(w, fmt.Sprintf("    %s prio %d/%d (%.2f%% of IOs) percentiles", kind, p.Class, p.Level, share), l.Percentiles)
	}
}

// writeLatLine writes one latency line as fio 3.33's display_lat does,
// "clat (usec): min=…, max=…, avg=…, stdev=…": in its own unit (latUnit),
// the whole ns divided down, min and max by num2str in 6 digits ("2698.0k"),
// avg and stdev at least 5 wide; nothing for a latency not known.
func writeLatLine(w *bufio.Writer, label string, s LatStat) {
	if !s.Known() {
		return
	}
	unit, div := latUnit(s)
	lo, hi := uint64(max(s.MinNs, 0))/uint64(div), uint64(max(s.MaxNs, 0))/uint64(div)
	fmt.Fprintf(w, "%s (%s): min=%s, max=%s, avg=%5.2f, stdev=%5.2f\n", label, unit, num2str(lo, 6, false, ""),
		num2str(hi, 6, false, ""), s.MeanNs/div, s.StddevNs/div)
}

// writePercentiles writes a title, the unit fio 3.33's
// show_clat_percentiles picks from the percentiles' own range (usec when
// the lowest is over 2,000 ns and the highest over 99,999 ns, msec over
// 2,000,000 and 99,999,999), and fio's rows of ps: each value as wide as
// the widest (at least 5), as many to a row as fit in 73 columns;
// nothing without any.
func writePercentiles(w *bufio.Writer, title string, ps []Percentile) {
	if len(ps) == 0 {
		return
	}
	lo, hi := ps[0].Ns, ps[len(ps)-1].Ns
	unit, div := "nsec", 1.0
	switch {
	case lo > 2e6 && hi > 99999999:
		unit, div = "msec", 1e6
	case lo > 2000 && hi > 99999:
		unit, div = "usec", 1e3
	}
	fmt.Fprintf(w, "%s (%s):\n", title, unit)
	width := 5
	for _, p := range ps {
		width = max(width, len(strconv.FormatInt(int64(p.Ns/div), 10)))
	}
	perRow := 73 / (12 + width)
	for i := 0; i < len(ps); i += perRow {
		var cells []string
		for _, p := range ps[i:min(i+perRow, len(ps))] {
			cells = append(cells, fmt.Sprintf("%5.2fth=[%*d]", p.Pct, width, int64(p.Ns/div)))
		}
		fmt.Fprintf(w, "     | %s%s\n", strings.Join(cells, ", "), map[bool]string{true: ",", false: ""}[i+perRow < len(ps)])
	}
}

// latUnit is the unit fio 3.33's display_lat prints a latency line in:
// msec when its fastest is over 2 ms, its slowest over 99.999999 ms and
// its deviation over 1 ms; else usec when they are over 2 µs, 99.999 µs
// and 1 µs; else nsec; and ns per unit.
func latUnit(l LatStat) (string, float64) {
	switch {
	case l.MinNs > 2e6 && l.MaxNs > 99999999 && l.StddevNs > 1e6:
		return "msec", 1e6
	case l.MinNs > 2000 && l.MaxNs > 99999 && l.StddevNs > 1000:
		return "usec", 1e3
	}
	return "nsec", 1
}

// writeLatBuckets writes fio's "lat (usec)   : 2=6.25%, 4=89.45%" lines:
// the buckets that hold I/Os (at least 0.01 %, as fio shows them), five
// to a line.
func writeLatBuckets(w *bufio.Writer, unit string, bounds, pcts []float64) {
	var cells []string
	for i, v := range LatShown(pcts, len(bounds)) {
		if v <= 0 {
			continue
		}
		b := bounds[i]
		k := strconv.FormatFloat(b, 'f', -1, 64)
		if math.IsInf(b, 1) {
			k = ">=2000"
		}
		cells = append(cells, fmt.Sprintf("%s=%.2f%%", k, v))
	}
	for i := 0; i < len(cells); i += 5 {
		fmt.Fprintf(w, "  lat (%s)   : %s\n", unit, strings.Join(cells[i:min(i+5, len(cells))], ", "))
	}
}

// depthKeys are the keys of fio's IO depths buckets, shallow to deep.
func depthKeys() []string {
	keys := make([]string, len(depthBuckets))
	for i, b := range depthBuckets {
		keys[i] = b.key
	}
	return keys
}

// bucketList is fio's "1=100.0%, 2=0.0%, …" of percents by key.
func bucketList(keys []string, pcts map[string]float64) string {
	cells := make([]string, len(keys))
	for i, k := range keys {
		cells[i] = fmt.Sprintf("%s=%.1f%%", k, pcts[k])
	}
	return strings.Join(cells, ", ")
}

// writeGroupStatus writes "Run status group G (all jobs):" and each
// direction's aggregate over the group's reports: bandwidth, the lowest
// and highest report's, bytes, and the shortest and longest runtime.
func writeGroupStatus(w *bufio.Writer, rs []Report, g int) {
	fmt.Fprintf(w, "Run status group %d (all jobs):\n", g)
	for _, label := range []string{"   READ", "  WRITE", "   TRIM", "  MIXED"} {
		var bytes int64
		n := 0
		lo, hi, rlo, rhi := math.Inf(1), 0.0, int64(math.MaxInt64), int64(0)
		for _, r := range rs {
			var d *Dir
			for _, nd := range r.dirs() {
				if strings.ToUpper(nd.name) == strings.TrimSpace(label) {
					d = nd.dir
				}
			}
			if r.Job.GroupID != g || d == nil || d.TotalIOs == 0 {
				continue
			}
			bytes += d.IOBytes
			n++
			lo, hi = math.Min(lo, d.BWBytes), math.Max(hi, d.BWBytes)
			rlo, rhi = min(rlo, d.RuntimeMs), max(rhi, d.RuntimeMs)
		}
		if bytes == 0 {
			continue
		}
		agg := lo // one report: its own
		if n > 1 && rhi > 0 {
			agg = float64(bytes) / (float64(rhi) / 1e3) // fio's: the group's bytes over its longest runtime
		}
		p2 := groupPow2(rs, g)
		fmt.Fprintf(w, "%s: bw=%s/s (%s/s), %s/s-%s/s (%s/s-%s/s), io=%s (%s), run=%d-%dmsec\n", label,
			fioBytes(agg, p2), fioBytes(agg, !p2), fioBytes(lo, p2), fioBytes(hi, p2), fioBytes(lo, !p2), fioBytes(hi, !p2),
			fioBytes(float64(bytes), p2), fioBytes(float64(bytes), !p2), rlo, rhi)
	}
	fmt.Fprintln(w)
}

// groupPow2 is Job.pow2 of group g's first report: fio writes a group's
// status under its first job's kb_base.
func groupPow2(rs []Report, g int) bool {
	for _, r := range rs {
		if r.Job.GroupID == g {
			return r.Job.pow2()
		}
	}
	return true
}

// writeNormalDisks writes fio's "Disk stats (read/write):" block, each
// device once.
func writeNormalDisks(w *bufio.Writer, rs []Report) {
	seen := map[string]bool{}
	for _, r := range rs {
		for _, d := range r.Disks {
			if seen[d.Name] {
				continue
			}
			if len(seen) == 0 {
				fmt.Fprintln(w, "Disk stats (read/write):")
			}
			seen[d.Name] = true
			fmt.Fprintf(w, "  %s: ios=%d/%d, merge=%d/%d, ticks=%d/%d, in_queue=%d, util=%.2f%%\n", d.Name, d.ReadIOs, d.WriteIOs,
				d.ReadMerges, d.WriteMerges, d.ReadTicks, d.WriteTicks, d.InQueue, d.Util)
		}
	}
}

// sigFigs is fio's significant_figures default: the digits num2str
// gives IOPS, bandwidths and sizes.
const sigFigs = 4

// fioNum writes v as fio 3.33 writes IOPS (num2str with sigFigs digits,
// decimal: "9428", "18.3k", "128k").
func fioNum(v float64) string { return num2str(uint64(max(v, 0)), sigFigs, false, "") }

// fioBytes writes a byte count (or rate) as fio does: binary ("71.4MiB")
// or decimal ("74.9MB"), with sigFigs digits.
func fioBytes(v float64, binary bool) string { return num2str(uint64(max(v, 0)), sigFigs, binary, "B") }

// num2str is fio 3.33's num2str (lib/num2str.c): num divided by 1000
// (1024 when pow2) until it has at most maxlen digits, the remainder's
// decimals in the room left (counting the point; rounded, carried into
// num), the unit prefix (k, M … or Ki, Mi …) and unit after it.
func num2str(num uint64, maxlen int, pow2 bool, unit string) string {
	prefixes := []string{"", "k", "M", "G", "T", "P", "E"}
	thousand := uint64(1000)
	if pow2 {
		prefixes, thousand = []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}, 1024
	}
	post, modulo, divided, carry := 0, uint64(0), false, false
	for ; post < len(prefixes); post++ {
		if len(strconv.FormatUint(num, 10)) <= maxlen {
			break
		}
		modulo, divided = num%thousand, true
		num /= thousand
		carry = modulo >= thousand/2
	}
	if post >= len(prefixes) {
		post = 0
	}
	room := maxlen - len(strconv.FormatUint(num, 10)) - 1
	if !divided || room <= 0 {
		if divided && carry {
			num++
		}
		return strconv.FormatUint(num, 10) + prefixes[post] + unit
	}
	frac := strconv.FormatFloat(float64(modulo)/float64(thousand), 'f', room, 64)
	if frac[0] == '1' {
		num++
	}
	return strconv.FormatUint(num, 10) + "." + frac[2:] + prefixes[post] + unit
}
