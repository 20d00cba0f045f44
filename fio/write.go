package fio

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"
)

// DefaultPercentiles are fio's default completion-latency percentiles, in percent.
var DefaultPercentiles = []float64{1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99}

// LatBucketsNs, LatBucketsUs and LatBucketsMs are the keys of fio's latency
// distribution ("lat (nsec)", "lat (usec)" and "lat (msec)"), each the
// bucket's exclusive upper bound: fio 3.33 counts an I/O whose completion
// latency is n ns under ns K for n < 1000 and K the first key above n,
// under us K for 1000 ≤ n < 1e6 and K the first key above n/1000 (us "2"
// is 1000 to 1999 ns), else under ms K likewise, the last ms bucket being
// ">=2000".
var (
	LatBucketsNs = []float64{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000}
	LatBucketsUs = []float64{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000}
	LatBucketsMs = []float64{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000, math.Inf(1)}
)

// Report is one run as fio would report one (grouped) job: the job and,
// when a latency histogram was kept, fio's latency distribution.
type Report struct {
	Job Job
	// LatNs, LatUs and LatMs are the percent of I/Os whose latency fell
	// in each of fio's buckets (LatBucketsNs, LatBucketsUs, LatBucketsMs:
	// <2, 2-3, 4-9 … 750-999 ns; the same in µs; <2 … 1000-1999, ≥2000
	// ms), as measured: the writers raise a bucket holding I/Os but under
	// 0.01 % to 0.01, as fio's. Nil when not measured.
	LatNs, LatUs, LatMs []float64
	// Version names the program that wrote the report ("qdsweep-0.1.0").
	Version string
	// Time is when the run ended.
	Time time.Time
	// Started is when the run started (fio's genesis): the JSON's
	// "elapsed", the same for every job of a run, is the seconds from it
	// to Time, rounded up. Zero: the job's own runtime.
	Started time.Time
	// Disks are the target's devices' figures over the run (fio's disk
	// utilisation); none when the target has no block device (tmpfs).
	Disks []DiskUtil
	// Sync is the run's fsync/fdatasync calls (fio's "sync" block: count
	// and latency with percentiles); nil when the job does not sync.
	Sync *Dir
	// Plus makes WriteJSONJobs write fio's json+: each direction's completion
	// latencies also as "bins" (ns value → I/Os), from the run's histogram.
	Plus bool
	// Given says Job.Options are the options the job's own section set and
	// GlobalOptions those of the command line and [global], as written:
	// fio's "job options" and "global options" are then these and nothing
	// else. Without it they are derived from Job.Options.
	Given bool
	// JobOptions and GlobalOptions are fio's "job options" and "global
	// options" with Given, in the order fio lists them (ListedOrder).
	JobOptions, GlobalOptions []Option
	// Reporting is what the job's reporting options ask of its report.
	Reporting Reporting
	// Percentiles are the percentiles reported (percent; nil:
	// DefaultPercentiles): terse lists them at 0 for a direction with no
	// I/O, as fio does.
	Percentiles []float64
}

// Reporting is how fio's reporting options shape a job's report, as fio
// 3.33 writes it in every format: clat_percentiles (on unless
// NoClatPercentiles) and lat_percentiles say which latencies carry
// percentiles (and json+'s bins), unified_rw_reporting whether the
// directions are reported apart, together (mixed) or both.
type Reporting struct {
	NoClatPercentiles bool
	LatPercentiles    bool
	Unified           Unified
}

// Unified is fio's unified_rw_reporting.
type Unified int

// fio's unified_rw_reporting values: none (0), mixed (1), both (2).
const (
	UnifiedNone Unified = iota
	UnifiedMixed
	UnifiedBoth
)

// ParseUnified reads a unified_rw_reporting value as fio 3.33 does: none,
// mixed or both, or 0, 1, 2 for them.
func ParseUnified(v string) (Unified, error) {
	switch v {
	case "none", "0":
		return UnifiedNone, nil
	case "mixed", "1":
		return UnifiedMixed, nil
	case "both", "2":
		return UnifiedBoth, nil
	}
	return 0, fmt.Errorf("%s takes none, mixed or both (0, 1, 2), not %q", OptUnifiedRWReporting, v)
}

// namedDir is one direction of a report with fio's name for it.
type namedDir struct {
	name string
	dir  *Dir
}

// dirs are the directions r reports, in fio's order, under its reporting
// options: read, write and trim; mixed alone (unified_rw_reporting=mixed,
// fio's figures summed into one direction); or the three and then mixed
// (both). A mixed report without Job.Mixed uses a zero direction.
func (r Report) dirs() []namedDir {
	j := r.Job
	apart := []namedDir{{"read", j.Read}, {"write", j.Write}, {"trim", j.Trim}}
	mixed := namedDir{"mixed", j.Mixed}
	if mixed.dir == nil {
		mixed.dir = &Dir{}
	}
	switch r.Reporting.Unified {
	case UnifiedMixed:
		return []namedDir{mixed}
	case UnifiedBoth:
		return append(apart, mixed)
	}
	return apart
}

// shapedLat is a direction's completion latency (clat) and total latency
// (lat) with the percentiles and json+ bins the reporting options give
// each: clat's unless clat_percentiles=0, lat's with lat_percentiles=1
// (qdsweep times an I/O from submission to completion as one latency, so
// a latency without its own percentiles takes clat's).
func (r Report) shapedLat(d *Dir) (clat, lat LatStat) {
	clat, lat = d.Clat, d.Lat
	if r.Reporting.LatPercentiles && len(lat.Percentiles) == 0 && lat.N == clat.N {
		lat.Percentiles, lat.Bins = clat.Percentiles, clat.Bins
	}
	if !r.Reporting.LatPercentiles {
		lat.Percentiles, lat.Bins = nil, nil
	}
	if r.Reporting.NoClatPercentiles {
		clat.Percentiles, clat.Bins = nil, nil
	}
	return clat, lat
}

// prioShape is how fio 3.33 reports each priority's latency (cmdprio) in
// every format: kind "lat" with lat_percentiles (fio's clat_prio then
// holds total latencies, JSON's "lat_ns", normal's "lat prio 1/0"), else
// "clat"; shaped is p with percentiles (and bins) only where fio has them:
// with clat_percentiles or lat_percentiles.
func (r Report) prioShape(p LatStat) (kind string, shaped LatStat) {
	kind = "clat"
	if r.Reporting.LatPercentiles {
		kind = "lat"
	}
	if r.Reporting.NoClatPercentiles && !r.Reporting.LatPercentiles {
		p.Percentiles, p.Bins = nil, nil
	}
	return kind, p
}

// FioVersion is the fio whose meaning qdsweep follows; WriterVersion
// names qdsweep in a version field fio's readers accept (they match the
// "fio-" prefix).
const FioVersion = "3.33"

// WriterVersion is the "fio version" (terse: field 2) of a report
// qdsweep writes: "fio-3.33 (qdsweep 0.1.0)".
func WriterVersion(qdsweep string) string {
	return "fio-" + FioVersion + " (qdsweep " + qdsweep + ")"
}

// WriteTerse writes r as one line of fio's terse format version 3, field
// for field as fio 3.x prints it (HOWTO "Terse output"): latencies in µs,
// sizes in KiB, bandwidth in KiB/s. Figures qdsweep does not measure are
// written as fio writes them when it has none (zeros): submission latency,
// CPU faults and context switches. Bandwidth samples come from the run's
// series slices, IO depths from the engine's count.
// The disk utilisation fields of each of r.Disks follow, as fio's do.
func WriteTerse(w io.Writer, r Report) error {
	bw := bufio.NewWriter(w)
	j := r.Job
	fmt.Fprintf(bw, "3;%s;%s;%d;%d", r.Version, j.Name, j.GroupID, j.Error)
	for _, d := range r.dirs() {
		if d.name != "trim" { // version 3 has no trim fields
			r.terseDirFields(bw, d.dir)
		}
	}
	fmt.Fprintf(bw, ";%f%%;%f%%;%d;%d;%d", j.UsrCPU, j.SysCPU, j.Ctx, 0, 0)
	for _, b := range depthBuckets {
		fmt.Fprintf(bw, ";%3.1f%%", j.IODepthDist[b.key])
	}
	for _, v := range r.terseLatUs() {
		fmt.Fprintf(bw, ";%3.2f%%", v)
	}
	for _, v := range LatShown(r.LatMs, len(LatBucketsMs)) {
		fmt.Fprintf(bw, ";%3.2f%%", v)
	}
	for _, d := range r.Disks {
		fmt.Fprintf(bw, ";%s;%d;%d;%d;%d;%d;%d;%d;%3.2f%%", d.Name, d.ReadIOs, d.WriteIOs, d.ReadMerges, d.WriteMerges,
			d.ReadTicks, d.WriteTicks, d.InQueue, d.Util)
	}
	bw.WriteString("\n")
	return bw.Flush()
}

// terseDirFields writes one direction's 41 fields (zeros when d is nil);
// its 20 percentiles are lat's with lat_percentiles, else clat's unless
// clat_percentiles=0, as fio's.
func (r Report) terseDirFields(bw *bufio.Writer, d *Dir) {
	if d == nil {
		d = &Dir{}
	}
	fmt.Fprintf(bw, ";%d;%d;%d;%d", d.IOBytes>>10, int64(d.BWBytes/1024), int64(d.IOPS), d.RuntimeMs)
	terseLat(bw, d.Slat)
	terseLat(bw, d.Clat)
	clat, lat := r.shapedLat(d)
	pcts := clat.Percentiles
	if r.Reporting.LatPercentiles {
		pcts = lat.Percentiles
	}
	if len(pcts) == 0 && d.TotalIOs == 0 && (r.Reporting.LatPercentiles || !r.Reporting.NoClatPercentiles) {
		// No I/O this way: fio lists its percentiles, each at 0.
		for _, p := range r.Percentiles {
			pcts = append(pcts, Percentile{Pct: p})
		}
		if r.Percentiles == nil {
			for _, p := range DefaultPercentiles {
				pcts = append(pcts, Percentile{Pct: p})
			}
		}
	}
	for i := 0; i < 20; i++ {
		if i < len(pcts) {
			p := pcts[i]
			fmt.Fprintf(bw, ";%f%%=%d", p.Pct, int64(p.Ns/1e3))
		} else {
			bw.WriteString(";0%=0")
		}
	}
	terseLat(bw, d.Lat)
	// Bandwidth samples: min, max, percent of the group, mean, stddev.
	fmt.Fprintf(bw, ";%d;%d;%f%%;%f;%f", int64(d.BWMin), int64(d.BWMax), aggPct(d), d.BWMean, d.BWDev)
}

// aggPct is fio's bandwidth "per": the job's share of its group's
// bandwidth, 100 for the one job of a report (0 with no samples).
func aggPct(d *Dir) float64 {
	if d.BWSamples == 0 {
		return 0
	}
	return 100
}

// terseLat writes min;max;mean;stddev in µs.
func terseLat(bw *bufio.Writer, l LatStat) {
	fmt.Fprintf(bw, ";%d;%d;%f;%f", int64(l.MinNs/1e3), int64(l.MaxNs/1e3), l.MeanNs/1e3, l.StddevNs/1e3)
}

// WriteJSONJobs writes jobs' reports as one fio-shaped JSON document
// (fio's --output-format=json layout: "fio version", timestamps, "global
// options", jobs[] with "job options", read/write/trim with iops, bw,
// slat_ns/clat_ns/lat_ns and clat percentiles, CPU, latency
// distributions), which fio's readers accept; several jobs as fio writes
// them for a job file of several sections: one entry per
// job in "jobs" (each with its groupid), the first job's options not tied
// to one job as "global options" (a later job's that differ go with it),
// the devices of all jobs once in "disk_util"; version and time are the
// first report's.
func WriteJSONJobs(w io.Writer, rs []Report) error {
	if len(rs) == 0 {
		return fmt.Errorf("fio JSON: no job to write")
	}
	r := rs[0]
	job0, global := jobJSON(r, nil)
	if r.Given {
		global = listedJSON(r.GlobalOptions)
	}
	jobs := []jsonJob{job0}
	for _, o := range rs[1:] {
		j, _ := jobJSON(o, global)
		jobs = append(jobs, j)
	}
	el := r.elapsed()
	for i := range jobs {
		jobs[i].Elapsed, jobs[i].Eta = float64(el), etaJSON(el)
	}
	disks := []jsonDisk{}
	seen := map[string]bool{}
	for _, o := range rs {
		for _, d := range o.Disks {
			if seen[d.Name] {
				continue
			}
			seen[d.Name] = true
			disks = append(disks, jsonDisk{Name: d.Name, ReadIOs: float64(d.ReadIOs), WriteIOs: float64(d.WriteIOs),
				ReadMerges: float64(d.ReadMerges), WriteMerges: float64(d.WriteMerges), ReadTicks: float64(d.ReadTicks),
				WriteTicks: float64(d.WriteTicks), InQueue: float64(d.InQueue), Util: fioFloat(d.Util)})
		}
	}
	doc := jsonDoc{FioVersion: r.Version, Timestamp: float64(r.Time.Unix()), TimestampMs: float64(r.Time.UnixMilli()),
		Time: r.Time.Format("Mon Jan  2 15:04:05 2006"), GlobalOptions: global, Jobs: jobs, DiskUtil: disks}
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	_, err = w.Write(append(fioLayout(b), '\n'))
	return err
}

// fioJobOptions are the names of fio 3.33's job options (its table, with
// their aliases): not its command line's own (eta, output-format).
var fioJobOptions = func() map[string]bool {
	m := map[string]bool{}
	for _, o := range fioOptions {
		m[o.Name] = true
		for _, a := range o.Aliases {
			m[a] = true
		}
	}
	return m
}()

// listedOption reports whether fio 3.33 lists option k, given as v, in
// its JSON's "job options" and "global options": a job option given with
// a value. A switch given bare (time_based, norandommap) and an option of
// fio's command line alone (eta) are not listed; time_based=1 is.
func listedOption(k, v string) bool { return v != "" && fioJobOptions[k] }

// latJSON is one latency block of fio's JSON; with pct, clat's percentiles
// and (json+) bins.
func latJSON(l LatStat, pct, plus bool) *jsonLat {
	m := &jsonLat{Min: math.Trunc(l.MinNs), Max: math.Trunc(l.MaxNs), Mean: fioFloat(l.MeanNs), Stddev: fioFloat(l.StddevNs), N: float64(l.N)}
	if pct && len(l.Percentiles) > 0 {
		for _, p := range l.Percentiles {
			m.Percentile.set(strconv.FormatFloat(p.Pct, 'f', 6, 64), math.Trunc(p.Ns))
		}
	}
	if pct && plus && len(l.Bins) > 0 {
		// fio's bins low to high, a value once.
		bins := slices.SortedFunc(slices.Values(l.Bins), func(a, b Bin) int { return cmp.Compare(a.Ns, b.Ns) })
		for _, b := range bins {
			k := strconv.FormatInt(int64(b.Ns), 10)
			if n := len(m.Bins); n > 0 && m.Bins[n-1].Key == k {
				m.Bins[n-1].Value += float64(b.Count)
				continue
			}
			m.Bins = append(m.Bins, jsonField[float64]{k, float64(b.Count)})
		}
	}
	return m
}

// dirJSON is one direction of fio's JSON (all zero for nil, as fio writes
// a direction the job did not do).
func (r Report) dirJSON(d *Dir, plus bool) *jsonDir {
	if d == nil {
		d = &Dir{}
	}
	clat, lat := r.shapedLat(d)
	return &jsonDir{
		IOBytes: float64(d.IOBytes), IOKBytes: float64(d.IOBytes >> 10), BWBytes: math.Trunc(d.BWBytes), BW: math.Trunc(d.BWBytes / 1024),
		IOPS: fioFloat(d.IOPS), Runtime: float64(d.RuntimeMs), TotalIOs: float64(d.TotalIOs),
		Slat: latJSON(d.Slat, false, plus), Clat: latJSON(clat, true, plus), Lat: latJSON(lat, true, plus),
		BWMin: math.Trunc(d.BWMin), BWMax: math.Trunc(d.BWMax), BWAgg: fioFloat(aggPct(d)), BWMean: fioFloat(d.BWMean), BWDev: fioFloat(d.BWDev),
		BWSamples: float64(d.BWSamples), IOPSMin: math.Trunc(d.IOPSMin), IOPSMax: math.Trunc(d.IOPSMax), IOPSMean: fioFloat(d.IOPSMean),
		IOPSStddev: fioFloat(d.IOPSStddev), IOPSSamples: float64(d.IOPSSamples), Prios: r.priosJSON(d.Prios, plus),
	}
}

// priosJSON is fio's "prios" of a direction (nil: none, as fio leaves
// them out), each priority's latency under "clat_ns" or "lat_ns"
// (prioShape).
func (r Report) priosJSON(ps []PrioStat, plus bool) []jsonPrio {
	var out []jsonPrio
	for _, p := range ps {
		kind, l := r.prioShape(p.Clat)
		jp := jsonPrio{Class: float64(p.Class), Level: float64(p.Level)}
		if kind == "lat" {
			jp.Lat = latJSON(l, true, plus)
		} else {
			jp.Clat = latJSON(l, true, plus)
		}
		out = append(out, jp)
	}
	return out
}

// LatShown is one bucket family of fio's latency distribution as fio
// 3.33 prints it in every format (stat_calc_lat): n buckets, a bucket
// holding I/Os but under 0.01 % raised to 0.01; zeros when v is nil.
func LatShown(v []float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		if i < len(v) {
			out[i] = v[i]
		}
		if out[i] > 0 && out[i] < 0.01 {
			out[i] = 0.01
		}
	}
	return out
}

// terseLatUs is terse v3's µs buckets: v3 has no ns buckets, so fio
// (stat_calc_lat_nu) adds every ns bucket's share, as measured, to us
// "2" after the 0.01 floor.
func (r Report) terseLatUs() []float64 {
	us := LatShown(r.LatUs, len(LatBucketsUs))
	for _, v := range r.LatNs {
		us[0] += v
	}
	return us
}

// latBuckets is one of fio's latency_ns/us/ms maps: each bucket's percent
// of I/Os as fio shows it, under its key (the last ms bucket's ">=2000").
func latBuckets(keys []float64, v []float64) jsonObject[fioFloat] {
	var m jsonObject[fioFloat]
	for i, x := range LatShown(v, len(keys)) {
		k := strconv.FormatFloat(keys[i], 'f', -1, 64)
		if math.IsInf(keys[i], 1) {
			k = ">=2000"
		}
		m = append(m, jsonField[fioFloat]{k, fioFloat(x)})
	}
	return m
}

// elapsed is fio's "elapsed" of a report written at r.Time: whole
// seconds since r.Started, rounded up (calc_thread_status's elapsed_sec,
// the same for every job of the run); without Started, the job's runtime.
func (r Report) elapsed() int64 {
	ms := r.Job.RuntimeMs
	if !r.Started.IsZero() {
		ms = r.Time.Sub(r.Started).Milliseconds()
	}
	return (ms + 999) / 1000
}

// etaJSON is the "eta" fio 3.33 writes in a report after elapsed
// seconds (Report.elapsed): its calc_thread_status's INT_MAX when under
// 3 s have passed, else 0 (every job done).
func etaJSON(elapsed int64) float64 {
	if elapsed < 3 {
		return math.MaxInt32
	}
	return 0
}

// jobOptionsJSON is a job's "job options", and those it would put under
// "global options": with Given, the job's own in fio's order
// (Report.JobOptions); else derived from Job.Options by name, given the
// first job's global options (later jobs), an option that differs from
// them the job's own.
func jobOptionsJSON(r Report, first jsonObject[any]) (job, global jsonObject[any]) {
	if r.Given {
		return listedJSON(r.JobOptions), nil
	}
	firsts := first.Map()
	for _, k := range slices.Sorted(maps.Keys(r.Job.Options)) {
		v := r.Job.Options[k]
		switch k {
		case OptName, OptRW, OptBS, OptIODepth, OptNumJobs, OptRWMixRead, OptSize, OptFilename:
			job = append(job, jsonField[any]{k, v})
		default:
			if g, ok := firsts[k]; first != nil && (!ok || g != v) {
				job = append(job, jsonField[any]{k, v})
			} else {
				global = append(global, jsonField[any]{k, v})
			}
		}
	}
	return job, global
}

// listedJSON is the options of opts fio lists (listedOption), in order,
// a repeated one each time, as fio lists them.
func listedJSON(opts []Option) jsonObject[any] {
	var o jsonObject[any]
	for _, x := range opts {
		if listedOption(x.Key, x.Value) {
			o = append(o, jsonField[any]{x.Key, x.Value})
		}
	}
	return o
}

// jobJSON is one job's entry of fio's JSON, and the options it would put
// under "global options"; given the first job's global options (later
// jobs), an option that differs from them is the job's own.
func jobJSON(r Report, first jsonObject[any]) (jsonJob, jsonObject[any]) {
	j := r.Job
	var depth, submit, complete jsonObject[fioFloat]
	for _, b := range depthBuckets {
		depth = append(depth, jsonField[fioFloat]{b.key, fioFloat(j.IODepthDist[b.key])})
	}
	for _, k := range batchBuckets {
		submit = append(submit, jsonField[fioFloat]{k, fioFloat(j.IODepthSubmit[k])})
		complete = append(complete, jsonField[fioFloat]{k, fioFloat(j.IODepthComplete[k])})
	}
	sync := &jsonSync{Lat: latJSON(LatStat{}, false, false)}
	if r.Sync != nil {
		sync = &jsonSync{TotalIOs: float64(r.Sync.TotalIOs), Lat: latJSON(r.Sync.Clat, true, r.Plus)}
	}
	jobOpts, global := jobOptionsJSON(r, first)
	job := jsonJob{
		JobName: j.Name, GroupID: float64(j.GroupID), Error: float64(j.Error),
		Options: jobOpts,

		JobRuntime: float64(j.RuntimeMs), UsrCPU: fioFloat(j.UsrCPU), SysCPU: fioFloat(j.SysCPU), Ctx: float64(j.Ctx),
		IODepthLevel: depth, IODepthSubmit: submit, IODepthComplete: complete,
		LatencyNs:    latBuckets(LatBucketsNs, r.LatNs),
		LatencyUs:    latBuckets(LatBucketsUs, r.LatUs),
		LatencyMs:    latBuckets(LatBucketsMs, r.LatMs),
		LatencyDepth: float64(j.IODepth), LatencyPercentile: 100,
		Steadystate: steadyJSON(j.Steady),
	}
	for _, d := range r.dirs() {
		dj := r.dirJSON(d.dir, r.Plus)
		switch d.name {
		case "read":
			job.Read = dj
		case "write":
			job.Write = dj
		case "trim":
			job.Trim, job.Sync = dj, sync // fio's mixed report has no sync either
		case "mixed":
			job.Mixed = dj
		}
	}
	if t := j.LatTarget; t != nil {
		job.LatencyDepth, job.LatencyTarget = float64(t.Depth), float64(t.TargetNs)
		job.LatencyPercentile, job.LatencyWindow = fioFloat(t.Percentile), float64(t.WindowUs)
	}
	return job, global
}
