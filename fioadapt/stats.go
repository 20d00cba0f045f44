package fioadapt

import (
	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// LatencyOf converts fio's latency summary to ioengine.Latency (nanoseconds;
// percentiles fio did not report stay 0).
func LatencyOf(l fio.LatStat) ioengine.Latency {
	at := func(p float64) int64 { v, _ := l.At(p); return int64(v) }
	return ioengine.Latency{MinNs: int64(l.MinNs), MeanNs: l.MeanNs, MaxNs: int64(l.MaxNs), StddevNs: l.StddevNs,
		P50Ns: at(50), P90Ns: at(90), P99Ns: at(99), P999Ns: at(99.9)}
}

// LatencyBins are fio's json+ bins as the engine's (nil for none).
func LatencyBins(bins []fio.Bin) []ioengine.LatencyBin {
	var out []ioengine.LatencyBin
	for _, b := range bins {
		out = append(out, ioengine.LatencyBin{Ns: b.Ns, Count: b.Count})
	}
	return out
}

// FioBins are the engine's reported bins as fio's (nil for none).
func FioBins(bins []ioengine.LatencyBin) []fio.Bin {
	var out []fio.Bin
	for _, b := range bins {
		out = append(out, fio.Bin{Ns: b.Ns, Count: b.Count})
	}
	return out
}

// DirStats converts one direction to ioengine.DirStats (total latency;
// each priority's, fio's prios, from its clat).
func DirStats(d fio.Dir) *ioengine.DirStats {
	l, _ := d.TotalLat()
	out := &ioengine.DirStats{TotalIOs: d.TotalIOs, Bytes: d.IOBytes, IOPS: d.IOPS, BWBytes: d.BWBytes, Lat: LatencyOf(l)}
	if l.PercentilesOf == "" {
		out.Lat.Bins = LatencyBins(l.Bins) // the total's own (not clat's lent)
	}
	if d.Slat.Known() {
		sl := LatencyOf(d.Slat)
		out.Slat = &sl
	}
	if d.Clat.Known() {
		cl := LatencyOf(d.Clat)
		cl.Bins = LatencyBins(d.Clat.Bins)
		out.Clat = &cl
	}
	for _, p := range d.Prios {
		out.Prios = append(out.Prios, ioengine.PrioStats{Prio: ioengine.PrioValue(p.Class, p.Level),
			DirStats: ioengine.DirStats{TotalIOs: p.Clat.N, Lat: LatencyOf(p.Clat)}})
	}
	return out
}
