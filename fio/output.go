package fio

import (
	"cmp"
	"slices"
	"sort"
)

// Output is one fio report: one JSON document, the terse lines of one run or
// one normal-format report.
type Output struct {
	Format     string     `json:"format"`      // "json", "json+", "terse" or "normal"
	Line       int        `json:"line"`        // 1-based line where the report starts in its input
	FioVersion string     `json:"fio_version"` // e.g. "fio-3.33" (empty when not printed)
	Timestamp  int64      `json:"timestamp"`   // Unix seconds when fio wrote it (JSON only, else 0)
	Interim    bool       `json:"interim"`     // a --status-interval report superseded by a later one of the same run
	Jobs       []Job      `json:"jobs"`
	DiskUtil   []DiskUtil `json:"disk_util,omitempty"`

	elapsed int64 // longest job "elapsed" of a JSON document, s
}

// Job is one job (or one group of jobs with group_reporting, or one client's
// job in client/server mode) as fio reported it.
type Job struct {
	// bad says why a value the job states cannot be used (an iodepth out
	// of range): the output is refused naming it, never read with a default.
	bad string

	Name    string `json:"name"`
	GroupID int    `json:"groupid"`
	Error   int    `json:"error"` // fio's err= value (errno), 0 when fine
	// Host and Port name the fio server of a client/server report ("" and 0 locally).
	Host string `json:"host,omitempty"`
	Port int    `json:"port,omitempty"`
	// AllClients marks fio's "All clients" aggregate of a client/server run.
	AllClients bool `json:"all_clients,omitempty"`
	PID        int  `json:"pid,omitempty"` // normal format only

	// Options are the job's options: JSON "global options" overlaid with
	// "job options" (only what was set explicitly), or those on the normal
	// format's header line. Values are fio's strings.
	Options map[string]string `json:"options,omitempty"`
	RW      string            `json:"rw,omitempty"` // fio rw=, "" when unknown
	BS      int64             `json:"bs,omitempty"` // bytes per I/O, 0 when unknown
	// BSBounds are the smallest and largest I/O of reads [0], writes [1]
	// and trims [2] when they vary (bssplit, bsrange, bs=8k,32k,16k), as
	// fio's header gives them; zero: BS (trims: the writes').
	BSBounds [3][2]int64 `json:"-"`
	// KBBase is the job's kb_base (1000: fio's normal output writes sizes
	// and rates in decimal units first; else binary first).
	KBBase   int    `json:"-"`
	IOEngine string `json:"ioengine,omitempty"` // "" when unknown (fio's default is psync)
	IODepth  int    `json:"iodepth"`            // configured iodepth per job; 0 when unknown
	// IODepthFrom says where IODepth came from: "options", "header",
	// "iodepth distribution" (the busiest bucket of fio's IO depths, a lower
	// bound of the setting), "default" (fio's default of 1: JSON lists every
	// option set, and iodepth was not) or "unknown" (IODepth 0: nothing in
	// the output says it).
	IODepthFrom string `json:"iodepth_from"`
	// NumJobs is the number of processes this entry's figures cover: the
	// numjobs option under group_reporting, jobs=N of the normal format, or
	// 1 for each clone fio lists separately.
	NumJobs     int    `json:"numjobs"`
	NumJobsFrom string `json:"numjobs_from"`
	// CloneOf is the numjobs= of the job this report is one clone of
	// (fio reports each of numjobs=N clones as its own job without
	// group_reporting); 0 when it is not a clone.
	CloneOf int `json:"clone_of,omitempty"`

	Read  *Dir `json:"read,omitempty"`
	Write *Dir `json:"write,omitempty"`
	Trim  *Dir `json:"trim,omitempty"`
	// Mixed is every direction together, as fio reports it under
	// unified_rw_reporting (Reporting.Unified); nil when not kept. A
	// report read from fio's output holds a mixed job's figures in Read.
	Mixed *Dir `json:"-"`

	RuntimeMs int64   `json:"job_runtime_ms"` // summed over the processes covered, ms
	UsrCPU    float64 `json:"usr_cpu"`        // percent of one CPU
	SysCPU    float64 `json:"sys_cpu"`        // percent of one CPU
	Ctx       int64   `json:"ctx"`            // context switches
	// IODepthDist is fio's "IO depths" distribution: percent of I/Os
	// submitted at depth bucket "1","2","4","8","16","32",">=64".
	IODepthDist map[string]float64 `json:"iodepth_level,omitempty"`
	// IODepthSubmit and IODepthComplete are fio's "submit" and "complete":
	// percent of submission calls and of reaps by the I/Os each handled,
	// bucket "0","4","8","16","32","64",">=64" (1–4 I/Os is "4").
	IODepthSubmit   map[string]float64 `json:"iodepth_submit,omitempty"`
	IODepthComplete map[string]float64 `json:"iodepth_complete,omitempty"`
	// Steady is the job's steady-state test (fio's ss=), nil without one.
	Steady *SteadyState `json:"steadystate,omitempty"`
	// LatTarget is fio's latency_target report; nil for a job without a
	// target, which fio reports as target 0 at its iodepth.
	LatTarget *LatTarget `json:"latency_target,omitempty"`
}

// LatTarget is fio's report of a job's latency_target search, in fio's
// units: its JSON's latency_target (ns), latency_window (µs),
// latency_percentile and latency_depth (the depth the search ended at),
// and its normal output's "latency : target=…, depth=N" line.
type LatTarget struct {
	TargetNs   int64   `json:"target_ns"`
	WindowUs   int64   `json:"window_us"`
	Percentile float64 `json:"percentile"`
	Depth      int     `json:"depth"`
}

// Dir is one direction's figures (read, write or trim).
type Dir struct {
	IOBytes   int64   `json:"io_bytes"`
	BWBytes   float64 `json:"bw_bytes"` // bytes per second
	IOPS      float64 `json:"iops"`     // I/Os per second
	RuntimeMs int64   `json:"runtime_ms"`
	TotalIOs  int64   `json:"total_ios"`
	Slat      LatStat `json:"slat_ns"` // submission latency
	Clat      LatStat `json:"clat_ns"` // completion latency
	Lat       LatStat `json:"lat_ns"`  // total latency (submit to completion)
	// Prios are the completion latencies of each I/O priority, fio's
	// "prios" (the cmdprio options; fio reports them when at least two
	// priorities have I/Os); nil otherwise.
	Prios []PrioStat `json:"prios,omitempty"`
	// IOPSMean, IOPSStddev and IOPSSamples are fio's IOPS samples (one per
	// iopsavgtime, 500 ms by default): their mean, standard deviation and
	// count (0: not reported).
	IOPSMean    float64 `json:"iops_mean,omitempty"`
	IOPSStddev  float64 `json:"iops_stddev,omitempty"`
	IOPSSamples int64   `json:"iops_samples,omitempty"`
	IOPSMin     float64 `json:"iops_min,omitempty"`
	IOPSMax     float64 `json:"iops_max,omitempty"`
	// BWMin … BWSamples are fio's bandwidth samples in KiB/s ("bw (KiB/s):
	// min, max, avg, stdev, samples"), sampled as IOPS is.
	BWMin     float64 `json:"bw_min,omitempty"`
	BWMax     float64 `json:"bw_max,omitempty"`
	BWMean    float64 `json:"bw_mean,omitempty"`
	BWDev     float64 `json:"bw_dev,omitempty"`
	BWSamples int64   `json:"bw_samples,omitempty"`
}

// PrioStat is one I/O priority's completion latency in a direction:
// fio's prioclass and prio (level), and the latency of the I/Os at it.
type PrioStat struct {
	Class int     `json:"prioclass"`
	Level int     `json:"prio"`
	Clat  LatStat `json:"clat_ns"`
}

// LatStat summarises one latency in nanoseconds. N is 0 when fio did not
// report it.
type LatStat struct {
	MinNs       float64      `json:"min"`
	MaxNs       float64      `json:"max"`
	MeanNs      float64      `json:"mean"`
	StddevNs    float64      `json:"stddev"`
	N           int64        `json:"N"`
	Percentiles []Percentile `json:"percentiles,omitempty"` // ascending by Pct
	// Bins is fio json+'s latency histogram, ascending by Ns (nil
	// without json+): merged over jobs or hosts it gives their percentiles.
	Bins []Bin `json:"bins,omitempty"`
	// PercentilesOf is PercentilesClat when Percentiles and Bins are the
	// completion latency's, lent to a total latency whose submission fio
	// timed apart (fio's default, lat_percentiles=0, with an engine that
	// queues): each is then short of the total's by that I/O's submission
	// time, and a sentence quoting one names it; PercentilesTerse when
	// they came from terse fields that hold either; "" when they are the
	// total's.
	PercentilesOf string `json:"percentiles_of,omitempty"`
}

// What a total latency's percentiles may be, besides its own
// (LatStat.PercentilesOf).
const (
	PercentilesClat  = "clat"
	PercentilesTerse = "clat or lat"
)

// Bin is one bucket of fio's latency histogram: Count I/Os near Ns
// nanoseconds (fio's bucket value).
type Bin struct {
	Ns    float64 `json:"ns"`
	Count int64   `json:"count"`
}

// MergeBins adds histograms bucket by bucket (fio's buckets are the same
// for every job of a fio version), ascending by Ns.
func MergeBins(hs ...[]Bin) []Bin {
	sum := map[float64]int64{}
	for _, h := range hs {
		for _, b := range h {
			sum[b.Ns] += b.Count
		}
	}
	if len(sum) == 0 {
		return nil
	}
	out := make([]Bin, 0, len(sum))
	for ns, c := range sum {
		out = append(out, Bin{Ns: ns, Count: c})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Ns < out[b].Ns })
	return out
}

// BinsPercentile is the latency at pct (in percent, e.g. 99.9) of a
// histogram, ns, as fio computes it: the value of the first bucket at
// which the running count reaches pct of the total. ok is false for an
// empty histogram.
func BinsPercentile(bins []Bin, pct float64) (float64, bool) {
	var total int64
	for _, b := range bins {
		total += b.Count
	}
	if total == 0 {
		return 0, false
	}
	want := pct / 100 * float64(total)
	var run int64
	for _, b := range bins {
		run += b.Count
		if float64(run) >= want {
			return b.Ns, true
		}
	}
	return bins[len(bins)-1].Ns, true
}

// Percentile is one percentile of a latency: Pct in percent (99.9), Ns in nanoseconds.
type Percentile struct {
	Pct float64 `json:"pct"`
	Ns  float64 `json:"ns"`
}

// DiskUtil is fio's disk statistics of one device over the run.
type DiskUtil struct {
	Name        string  `json:"name"`
	Host        string  `json:"host,omitempty"`
	ReadIOs     int64   `json:"read_ios"`
	WriteIOs    int64   `json:"write_ios"`
	ReadMerges  int64   `json:"read_merges"`
	WriteMerges int64   `json:"write_merges"`
	ReadTicks   int64   `json:"read_ticks"`  // ms
	WriteTicks  int64   `json:"write_ticks"` // ms
	InQueue     int64   `json:"in_queue"`    // ms
	Util        float64 `json:"util"`        // percent
}

// Known reports whether the latency was reported (N > 0 or a mean).
func (l LatStat) Known() bool { return l.N > 0 || l.MeanNs > 0 }

// At returns the latency at percentile pct (in percent, e.g. 99.9), in ns,
// when fio reported that exact percentile.
func (l LatStat) At(pct float64) (float64, bool) {
	for _, p := range l.Percentiles {
		if p.Pct > pct-1e-6 && p.Pct < pct+1e-6 {
			return p.Ns, true
		}
	}
	return 0, false
}

// TotalLat is the direction's total latency: Lat when fio reported it, else
// Clat with Slat's mean added (and Clat's percentiles). from says which:
// "lat" or "clat+slat", or "" when fio measured neither (gtod_reduce=1,
// disable_lat): l is then zero and means "not measured", never 0 ns.
func (d Dir) TotalLat() (l LatStat, from string) {
	lent := ""
	if d.Slat.MeanNs > 0 && (len(d.Clat.Percentiles) > 0 || len(d.Clat.Bins) > 0) {
		lent = cmp.Or(d.Clat.PercentilesOf, PercentilesClat)
	}
	if d.Lat.Known() {
		if len(d.Lat.Percentiles) == 0 {
			d.Lat.Percentiles, d.Lat.PercentilesOf = d.Clat.Percentiles, lent
		}
		if len(d.Lat.Bins) == 0 && len(d.Clat.Bins) > 0 {
			d.Lat.Bins, d.Lat.PercentilesOf = d.Clat.Bins, lent
		}
		return d.Lat, "lat"
	}
	if !d.Clat.Known() {
		return LatStat{}, ""
	}
	l = d.Clat
	l.PercentilesOf = lent
	l.MeanNs += d.Slat.MeanNs
	l.MinNs += d.Slat.MinNs
	l.MaxNs += d.Slat.MaxNs
	return l, "clat+slat"
}

// Dirs returns the directions the job did I/O in, in read, write, trim order.
func (j Job) Dirs() []*Dir {
	var ds []*Dir
	for _, d := range []*Dir{j.Read, j.Write, j.Trim} {
		if d != nil && (d.TotalIOs > 0 || d.IOPS > 0) {
			ds = append(ds, d)
		}
	}
	return ds
}

// Summary is a job's figures over all its directions.
type Summary struct {
	IOPS      float64 `json:"iops"`        // sum over directions, I/Os per second
	BWBytes   float64 `json:"bw_bytes"`    // sum over directions, bytes per second
	TotalIOs  int64   `json:"total_ios"`   // sum over directions
	LatMeanNs float64 `json:"lat_mean_ns"` // I/O-weighted mean total latency, ns
	LatFrom   string  `json:"lat_from"`    // "lat" or "clat+slat"; "" when not measured
	// LatMeasured is false when fio measured no latency for any direction
	// (gtod_reduce=1, disable_lat …): LatMeanNs and Lat are then zero and
	// mean "not measured", never 0 ns.
	LatMeasured bool `json:"lat_measured"`
	// Lat is the job's total latency over its directions: min and max of
	// them all, mean LatMeanNs, and percentiles only where they can be
	// known for the whole job: one direction's own, or the merged json+
	// histograms of several. A read/write job without json+ has none here
	// (one direction's p99 is not the job's): Dirs keep their own.
	Lat       LatStat `json:"lat_ns"`
	RuntimeMs int64   `json:"runtime_ms"` // longest direction runtime, ms
}

// Summary merges the job's directions.
func (j Job) Summary() Summary {
	var s Summary
	var weight, wsum float64
	var lats []LatStat
	for _, d := range j.Dirs() {
		l, from := d.TotalLat()
		s.IOPS += d.IOPS
		s.BWBytes += d.BWBytes
		s.TotalIOs += d.TotalIOs
		w := float64(d.TotalIOs)
		if w == 0 {
			w = d.IOPS
		}
		if from == "" {
			continue // not measured: leave it out of the mean
		}
		s.LatMeasured = true
		weight += w
		wsum += w * l.MeanNs
		lats = append(lats, l)
		if s.LatFrom == "" {
			s.LatFrom = from
		}
		if d.RuntimeMs > s.RuntimeMs {
			s.RuntimeMs = d.RuntimeMs
		}
	}
	if weight > 0 {
		s.LatMeanNs = wsum / weight
	}
	s.Lat = mergeLats(lats)
	s.Lat.MeanNs = s.LatMeanNs
	return s
}

// mergeLats is the latency of several directions as one: min and max of
// all, sample counts summed, and percentiles from the merged histograms
// when every direction has one; else, when every direction has its
// percentiles and sample count (fio's JSON of a mixed job), those of the
// mixture: the level at which the directions' distributions, weighted by
// their I/Os, reach each percentile (mixturePercentiles).
func mergeLats(ls []LatStat) LatStat {
	switch len(ls) {
	case 0:
		return LatStat{}
	case 1:
		return ls[0]
	}
	out := LatStat{MinNs: ls[0].MinNs, MaxNs: ls[0].MaxNs}
	var bins [][]Bin
	for _, l := range ls {
		if l.PercentilesOf != "" {
			out.PercentilesOf = l.PercentilesOf
		}
		out.MinNs, out.MaxNs, out.N = min(out.MinNs, l.MinNs), max(out.MaxNs, l.MaxNs), out.N+l.N
		if len(l.Bins) > 0 {
			bins = append(bins, l.Bins)
		}
	}
	if len(bins) == len(ls) {
		out.Bins = MergeBins(bins...)
		for _, p := range ls[0].Percentiles {
			if v, ok := BinsPercentile(out.Bins, p.Pct); ok {
				out.Percentiles = append(out.Percentiles, Percentile{Pct: p.Pct, Ns: v})
			}
		}
		return out
	}
	out.Percentiles = mixturePercentiles(ls)
	return out
}

// mixturePercentiles are the percentiles of the I/Os of several
// directions together, from each direction's percentiles and I/O count,
// where those pin them down. A direction's share of I/Os at or under a
// latency lies between the highest of its percentiles at or under it and
// the lowest at or over it (fio's percentiles are all that is known of
// its distribution); weighted by the directions' I/Os, the lowest and
// highest share bound each percentile of the mixture from both sides.
// A percentile is given, as its upper bound, when its two bounds are
// within 5% of each other (fio's own histogram buckets are within about
// 3%), and left out when they are not (a tail the directions' coarse
// percentiles do not fix). Against the merged json+ histograms of a fio
// 3.33 randrw job (242 reads, 270 writes): p50 4,704 ns exact, 4,768 here;
// p90 120,320 both; p99 (285 µs exact, bounds 0.2 to 3.7 ms) left out.
// Nil when a direction has no percentiles or no count.
func mixturePercentiles(ls []LatStat) []Percentile {
	var total float64
	var xs []float64
	for _, l := range ls {
		if len(l.Percentiles) == 0 || l.N <= 0 {
			return nil
		}
		total += float64(l.N)
		for _, p := range l.Percentiles {
			xs = append(xs, p.Ns)
		}
		xs = append(xs, l.MinNs, l.MaxNs)
	}
	slices.Sort(xs)
	first := func(pct float64, high bool) float64 {
		for _, x := range xs {
			share := 0.0
			for _, l := range ls {
				lo, hi := shareBounds(l, x)
				if high {
					lo = hi
				}
				share += float64(l.N) / total * lo
			}
			if share >= pct-1e-9 {
				return x
			}
		}
		return xs[len(xs)-1]
	}
	var out []Percentile
	for _, p := range ls[0].Percentiles {
		upper, lower := first(p.Pct, false), first(p.Pct, true)
		if lower >= upper/1.05 {
			out = append(out, Percentile{Pct: p.Pct, Ns: upper})
		}
	}
	return out
}

// shareBounds bounds the percent of l's I/Os at or under x ns: the
// highest of its percentiles at or under x (0 below its min, 100 from its
// max on), and the lowest over it.
func shareBounds(l LatStat, x float64) (lo, hi float64) {
	if x >= l.MaxNs {
		return 100, 100
	}
	if x < l.MinNs {
		return 0, 0
	}
	hi = 100
	for _, p := range l.Percentiles {
		if p.Ns <= x {
			lo = max(lo, p.Pct)
		}
		if p.Ns > x {
			hi = min(hi, p.Pct) // at most this just above x, so at x
		}
	}
	return lo, hi
}

// Final returns the reports that are not interim --status-interval snapshots.
func Final(outs []Output) []Output {
	var fs []Output
	for _, o := range outs {
		if !o.Interim {
			fs = append(fs, o)
		}
	}
	return fs
}

// sortPercentiles orders percentiles ascending by Pct.
func sortPercentiles(ps []Percentile) {
	sort.Slice(ps, func(a, b int) bool { return ps[a].Pct < ps[b].Pct })
}
