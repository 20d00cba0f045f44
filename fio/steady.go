package fio

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SteadySpec is a job's steady-state options (fio 3.33's steadystate= or
// ss=, ss_dur, ss_ramp): the criterion, its limit, the window and the
// time before samples are taken. Dur 0: no steady-state test.
type SteadySpec struct {
	BW    bool    `json:"bw,omitempty"`    // bandwidth (bytes/s), else IOPS
	Slope bool    `json:"slope,omitempty"` // least-squares slope, else largest mean deviation
	Pct   bool    `json:"pct,omitempty"`   // the limit is a percent of the window's mean
	Limit float64 `json:"limit"`
	// Dur is the window (whole seconds: one sample a second); Ramp the
	// time into the job before the first sample is recorded.
	Dur  time.Duration `json:"dur_ns"`
	Ramp time.Duration `json:"ramp_ns,omitempty"`
}

// DefaultSteady is fio's default criterion (iops_slope:0.01%), used when a
// job sets ss_dur without steadystate=.
var DefaultSteady = SteadySpec{Slope: true, Pct: true, Limit: 0.01}

// ParseSteadyCriterion reads steadystate='s value as fio does: iops, bw,
// iops_slope or bw_slope, a ':' and the limit, a float with a trailing '%'
// for a percent; a bandwidth limit without '%' is a size in bytes/s
// (k, m … under kbBase). It keeps s's window and ramp.
func ParseSteadyCriterion(s SteadySpec, v string, kbBase int) (SteadySpec, error) {
	kind, limit, ok := strings.Cut(strings.TrimSpace(v), ":")
	switch strings.ToLower(kind) {
	case "iops":
		s.BW, s.Slope = false, false
	case "iops_slope":
		s.BW, s.Slope = false, true
	case "bw":
		s.BW, s.Slope = true, false
	case "bw_slope":
		s.BW, s.Slope = true, true
	default:
		return s, fmt.Errorf("%q is not a steady-state criterion (iops, iops_slope, bw or bw_slope, then :limit)", kind)
	}
	limit = strings.TrimSpace(limit)
	if !ok || limit == "" {
		return s, fmt.Errorf("a steady-state threshold must follow the criterion (%s:LIMIT, e.g. %s:1%%)", kind, kind)
	}
	s.Pct = strings.Contains(limit, "%")
	if s.Pct || !s.BW {
		f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(limit, "%")), 64)
		if err != nil {
			return s, fmt.Errorf("%q is not a steady-state threshold (a number, or a percent with %%)", limit)
		}
		s.Limit = f
		return s, nil
	}
	n, err := ParseSize(limit, kbBase)
	if err != nil {
		return s, fmt.Errorf("%q is not a bandwidth threshold (bytes/s, e.g. 100m): %v", limit, err)
	}
	s.Limit = float64(n)
	return s, nil
}

// Name is the criterion as fio's steadystate= spells it: iops, bw,
// iops_slope or bw_slope.
func (s SteadySpec) Name() string {
	n := "iops"
	if s.BW {
		n = "bw"
	}
	if s.Slope {
		n += "_slope"
	}
	return n
}

// SteadyState is a job's steady-state test and where it ended: fio's
// "steadystate" object of a job in its JSON, and the "steadystate :" line
// of its normal output.
type SteadyState struct {
	Spec SteadySpec `json:"spec"`
	// Attained: the criterion fell below the limit and the job ended there.
	Attained bool `json:"attained"`
	// Criterion is the last value of the test (0 before the window filled);
	// MaxDeviation and Slope the last of each (0 for the mode not used).
	Criterion    float64 `json:"criterion"`
	MaxDeviation float64 `json:"max_deviation"`
	Slope        float64 `json:"slope"`
	// IOPS and BW are the window's samples in time order (IOPS, bytes/s),
	// Dur seconds long, zeros where no sample was taken yet.
	IOPS []uint64 `json:"iops"`
	BW   []uint64 `json:"bw"`
}

// means are the window's mean bandwidth and IOPS, in fio's integers.
func (s *SteadyState) means() (bw, iops uint64) {
	if len(s.BW) == 0 {
		return 0, 0
	}
	for i := range s.BW {
		bw += s.BW[i]
		iops += s.IOPS[i]
	}
	return bw / uint64(len(s.BW)), iops / uint64(len(s.IOPS))
}

// pct is "%" when the limit is a percent.
func (s *SteadyState) pct() string {
	if s.Spec.Pct {
		return "%"
	}
	return ""
}

// jsonSteady is fio 3.33's "steadystate" object, fields in its order.
type jsonSteady struct {
	SS           string         `json:"ss"`
	Duration     float64        `json:"duration"`
	Attained     float64        `json:"attained"`
	Criterion    string         `json:"criterion"`
	MaxDeviation fioFloat       `json:"max_deviation"`
	Slope        fioFloat       `json:"slope"`
	Data         jsonSteadyData `json:"data"`
}

type jsonSteadyData struct {
	BWMean   float64   `json:"bw_mean"`
	IOPSMean float64   `json:"iops_mean"`
	IOPS     []float64 `json:"iops"`
	BW       []float64 `json:"bw"`
}

// f32 is v as fio prints a float it casts to float (%f of a float).
func f32(v float64) string { return strconv.FormatFloat(float64(float32(v)), 'f', 6, 64) }

// steadyJSON is s as fio's JSON has it (nil for nil).
func steadyJSON(s *SteadyState) *jsonSteady {
	if s == nil {
		return nil
	}
	bw, iops := s.means()
	j := &jsonSteady{SS: s.Spec.Name() + ":" + f32(s.Spec.Limit) + s.pct(), Duration: float64(len(s.IOPS)),
		Criterion: f32(s.Criterion) + s.pct(), MaxDeviation: fioFloat(s.MaxDeviation), Slope: fioFloat(s.Slope),
		Data: jsonSteadyData{BWMean: float64(bw), IOPSMean: float64(iops), IOPS: []float64{}, BW: []float64{}}}
	if s.Attained {
		j.Attained = 1
	}
	for i := range s.IOPS {
		j.Data.IOPS = append(j.Data.IOPS, float64(s.IOPS[i]))
		j.Data.BW = append(j.Data.BW, float64(s.BW[i]))
	}
	return j
}

// steadyOf reads fio's "steadystate" object back (nil for nil).
func steadyOf(j *jsonSteady) *SteadyState {
	if j == nil {
		return nil
	}
	s := &SteadyState{Attained: j.Attained != 0, MaxDeviation: float64(j.MaxDeviation), Slope: float64(j.Slope)}
	if kind, limit, ok := strings.Cut(j.SS, ":"); ok {
		s.Spec, _ = ParseSteadyCriterion(s.Spec, kind+":"+limit, 1024)
	}
	s.Spec.Dur = time.Duration(j.Duration) * time.Second
	s.Criterion, _ = strconv.ParseFloat(strings.TrimSuffix(j.Criterion, "%"), 64)
	for i := range j.Data.IOPS {
		s.IOPS = append(s.IOPS, uint64(j.Data.IOPS[i]))
	}
	for i := range j.Data.BW {
		s.BW = append(s.BW, uint64(j.Data.BW[i]))
	}
	return s
}

// writeNormalSteady writes fio's "steadystate :" line of a job.
func writeNormalSteady(w *bufio.Writer, s *SteadyState) {
	if s == nil {
		return
	}
	bw, iops := s.means()
	attained, mode := "no", " mean dev"
	if s.Attained {
		attained = "yes"
	}
	if s.Spec.Slope {
		mode = " slope"
	}
	kind := "iops"
	if s.Spec.BW {
		kind = "bw"
	}
	fmt.Fprintf(w, "  steadystate  : attained=%s, bw=%s/s (%s/s), iops=%s, %s%s=%.3f%s\n", attained,
		fioBytes(float64(bw), true), fioBytes(float64(bw), false), fioNum(float64(iops)), kind, mode, s.Criterion, s.pct())
}
