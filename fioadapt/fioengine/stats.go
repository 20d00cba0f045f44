package fioengine

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// statsOf converts fio's report of one run into ioengine.Stats: the single
// (grouped) job locally, "All clients" with one HostStats per client in
// client/server mode.
func statsOf(o fio.Output, w ioengine.Workload, clients []string) (*ioengine.Stats, error) {
	var agg *fio.Job
	var hosts []fio.Job
	for i := range o.Jobs {
		j := &o.Jobs[i]
		switch {
		case j.AllClients:
			agg = j
		case len(clients) > 0:
			hosts = append(hosts, *j)
		case agg == nil:
			agg = j
		}
	}
	if agg == nil && len(hosts) == 1 {
		agg = &hosts[0] // one client: fio prints no "All clients"
	}
	if agg == nil {
		return nil, fmt.Errorf("fio output: no job report")
	}
	st := &ioengine.Stats{Engine: ioengine.EngineFio}
	s := agg.Summary()
	st.Runtime = time.Duration(s.RuntimeMs) * time.Millisecond
	st.All = ioengine.DirStats{TotalIOs: s.TotalIOs, IOPS: s.IOPS, BWBytes: s.BWBytes, Lat: fioadapt.LatencyOf(s.Lat)}
	for _, d := range agg.Dirs() {
		st.All.Bytes += d.IOBytes
	}
	if agg.Read != nil && w.RW.IsRead() {
		st.Read = fioadapt.DirStats(*agg.Read)
	}
	if agg.Write != nil && w.RW.IsWrite() {
		st.Write = fioadapt.DirStats(*agg.Write)
	}
	copy(st.IODepths[:], agg.DepthCounts(s.TotalIOs))
	// fio does not measure the in-flight mean: Little's Law from its figures.
	st.InflightMean = s.IOPS * s.LatMeanNs / 1e9
	cpuS := float64(agg.RuntimeMs) / 1e3 / 100
	st.CPU = ioengine.CPU{UsrS: agg.UsrCPU * cpuS, SysS: agg.SysCPU * cpuS}
	if agg.Error != 0 {
		op := "read"
		if w.RW.IsWrite() && !w.RW.IsRead() {
			op = "write"
		}
		st.Errors = append(st.Errors, ioengine.IOError{Errno: errnoName(agg.Error), Op: op, FirstOffset: -1, Count: 1})
	}
	for _, h := range hosts {
		hs := h.Summary()
		st.Hosts = append(st.Hosts, ioengine.HostStats{Host: clientName(h, clients), IOPS: hs.IOPS, BWBytes: hs.BWBytes, Lat: fioadapt.LatencyOf(hs.Lat), TotalIOs: hs.TotalIOs})
	}
	if len(hosts) > 1 {
		// The fleet's rate is the hosts' rates added up, each over its own
		// runtime: fio's "All clients" divides all I/Os by the longest
		// runtime, short of the sum whenever the hosts did not start and
		// end together. Its in flight is the hosts' in flight added up.
		st.All.IOPS, st.All.BWBytes, st.InflightMean = 0, 0, 0
		for _, h := range hosts {
			hs := h.Summary()
			st.All.IOPS += hs.IOPS
			st.All.BWBytes += hs.BWBytes
			st.InflightMean += hs.IOPS * hs.LatMeanNs / 1e9
		}
	}
	mergeHistograms(st, agg, hosts, w)
	// In the order the clients were given.
	rank := map[string]int{}
	for i, c := range clients {
		rank[c] = i + 1
	}
	sort.SliceStable(st.Hosts, func(a, b int) bool { return rank[st.Hosts[a].Host] < rank[st.Hosts[b].Host] })
	return st, nil
}

// mergeHistograms sets the run's latency percentiles, min and max from
// fio's json+ histograms merged over every direction and every host (fio's
// own "All clients" percentiles are not the fleet's), and a fleet's mean
// latency as the hosts' means weighted by their IOPS, so that fleet IOPS ×
// mean latency is the hosts' in flight added up. Each host's percentiles
// come from its own histograms. Without json+ bins nothing changes.
func mergeHistograms(st *ioengine.Stats, agg *fio.Job, hosts []fio.Job, w ioengine.Workload) {
	jobs := hosts
	if len(jobs) == 0 {
		jobs = []fio.Job{*agg}
	}
	var all, read, write [][]fio.Bin
	var minNs, maxNs float64
	for i, j := range jobs {
		var mine [][]fio.Bin
		for _, d := range j.Dirs() {
			l, _ := d.TotalLat()
			if l.Known() {
				if minNs == 0 || l.MinNs < minNs {
					minNs = l.MinNs
				}
				maxNs = max(maxNs, l.MaxNs)
			}
			if len(l.Bins) == 0 {
				continue
			}
			mine = append(mine, l.Bins)
			switch d {
			case j.Read:
				read = append(read, l.Bins)
			case j.Write:
				write = append(write, l.Bins)
			}
		}
		all = append(all, mine...)
		if len(hosts) > 0 && i < len(st.Hosts) && len(mine) > 0 {
			withBins(&st.Hosts[i].Lat, fio.MergeBins(mine...))
		}
	}
	if len(all) == 0 {
		return
	}
	withBins(&st.All.Lat, fio.MergeBins(all...))
	st.All.Lat.MinNs, st.All.Lat.MaxNs = int64(minNs), int64(maxNs) // over every direction and host, exact
	if st.Read != nil && len(read) > 0 {
		withBins(&st.Read.Lat, fio.MergeBins(read...))
	}
	if st.Write != nil && len(write) > 0 {
		withBins(&st.Write.Lat, fio.MergeBins(write...))
	}
	if len(hosts) > 1 {
		var iops, sum float64
		for _, h := range hosts {
			s := h.Summary()
			iops += s.IOPS
			sum += s.IOPS * s.LatMeanNs
		}
		if iops > 0 {
			st.All.Lat.MeanNs = sum / iops
		}
	}
}

// withBins sets l's percentiles and bins from a merged histogram (ns).
func withBins(l *ioengine.Latency, bins []fio.Bin) {
	at := func(p float64) int64 { v, _ := fio.BinsPercentile(bins, p); return int64(v) }
	l.P50Ns, l.P90Ns, l.P99Ns, l.P999Ns = at(50), at(90), at(99), at(99.9)
	l.Bins = fioadapt.LatencyBins(bins)
}

// clientName is the client (as given) that a job report came from, else "host:port".
func clientName(j fio.Job, clients []string) string {
	for _, c := range clients {
		h, p, err := fio.SplitClient(c)
		if err != nil {
			continue
		}
		if p == 0 {
			p = fio.DefaultPort
		}
		if h == j.Host && p == j.Port {
			return c
		}
	}
	if j.Port == 0 {
		return j.Host
	}
	return net.JoinHostPort(j.Host, strconv.Itoa(j.Port))
}

// steadyOf is the steady-state test of fio's report of one run: its first
// job's with one (the run's jobs are one group, reported together), or nil.
func steadyOf(o fio.Output) *fio.SteadyState {
	for i := range o.Jobs {
		if o.Jobs[i].Steady != nil {
			return o.Jobs[i].Steady
		}
	}
	return nil
}
