package sweep

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// EarlyStop decides when the deeper steps of a curve are not worth running.
type EarlyStop struct {
	// FlatGain is the IOPS gain below which a step counts as flat (0.05: < 5 %).
	FlatGain float64
	// LatRise is the mean-latency growth at or above which a flat step
	// counts (1.8: latency rose ≥ 1.8×).
	LatRise float64
	// FlatSteps consecutive flat steps stop the curve (0: never).
	FlatSteps int
	// MaxP99 stops the curve once a step's p99 latency exceeds it (0: no limit).
	MaxP99 time.Duration
}

// DefaultEarlyStop is the controller's default: two flat steps (IOPS up
// by under the knee's littleslaw.SaturationGain, 5 %, at its
// littleslaw.SaturationLatGrowth, 1.8×, the mean latency or more) or a
// p99 above 2 s.
var DefaultEarlyStop = EarlyStop{FlatGain: littleslaw.SaturationGain, LatRise: littleslaw.SaturationLatGrowth, FlatSteps: 2, MaxP99: 2 * time.Second}

// Reason returns why the steps after curve's last should be skipped, or ""
// to go on. curve holds the curve's measured steps (not skipped or failed) in
// run order. A step is flat when it adds less than FlatGain to the most IOPS
// any shallower step of the curve reached, while its mean latency is at least
// LatRise times that of the best step at the next lower total QD measured.
// A step whose settling found its pair flat at 95 % (littleslaw.Settle.Flat)
// counts as one flat step like any other: its interval rests on its own
// 100 ms slices, and a dip of the device that spans the whole step is flat
// at 95 % within it. The next deeper step, flat too, is what tells a
// plateau from such a dip: on the virtio disk one QD 16 step settled flat
// in a dip and ended a curve whose saturation QD then read 8 where the
// fixed sweeps beside it read 128 and 64.
func (e EarlyStop) Reason(curve []Step) string {
	if len(curve) == 0 {
		return ""
	}
	last := curve[len(curve)-1]
	if e.MaxP99 > 0 && last.Lat.P99Ns > int64(e.MaxP99) {
		return fmt.Sprintf("stopped: p99 latency %v at QD %d exceeds --%s %v",
			time.Duration(last.Lat.P99Ns).Round(time.Microsecond), last.QD, fio.OptMaxLatency, e.MaxP99)
	}
	if e.FlatSteps <= 0 {
		return ""
	}
	flat := 0
	var flatQDs []int
	for k, s := range curve {
		base, ok := bestBelow(curve[:k], s.QD)
		peak := 0.0
		for _, p := range curve[:k] {
			if p.QD < s.QD {
				peak = max(peak, p.IOPS)
			}
		}
		if ok && peak > 0 && base.Lat.MeanNs > 0 &&
			s.IOPS < (1+e.FlatGain)*peak && s.Lat.MeanNs >= e.LatRise*base.Lat.MeanNs {
			flat++
			flatQDs = append(flatQDs, s.QD)
		} else {
			flat, flatQDs = 0, flatQDs[:0]
		}
	}
	if flat >= e.FlatSteps {
		qds := make([]string, len(flatQDs))
		for i, q := range flatQDs {
			qds[i] = strconv.Itoa(q)
		}
		return fmt.Sprintf("early stop: QD %s added < %.0f%% IOPS at ≥ %.1f× latency (--full runs all)",
			strings.Join(qds, ", "), e.FlatGain*100, e.LatRise)
	}
	return ""
}

// bestBelow returns the highest-IOPS step among those at the largest total QD below qd.
func bestBelow(steps []Step, qd int) (Step, bool) {
	level := 0
	for _, s := range steps {
		if s.QD < qd && s.QD > level {
			level = s.QD
		}
	}
	var best Step
	found := false
	for _, s := range steps {
		if s.QD == level && (!found || s.IOPS > best.IOPS) {
			best, found = s, true
		}
	}
	return best, found && level > 0
}

// earlyStopPrefix starts the Skipped reason of steps an early stop skipped.
const earlyStopPrefix = "early stop:"

// earlyStopped reports whether the sweep skipped c's deeper steps after
// flat ones (not for a latency limit).
func earlyStopped(c Curve) bool {
	for _, s := range c.Steps {
		if strings.HasPrefix(s.Skipped, earlyStopPrefix) {
			return true
		}
	}
	return false
}
