package fio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// jsonDoc is one fio --output-format=json(+) document, as fio writes it:
// ParseJSON reads it and WriteJSONJobs writes it (fields in fio's order;
// those only older fios or fio's client mode write are omitted when empty).
type jsonDoc struct {
	FioVersion    string          `json:"fio version"`
	Timestamp     float64         `json:"timestamp"`
	TimestampMs   float64         `json:"timestamp_ms"`
	Time          string          `json:"time"`
	GlobalOptions jsonObject[any] `json:"global options,omitempty"`
	Jobs          []jsonJob       `json:"jobs"`
	ClientStats   []jsonJob       `json:"client_stats,omitempty"`
	DiskUtil      []jsonDisk      `json:"disk_util,omitempty"` // none: fio leaves it out (a target on tmpfs)
}

type jsonJob struct {
	JobName           string               `json:"jobname"`
	GroupID           float64              `json:"groupid"`
	Error             float64              `json:"error"`
	Eta               float64              `json:"eta"`
	Elapsed           float64              `json:"elapsed"`
	Options           jsonObject[any]      `json:"job options"`
	Read              *jsonDir             `json:"read,omitempty"`
	Write             *jsonDir             `json:"write,omitempty"`
	Trim              *jsonDir             `json:"trim,omitempty"`
	Mixed             *jsonDir             `json:"mixed,omitempty"`
	Sync              *jsonSync            `json:"sync,omitempty"`
	JobRuntime        float64              `json:"job_runtime"`
	UsrCPU            fioFloat             `json:"usr_cpu"`
	SysCPU            fioFloat             `json:"sys_cpu"`
	Ctx               float64              `json:"ctx"`
	Majf              float64              `json:"majf"`
	Minf              float64              `json:"minf"`
	IODepthLevel      jsonObject[fioFloat] `json:"iodepth_level"`
	IODepthSubmit     jsonObject[fioFloat] `json:"iodepth_submit"`
	IODepthComplete   jsonObject[fioFloat] `json:"iodepth_complete"`
	LatencyNs         jsonObject[fioFloat] `json:"latency_ns,omitempty"`
	LatencyUs         jsonObject[fioFloat] `json:"latency_us,omitempty"`
	LatencyMs         jsonObject[fioFloat] `json:"latency_ms,omitempty"`
	LatencyDepth      float64              `json:"latency_depth"`
	LatencyTarget     float64              `json:"latency_target"`
	LatencyPercentile fioFloat             `json:"latency_percentile"`
	LatencyWindow     float64              `json:"latency_window"`
	Steadystate       *jsonSteady          `json:"steadystate,omitempty"`
	Hostname          string               `json:"hostname,omitempty"`
	Port              float64              `json:"port,omitempty"`
}

type jsonDir struct {
	IOBytes  float64  `json:"io_bytes"`
	IOKBytes float64  `json:"io_kbytes"`
	BWBytes  float64  `json:"bw_bytes"`
	BW       float64  `json:"bw"` // KiB/s
	IOPS     fioFloat `json:"iops"`
	Runtime  float64  `json:"runtime"`
	TotalIOs float64  `json:"total_ios"`
	ShortIOs float64  `json:"short_ios"`
	DropIOs  float64  `json:"drop_ios"`
	Slat     *jsonLat `json:"slat_ns,omitempty"`
	Clat     *jsonLat `json:"clat_ns,omitempty"`
	Lat      *jsonLat `json:"lat_ns,omitempty"`
	// Prios are fio's per-priority latencies (cmdprio): clat_ns, or
	// lat_ns with lat_percentiles.
	Prios []jsonPrio `json:"prios,omitempty"`
	// fio's bandwidth and IOPS samples (one per bwavgtime and iopsavgtime,
	// 500 ms by default).
	BWMin       float64  `json:"bw_min"`
	BWMax       float64  `json:"bw_max"`
	BWAgg       fioFloat `json:"bw_agg"`
	BWMean      fioFloat `json:"bw_mean"`
	BWDev       fioFloat `json:"bw_dev"`
	BWSamples   float64  `json:"bw_samples"`
	IOPSMin     float64  `json:"iops_min"`
	IOPSMax     float64  `json:"iops_max"`
	IOPSMean    fioFloat `json:"iops_mean"`
	IOPSStddev  fioFloat `json:"iops_stddev"`
	IOPSSamples float64  `json:"iops_samples"`
	// fio 2.x: latencies in µs under these names, io_bytes in KiB.
	SlatUs *jsonLat `json:"slat,omitempty"`
	ClatUs *jsonLat `json:"clat,omitempty"`
	LatUs  *jsonLat `json:"lat,omitempty"`
}

type jsonLat struct {
	Min        float64             `json:"min"`
	Max        float64             `json:"max"`
	Mean       fioFloat            `json:"mean"`
	Stddev     fioFloat            `json:"stddev"`
	N          float64             `json:"N"`
	Percentile jsonObject[float64] `json:"percentile,omitempty"`
	Bins       jsonObject[float64] `json:"bins,omitempty"` // json+ only
}

// jsonPrio is one entry of fio's "prios".
type jsonPrio struct {
	Class float64  `json:"prioclass"`
	Level float64  `json:"prio"`
	Clat  *jsonLat `json:"clat_ns,omitempty"`
	Lat   *jsonLat `json:"lat_ns,omitempty"`
}

// jsonSync is fio's "sync" block: the fsync/fdatasync calls' count and latency.
type jsonSync struct {
	TotalIOs float64  `json:"total_ios"`
	Lat      *jsonLat `json:"lat_ns"`
}

type jsonDisk struct {
	Name        string   `json:"name"`
	ReadIOs     float64  `json:"read_ios"`
	WriteIOs    float64  `json:"write_ios"`
	ReadMerges  float64  `json:"read_merges"`
	WriteMerges float64  `json:"write_merges"`
	ReadTicks   float64  `json:"read_ticks"`
	WriteTicks  float64  `json:"write_ticks"`
	InQueue     float64  `json:"in_queue"`
	Util        fioFloat `json:"util"`
	Hostname    string   `json:"hostname,omitempty"`
}

// maxInput caps how much of an input the parsers read, bytes.
const maxInput = 256 << 20

// ErrNoOutput is wrapped when an input holds no fio report at all.
var ErrNoOutput = errors.New("no fio output found")

// ParseJSON parses fio --output-format=json or json+ output: one document
// or several back to back (--status-interval), with any text around them
// (shell prompts, fio's error and note lines, client/server chatter).
// A document that is not valid JSON is an error naming its line; a
// number fio printed as nan or inf (C's %f of one) reads as none (0).
func ParseJSON(r io.Reader) ([]Output, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInput))
	if err != nil {
		return nil, fmt.Errorf("read fio json: %w", err)
	}
	data = fioNonNumbers.ReplaceAll(data, []byte("${1}null${2}"))
	var outs []Output
	pos := 0
	for pos < len(data) {
		start := nextDocStart(data, pos)
		if start < 0 {
			break
		}
		dec := json.NewDecoder(bytes.NewReader(data[start:]))
		var doc jsonDoc
		if err := dec.Decode(&doc); err != nil {
			at := start
			var se *json.SyntaxError
			var te *json.UnmarshalTypeError
			switch {
			case errors.As(err, &se):
				at += int(se.Offset)
			case errors.As(err, &te):
				at += int(te.Offset)
			}
			if at > len(data) {
				at = len(data)
			}
			return nil, fmt.Errorf("fio json document at line %d: error at line %d: %w",
				lineOf(data, start), lineOf(data, at), err)
		}
		end := start + int(dec.InputOffset())
		if doc.FioVersion != "" || doc.Jobs != nil || doc.ClientStats != nil {
			o := doc.output(lineOf(data, start))
			outs = append(outs, o)
		}
		pos = end
	}
	if len(outs) == 0 {
		return nil, fmt.Errorf("%w: no JSON document with \"fio version\" or \"jobs\"", ErrNoOutput)
	}
	markInterimJSON(outs)
	return outs, nil
}

// fioNonNumbers are the values fio 3.33 prints with %f where JSON wants a
// number: nan, -nan, inf, -inf (a steady-state slope over a one-second
// window is "slope" : -nan), never inside a string.
var fioNonNumbers = regexp.MustCompile(`(?i)(" : )[-+]?(?:nan|inf)(,?\n)`)

// nextDocStart finds the next line at or after pos that begins with '{'.
func nextDocStart(data []byte, pos int) int {
	for pos < len(data) {
		if data[pos] == '{' && (pos == 0 || data[pos-1] == '\n') {
			return pos
		}
		nl := bytes.IndexByte(data[pos:], '\n')
		if nl < 0 {
			return -1
		}
		pos += nl + 1
	}
	return -1
}

// lineOf is the 1-based line number of byte offset off.
func lineOf(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// output converts a decoded document.
func (d jsonDoc) output(line int) Output {
	o := Output{Format: "json", Line: line, FioVersion: d.FioVersion, Timestamp: int64(finite(d.Timestamp))}
	global := stringOptions(d.GlobalOptions.Map())
	add := func(jj jsonJob, client bool) {
		j := jj.job(global)
		if client {
			if jj.JobName == "All clients" {
				j.AllClients = true
				j.Host = ""
				j.Port = 0
				j.NumJobs, j.NumJobsFrom = 0, ""
			}
		}
		if jj.isPlus() {
			o.Format = "json+"
		}
		o.Jobs = append(o.Jobs, j)
	}
	for _, jj := range append(append([]jsonJob{}, d.Jobs...), d.ClientStats...) {
		if e := int64(finite(jj.Elapsed)); e > o.elapsed {
			o.elapsed = e
		}
	}
	for _, jj := range d.Jobs {
		add(jj, false)
	}
	for _, jj := range d.ClientStats {
		add(jj, true)
	}
	// "All clients" covers every client's processes and shares their options.
	for i := range o.Jobs {
		if a := &o.Jobs[i]; a.AllClients {
			n := 0
			for _, c := range o.Jobs {
				if !c.AllClients && c.GroupID == a.GroupID {
					if n == 0 {
						a.RW, a.BS, a.IOEngine, a.Options = c.RW, c.BS, c.IOEngine, c.Options
						a.IODepth, a.IODepthFrom = c.IODepth, c.IODepthFrom
					}
					n += c.NumJobs
				}
			}
			if n > 0 {
				o.Jobs[i].NumJobs, o.Jobs[i].NumJobsFrom = n, "all clients"
			}
			o.Jobs[i].fillDefaults(true)
		}
	}
	for _, dj := range d.DiskUtil {
		o.DiskUtil = append(o.DiskUtil, DiskUtil{
			Name: dj.Name, Host: dj.Hostname,
			ReadIOs: int64(finite(dj.ReadIOs)), WriteIOs: int64(finite(dj.WriteIOs)),
			ReadMerges: int64(finite(dj.ReadMerges)), WriteMerges: int64(finite(dj.WriteMerges)),
			ReadTicks: int64(finite(dj.ReadTicks)), WriteTicks: int64(finite(dj.WriteTicks)),
			InQueue: int64(finite(dj.InQueue)), Util: finite(dj.Util),
		})
	}
	return o
}

// isPlus reports whether the job carries json+'s latency bins.
func (jj jsonJob) isPlus() bool {
	for _, d := range []*jsonDir{jj.Read, jj.Write, jj.Trim} {
		if d != nil && d.Clat != nil && len(d.Clat.Bins) > 0 {
			return true
		}
	}
	return false
}

// job converts one decoded job.
func (jj jsonJob) job(global map[string]string) Job {
	opts := map[string]string{}
	for k, v := range global {
		opts[k] = v
	}
	for k, v := range stringOptions(jj.Options.Map()) {
		opts[k] = v
	}
	j := Job{
		Name: jj.JobName, GroupID: int(finite(jj.GroupID)), Error: int(finite(jj.Error)),
		Host: jj.Hostname, Port: int(finite(jj.Port)), Options: opts,
		RuntimeMs: int64(finite(jj.JobRuntime)), UsrCPU: finite(jj.UsrCPU), SysCPU: finite(jj.SysCPU),
		Ctx: int64(finite(jj.Ctx)), IODepthDist: floatMap(jj.IODepthLevel), IODepthSubmit: floatMap(jj.IODepthSubmit), IODepthComplete: floatMap(jj.IODepthComplete),
	}
	j.Read, j.Write, j.Trim = jj.Read.dir(), jj.Write.dir(), jj.Trim.dir()
	j.Steady = steadyOf(jj.Steadystate)
	if t := finite(jj.LatencyTarget); t > 0 {
		j.LatTarget = &LatTarget{TargetNs: int64(t), WindowUs: int64(finite(jj.LatencyWindow)),
			Percentile: finite(jj.LatencyPercentile), Depth: int(finite(jj.LatencyDepth))}
	}
	if jj.Mixed != nil && j.Read == nil && j.Write == nil {
		j.Read = jj.Mixed.dir()
	}
	// job_runtime sums the runtimes of the processes the entry covers;
	// fio does not echo group_reporting when it was given on the command line.
	covered := 0
	if rt := j.Summary().RuntimeMs; rt > 0 && j.RuntimeMs > 0 {
		covered = int(math.Round(float64(j.RuntimeMs) / float64(rt)))
	}
	n, _ := strconv.Atoi(opts[OptNumJobs])
	grouped := isGrouped(opts) || (n > 1 && covered == n)
	j.deriveFromOptions(grouped)
	if _, set := opts[OptNumJobs]; !set && j.NumJobsFrom == "default" && covered > 1 {
		j.NumJobs, j.NumJobsFrom = covered, "job_runtime / runtime"
	}
	return j
}

// dir converts one direction; nil stays nil.
func (d *jsonDir) dir() *Dir {
	if d == nil {
		return nil
	}
	bw := finite(d.BWBytes)
	if bw == 0 {
		bw = finite(d.BW) * 1024
	}
	out := &Dir{
		IOBytes: int64(finite(d.IOBytes)), BWBytes: bw, IOPS: finite(d.IOPS),
		RuntimeMs: int64(finite(d.Runtime)), TotalIOs: int64(finite(d.TotalIOs)),
		Slat: d.Slat.stat(1), Clat: d.Clat.stat(1), Lat: d.Lat.stat(1),
		IOPSMean: finite(d.IOPSMean), IOPSStddev: finite(d.IOPSStddev), IOPSSamples: int64(finite(d.IOPSSamples)),
	}
	for _, p := range d.Prios {
		l := p.Clat
		if l == nil {
			l = p.Lat
		}
		out.Prios = append(out.Prios, PrioStat{Class: int(finite(p.Class)), Level: int(finite(p.Level)), Clat: l.stat(1)})
	}
	if d.Slat == nil && d.Clat == nil && d.Lat == nil && (d.SlatUs != nil || d.ClatUs != nil || d.LatUs != nil) {
		// fio 2.x: µs latencies; io_bytes counts KiB there.
		out.Slat, out.Clat, out.Lat = d.SlatUs.stat(1e3), d.ClatUs.stat(1e3), d.LatUs.stat(1e3)
		if d.IOKBytes == 0 && d.BWBytes == 0 {
			out.IOBytes *= 1024
		}
	}
	if out.TotalIOs == 0 && out.IOPS > 0 && out.RuntimeMs > 0 {
		// fio ≤ 2.1 has no total_ios.
		out.TotalIOs = wholeBlocks(out)
		if out.TotalIOs == 0 {
			out.TotalIOs = int64(math.Round(out.IOPS * float64(out.RuntimeMs) / 1e3))
		}
	}
	return out
}

// wholeBlocks is the I/O count of a direction fio ≤ 2.1 reported without
// one (nor the job's options): IOBytes ÷ bs for the one block size, a
// multiple of 512 that divides IOBytes, whose I/O count over the runtime
// rounds to the IOPS fio printed (a whole number there); 0 when none or
// more than one fits. 44,920 KiB in 2,127,550 ms at 5 IOPS: 4 KiB (4,608
// also gives 5 IOPS but does not divide the bytes).
func wholeBlocks(d *Dir) int64 {
	secs := float64(d.RuntimeMs) / 1e3
	if d.IOPS < 1 || d.IOBytes <= 0 || secs <= 0 {
		return 0
	}
	lo := float64(d.IOBytes) / ((d.IOPS + 0.5) * secs) * 0.999
	hi := float64(d.IOBytes) / ((d.IOPS - 0.5) * secs) * 1.001
	found := int64(0)
	for bs := max(int64(math.Ceil(lo/512))*512, 512); float64(bs) <= hi && bs <= 256<<20; bs += 512 {
		if d.IOBytes%bs == 0 {
			if found != 0 {
				return 0 // two sizes fit: neither is known
			}
			found = bs
		}
	}
	if found == 0 {
		return 0
	}
	return d.IOBytes / found
}

// stat converts one latency block (values × unit give ns); percentile keys
// are "99.000000".
func (l *jsonLat) stat(unit float64) LatStat {
	if l == nil {
		return LatStat{}
	}
	s := LatStat{MinNs: finite(l.Min) * unit, MaxNs: finite(l.Max) * unit, MeanNs: finite(l.Mean) * unit,
		StddevNs: finite(l.Stddev) * unit, N: int64(finite(l.N))}
	for k, v := range l.Percentile.Map() {
		p, err := strconv.ParseFloat(k, 64)
		if err != nil || math.IsNaN(p) || math.IsInf(p, 0) {
			continue
		}
		s.Percentiles = append(s.Percentiles, Percentile{Pct: p, Ns: finite(v) * unit})
	}
	sortPercentiles(s.Percentiles)
	s.Bins = jsonBins(l.Bins.Map(), unit)
	return s
}

// jsonBins reads json+'s "bins": fio 3.x keys each bucket by its value
// (ns); fio 2.x by its index, with FIO_IO_U_PLAT_BITS and _VAL beside,
// in µs (fio's plat_idx_to_val gives the value).
func jsonBins(m map[string]float64, unit float64) []Bin {
	if len(m) == 0 {
		return nil
	}
	bits, hasBits := m["FIO_IO_U_PLAT_BITS"]
	val := m["FIO_IO_U_PLAT_VAL"]
	var out []Bin
	for k, c := range m {
		if strings.HasPrefix(k, "FIO_") {
			continue
		}
		n, err := strconv.ParseFloat(k, 64)
		c = finite(c)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || n < 0 || c <= 0 {
			continue
		}
		v := n
		if hasBits {
			v = platIdxToVal(int64(n), int(finite(bits)), int64(finite(val)))
		}
		out = append(out, Bin{Ns: v * unit, Count: int64(c)})
	}
	return MergeBins(out)
}

// platIdxToVal is fio's plat_idx_to_val: the value a histogram bucket
// index stands for (the middle of its range).
func platIdxToVal(idx int64, bits int, val int64) float64 {
	if bits <= 0 || bits > 16 || val <= 0 || idx > 1<<20 {
		return float64(idx)
	}
	if idx < val<<1 {
		return float64(idx)
	}
	errorBits := idx>>uint(bits) - 1
	if errorBits > 40 {
		errorBits = 40
	}
	base := float64(int64(1) << uint(errorBits+int64(bits)))
	k := idx % val
	return base + (float64(k)+0.5)*float64(int64(1)<<uint(errorBits))
}

// stringOptions renders JSON option values (fio writes strings) as strings.
func stringOptions(m map[string]any) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch t := v.(type) {
		case string:
			out[k] = t
		case float64:
			out[k] = strconv.FormatFloat(t, 'f', -1, 64)
		case bool:
			out[k] = strconv.FormatBool(t)
		case nil:
			out[k] = ""
		default:
			b, _ := json.Marshal(t)
			out[k] = string(b)
		}
	}
	return out
}

// markInterimJSON marks a document interim when the next one reports the
// same jobs of the same run: same job names, and the next run had already
// started when this document was written (its timestamp minus its
// elapsed seconds is not after this timestamp).
func markInterimJSON(outs []Output) {
	for i := 0; i+1 < len(outs); i++ {
		a, b := outs[i], outs[i+1]
		if !sameJobNames(a, b) || a.Timestamp == 0 || b.Timestamp == 0 {
			continue
		}
		if b.startedBy() <= a.Timestamp {
			outs[i].Interim = true
		}
	}
}

// startedBy estimates when the run of a JSON document started, Unix seconds.
func (o Output) startedBy() int64 {
	return o.Timestamp - o.elapsed
}

// sameJobNames reports whether two outputs list the same jobs in order.
func sameJobNames(a, b Output) bool {
	if len(a.Jobs) != len(b.Jobs) || len(a.Jobs) == 0 {
		return false
	}
	for i := range a.Jobs {
		if a.Jobs[i].Name != b.Jobs[i].Name || a.Jobs[i].Host != b.Jobs[i].Host {
			return false
		}
	}
	return true
}
