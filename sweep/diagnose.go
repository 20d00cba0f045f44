package sweep

import (
	"slices"
	"strings"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// Diagnose applies package diagnosis's bottleneck rules to r's curves with
// their device and CPU telemetry and returns the findings (it does not store
// them; callers set r.Diagnosis). o.TargetIOPS is the load the sweep was for
// (0: none); o.CPUs defaults to Meta.CPUs. r.Analysis is used when present.
func (r *Result) Diagnose(o littleslaw.Options) []diagnosis.Finding {
	cpus := o.CPUs
	if cpus == 0 {
		cpus = r.Meta.CPUs
	}
	in := diagnosis.DiagnoseInput{TargetIOPS: o.TargetIOPS, CPUs: cpus}
	for _, c := range r.Curves() {
		dc := diagnosis.DiagnoseCurve{
			RW:          c.RW,
			BS:          c.BS,
			Engine:      r.Meta.Engine,
			Synchronous: fio.IsSyncEngine(r.Meta.Engine),
			Direct:      r.Meta.Workload.Direct,
			PollThreads: pollThreads(r.Meta.Workload.IOUring),
		}
		if r.Meta.Device == nil && r.Meta.DeviceOff != "" {
			dc.NoDevice = r.Meta.DeviceOff
		}
		dc.FSType, dc.FSClass = r.Meta.FSType, r.Meta.FSClass
		if d := r.Meta.Device; d != nil {
			dc.NrRequests, dc.HWQueues = d.NrRequests, d.HWQueues
		}
		// Point by point, so that telemetry stays aligned with the points
		// whatever steps Points leaves out.
		for _, s := range c.Steps {
			pts := (Curve{RW: c.RW, BS: c.BS, Steps: []Step{s}}).Points()
			for _, p := range pts {
				dc.Points = append(dc.Points, p)
				dc.Telemetry = append(dc.Telemetry, stepTelemetry(s, r.Meta.Engine))
			}
			if s.setAside() {
				dc.LeftOut++
			}
		}
		for i := range r.Analysis {
			if a := &r.Analysis[i]; a.RW == c.RW && a.BS == c.BS {
				dc.Analysis = &a.Analysis
			}
		}
		in.Curves = append(in.Curves, dc)
	}
	out := append(diagnosis.Diagnose(in), r.timeFindings()...)
	changed := r.rampFindings()
	if f := r.controlFinding(); f != nil {
		changed = append(changed, *f)
	}
	for _, f := range changed {
		// A curve that did not hold still is not "healthy", whatever its
		// shape: the finding says what changed.
		// Nor is a curve still rising past its last step that lasted when
		// deeper steps were measured and left out: "extend the sweep" would
		// send the user to depths it ran.
		kept := out[:0]
		for _, x := range out {
			if x.RW == f.RW && x.BS == f.BS && (x.Rule == diagnosis.RuleHealthy || x.Reason == diagnosis.ReasonRising && r.leftOutPast(x.RW, x.BS, x.Figures.QD)) {
				continue
			}
			kept = append(kept, x)
		}
		out = append(kept, f)
	}
	return out
}

// stepTelemetry converts a step's device and CPU figures for the rules.
// Without host CPU figures the engine's own CPU time over the window stands
// in for the process's share. Through fio (engine), the process that did
// the I/O is fio: its own CPU (usr_cpu + sys_cpu) is the share, never
// qdsweep's, which only waited for it.
func stepTelemetry(s Step, engine string) diagnosis.StepTelemetry {
	var t diagnosis.StepTelemetry
	if d := s.Device; d != nil {
		ios := d.ReadsPerSec + d.WritesPerSec
		t.DeviceKnown = true
		t.DeviceIOPS = ios
		t.DeviceBWBytes = (d.ReadMBps + d.WriteMBps) * (1 << 20)
		t.AquSz = d.AquSz
		t.UtilPct = d.UtilPct
		if ios > 0 {
			t.AwaitMs = (d.ReadAwaitMs*d.ReadsPerSec + d.WriteAwaitMs*d.WritesPerSec) / ios
		}
	}
	fioCPU := s.RuntimeNs > 0 && s.CPU.UsrS+s.CPU.SysS > 0
	switch {
	case engine == ioengine.EngineFio:
		t.CPUKnown, t.CPUOfFio = fioCPU, true
		if s.HostCPU != nil {
			t.HostBusyPct = s.HostCPU.UserPct + s.HostCPU.SystemPct + s.HostCPU.SoftIRQPct
		}
		if fioCPU {
			t.SelfCPUPct = (s.CPU.UsrS + s.CPU.SysS) / (float64(s.RuntimeNs) / 1e9) * 100
		}
	case s.HostCPU != nil:
		t.CPUKnown = true
		t.SelfCPUPct = s.HostCPU.SelfPct
		t.HostBusyPct = s.HostCPU.UserPct + s.HostCPU.SystemPct + s.HostCPU.SoftIRQPct
	case fioCPU:
		t.CPUKnown = true
		t.SelfCPUPct = (s.CPU.UsrS + s.CPU.SysS) / (float64(s.RuntimeNs) / 1e9) * 100
	}
	return t
}

// pollThreads reports whether the io_uring options a sweep recorded
// (Workload.IOUring: fio's name=value pairs, space-separated) gave each
// job a kernel thread polling its submission queue: sqthread_poll=1.
func pollThreads(recorded string) bool {
	return slices.Contains(strings.Fields(recorded), fio.OptSqthreadPoll+"=1")
}

// leftOutPast reports whether curve (rw, bs) has a step deeper than qd that
// ran above what lasted and was left out of the analysis.
func (r *Result) leftOutPast(rw string, bs int64, qd float64) bool {
	for _, s := range r.Steps {
		if s.RW == rw && s.BS == bs && float64(s.QD) > qd && s.SetAsideWhy() == AsideAboveLevel {
			return true
		}
	}
	return false
}
