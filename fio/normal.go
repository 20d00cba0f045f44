package fio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

var (
	// reHeader: "mix: (g=0): rw=randrw, bs=(R) 4096B-4096B, ..., ioengine=io_uring, iodepth=8"
	reHeader = regexp.MustCompile(`^(.+?): \(g=(\d+)\): (` + OptRW + `=.*)$`)
	// reJob: "mix: (groupid=0, jobs=1): err= 0: pid=6819: Mon Nov 30 02:36:11 2026"
	reJob = regexp.MustCompile(`^(.+?): \(groupid=(\d+), jobs=(\d+)\): err=\s*(\d+)(?:: pid=(\d+))?`)
	// reDir: "  read: IOPS=24.7k, BW=96.5MiB/s (101MB/s)(96.5MiB/1001msec)"
	reDir = regexp.MustCompile(`^(read|write|trim|mixed)\s*: IOPS=([0-9.]+[kKMG]?), BW=([0-9.]+[A-Za-z]*)(?:/s)?\s*\([^)]*\)\(([0-9.]+[A-Za-z]*)/(\d+)msec\)`)
	// reDir2: fio 2.x, "  read : io=1024.0MB, bw=67584KB/s, iops=16896 , runt= 15515msec"
	reDir2 = regexp.MustCompile(`^(read|write|trim|mixed)\s*: io=([0-9.]+[A-Za-z]*), bw=([0-9.]+[A-Za-z]*)/s, iops=([0-9.]+[kKMG]?)\s*, runt=\s*(\d+)msec`)
	// reLat: "slat (usec): min=2, max=172, avg= 4.84, stdev= 3.73" (fio 2.x: "min=2 , max=120 , avg= 4.12")
	reLat = regexp.MustCompile(`^(slat|clat|lat)\s*\((nsec|usec|msec|sec)\)\s*:\s*min=\s*([0-9.]+[kKMG]?)\s*,\s*max=\s*([0-9.]+[kKMG]?)\s*,\s*avg=\s*([0-9.]+[kKMG]?)\s*,\s*stdev=\s*([0-9.]+[kKMG]?)`)
	// reTotal2: fio 2.x, "total=r=262144/w=0/d=0"
	reTotal2 = regexp.MustCompile(`total=r=(\d+)/w=(\d+)(?:/[dt]=(\d+))?`)
	// rePctHead: "clat percentiles (usec):"
	rePctHead = regexp.MustCompile(`^(clat|lat|slat) percentiles \((nsec|usec|msec|sec)\):`)
	// rePct: "1.00th=[  145]"
	rePct     = regexp.MustCompile(`([0-9.]+)th=\[\s*([0-9.]+[kKMG]?)\]`)
	reTotal   = regexp.MustCompile(`total=([0-9,]+)`)
	reStart   = regexp.MustCompile(`^Starting (\d+) (?:process|processes|thread|threads)`)
	reVersion = regexp.MustCompile(`^fio-\d+\.\d+\S*( \(qdsweep [^()]*\))?$`)
	// reDisk: "vda: ios=44745/19237, merge=0/0, ticks=7804/3306, in_queue=11109, util=80.89%"
	reDisk = regexp.MustCompile(`^(\S+): ios=(\d+)/(\d+), (?:sectors=\d+/\d+, )?merge=\d+/\d+, ticks=(\d+)/(\d+), in_queue=(\d+), util=([0-9.]+)%`)
	// reHost strips client/server's "<host> " prefix.
	reHost = regexp.MustCompile(`^<([^>]+)>\s?`)
)

// ParseNormal parses fio's default human-readable output, as printed or as
// pasted: lines that are not fio's (shell prompts, remarks) are skipped,
// client/server output yields one job per client plus "All clients", and
// --status-interval reports of the same run are marked Interim. A
// recognisable fio line with unreadable figures is an error naming it.
func ParseNormal(r io.Reader) ([]Output, error) {
	p := &normalParser{headers: map[string]map[string]string{}}
	sc := bufio.NewScanner(io.LimitReader(r, maxInput))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		p.line++
		if err := p.feed(sc.Text()); err != nil {
			return nil, fmt.Errorf("fio output line %d: %w", p.line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read fio output: %w", err)
	}
	p.flush()
	if len(p.outs) == 0 {
		return nil, fmt.Errorf("%w: no job report (a line like \"name: (groupid=0, jobs=1): err= 0\")", ErrNoOutput)
	}
	return p.outs, nil
}

type normalParser struct {
	line     int
	outs     []Output
	cur      *Output
	job      *Job
	dir      *Dir
	pct      *LatStat // percentiles being read
	pctUnit  float64
	host     string
	version  string
	inDisk   bool
	headers  map[string]map[string]string // job name → options from its header line
	headerAt int
}

// feed consumes one line.
func (p *normalParser) feed(raw string) error {
	text := strings.TrimRight(raw, "\r")
	if m := reHost.FindStringSubmatch(text); m != nil {
		p.host = m[1]
		text = text[len(m[0]):]
	}
	t := strings.TrimSpace(text)
	if t == "" {
		return nil
	}
	if reVersion.MatchString(t) {
		p.version = t
		return nil
	}
	if m := reHeader.FindStringSubmatch(t); m != nil {
		if p.cur != nil && len(p.cur.Jobs) > 0 {
			p.flush()
		}
		p.headers[m[1]] = headerOptions(m[3])
		if p.headerAt == 0 {
			p.headerAt = p.line
		}
		return nil
	}
	if reStart.MatchString(t) {
		return nil
	}
	if m := reJob.FindStringSubmatch(t); m != nil {
		return p.startJob(m)
	}
	if strings.HasPrefix(t, "Run status group") {
		p.endJob()
		return nil
	}
	if strings.HasPrefix(t, "Disk stats") {
		p.endJob()
		p.inDisk = true
		return nil
	}
	if p.inDisk {
		if m := reDisk.FindStringSubmatch(t); m != nil && p.cur != nil {
			d := DiskUtil{Name: m[1], Host: p.host}
			d.ReadIOs, _ = strconv.ParseInt(m[2], 10, 64)
			d.WriteIOs, _ = strconv.ParseInt(m[3], 10, 64)
			d.ReadTicks, _ = strconv.ParseInt(m[4], 10, 64)
			d.WriteTicks, _ = strconv.ParseInt(m[5], 10, 64)
			d.InQueue, _ = strconv.ParseInt(m[6], 10, 64)
			d.Util, _ = strconv.ParseFloat(m[7], 64)
			p.cur.DiskUtil = append(p.cur.DiskUtil, d)
			return nil
		}
	}
	if p.job == nil {
		return nil
	}
	return p.jobLine(t)
}

// startJob opens a job block.
func (p *normalParser) startJob(m []string) error {
	p.endJob()
	p.inDisk = false
	gid, _ := strconv.Atoi(m[2])
	n, _ := strconv.Atoi(m[3])
	e, _ := strconv.Atoi(m[4])
	pid, _ := strconv.Atoi(m[5])
	if p.cur != nil && pid != 0 {
		for _, j := range p.cur.Jobs {
			if j.PID == pid && j.Name == m[1] && j.Host == p.host {
				// Same process reported again: the earlier report was a
				// --status-interval snapshot.
				p.cur.Interim = true
				p.flush()
				break
			}
		}
	}
	if p.cur == nil {
		line := p.headerAt
		if line == 0 {
			line = p.line
		}
		p.cur = &Output{Format: "normal", Line: line, FioVersion: p.version}
	}
	j := Job{Name: m[1], GroupID: gid, Error: e, PID: pid, NumJobs: n, NumJobsFrom: "jobs=N"}
	if j.Name == "All clients" {
		j.AllClients = true
		j.NumJobsFrom = "all clients"
	} else {
		j.Host = p.host
	}
	p.job = &j
	return nil
}

// endJob closes the job block being read.
func (p *normalParser) endJob() {
	if p.job == nil {
		return
	}
	j := *p.job
	p.cur.Jobs = append(p.cur.Jobs, j)
	p.job, p.dir, p.pct = nil, nil, nil
}

// flush closes the current output.
func (p *normalParser) flush() {
	p.endJob()
	if p.cur == nil {
		return
	}
	o := *p.cur
	p.cur = nil
	p.headerAt = 0
	if len(o.Jobs) == 0 {
		return
	}
	// Clones fio lists one by one (numjobs without group_reporting) share
	// a name and report jobs=1 each.
	// (Clients of a client/server run are told apart by "All clients".)
	clones := map[string]int{}
	for _, j := range o.Jobs {
		if j.AllClients {
			clones = map[string]int{}
			break
		}
		if j.NumJobs == 1 {
			clones[j.Host+"\x00"+j.Name]++
		}
	}
	for i := range o.Jobs {
		j := &o.Jobs[i]
		if n := clones[j.Host+"\x00"+j.Name]; n > 1 && j.NumJobs == 1 && !j.AllClients {
			j.NumJobsFrom, j.CloneOf = cloneOf(strconv.Itoa(n)), n
		}
	}
	var first *Job
	for i := range o.Jobs {
		j := &o.Jobs[i]
		h, ok := p.headers[j.Name]
		if !ok && j.AllClients && first != nil {
			h = first.Options
		}
		j.Options = h
		j.RW = h[OptRW]
		j.IOEngine = h[OptIOEngine]
		if bs := h[OptBS]; bs != "" {
			j.BS = parseHeaderBS(bs)
		}
		if d, err := strconv.Atoi(h[OptIODepth]); err == nil && d > 0 {
			j.IODepth, j.IODepthFrom = d, "header"
		}
		j.fillDefaults(false)
		if first == nil && !j.AllClients {
			first = j
		}
	}
	p.outs = append(p.outs, o)
}

// dirLine reads a direction's summary line ("read: IOPS=…"), in either
// of fio's forms; ok reports whether t was one.
func (p *normalParser) dirLine(t string) (ok bool, err error) {
	j := p.job
	if m := reDir2.FindStringSubmatch(t); m != nil {
		d := &Dir{}
		io, err1 := parseKB(m[2])
		bw, err2 := parseKB(m[3])
		iops, err3 := parseCount(m[4])
		if err := errors.Join(err1, err2, err3); err != nil {
			return true, fmt.Errorf("%s: %w", m[1], err)
		}
		d.IOPS, d.IOBytes, d.BWBytes = iops, int64(io), bw
		d.RuntimeMs, _ = strconv.ParseInt(m[5], 10, 64)
		d.TotalIOs = int64(math.Round(iops * float64(d.RuntimeMs) / 1e3))
		j.setDir(m[1], d)
		p.dir, p.pct = d, nil
		return true, nil
	}
	if m := reDir.FindStringSubmatch(t); m != nil {
		d := &Dir{}
		iops, err := parseCount(m[2])
		if err != nil {
			return true, fmt.Errorf("%s IOPS %q: %w", m[1], m[2], err)
		}
		io, err := parseBinary(m[4])
		if err != nil {
			return true, fmt.Errorf("%s io %q: %w", m[1], m[4], err)
		}
		bw, err := parseBinary(m[3])
		if err != nil {
			return true, fmt.Errorf("%s BW %q: %w", m[1], m[3], err)
		}
		d.IOPS, d.IOBytes, d.BWBytes = iops, int64(io), bw
		d.RuntimeMs, _ = strconv.ParseInt(m[5], 10, 64)
		j.setDir(m[1], d)
		p.dir, p.pct = d, nil
		return true, nil
	}
	return false, nil
}

// latLine reads a latency line (slat, clat, lat: min, max, avg, stdev), a
// percentiles head or a row of percentiles; ok reports whether t was one.
func (p *normalParser) latLine(t string) (ok bool, err error) {
	if ok, err := p.prioLine(t); ok {
		return true, err
	}
	if m := reLat.FindStringSubmatch(t); m != nil && p.dir != nil {
		unit := unitNs(m[2])
		var v [4]float64
		for k := range v {
			f, err := parseCount(m[3+k])
			if err != nil {
				return true, fmt.Errorf("%s %q: %w", m[1], m[3+k], err)
			}
			v[k] = f * unit
		}
		l := LatStat{MinNs: v[0], MaxNs: v[1], MeanNs: v[2], StddevNs: v[3]}
		switch m[1] {
		case "slat":
			l.Percentiles = p.dir.Slat.Percentiles
			p.dir.Slat = l
		case "clat":
			l.Percentiles = p.dir.Clat.Percentiles
			p.dir.Clat = l
		case "lat":
			l.Percentiles = p.dir.Lat.Percentiles
			p.dir.Lat = l
		}
		return true, nil
	}
	if m := rePctHead.FindStringSubmatch(t); m != nil && p.dir != nil {
		switch m[1] {
		case "clat":
			p.pct = &p.dir.Clat
		case "lat":
			p.pct = &p.dir.Lat
		case "slat":
			p.pct = &p.dir.Slat
		}
		p.pctUnit = unitNs(m[2])
		return true, nil
	}
	if strings.HasPrefix(t, "|") && p.pct != nil {
		for _, m := range rePct.FindAllStringSubmatch(t, -1) {
			pct, err1 := strconv.ParseFloat(m[1], 64)
			v, err2 := parseCount(m[2])
			if err1 != nil || err2 != nil {
				return true, fmt.Errorf("percentile %q is not a number", m[0])
			}
			p.pct.Percentiles = append(p.pct.Percentiles, Percentile{Pct: pct, Ns: v * p.pctUnit})
		}
		sortPercentiles(p.pct.Percentiles)
		return true, nil
	}
	return false, nil
}

// rePrioLat and rePrioPctHead are the per-priority lines of a direction
// (cmdprio): "clat prio 1/0 (usec): min=…" and "clat prio 1/0 (17.97% of
// IOs) percentiles (usec):".
var (
	rePrioLat     = regexp.MustCompile(`^(?:clat|lat) prio (\d+)/(\d+) \((nsec|usec|msec|sec)\)\s*:\s*min=\s*([0-9.]+[kKMG]?)\s*,\s*max=\s*([0-9.]+[kKMG]?)\s*,\s*avg=\s*([0-9.]+[kKMG]?)\s*,\s*stdev=\s*([0-9.]+[kKMG]?)`)
	rePrioPctHead = regexp.MustCompile(`^(?:clat|lat) prio (\d+)/(\d+) \(([0-9.]+)% of IOs\) percentiles \((nsec|usec|msec|sec)\):`)
)

// prioLine reads a per-priority latency line or percentiles head into the
// direction's Prios; ok reports whether t was one.
func (p *normalParser) prioLine(t string) (ok bool, err error) {
	if p.dir == nil {
		return false, nil
	}
	if m := rePrioLat.FindStringSubmatch(t); m != nil {
		unit := unitNs(m[3])
		var v [4]float64
		for k := range v {
			f, err := parseCount(m[4+k])
			if err != nil {
				return true, fmt.Errorf("prio %s/%s %q: %w", m[1], m[2], m[4+k], err)
			}
			v[k] = f * unit
		}
		s := p.prioStat(m[1], m[2])
		s.Clat.MinNs, s.Clat.MaxNs, s.Clat.MeanNs, s.Clat.StddevNs = v[0], v[1], v[2], v[3]
		return true, nil
	}
	if m := rePrioPctHead.FindStringSubmatch(t); m != nil {
		p.pct, p.pctUnit = &p.prioStat(m[1], m[2]).Clat, unitNs(m[4])
		return true, nil
	}
	return false, nil
}

// prioStat is the direction's entry of class/level, added when new.
func (p *normalParser) prioStat(class, level string) *PrioStat {
	c, _ := strconv.Atoi(class)
	l, _ := strconv.Atoi(level)
	for i := range p.dir.Prios {
		if s := &p.dir.Prios[i]; s.Class == c && s.Level == l {
			return s
		}
	}
	p.dir.Prios = append(p.dir.Prios, PrioStat{Class: c, Level: l})
	return &p.dir.Prios[len(p.dir.Prios)-1]
}

// jobLine reads one line inside a job block.
func (p *normalParser) jobLine(t string) error {
	j := p.job
	if ok, err := p.dirLine(t); ok || err != nil {
		return err
	}
	if ok, err := p.latLine(t); ok || err != nil {
		return err
	}
	p.pct = nil
	key, rest, ok := strings.Cut(t, ":")
	if !ok {
		return nil
	}
	kv := keyValues(rest)
	switch strings.TrimSpace(key) {
	case "cpu":
		j.UsrCPU = pctValue(kv["usr"])
		j.SysCPU = pctValue(kv["sys"])
		j.Ctx, _ = strconv.ParseInt(kv["ctx"], 10, 64)
	case "IO depths":
		j.IODepthDist = map[string]float64{}
		for _, b := range depthBuckets {
			if v, ok := kv[b.key]; ok {
				j.IODepthDist[b.key] = pctValue(v)
			}
		}
	case "issued rwts", "issued rwt", "issued":
		if m := reTotal2.FindStringSubmatch(rest); m != nil {
			p.fillTotals(m[1] + "," + m[2] + "," + m[3])
		} else if m := reTotal.FindStringSubmatch(rest); m != nil {
			p.fillTotals(m[1])
		}
	}
	return nil
}

// fillTotals sets each direction's I/O count from "issued rwts: total=r,w,t,s"
// and refines IOPS (printed with 3 significant digits) from it when the two agree.
func (p *normalParser) fillTotals(total string) {
	j := p.job
	parts := strings.Split(total, ",")
	for k, d := range []*Dir{j.Read, j.Write, j.Trim} {
		if d == nil || k >= len(parts) {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(parts[k]), 10, 64)
		if err != nil || n < 0 {
			continue
		}
		d.TotalIOs = n
		if d.RuntimeMs > 0 {
			exact := float64(n) * 1e3 / float64(d.RuntimeMs)
			if d.IOPS > 0 && math.Abs(exact-d.IOPS)/d.IOPS < 0.05 {
				d.IOPS = exact
			}
		}
		for _, l := range []*LatStat{&d.Slat, &d.Clat, &d.Lat} {
			if l.MeanNs > 0 {
				l.N = n
			}
		}
	}
	for _, d := range j.Dirs() {
		j.RuntimeMs = max(j.RuntimeMs, d.RuntimeMs*int64(max(j.NumJobs, 1)))
	}
}

// headerOptions reads "rw=randrw, bs=(R) 4096B-4096B, (W) ..., ioengine=io_uring, iodepth=8".
func headerOptions(s string) map[string]string {
	o := map[string]string{}
	for _, part := range strings.Split(s, ", ") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		if k == OptBS {
			v = strings.TrimPrefix(v, "(R) ")
		}
		if _, seen := o[k]; !seen {
			o[k] = strings.TrimSpace(v)
		}
	}
	return o
}

// parseHeaderBS reads "4096B-4096B" or "128KiB-128KiB" (the low end), or
// fio 2.x's "4K-4K/4K-4K/4K-4K" and "8M-8M", whose K, M and G are binary
// in a block size (fio 3 writes KiB, MiB there).
func parseHeaderBS(s string) int64 {
	lo, _, _ := strings.Cut(s, "-")
	parse := parseKB
	if strings.Contains(lo, "i") {
		parse = parseBinary
	}
	v, err := parse(lo)
	if err != nil {
		return 0
	}
	return int64(v)
}

// keyValues splits "usr=0.90%, sys=20.20%, ctx=4623" into a map.
func keyValues(s string) map[string]string {
	kv := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok {
			kv[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return kv
}

// pctValue reads "20.20%" as 20.2 (0 when unreadable).
func pctValue(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return 0
	}
	return finite(v)
}

// unitNs is nanoseconds per unit of fio's latency unit names.
func unitNs(u string) float64 {
	switch u {
	case "usec":
		return 1e3
	case "msec":
		return 1e6
	case "sec":
		return 1e9
	}
	return 1
}

// parseCount reads fio's decimal-suffixed numbers: "24.7k", "8827", "2882.0k", "1.2M".
func parseCount(s string) (float64, error) {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K"):
		mult, s = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1e9, s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("not a number")
	}
	return v * mult, nil
}

// binaryUnits are fio's binary unit prefixes in normal output.
var binaryUnits = map[string]float64{
	"": 1, "B": 1, "Ki": 1 << 10, "KiB": 1 << 10, "Mi": 1 << 20, "MiB": 1 << 20,
	"Gi": 1 << 30, "GiB": 1 << 30, "Ti": 1 << 40, "TiB": 1 << 40, "Pi": 1 << 50, "PiB": 1 << 50,
	"k": 1e3, "kB": 1e3, "M": 1e6, "MB": 1e6, "G": 1e9, "GB": 1e9, "T": 1e12, "TB": 1e12,
}

// parseKB reads fio 2.x's sizes ("1024.0MB", "67584KB", "4K"), whose
// K, M, G are binary (fio's default kb_base=1024), in bytes.
func parseKB(s string) (float64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	mult := map[string]float64{"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "k": 1 << 10, "kB": 1 << 10,
		"M": 1 << 20, "MB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "T": 1 << 40, "TB": 1 << 40}[s[i:]]
	v, err := strconv.ParseFloat(s[:i], 64)
	if mult == 0 || i == 0 || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("unknown size %q", s)
	}
	return v * mult, nil
}

// parseBinary reads a byte amount like "96.5MiB", "268Mi", "4096B", in bytes.
func parseBinary(s string) (float64, error) {
	s = strings.TrimSuffix(strings.TrimSpace(s), "/s")
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	mult, ok := binaryUnits[s[i:]]
	if !ok || i == 0 {
		return 0, fmt.Errorf("unknown size %q", s)
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("not a number")
	}
	return v * mult, nil
}

// setDir stores d as the direction fio's normal output names dir ("read"
// and "mixed" are the read side).
func (j *Job) setDir(dir string, d *Dir) {
	switch dir {
	case "read", "mixed":
		j.Read = d
	case "write":
		j.Write = d
	case "trim":
		j.Trim = d
	}
}
