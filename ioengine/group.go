package ioengine

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// MergeGroup is the figures of several runs that ran together as one
// group, as fio's group_reporting reports the jobs of a group: I/Os and
// bytes added up over the longest window (fio's group runtime), latency
// from the merged histograms (mean weighted by I/Os), in flight and CPU
// added up. Nil entries are left out; nil when none is left.
func MergeGroup(sts []*Stats) *Stats {
	var in []*Stats
	for _, s := range sts {
		if s != nil {
			in = append(in, s)
		}
	}
	if len(in) == 0 {
		return nil
	}
	out := &Stats{Engine: in[0].Engine, FallbackReason: in[0].FallbackReason, FioIOEngine: in[0].FioIOEngine,
		Buffers: in[0].Buffers, Errors: []IOError{}}
	all := make([]*DirStats, 0, len(in))
	var reads, writes, syncs []*DirStats
	for _, s := range in {
		out.Runtime = max(out.Runtime, s.Runtime)
		out.InflightMean += s.InflightMean
		out.CPU.UsrS += s.CPU.UsrS
		out.CPU.SysS += s.CPU.SysS
		out.ShortIOs += s.ShortIOs
		for _, e := range s.Errors {
			out.Errors = mergeIOError(out.Errors, e)
		}
		for b := range s.IODepths {
			out.IODepths[b] += s.IODepths[b]
			out.Submits[b] += s.Submits[b]
			out.Completes[b] += s.Completes[b]
		}
		all = append(all, &s.All)
		reads, writes, syncs = appendDir(reads, s.Read), appendDir(writes, s.Write), appendDir(syncs, s.Sync)
	}
	out.All = *mergeDirs(all, out.Runtime)
	out.Read, out.Write, out.Sync = mergeDirs(reads, out.Runtime), mergeDirs(writes, out.Runtime), mergeDirs(syncs, out.Runtime)
	return out
}

func appendDir(ds []*DirStats, d *DirStats) []*DirStats {
	if d != nil {
		ds = append(ds, d)
	}
	return ds
}

// mergeDirs adds up one direction of several runs over window; nil for none.
func mergeDirs(ds []*DirStats, window time.Duration) *DirStats {
	if len(ds) == 0 {
		return nil
	}
	out := &DirStats{}
	var latSum float64
	var h *hdrhistogram.Histogram
	for _, d := range ds {
		out.TotalIOs += d.TotalIOs
		out.Bytes += d.Bytes
		latSum += d.Lat.MeanNs * float64(d.TotalIOs)
		if d.Hist == nil {
			continue
		}
		if h == nil {
			h = hdrhistogram.New(d.Hist.LowestTrackableValue(), d.Hist.HighestTrackableValue(), int(d.Hist.SignificantFigures()))
		}
		h.Merge(d.Hist)
	}
	if s := window.Seconds(); s > 0 {
		out.IOPS = float64(out.TotalIOs) / s
		out.BWBytes = float64(out.Bytes) / s
	}
	if out.TotalIOs > 0 && h != nil && h.TotalCount() > 0 {
		out.Lat = Latency{MinNs: h.Min(), MeanNs: latSum / float64(out.TotalIOs), P50Ns: h.ValueAtQuantile(50),
			P90Ns: h.ValueAtQuantile(90), P99Ns: h.ValueAtQuantile(99), P999Ns: h.ValueAtQuantile(99.9), MaxNs: h.Max()}
		out.Hist = h
	} else if out.TotalIOs > 0 {
		out.Lat.MeanNs = latSum / float64(out.TotalIOs)
	}
	return out
}

// mergeIOError adds e to errs: its count to the entry of the same errno
// and operation (the lower first offset kept), or as a new entry.
func mergeIOError(errs []IOError, e IOError) []IOError {
	for i := range errs {
		if errs[i].Errno == e.Errno && errs[i].Op == e.Op {
			errs[i].Count += e.Count
			errs[i].FirstOffset = min(errs[i].FirstOffset, e.FirstOffset)
			return errs
		}
	}
	return append(errs, e)
}
