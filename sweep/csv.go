package sweep

import (
	"encoding/csv"
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"io"
	"strconv"
)

// CSVHeader is the header row WriteCSV writes. Latencies are in ns,
// bandwidth in bytes per second, runtime in ns; iops_cv is a fraction,
// hosts the hosts that ran the step at once, shortfall the cause of a step
// that kept too few I/Os in flight ("" when it kept its depth);
// sustained_iops and sustained_lat_mean_ns the level the analysis reads
// the step at in place of its mean (empty when it uses the mean), and
// left_out why the analysis leaves the step out ("on-credits",
// "above-control" or empty).
var CSVHeader = []string{
	fio.OptRW, fio.OptBS, fio.OptIODepth, fio.OptNumJobs, "qd", "iops", "bw_bytes",
	"lat_mean_ns", "lat_min_ns", "lat_p50_ns", "lat_p90_ns", "lat_p99_ns", "lat_p999_ns", "lat_max_ns",
	"inflight_mean", "little_error", "steady", "runtime_ns", "usr_s", "sys_s", "io_errors", "failed", "skipped",
	"not_steady", "iops_cv", "refined", "hosts", "shortfall",
	"sustained_iops", "sustained_lat_mean_ns", "left_out",
}

// WriteCSV writes one row per step of r, after CSVHeader.
func WriteCSV(w io.Writer, r *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, s := range r.Steps {
		var ioErrs int64
		for _, e := range s.Errors {
			ioErrs += e.Count
		}
		row := []string{
			s.RW, i(s.BS), strconv.Itoa(s.IODepth), strconv.Itoa(s.NumJobs), strconv.Itoa(s.QD),
			f(s.IOPS), f(s.BWBytes),
			f(s.Lat.MeanNs), i(s.Lat.MinNs), i(s.Lat.P50Ns), i(s.Lat.P90Ns), i(s.Lat.P99Ns), i(s.Lat.P999Ns), i(s.Lat.MaxNs),
			f(s.InflightMean), f(s.LittleError), strconv.FormatBool(s.Steady), i(s.RuntimeNs),
			f(s.CPU.UsrS), f(s.CPU.SysS), i(ioErrs), s.Failed, s.Skipped,
			s.NotSteady, f(s.IOPSCV), s.Refined, strconv.Itoa(max(len(s.Hosts), 1)), shortfallCause(s),
			"", "", leftOut(s),
		}
		if v, ok := s.SustainedLevel(); ok {
			row[len(row)-3], row[len(row)-2] = f(v.IOPS), f(v.LatMeanNs)
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	return nil
}

// leftOut says why the analysis leaves s out for what its series showed
// (SetAsideWhy), in the CSV's words; "" when it does not.
func leftOut(s Step) string {
	switch s.SetAsideWhy() {
	case AsideCredits:
		return "on-credits"
	case AsideAboveLevel:
		return "above-control"
	}
	return ""
}
