package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// Log axes are drawn as linear axes over the logarithm of the data (log2
// of the queue depth, log10 of the latency): gonum/plot's LogScale pads the
// plot as if the axis label sat at the arithmetic middle of the range.

// log2Ticks marks a log2(queue depth) axis at powers of two (1, 2, 4, …).
// When the range spans more than 12 octaves only every other power is
// labelled.
type log2Ticks struct{}

// Ticks returns the whole exponents in [min, max], labelled as depths.
func (log2Ticks) Ticks(min, max float64) []plot.Tick {
	lo := int(math.Ceil(min - 1e-9))
	hi := int(math.Floor(max + 1e-9))
	step := 1
	if hi-lo > 12 {
		step = 2
	}
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		t := plot.Tick{Value: float64(e)}
		if (e-lo)%step == 0 {
			t.Label = qdLabel(math.Pow(2, float64(e)))
		}
		ts = append(ts, t)
	}
	return ts
}

// qdLabel labels a queue depth tick: 1 … 8192, then 16k, 32k.
func qdLabel(v float64) string {
	if v < 1 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	if v >= 10000 {
		return strconv.FormatFloat(v/1024, 'f', 0, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// niceTicks returns about seven labelled ticks at 1, 2 or 5 × 10ⁿ steps over
// [min, max], with one unlabelled tick between labelled ones, labelled by f.
func niceTicks(min, max float64, f func(float64) string) []plot.Tick {
	if !(max > min) {
		return []plot.Tick{{Value: min, Label: f(min)}}
	}
	raw := (max - min) / 7
	mag := math.Pow10(int(math.Floor(math.Log10(raw))))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ts []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ts = append(ts, plot.Tick{Value: v, Label: f(v)})
		if mid := v + step/2; mid <= max {
			ts = append(ts, plot.Tick{Value: mid})
		}
	}
	return ts
}

// iopsTicks labels a linear IOPS axis in k/M ("40k").
type iopsTicks struct{}

// Ticks returns linear ticks labelled with FormatIOPS.
func (iopsTicks) Ticks(min, max float64) []plot.Tick {
	return niceTicks(min, max, FormatIOPS)
}

// latLogTicks marks a log10(latency in ns) axis, labelled in µs/ms. It
// labels powers of ten over more than four decades, 1-2-5 steps over a
// normal range, and finer steps (1, 1.5, 2, 3, 5, 7, then every digit)
// when the range is narrow, so that at least four ticks carry a label.
type latLogTicks struct{}

// latMantissas are the tick mantissas tried, sparsest first.
var latMantissas = [][]float64{
	{1},
	{1, 2, 5},
	{1, 1.5, 2, 3, 5, 7},
	{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9},
}

// minLatLabels is the fewest labelled ticks a latency axis shows.
const minLatLabels = 4

// Ticks returns ticks in [lmin, lmax] (exponents of ten).
func (latLogTicks) Ticks(lmin, lmax float64) []plot.Tick {
	min, max := math.Pow(10, lmin), math.Pow(10, lmax)
	if max <= min {
		max = min * 10
	}
	first := 1 // 1-2-5
	if lmax-lmin < 1.2 {
		first = 2 // about a decade or less: 1, 1.5, 2, 3, 5, 7
	}
	if lmax-lmin > 4 {
		first = 0 // powers of ten only
	}
	for i := first; i < len(latMantissas); i++ {
		labelled := logTickValues(min, max, latMantissas[i])
		if len(labelled) < minLatLabels {
			continue
		}
		var ts []plot.Tick
		for _, v := range labelled {
			ts = append(ts, plot.Tick{Value: math.Log10(v), Label: FormatLatency(v)})
		}
		if i+1 < len(latMantissas) {
			for _, v := range logTickValues(min, max, latMantissas[i+1]) {
				if !containsClose(labelled, v) {
					ts = append(ts, plot.Tick{Value: math.Log10(v)})
				}
			}
		}
		return ts
	}
	// Narrower than a factor of about 1.5: evenly spaced labels in ns.
	var ts []plot.Tick
	for _, t := range niceTicks(min, max, FormatLatency) {
		if t.Value > 0 {
			ts = append(ts, plot.Tick{Value: math.Log10(t.Value), Label: t.Label})
		}
	}
	return ts
}

// logTickValues lists m × 10ⁿ within [min, max] for every mantissa m.
func logTickValues(min, max float64, mantissas []float64) []float64 {
	var out []float64
	for e := int(math.Floor(math.Log10(min))); e <= int(math.Ceil(math.Log10(max))); e++ {
		for _, m := range mantissas {
			if v := m * math.Pow10(e); v >= min/1.0001 && v <= max*1.0001 {
				out = append(out, v)
			}
		}
	}
	return out
}

// containsClose reports whether vs holds a value within 0.01% of v.
func containsClose(vs []float64, v float64) bool {
	for _, x := range vs {
		if math.Abs(x-v) <= v*1e-4 {
			return true
		}
	}
	return false
}

// latLogRange pads a log10(latency) data range [lo, hi] by a little and
// widens it to the nearest 1, 1.5, 2, 3, 5 or 7 × 10ⁿ on each side, so the
// lowest and highest curves sit between labelled ticks.
func latLogRange(lo, hi float64) (float64, float64) {
	lo, hi = lo-0.04, hi+0.04
	down, up := math.Inf(-1), math.Inf(1)
	for _, v := range logTickValues(math.Pow(10, lo)/10, math.Pow(10, hi)*10, latMantissas[2]) {
		l := math.Log10(v)
		if l <= lo {
			down = math.Max(down, l)
		}
		if l >= hi {
			up = math.Min(up, l)
		}
	}
	if math.IsInf(down, 0) || lo-down > 0.1 {
		down = lo
	}
	if math.IsInf(up, 0) || up-hi > 0.1 {
		up = hi
	}
	return down, up
}
