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

// DirStats converts one direction to ioengine.DirStats (total latency;
// each priority's, fio's prios, from its clat).
func DirStats(d fio.Dir) *ioengine.DirStats {
	l, _ := d.TotalLat()
	out := &ioengine.DirStats{TotalIOs: d.TotalIOs, Bytes: d.IOBytes, IOPS: d.IOPS, BWBytes: d.BWBytes, Lat: LatencyOf(l)}
	for _, p := range d.Prios {
		out.Prios = append(out.Prios, ioengine.PrioStats{Prio: ioengine.PrioValue(p.Class, p.Level),
			DirStats: ioengine.DirStats{TotalIOs: p.Clat.N, Lat: LatencyOf(p.Clat)}})
	}
	return out
}
