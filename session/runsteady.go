package session

import (
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// steadyWatch is fio's steady-state test on one job: a sample of IOPS and
// bandwidth each second of the measured window (fio's helper thread),
// recorded once ss_ramp and one second more have passed, the test over
// the last ss_dur of them, and the job ended when it holds.
type steadyWatch struct {
	spec     fio.SteadySpec
	test     littleslaw.FioSteady
	prev     ioengine.Sample
	iops, bw []uint64 // the samples recorded, oldest first
	check    littleslaw.FioSteadyCheck
}

// watchSteady makes ctl sample the window each second for spec's test
// (nil and ctl untouched without one).
func watchSteady(ctl *ioengine.Control, spec fio.SteadySpec) *steadyWatch {
	if spec.Dur < time.Second {
		return nil
	}
	sw := &steadyWatch{spec: spec, test: littleslaw.FioSteady{BW: spec.BW, Slope: spec.Slope, Pct: spec.Pct,
		Limit: spec.Limit, Dur: int(spec.Dur / time.Second)}}
	ctl.SampleInterval = time.Second
	ctl.OnSample = sw.sample
	return sw
}

// sample takes one cumulative sample; true ends the window (attained).
func (sw *steadyWatch) sample(s ioengine.Sample) bool {
	ms := (s.Elapsed - sw.prev.Elapsed).Milliseconds()
	iops := littleslaw.FioSteadyRate(s.IOs-sw.prev.IOs, ms)
	bw := littleslaw.FioSteadyRate(s.Bytes-sw.prev.Bytes, ms)
	sw.prev = s
	if sw.check.Attained || (sw.spec.Ramp > 0 && s.Elapsed < sw.spec.Ramp+time.Second) {
		return sw.check.Attained
	}
	sw.iops, sw.bw = append(sw.iops, iops), append(sw.bw, bw)
	if n := sw.test.Dur; len(sw.iops) > n {
		sw.iops, sw.bw = sw.iops[len(sw.iops)-n:], sw.bw[len(sw.bw)-n:]
	}
	window := sw.iops
	if sw.spec.BW {
		window = sw.bw
	}
	if len(window) == sw.test.Dur {
		sw.check = sw.test.Check(window)
	}
	return sw.check.Attained
}

// result is the test as fio reports it (nil for nil): the window's samples
// in time order, zeros after them while it was not yet full.
func (sw *steadyWatch) result() *fio.SteadyState {
	if sw == nil {
		return nil
	}
	r := &fio.SteadyState{Spec: sw.spec, Attained: sw.check.Attained, Criterion: sw.check.Criterion,
		MaxDeviation: sw.check.Deviation, Slope: sw.check.Slope,
		IOPS: make([]uint64, sw.test.Dur), BW: make([]uint64, sw.test.Dur)}
	copy(r.IOPS, sw.iops)
	copy(r.BW, sw.bw)
	return r
}
