package report

import (
	"strconv"

	"gonum.org/v1/plot"
)

// throughputBS is the block size from which a workload is judged by its
// bandwidth rather than its IOPS, bytes.
const throughputBS = 64 << 10

// throughputJudged reports whether in's curves are judged by bandwidth:
// their block sizes differ, or one is throughputBS or larger. Those
// results get the MiB/s views (bandwidth-vs-qd, latency-vs-bandwidth) and
// their dashboard shows them instead of the IOPS views.
func (in chartInput) throughputJudged() bool {
	var first int64
	for i, s := range in.Series {
		if s.BS >= throughputBS {
			return true
		}
		if i == 0 {
			first = s.BS
		} else if s.BS != first {
			return true
		}
	}
	return false
}

// mixedBS reports whether in's curves have more than one block size.
func (in chartInput) mixedBS() bool {
	for _, s := range in.Series {
		if s.BS != in.Series[0].BS {
			return true
		}
	}
	return false
}

// metric is the throughput a chart plots: IOPS, or MiB/s (IOPS × block size).
type metric struct {
	Name  string                 // axis label and title word: "IOPS", "MiB/s"
	Title string                 // as in chart titles: "IOPS", "Bandwidth"
	Per   func(bs int64) float64 // units per I/O of a bs-byte block: 1 for IOPS
	Ticks plot.Ticker
	Fmt   func(float64) string // a value with its unit, for legends
}

var (
	iopsMetric = metric{Name: "IOPS", Title: "IOPS", Per: func(int64) float64 { return 1 }, Ticks: iopsTicks{},
		Fmt: func(v float64) string { return FormatIOPS(v) + " IOPS" }}
	mibMetric = metric{Name: "MiB/s", Title: "Bandwidth", Per: func(bs int64) float64 { return float64(bs) / (1 << 20) }, Ticks: mibTicks{},
		Fmt: func(v float64) string { return FormatMiBps(v*(1<<20)) + " MiB/s" }}
)

// mibTicks labels a linear MiB/s axis with plain numbers ("250", "1000").
type mibTicks struct{}

// Ticks returns linear ticks.
func (mibTicks) Ticks(min, max float64) []plot.Tick {
	return niceTicks(min, max, func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) })
}

// bandwidthFigure is MiB/s against total queue depth: every curve on one
// bandwidth axis, which block sizes share (a 1 MiB curve and a 4 KiB one
// are compared in the unit both are judged by).
func bandwidthFigure(in chartInput) (*figure, error) {
	return throughputFigure(in, mibMetric, false)
}

// iopsFigure is IOPS against total queue depth; with several block sizes,
// one panel per block size, each on its own IOPS axis (a 1 MiB curve would
// be a flat line at the bottom of a 4 KiB curve's axis).
func iopsFigure(in chartInput) (*figure, error) {
	return throughputFigure(in, iopsMetric, in.mixedBS())
}
