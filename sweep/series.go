package sweep

import (
	"encoding/csv"
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"io"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/qdsweep/qdsweep/device"
	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// ResultsSeriesCSV is the per-interval file beside results.csv.
const ResultsSeriesCSV = "results-series.csv"

// Series is a step's measured window in slices of IntervalNs.
type Series struct {
	IntervalNs int64         `json:"interval_ns"`
	Points     []SeriesPoint `json:"points"`
	// Source says where the slices came from: "" (the engine), or the fio
	// logs they were read from: "fio-iops-log", "fio-lat-log", "fio-status".
	Source string `json:"source,omitempty"`
	// Ramp is the step's ramp in the same slices (Interval.Ramp set, t_ns
	// negative: before the window), none without a ramp.
	Ramp []ioengine.Interval `json:"ramp,omitempty"`
}

// SeriesPoint is one slice: the engine's figures and, when the target has
// a block device, iostat's columns over the same slice.
type SeriesPoint struct {
	ioengine.Interval
	Device *DeviceStats `json:"device,omitempty"`
}

// seriesInterval is cfg's log interval: the default when 0, none when < 0.
func seriesInterval(cfg Config) time.Duration {
	switch {
	case cfg.LogInterval < 0:
		return 0
	case cfg.LogInterval == 0:
		return ioengine.DefaultSeriesInterval
	}
	return cfg.LogInterval
}

// recordSeriesSettings notes the log interval in r.
func recordSeriesSettings(cfg Config, r *Result) {
	r.Meta.Workload.LogIntervalNs = int64(seriesInterval(cfg))
}

// diskSeries samples the target's diskstats at the window's start, at
// every interval and at its end, beside the engine's series.
type diskSeries struct {
	dev     *device.Device
	mu      sync.Mutex
	samples []device.Sample // start, tick 1, tick 2, …
	end     *device.Sample
	ok      bool
}

func newDiskSeries(p Probe) *diskSeries {
	dp, ok := p.(*DeviceProbe)
	if !ok || dp.Device() == nil {
		return nil
	}
	return &diskSeries{dev: dp.Device(), ok: true}
}

func (d *diskSeries) sample(end bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.ok {
		return
	}
	s, err := d.dev.Sample()
	if err != nil {
		d.ok = false
		return
	}
	if end {
		d.end = &s
		return
	}
	d.samples = append(d.samples, s)
}

// attach sets each point's Device from the samples around it: slice k runs
// from sample k to sample k+1, the last slice to the end sample.
func (d *diskSeries) attach(pts []SeriesPoint) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.ok || d.end == nil {
		return
	}
	for k := range pts {
		if k >= len(d.samples) {
			return
		}
		b := d.end
		if k+1 < len(pts) {
			if k+1 >= len(d.samples) {
				return
			}
			b = &d.samples[k+1]
		}
		r, err := device.Rate(d.samples[k], *b)
		if err != nil {
			continue
		}
		pts[k].Device = &DeviceStats{
			ReadsPerSec: r.ReadsPerSec, WritesPerSec: r.WritesPerSec,
			ReadMBps: r.ReadMiBps, WriteMBps: r.WriteMiBps,
			ReadAwaitMs: r.ReadAwaitMs, WriteAwaitMs: r.WriteAwaitMs,
			AquSz: r.AquSz, UtilPct: r.UtilPct,
			RareqSzKB: r.RareqSzKiB, WareqSzKB: r.WareqSzKiB,
		}
	}
}

// withSeries arms ctl for a series of cfg's interval and returns what
// turns the engine's intervals into the step's Series.
func withSeries(cfg Config, ctl *ioengine.Control) func(*ioengine.Stats) *Series {
	iv := seriesInterval(cfg)
	if iv <= 0 {
		return func(*ioengine.Stats) *Series { return nil }
	}
	ctl.SeriesInterval = iv
	disk := newDiskSeries(cfg.Probe)
	if disk != nil {
		start, end := ctl.OnWindowStart, ctl.OnWindowEnd
		ctl.OnWindowStart = func() {
			disk.sample(false)
			if start != nil {
				start()
			}
		}
		ctl.OnWindowEnd = func() {
			disk.sample(true)
			if end != nil {
				end()
			}
		}
		ctl.OnInterval = func(int) { disk.sample(false) }
	}
	return func(st *ioengine.Stats) *Series {
		if st == nil || len(st.Series) == 0 {
			return nil
		}
		s := &Series{IntervalNs: int64(iv), Points: make([]SeriesPoint, len(st.Series)), Ramp: st.Ramp}
		for i, v := range st.Series {
			s.Points[i].Interval = v
		}
		if disk != nil {
			disk.attach(s.Points)
		}
		return s
	}
}

// TimeSamples converts the step's series for littleslaw's time rules.
func (s Step) TimeSamples() []diagnosis.TimeSample {
	if s.Series == nil {
		return nil
	}
	out := make([]diagnosis.TimeSample, len(s.Series.Points))
	for i, p := range s.Series.Points {
		out[i] = diagnosis.TimeSample{
			TSec: float64(p.StartNs) / 1e9, DurSec: float64(p.DurNs) / 1e9, IOs: float64(p.IOs),
			IOPS: p.IOPS(), BWBytes: p.BWBytes(), LatMeanNs: p.LatMeanNs, P99Ns: float64(p.LatP99Ns),
			Inflight: p.InflightMean,
		}
	}
	return out
}

// AnalyzeTime fills every measured step's Time from its series under the
// steady-state criterion recorded in Meta (nil when it has no series).
func (r *Result) AnalyzeTime() {
	ss := diagnosis.SteadyCriterion{WindowSec: float64(r.Meta.SteadyWindowNs) / 1e9, Limit: r.Meta.SteadyLimit}
	for i := range r.Steps {
		s := &r.Steps[i]
		s.Time = nil
		if s.Series != nil && s.Skipped == "" && s.Failed == "" {
			s.Time = diagnosis.AnalyzeTime(s.TimeSamples(), ss, s.Steady)
		}
	}
	if r.Plan.OpenLoop() {
		// Offered loads: each step's rate is its load, so a step below
		// another is no level that fell, and none ran on credits.
		return
	}
	r.markAboveControl()
	r.markAboveRamp()
	// Steps above a curve's sustained level that never fell ran on credits.
	for _, c := range r.Curves() {
		ct := r.curveTime(c)
		if ct == nil || ct.Burst == nil {
			continue
		}
		for _, oc := range ct.Burst.OnCredits {
			for i := range r.Steps {
				s := &r.Steps[i]
				if s.RW == c.RW && s.BS == c.BS && float64(s.QD) == oc.QD && s.Analysable() {
					if s.Time == nil {
						s.Time = &diagnosis.StepTime{}
					}
					s.Time.OnCreditsSec = oc.Sec
				}
			}
		}
	}
}

// curveTime sums up the time findings of c's measured steps.
func (r *Result) curveTime(c Curve) *diagnosis.CurveTime {
	if r.Plan.OpenLoop() {
		return nil // a curve over offered loads: its steps' rates are the loads, no level across them
	}
	var qd, iops, ran []float64
	var times []*diagnosis.StepTime
	for _, s := range c.Steps {
		if !s.Analysable() {
			continue
		}
		qd = append(qd, float64(s.QD))
		iops = append(iops, s.IOPS)
		ran = append(ran, float64(s.RuntimeNs)/1e9)
		times = append(times, s.Time)
	}
	return diagnosis.CurveTimeOf(qd, iops, ran, times, float64(r.Meta.SteadyWindowNs)/1e9)
}

// SustainedLevel is the level the analysis uses for s in place of its
// mean, when its series showed one that differs (a burst spent, a
// warm-up): ok is false when the analysis uses the step's mean.
func (s Step) SustainedLevel() (lvl diagnosis.Sustained, ok bool) {
	if s.Time == nil || s.Time.Sustained == nil || s.OfferedIOPS > 0 || s.setAside() {
		return lvl, false // an offered load is measured whole (Curve.Points); a step set aside is read at nothing
	}
	v := *s.Time.Sustained
	if v.IOPS <= 0 || v.LatMeanNs <= 0 || s.IOPS <= 0 || math.Abs(v.IOPS/s.IOPS-1) < 0.01 && math.Abs(v.LatMeanNs/s.Lat.MeanNs-1) < 0.01 {
		return lvl, false
	}
	return v, true
}

// sustainedPoint replaces a point's figures by the step's sustained level
// when its series shows a burst or a warm-up: the analysis sizes from what
// the device keeps delivering. A step set aside (SetAsideWhy: on burst
// credits throughout, above a level that did not last) is no point at all.
func sustainedPoint(s Step, p *littleslaw.Point) {
	if s.Time == nil {
		return
	}
	v := s.Time.Sustained
	if v == nil || v.IOPS <= 0 || v.LatMeanNs <= 0 {
		return
	}
	scale := func(x float64) float64 { return x * v.LatMeanNs / s.Lat.MeanNs }
	p.IOPS, p.BWBytes, p.LatMeanNs, p.InflightMean = v.IOPS, v.BWBytes, v.LatMeanNs, v.Inflight
	// Percentiles: p99 from the intervals; the others keep the step's
	// shape scaled to the sustained mean.
	if s.Lat.MeanNs > 0 {
		p.P50Ns, p.P90Ns, p.P999Ns = scale(p.P50Ns), scale(p.P90Ns), scale(p.P999Ns)
	}
	if v.P99Ns > 0 {
		p.P99Ns = v.P99Ns
	}
}

// SeriesCSVHeader is the header row WriteSeriesCSV writes: the step's grid
// point, the slice (start since the step's window began, and since the
// sweep's first window with steps laid end to end), rates per second,
// latencies in ns, and iostat's columns when the device was sampled. Ramp
// slices come first, marked 1 in "ramp", their t_ns negative (before the
// window) and no sweep_t_ns.
var SeriesCSVHeader = []string{
	fio.OptRW, fio.OptBS, fio.OptIODepth, fio.OptNumJobs, "qd", "t_ns", "sweep_t_ns", "dur_ns", "ios",
	"r_iops", "w_iops", "r_bw_bytes", "w_bw_bytes", "lat_mean_ns", "lat_p99_ns", "inflight_mean",
	"dev_r_s", "dev_w_s", "dev_rMB_s", "dev_wMB_s", "dev_r_await", "dev_w_await", "dev_aqu_sz", "dev_util",
	"ramp",
}

// WriteSeriesCSV writes one row per slice of every step's series.
func WriteSeriesCSV(w io.Writer, r *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(SeriesCSVHeader); err != nil {
		return fmt.Errorf("series csv: %w", err)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	var base int64
	for _, s := range r.Steps {
		if s.Series == nil {
			continue
		}
		var end int64
		for _, p := range s.Series.Ramp {
			row := []string{s.RW, i(s.BS), strconv.Itoa(s.IODepth), strconv.Itoa(s.NumJobs), strconv.Itoa(s.QD),
				i(p.StartNs), "", i(p.DurNs), i(p.IOs),
				f(p.ReadIOPS), f(p.WriteIOPS), f(p.ReadBWBytes), f(p.WriteBWBytes), f(p.LatMeanNs), "", "",
				"", "", "", "", "", "", "", "", "1"}
			if err := cw.Write(row); err != nil {
				return fmt.Errorf("series csv: %w", err)
			}
		}
		for _, p := range s.Series.Points {
			row := []string{s.RW, i(s.BS), strconv.Itoa(s.IODepth), strconv.Itoa(s.NumJobs), strconv.Itoa(s.QD),
				i(p.StartNs), i(base + p.StartNs), i(p.DurNs), i(p.IOs),
				f(p.ReadIOPS), f(p.WriteIOPS), f(p.ReadBWBytes), f(p.WriteBWBytes), f(p.LatMeanNs), i(p.LatP99Ns), f(p.InflightMean)}
			if d := p.Device; d != nil {
				row = append(row, f(d.ReadsPerSec), f(d.WritesPerSec), f(d.ReadMBps), f(d.WriteMBps),
					f(d.ReadAwaitMs), f(d.WriteAwaitMs), f(d.AquSz), f(d.UtilPct))
			} else {
				row = append(row, "", "", "", "", "", "", "", "")
			}
			row = append(row, "")
			if err := cw.Write(row); err != nil {
				return fmt.Errorf("series csv: %w", err)
			}
			end = max(end, p.StartNs+p.DurNs)
		}
		base += end
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("series csv: %w", err)
	}
	return nil
}

// hasSeries reports whether any step of r has a series.
func (r *Result) hasSeries() bool {
	for _, s := range r.Steps {
		if s.Series != nil {
			return true
		}
	}
	return false
}

// timeFindings are the diagnosis findings of the steps' series, per curve
// (the steps' Time when analysed, else computed here without storing).
func (r *Result) timeFindings() []diagnosis.Finding {
	ss := diagnosis.SteadyCriterion{WindowSec: float64(r.Meta.SteadyWindowNs) / 1e9, Limit: r.Meta.SteadyLimit}
	var out []diagnosis.Finding
	for _, c := range r.Curves() {
		var qd, offered, iops, ran []float64
		var times []*diagnosis.StepTime
		for _, s := range c.Steps {
			if !s.Analysable() {
				continue
			}
			t := s.Time
			if t == nil && s.Series != nil {
				t = diagnosis.AnalyzeTime(s.TimeSamples(), ss, s.Steady)
			}
			qd, offered = append(qd, float64(s.QD)), append(offered, s.OfferedIOPS)
			iops = append(iops, s.IOPS)
			ran = append(ran, float64(s.RuntimeNs)/1e9)
			times = append(times, t)
		}
		ct := diagnosis.CurveTimeOf(qd, iops, ran, times, ss.WindowSec)
		out = append(out, diagnosis.TimeFindings(c.RW, c.BS, qd, offered, times, ct)...)
	}
	return out
}
