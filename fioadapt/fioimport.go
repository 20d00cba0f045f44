package fioadapt

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

// Errors of ImportResult when no step can be analysed.
var (
	// ErrNoIO: no job did any I/O.
	ErrNoIO = errors.New("no job did any I/O")
	// ErrNoLatency: the jobs did I/O but fio measured no latency
	// (gtod_reduce=1, disable_lat=1).
	ErrNoLatency = errors.New("fio measured no latency in these outputs (" + fio.OptGTODReduce + "=1 or " + fio.OptDisableLat + "=1): Little's Law needs it; rerun fio without them")
	// ErrNoIODepth: the outputs do not say any job's iodepth.
	ErrNoIODepth = errors.New("these outputs do not say the iodepth (no job header line, no IO depths): give fio's whole output, or its JSON")
)

// ImportResult turns fio reports (one point per job, or per group of clones)
// into a sweep.Result: one step per job with QD = iodepth × numjobs, steps
// grouped by rw and bs and ordered by QD. Interim --status-interval
// reports are left out. Clones fio listed separately (numjobs without
// group_reporting) are merged into one step: IOPS and bandwidth summed,
// latency means weighted by I/Os, percentiles the worst clone's. In a
// client/server report the "All clients" aggregate is the step and each
// client becomes one of its Hosts. fio does not measure the mean in flight,
// so InflightMean stays 0 (unknown).
func ImportResult(outs []fio.Output) (*sweep.Result, error) {
	r := &sweep.Result{Schema: sweep.Schema, Meta: sweep.Meta{Tool: "qdsweep", Source: sweep.SourceFioImport}}
	engines := map[string]bool{}
	targets := map[string]bool{}
	var first, last int64
	for _, o := range fio.Final(outs) {
		for _, g := range groupJobs(o.Jobs) {
			st, err := stepFromFio(g)
			if err != nil {
				return nil, fmt.Errorf("fio report at line %d, job %q: %w", o.Line, g.main.Name, err)
			}
			r.Steps = append(r.Steps, st)
			engines[g.main.IOEngine] = true
			if f := g.main.Options[fio.OptFilename]; f != "" {
				targets[f] = true
			}
			if v, ok := g.main.Options[fio.OptDirect]; ok && v != "0" {
				r.Meta.Workload.Direct = true
			}
			if v := g.main.Options[fio.OptRWMixRead]; v != "" {
				fmt.Sscan(v, &r.Meta.Workload.RWMixRead)
			}
			r.Meta.Workload.RuntimeNs = max(r.Meta.Workload.RuntimeNs, st.RuntimeNs)
		}
		if o.Timestamp > 0 {
			if first == 0 || o.Timestamp < first {
				first = o.Timestamp
			}
			last = max(last, o.Timestamp)
		}
	}
	if len(r.Steps) == 0 {
		return nil, fmt.Errorf("fio import: %w", ErrNoIO)
	}
	if err := checkUsable(r.Steps); err != nil {
		return nil, err
	}
	sortSteps(r.Steps)
	r.Meta.Engine = joinKeys(engines, "fio")
	r.Meta.Target = joinKeys(targets, "")
	if last > 0 {
		r.Meta.End = time.Unix(last, 0).UTC()
		r.Meta.Start = time.Unix(first, 0).UTC().Add(-time.Duration(r.Meta.Workload.RuntimeNs))
	}
	r.Plan = planOf(r.Steps)
	if hosts := fleetOf(r.Steps); hosts > 1 {
		r.Plan.Hosts = hosts
	}
	return r, nil
}

// checkUsable refuses an import with no step Little's Law can read: none
// measured latency (ErrNoLatency), or none says its iodepth (ErrNoIODepth).
func checkUsable(steps []sweep.Step) error {
	usable, noLat := 0, 0
	for _, st := range steps {
		switch {
		case st.Failed != "":
		case st.LatNotMeasured:
			noLat++
		case !st.IODepthUnknown:
			usable++
		}
	}
	switch {
	case usable > 0:
		return nil
	case noLat > 0:
		return fmt.Errorf("fio import: %w", ErrNoLatency)
	default:
		return fmt.Errorf("fio import: %w", ErrNoIODepth)
	}
}

// sortSteps orders imported steps as a sweep runs them: by rw, block
// size, queue depth, then iodepth.
func sortSteps(steps []sweep.Step) {
	sort.SliceStable(steps, func(a, b int) bool {
		x, y := steps[a], steps[b]
		if x.RW != y.RW {
			return x.RW < y.RW
		}
		if x.BS != y.BS {
			return x.BS < y.BS
		}
		if x.QD != y.QD {
			return x.QD < y.QD
		}
		return x.IODepth < y.IODepth
	})
}

// fleetOf is the number of hosts when every step is a client/server
// report of one fleet size (each step's QD spread over them), else 0.
func fleetOf(steps []sweep.Step) int {
	hosts := len(steps[0].Hosts)
	for _, st := range steps {
		if len(st.Hosts) != hosts || st.QD != hosts*st.IODepth*st.NumJobs {
			return 0
		}
	}
	return hosts
}

// fioGroup is one step's jobs: a job, its separately listed clones, or an
// "All clients" aggregate with its clients.
type fioGroup struct {
	main    fio.Job
	clones  []fio.Job // more clones of main (main included first)
	clients []fio.Job // per-client reports of an aggregate
}

// groupJobs gathers clones and clients into steps, in report order.
func groupJobs(jobs []fio.Job) []fioGroup {
	var all *fio.Job
	for i := range jobs {
		if jobs[i].AllClients {
			all = &jobs[i]
		}
	}
	if all != nil {
		g := fioGroup{main: *all}
		for _, j := range jobs {
			if !j.AllClients {
				g.clients = append(g.clients, j)
			}
		}
		return []fioGroup{g}
	}
	type key struct {
		name, host string
		port, gid  int
	}
	idx := map[key]int{}
	var gs []fioGroup
	for _, j := range jobs {
		k := key{j.Name, j.Host, j.Port, j.GroupID}
		if i, ok := idx[k]; ok && j.CloneOf > 0 {
			gs[i].clones = append(gs[i].clones, j)
			continue
		}
		idx[k] = len(gs)
		gs = append(gs, fioGroup{main: j, clones: []fio.Job{j}})
	}
	return gs
}

// blockSizeOf is the block size of I/Os that moved the directions' bytes
// when the output does not say it: bytes ÷ I/Os only when it divides
// exactly into whole sectors (fio 2.0's I/O count is IOPS × runtime, and a
// guess of 4,102 bytes is no block size); else 0, unknown.
func blockSizeOf(dirs []*fio.Dir, ios int64) int64 {
	if ios <= 0 {
		return 0
	}
	var bytes int64
	for _, d := range dirs {
		bytes += d.IOBytes
	}
	if bytes%ios == 0 && bytes/ios%512 == 0 {
		return bytes / ios
	}
	return 0
}

// stepFromFio converts one group into a step.
// fioIOPSNoise is the coefficient of variation of fio's IOPS samples
// (iops_stddev ÷ iops_mean) and their count, when one direction of one
// entry carries the whole step and its samples are of the step's IOPS
// (their mean within a quarter of it: fio's group_reporting pools each
// job's samples, which are of one job's IOPS); 0, 0 otherwise or with
// fewer than 3 samples.
func fioIOPSNoise(read, write []*fio.Dir) (cv float64, samples int64) {
	dirs := append(read[:len(read):len(read)], write...)
	if len(dirs) != 1 {
		return 0, 0
	}
	d := dirs[0]
	if d.IOPSSamples < 3 || d.IOPSStddev <= 0 || d.IOPSMean <= 0 || math.Abs(d.IOPSMean/d.IOPS-1) > 0.25 {
		return 0, 0
	}
	return d.IOPSStddev / d.IOPSMean, d.IOPSSamples
}

func stepFromFio(g fioGroup) (sweep.Step, error) {
	j := g.main
	st := sweep.Step{RW: j.RW, BS: j.BS, IODepth: j.IODepth, NumJobs: j.NumJobs, IODepthUnknown: j.IODepthFrom == "unknown"}
	measured := false
	jobs := g.clones
	if len(jobs) == 0 {
		jobs = []fio.Job{j}
	}
	if len(jobs) > 1 {
		st.NumJobs = 0
		for _, c := range jobs {
			st.NumJobs += c.NumJobs
		}
	}
	var read, write []*fio.Dir
	var ios int64
	var latSum float64
	var runtimeMs int64
	for i, c := range jobs {
		s := c.Summary()
		measured = measured || s.LatMeasured
		st.IOPS += s.IOPS
		st.BWBytes += s.BWBytes
		ios += s.TotalIOs
		latSum += s.LatMeanNs * float64(s.TotalIOs)
		runtimeMs = max(runtimeMs, s.RuntimeMs)
		worst := LatencyOf(s.Lat)
		if i == 0 || worst.P99Ns > st.Lat.P99Ns {
			st.Lat = worst
		}
		cpuS := float64(c.RuntimeMs) / 1e3 / 100
		st.CPU.UsrS += c.UsrCPU * cpuS
		st.CPU.SysS += c.SysCPU * cpuS
		if c.Read != nil && c.Read.TotalIOs > 0 {
			read = append(read, c.Read)
		}
		if c.Write != nil && c.Write.TotalIOs > 0 {
			write = append(write, c.Write)
		}
		if c.Error != 0 {
			st.Errors = append(st.Errors, ioengine.IOError{Errno: fmt.Sprintf("errno %d", c.Error), Op: "fio", FirstOffset: -1, Count: 1})
		}
	}
	if ios > 0 {
		st.Lat.MeanNs = latSum / float64(ios)
	} else if st.IOPS > 0 {
		st.Lat.MeanNs = j.Summary().LatMeanNs
	}
	if st.IOPS <= 0 {
		st.Failed = "fio reported no I/O"
	}
	if !measured {
		st.LatNotMeasured, st.Lat = true, ioengine.Latency{}
	}
	binsPercentiles(&st, jobs, g.clients)
	st.IOPSCV, st.IOPSSamples = fioIOPSNoise(read, write)
	st.Read, st.Write = mergeDirs(read), mergeDirs(write)
	if st.RW == "" {
		st.RW = rwOf(st.Read, st.Write)
	}
	if st.BS == 0 {
		st.BS = blockSizeOf(append(read, write...), ios)
	}
	st.QD = st.IODepth * st.NumJobs
	st.OfferedIOPS = offeredOf(j) * float64(st.NumJobs)
	if n := len(g.clients); n > 1 && g.clients[0].NumJobs > 0 && st.NumJobs == n*g.clients[0].NumJobs {
		// A fleet: iodepth and numjobs per host, QD the fleet's.
		st.NumJobs = g.clients[0].NumJobs
		st.QD = n * st.IODepth * st.NumJobs
	}
	st.RuntimeNs = runtimeMs * int64(time.Millisecond)
	st.Hosts = hostsOf(g.clients)
	return st, nil
}

// offeredOf is the load a job of fio's offered with open-loop arrivals
// (its options rate_process=poisson at rate_iops): its rate in the
// directions its rw does I/O in, I/Os per second a job; 0 for a closed
// loop, or a rate fio's JSON does not give.
func offeredOf(j fio.Job) float64 {
	if j.Options[fio.OptRateProcess] != "poisson" {
		return 0
	}
	v := j.Options[fio.OptRateIOPS]
	if v == "" {
		return 0
	}
	r, err := rates(fio.Option{Key: fio.OptRateIOPS, Value: v}, false, 1024)
	if err != nil {
		return 0
	}
	rw := j.RW
	if j.RW == "" {
		rw = j.Options[fio.OptRW]
	}
	read, write, _ := fio.RWDirections(rw)
	total := 0.0
	if read {
		total += r[0]
	}
	if write {
		total += r[1]
	}
	return total
}

// rwOf is the rw of a job that did not say it, from the directions it
// did I/O in.
func rwOf(read, write *ioengine.DirStats) string {
	switch {
	case read != nil && write != nil:
		return fio.OptRW
	case write != nil:
		return "write"
	default:
		return "read"
	}
}

// hostsOf is each client's figures of a client/server report (none for
// a local run).
func hostsOf(clients []fio.Job) []sweep.HostStep {
	var hs []sweep.HostStep
	for _, c := range clients {
		s := c.Summary()
		host := c.Host
		if c.Port != 0 {
			host = fmt.Sprintf("%s:%d", c.Host, c.Port)
		}
		hs = append(hs, sweep.HostStep{Host: host, IOPS: s.IOPS, BWBytes: s.BWBytes, Lat: LatencyOf(s.Lat)})
	}
	return hs
}

// binsPercentiles replaces the step's percentiles, min and max by those of
// all its I/Os when fio wrote json+ histograms: every direction of every
// clone (or, for a client/server aggregate, of every client) merged; each
// direction's own from its merged histograms. fio's "All clients" and the
// busiest direction alone are not the step's percentiles.
func binsPercentiles(st *sweep.Step, jobs, clients []fio.Job) {
	if len(clients) > 0 {
		jobs = clients
	}
	var all, read, write [][]fio.Bin
	var lo, hi float64
	for _, j := range jobs {
		for _, d := range j.Dirs() {
			l, _ := d.TotalLat()
			if !l.Known() || len(l.Bins) == 0 {
				continue
			}
			if lo == 0 || l.MinNs < lo {
				lo = l.MinNs
			}
			hi = max(hi, l.MaxNs)
			all = append(all, l.Bins)
			if d == j.Read {
				read = append(read, l.Bins)
			} else if d == j.Write {
				write = append(write, l.Bins)
			}
		}
	}
	if len(all) == 0 {
		return
	}
	set := func(l *ioengine.Latency, bins []fio.Bin) {
		at := func(p float64) int64 { v, _ := fio.BinsPercentile(bins, p); return int64(v) }
		l.P50Ns, l.P90Ns, l.P99Ns, l.P999Ns = at(50), at(90), at(99), at(99.9)
	}
	set(&st.Lat, fio.MergeBins(all...))
	st.Lat.MinNs, st.Lat.MaxNs = int64(lo), int64(hi)
	if st.Read != nil && len(read) > 0 {
		set(&st.Read.Lat, fio.MergeBins(read...))
	}
	if st.Write != nil && len(write) > 0 {
		set(&st.Write.Lat, fio.MergeBins(write...))
	}
}

// mergeDirs merges one direction over clones (nil when none did it).
func mergeDirs(ds []*fio.Dir) *ioengine.DirStats {
	if len(ds) == 0 {
		return nil
	}
	out := DirStats(*ds[0])
	if len(ds) == 1 {
		return out
	}
	latSum := out.Lat.MeanNs * float64(out.TotalIOs)
	for _, d := range ds[1:] {
		s := DirStats(*d)
		out.TotalIOs += s.TotalIOs
		out.Bytes += s.Bytes
		out.IOPS += s.IOPS
		out.BWBytes += s.BWBytes
		latSum += s.Lat.MeanNs * float64(s.TotalIOs)
		out.Lat.MinNs = min(out.Lat.MinNs, s.Lat.MinNs)
		out.Lat.MaxNs = max(out.Lat.MaxNs, s.Lat.MaxNs)
		out.Lat.P50Ns = max(out.Lat.P50Ns, s.Lat.P50Ns)
		out.Lat.P90Ns = max(out.Lat.P90Ns, s.Lat.P90Ns)
		out.Lat.P99Ns = max(out.Lat.P99Ns, s.Lat.P99Ns)
		out.Lat.P999Ns = max(out.Lat.P999Ns, s.Lat.P999Ns)
	}
	if out.TotalIOs > 0 {
		out.Lat.MeanNs = latSum / float64(out.TotalIOs)
	}
	return out
}

// planOf lists the distinct values the steps cover, sorted.
func planOf(steps []sweep.Step) sweep.Plan {
	rws, bss, ds, js := map[string]bool{}, map[int64]bool{}, map[int]bool{}, map[int]bool{}
	for _, s := range steps {
		rws[s.RW], bss[s.BS], ds[s.IODepth], js[s.NumJobs] = true, true, true, true
	}
	var p sweep.Plan
	for k := range rws {
		p.RW = append(p.RW, k)
	}
	for k := range bss {
		p.BS = append(p.BS, k)
	}
	for k := range ds {
		p.IODepth = append(p.IODepth, k)
	}
	for k := range js {
		p.NumJobs = append(p.NumJobs, k)
	}
	sort.Strings(p.RW)
	sort.Slice(p.BS, func(a, b int) bool { return p.BS[a] < p.BS[b] })
	sort.Ints(p.IODepth)
	sort.Ints(p.NumJobs)
	return p
}

// joinKeys joins a set's non-empty keys sorted with ",", or def when there are none.
func joinKeys(m map[string]bool, def string) string {
	var ks []string
	for k := range m {
		if k != "" {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return def
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}
