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

// Ticks returns linear ticks labelled with fmtIOPS.
func (iopsTicks) Ticks(min, max float64) []plot.Tick {
	return niceTicks(min, max, fmtIOPS)
}

// latLinTicks labels a linear latency axis (nanoseconds) in µs/ms.
type latLinTicks struct{}

// Ticks returns linear ticks labelled with fmtLat.
func (latLinTicks) Ticks(min, max float64) []plot.Tick {
	return niceTicks(min, max, func(v float64) string {
		if v == 0 {
			return "0"
		}
		return fmtLat(v)
	})
}

// latLogTicks marks a log10(latency in ns) axis at 1-2-5 steps, labelled
// in µs/ms; over more than four decades only powers of ten are labelled.
type latLogTicks struct{}

// Ticks returns 1-2-5 ticks in [min, max] (exponents of ten).
func (latLogTicks) Ticks(lmin, lmax float64) []plot.Tick {
	min, max := math.Pow(10, lmin), math.Pow(10, lmax)
	if max <= min {
		max = min * 10
	}
	lo := int(math.Floor(math.Log10(min)))
	hi := int(math.Ceil(math.Log10(max)))
	sparse := hi-lo > 4
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		dec := math.Pow10(e)
		for _, m := range []float64{1, 2, 5} {
			v := m * dec
			if v < min/1.0001 || v > max*1.0001 {
				if v < min {
					continue
				}
				if v > max {
					break
				}
			}
			t := plot.Tick{Value: math.Log10(v)}
			if !sparse || m == 1 {
				t.Label = fmtLat(v)
			}
			ts = append(ts, t)
		}
	}
	if len(ts) < 2 { // a very narrow range: label its ends
		return []plot.Tick{{Value: lmin, Label: fmtLat(min)}, {Value: lmax, Label: fmtLat(max)}}
	}
	return ts
}
