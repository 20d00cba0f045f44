package report

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"math"

	"github.com/qdsweep/qdsweep/diagnosis"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// The words of a diagnosis: one function per part of a finding (the
// verdict, one fact, the next step), each a switch with one case per
// diagnosis reason or fact kind. The numbers come from the
// diagnosis.Finding that diagnosis/rules.go computes.

// findingCurve names the curve a finding is about: "randread 4k", "randread"
// for a verdict across block sizes, "" when unknown.
func findingCurve(f diagnosis.Finding) string {
	switch {
	case f.RW == "":
		return ""
	case f.BS <= 0:
		return f.RW
	}
	return curveName(f.RW, f.BS)
}

// FindingSummary is the verdict of f in words, led by the curve it is
// about: "randread 4k: IOPS flat at 95.2k (up to 372 MiB/s) from QD 64 …".
func FindingSummary(f diagnosis.Finding) string {
	if c := findingCurve(f); c != "" {
		return c + ": " + findingVerdict(f)
	}
	return findingVerdict(f)
}

// findingVerdict is the verdict of f without the curve.
func findingVerdict(f diagnosis.Finding) string {
	if v, ok := timeVerdict(f); ok {
		return v
	}
	if v, ok := openLoopVerdict(f); ok {
		return v
	}
	if v, ok := fixedVerdict[f.Reason]; ok {
		return v
	}
	g := f.Figures
	switch f.Reason {
	case diagnosis.ReasonNetworkFS, diagnosis.ReasonFUSEFS, diagnosis.ReasonRemoteFS:
		return networkFSVerdict(f)
	case diagnosis.ReasonSyncEngine:
		return fmt.Sprintf("the %s engine is synchronous: each job keeps one I/O in flight, so iodepth %d adds nothing", engineOr(g.Engine), g.IODepth)
	case diagnosis.ReasonBehavedSync:
		s := fmt.Sprintf("each job kept about one I/O in flight: the %s engine behaved synchronously", engineOr(g.Engine))
		if g.Buffered {
			s += " (buffered I/O: libaio and io_uring block in submission without " + direct1 + ")"
		}
		return s
	case diagnosis.ReasonSubmitterCPU:
		if g.HostBusy {
			return "the host's busy CPUs held I/Os back from the device, so the queue there stayed short of the QD"
		}
		return "the submitter is CPU-bound and cannot keep the queue full"
	case diagnosis.ReasonNrRequests:
		return fmt.Sprintf("the device queue holds at most %d requests (nr_requests %d × %d hardware queues): the rest wait above it", g.Count, g.NrRequests, g.HWQueues)
	case diagnosis.ReasonOneJob:
		return fmt.Sprintf("the submitter did not keep the queue depth in flight: one job at iodepth %d is too few jobs", g.IODepth)
	case diagnosis.ReasonBelowTarget, diagnosis.ReasonRising:
		return "latency stays near R0 and IOPS still grow with the queue; the device was not saturated by QD " + FormatQD(g.QD)
	case diagnosis.ReasonPlateau:
		level := FormatIOPS(g.ToIOPS)
		if lo := FormatIOPS(g.IOPS); lo != level {
			level = lo + "–" + level
		}
		return fmt.Sprintf("IOPS flat at %s (up to %s) from QD %s while latency grows in proportion to the queue",
			level, fmtMiBpsUnit(g.BWBytes), FormatQD(g.QD))
	case diagnosis.ReasonThroughputCap:
		return fmt.Sprintf("throughput-bound: MiB/s stays at about %s whatever the block size", fmtMiBpsUnit(g.BWBytes))
	case diagnosis.ReasonIOPSCap:
		return fmt.Sprintf("IOPS-bound: IOPS stay at about %s whatever the block size", FormatIOPS(g.IOPS))
	case diagnosis.ReasonSaturated:
		s := fmt.Sprintf("the device saturates at QD %s with the queue full at %s", FormatQD(g.QD), inflightWhere(g.AtDevice))
		if f.Rule == diagnosis.RuleContended {
			s += ", but other I/O shared the device during the sweep, so the ceiling and latencies are not this workload's alone"
		}
		return s
	case diagnosis.ReasonSaturatedUnclear:
		return fmt.Sprintf("the curve saturates (at %s IOPS from QD %s) but no rule tells which limit it met: device, volume or VM", FormatIOPS(g.IOPS), FormatQD(g.QD))
	}
	return string(f.Rule)
}

// Verdicts that several reasons share.
const (
	verdictSubmitter = "the submitter did not keep the queue depth in flight"
	verdictNoRule    = "no rule fits: the curve neither stays at R0 nor flattens"
)

// fixedVerdict are the verdicts that depend on nothing but the reason.
var fixedVerdict = map[diagnosis.Reason]string{
	diagnosis.ReasonNoSteps:           "no measured steps",
	diagnosis.ReasonNoDevice:          "the target has no block device: these figures are not a device's",
	diagnosis.ReasonPageCache:         "I/Os were served without device I/O, most likely by the page cache: " + direct0 + " lets reads hit memory and writes land in dirty pages",
	diagnosis.ReasonUnwritten:         "I/Os were served without device I/O, most likely by reads of never-written (unwritten or sparse) extents, which the filesystem answers with zeros, or a host cache",
	diagnosis.ReasonHostCache:         "I/Os were served without device I/O, most likely by a cache in front of the device (host or hypervisor cache)",
	diagnosis.ReasonSelfCPU:           "the measuring process is CPU-bound: IOPS here are the CPU's limit, not the device's",
	diagnosis.ReasonHostBusy:          "the host's CPUs were busy: the submitter was starved and IOPS here are not the device's",
	diagnosis.ReasonSubmitterCPUCores: "the submitters are CPU-bound and cannot keep the queue full",
	diagnosis.ReasonJobsLimited:       "some jobs could not start (a system limit refused them), so fewer I/Os were in flight than the QD",
	diagnosis.ReasonJobsCPU:           "the jobs' threads were CPU-bound (running or waiting for a CPU): the CPU, not the device, set the pace",
	diagnosis.ReasonManyJobs:          verdictSubmitter,
	diagnosis.ReasonBuffered:          "I/Os wait above the device: buffered I/O lets the page cache decide what reaches the disk",
	diagnosis.ReasonAboveDevice:       "I/Os spend most of their time above the device (filesystem, I/O scheduler or completion reaping)",
	diagnosis.ReasonSubmitter:         verdictSubmitter,
	diagnosis.ReasonMixedCap:          "neither IOPS nor MiB/s is constant across block sizes",
	diagnosis.ReasonOneStep:           verdictNoRule,
	diagnosis.ReasonEarlyStopped:      "no rule fits the measured steps, and the sweep stopped early after flat ones",
	diagnosis.ReasonNotFlat:           verdictNoRule,
}

// FindingNext is the next step f advises, in words.
func FindingNext(f diagnosis.Finding) string {
	if v, ok := timeNext(f); ok {
		return v
	}
	g := f.Figures
	if f.Rule == diagnosis.RuleContended {
		return "measure again while nothing else uses the device (or on a volume of its own) before sizing from this curve"
	}
	if v, ok := openLoopNext(f); ok {
		return v
	}
	if v, ok := fixedNext[f.Reason]; ok {
		return v
	}
	switch f.Reason {
	case diagnosis.ReasonSelfCPU, diagnosis.ReasonHostBusy:
		return cpuNext(f)
	case diagnosis.ReasonSubmitterCPU:
		if g.HostBusy {
			return "run on a quieter host: other work held the CPUs"
		}
		return "spread the depth over more jobs (numjobs up to the CPU count)"
	case diagnosis.ReasonBelowTarget:
		return fmt.Sprintf("raise the queue depth: QD = target × latency = %s × %s ≈ %s (iodepth %d × numjobs %d)",
			FormatIOPS(g.TargetIOPS), FormatLatency(g.LatNs), FormatQD(g.ToQD), g.IODepth, g.NumJobs)
	case diagnosis.ReasonRising:
		return fmt.Sprintf("extend the sweep past QD %s (e.g. to %s) to find where it saturates", FormatQD(g.QD), FormatQD(g.ToQD))
	case diagnosis.ReasonPlateau:
		return fmt.Sprintf("compare %s IOPS and %s with the volume's provisioned IOPS/throughput and the VM's per-instance disk limits; "+
			"queue deeper than QD %s only adds latency", FormatIOPS(g.ToIOPS), fmtMiBpsUnit(g.BWBytes), FormatQD(g.QD))
	case diagnosis.ReasonSaturated:
		return fmt.Sprintf("size from this curve: QD %s is where more depth stops paying (see advise for a target or SLO)", FormatQD(g.QD))
	case diagnosis.ReasonNotFlat:
		return "near the knee but not flat: extend the sweep past QD " + FormatQD(g.QD)
	}
	return ""
}

// direct1 and direct0 are fio's direct option on and off, as the
// findings quote it.
var (
	direct1 = fio.Setting(fio.OptDirect, "1")
	direct0 = fio.Setting(fio.OptDirect, "0")
)

// Next steps that several reasons share.
var (
	nextOtherFS   = "size readers of this filesystem by Little's Law at its round trip (in flight = IOPS × latency), and its server or bucket by the plateau; to size a disk, measure a file on (or the block device of) that disk"
	nextCache     = "lay the file out with written data and use " + direct1 + " (or measure the block device itself); do not size a volume from these figures"
	nextSubmitter = "split the depth over more jobs (numjobs) and check qdsweep's CPU use"
)

// fixedNext are the next steps that depend on nothing but the reason.
var fixedNext = map[diagnosis.Reason]string{
	diagnosis.ReasonNoSteps:           "run the sweep again: every step failed or was skipped",
	diagnosis.ReasonNetworkFS:         nextOtherFS,
	diagnosis.ReasonFUSEFS:            nextOtherFS,
	diagnosis.ReasonRemoteFS:          nextOtherFS,
	diagnosis.ReasonNoDevice:          "measure a file on (or the block device of) the volume you mean to size",
	diagnosis.ReasonPageCache:         nextCache,
	diagnosis.ReasonUnwritten:         nextCache,
	diagnosis.ReasonHostCache:         nextCache,
	diagnosis.ReasonSyncEngine:        "use io_uring or libaio with " + direct1 + ", or raise numjobs to the queue depth you want",
	diagnosis.ReasonBehavedSync:       "use " + direct1 + " so submissions do not block, or raise numjobs",
	diagnosis.ReasonSubmitterCPUCores: "more jobs will not help (there are as many as CPUs): use fewer, deeper jobs or a faster CPU",
	diagnosis.ReasonJobsLimited:       "raise the limit the step's in-flight shortfall names, or lower numjobs",
	diagnosis.ReasonJobsCPU:           "measure on a quieter machine; on tmpfs or cached data the CPU is the device",
	diagnosis.ReasonManyJobs:          "check qdsweep's CPU use and the step's in-flight shortfall",
	diagnosis.ReasonNrRequests:        "spread the depth over more jobs on more CPUs (more hardware queues) or raise nr_requests",
	diagnosis.ReasonBuffered:          "use " + direct1 + " to measure the device",
	diagnosis.ReasonAboveDevice:       "measure the block device itself with " + direct1 + ", try scheduler none, and check qdsweep's CPU",
	diagnosis.ReasonSubmitter:         nextSubmitter,
	diagnosis.ReasonOneJob:            nextSubmitter,
	diagnosis.ReasonThroughputCap:     "the limit is bandwidth: compare with the volume's and the VM's MiB/s limits; smaller blocks buy IOPS, not MiB/s",
	diagnosis.ReasonIOPSCap:           "the limit is IOPS: compare with the volume's provisioned IOPS; larger blocks buy MiB/s at the same IOPS",
	diagnosis.ReasonMixedCap:          "the cap mixes an IOPS and a throughput limit: check both against the volume's and the VM's limits",
	diagnosis.ReasonOneStep:           "sweep more queue depths (powers of two up to 4× the expected knee)",
	diagnosis.ReasonSaturatedUnclear:  "compare the plateau with the volume's provisioned IOPS/throughput and the VM's per-instance disk limits",
	diagnosis.ReasonEarlyStopped:      "rerun with --full to measure the steps the early stop skipped",
}

// cpuNext is the next step of a finding that the CPU set the pace:
// qdsweep's own (ReasonSelfCPU) or the host's (ReasonHostBusy).
func cpuNext(f diagnosis.Finding) string {
	g := f.Figures
	next := "spread the load over more jobs (numjobs up to the CPU count)"
	switch {
	case g.Engine == "io_uring":
		next += ", with registered buffers and files, and fewer CPU-heavy options (verify, random data)"
	case g.Engine == "libaio":
		next += ", and use io_uring with registered buffers (cheaper per I/O than libaio)"
	case g.Synchronous:
		next += ", and use io_uring or libaio with " + direct1 + " instead of the synchronous " + g.Engine
	default:
		next += ", and use io_uring with " + direct1 + " and registered buffers"
	}
	if f.Reason == diagnosis.ReasonHostBusy {
		// qdsweep's own CPU was not the limit: other work held the CPUs.
		next = "run on a quieter host (other work held the CPUs); if qdsweep's CPU limits it there, " + next
	} else if g.HostBusy {
		next += "; run on a quieter host"
	}
	return next
}

// FindingEvidence is f's facts in words, one line each.
func FindingEvidence(f diagnosis.Finding) []string {
	out := make([]string, 0, len(f.Facts))
	for _, x := range f.Facts {
		out = append(out, factText(x))
	}
	return out
}

// factText words one fact of a finding.
func factText(x diagnosis.Fact) string {
	if v, ok := timeFactText(x); ok {
		return v
	}
	if v, ok := deviceFactText(x); ok {
		return v
	}
	switch x.Kind {
	case diagnosis.FactNoSteps:
		return fmt.Sprintf("%d points, none with a queue depth, IOPS and latency", x.Count)
	case diagnosis.FactPoint:
		return fmt.Sprintf("%s: %s IOPS at %s mean latency", stepAt(x), FormatIOPS(x.IOPS), FormatLatency(x.LatNs))
	case diagnosis.FactLatencyAt:
		return fmt.Sprintf("mean latency %s at %s", FormatLatency(x.LatNs), stepAt(x))
	case diagnosis.FactIOPSLatency:
		return fmt.Sprintf("%s IOPS at %s mean latency", FormatIOPS(x.IOPS), FormatLatency(x.LatNs))
	case diagnosis.FactInflight:
		return fmt.Sprintf("%s: %.1f in flight at %s (%.0f%% of %s)",
			stepSplit(x, splitWords(x.IODepth, x.NumJobs)), x.Inflight, inflightWhere(x.AtDevice), x.Fill*100, depthOf(x))
	case diagnosis.FactGrowth:
		return fmt.Sprintf("%s: IOPS %s → %s (×%.1f) while mean latency %s → %s (×%.2f, R0 %s)",
			stepRange(x), FormatIOPS(x.IOPS), FormatIOPS(x.ToIOPS), x.Ratio,
			FormatLatency(x.LatNs), FormatLatency(x.ToLatNs), x.LatRatio, FormatLatency(x.R0Ns))
	case diagnosis.FactTargetShort:
		return fmt.Sprintf("target %s IOPS; best measured %s IOPS (%.0f%%)", FormatIOPS(x.TargetIOPS), FormatIOPS(x.IOPS), x.Share*100)
	case diagnosis.FactPlateau:
		return fmt.Sprintf("%s: IOPS %s → %s (%+.1f%%), %s → %s",
			stepRange(x), FormatIOPS(x.IOPS), FormatIOPS(x.ToIOPS), (x.Ratio-1)*100, fmtMiBpsUnit(x.BWBytes), fmtMiBpsUnit(x.ToBWBytes))
	case diagnosis.FactPlateauLatency:
		if x.ToOfferedIOPS > 0 {
			return fmt.Sprintf("mean latency %s → %s (×%.1f for ×%.1f in flight); Little's Law in flight / IOPS = %s at %s IOPS offered",
				FormatLatency(x.LatNs), FormatLatency(x.ToLatNs), x.LatRatio, x.QDRatio, FormatLatency(x.LittleLatNs), FormatIOPS(x.ToOfferedIOPS))
		}
		return fmt.Sprintf("mean latency %s → %s (×%.1f for ×%.0f QD); Little's Law QD / IOPS = %s at QD %s",
			FormatLatency(x.LatNs), FormatLatency(x.ToLatNs), x.LatRatio, x.QDRatio, FormatLatency(x.LittleLatNs), FormatQD(x.ToQD))
	case diagnosis.FactTargetAbove:
		return fmt.Sprintf("target %s IOPS is above the cap: no queue depth reaches it", FormatIOPS(x.TargetIOPS))
	case diagnosis.FactSaturates:
		return fmt.Sprintf("saturates at %s IOPS from %s, mean latency %s (R0 %s)",
			FormatIOPS(x.IOPS), stepSplit(x, splitWords(x.IODepth, x.NumJobs)), FormatLatency(x.LatNs), FormatLatency(x.R0Ns))
	case diagnosis.FactDeepest:
		steps := fmt.Sprintf("%d measured steps", x.Count)
		if x.LeftOut > 0 {
			steps = fmt.Sprintf("%d steps analysed of %d measured", x.Count, x.Count+x.LeftOut)
		}
		return fmt.Sprintf("%s; deepest %s: %s IOPS at %s (R0 %s)",
			steps, stepAt(x), FormatIOPS(x.IOPS), FormatLatency(x.LatNs), FormatLatency(x.R0Ns))
	case diagnosis.FactLastStep:
		if x.ToOfferedIOPS > 0 && x.Ratio > 0 {
			return fmt.Sprintf("last step %s: IOPS ×%.2f, latency ×%.2f", stepRange(x), x.Ratio, x.LatRatio)
		}
		if x.QD > 0 && x.ToQD > 0 && x.Ratio > 0 {
			return fmt.Sprintf("last step QD %s → %s: IOPS ×%.2f, latency ×%.2f", FormatQD(x.QD), FormatQD(x.ToQD), x.Ratio, x.LatRatio)
		}
		return fmt.Sprintf("last step: IOPS gained %.0f%% of the QD growth, latency ×%.2f", x.Growth*100, x.LatRatio)
	case diagnosis.FactCapAtBS:
		return fmt.Sprintf("bs %s: %s IOPS, %s", fmtBS(x.BS), FormatIOPS(x.IOPS), fmtMiBpsUnit(x.BWBytes))
	case diagnosis.FactCapSpread:
		return fmt.Sprintf("spread across sizes (max/min − 1): IOPS %.0f%%, MiB/s %.0f%%", x.Ratio*100, x.BWRatio*100)
	}
	return string(x.Kind)
}

// deviceFactText words the facts measured beside the curve: the device's
// queue and bytes, caches, the filesystem, CPU use; ok is false for the others.
func deviceFactText(x diagnosis.Fact) (string, bool) {
	s := deviceFactWords(x)
	return s, s != ""
}

// deviceFactWords is deviceFactText's sentence ("" for other facts).
func deviceFactWords(x diagnosis.Fact) string {
	switch x.Kind {
	case diagnosis.FactSharedBytes:
		return fmt.Sprintf("%s: the device moved %s, this sweep %s (%.1f×): other I/O shared the device, so these latencies are contended",
			stepAt(x), fmtMiBpsUnit(x.DeviceBWBytes), fmtMiBpsUnit(x.BWBytes), x.Ratio)
	case diagnosis.FactSharedIOPS:
		return fmt.Sprintf("%s: the device served %s IOPS, this sweep %s (%.1f×): other I/O shared the device, so these latencies are contended",
			stepAt(x), FormatIOPS(x.DeviceIOPS), FormatIOPS(x.IOPS), x.Ratio)
	case diagnosis.FactNoDevice:
		return "target: " + x.Detail
	case diagnosis.FactFSType:
		return "filesystem: " + x.Detail + " (from the mount table)"
	case diagnosis.FactCacheShare:
		return fmt.Sprintf("%s: the engine did %s IOPS (%s), the device %s (%s): %.0f%% of the bytes reached it",
			stepAt(x), FormatIOPS(x.IOPS), fmtMiBpsUnit(x.BWBytes), FormatIOPS(x.DeviceIOPS), fmtMiBpsUnit(x.DeviceBWBytes), x.Share*100)
	case diagnosis.FactCacheMedian:
		return fmt.Sprintf("median share over %d steps: %.0f%%", x.Count, x.Share*100)
	case diagnosis.FactCPU:
		return cpuText(x)
	case diagnosis.FactHostBusy:
		return fmt.Sprintf("host CPU busy %.0f%% (user + system + softirq)", x.HostBusyPct)
	case diagnosis.FactDeviceQueue:
		return fmt.Sprintf("device: aqu-sz %.1f of %s, %%util %.0f", x.AquSz, depthOf(x), x.UtilPct)
	case diagnosis.FactDeviceAt:
		return fmt.Sprintf("device at %s: aqu-sz %.1f, %%util %.0f, await %.2f ms", stepAt(x), x.AquSz, x.UtilPct, x.AwaitMs)
	case diagnosis.FactInflightAt:
		return fmt.Sprintf("%.1f in flight at %s for %s", x.Inflight, inflightWhere(x.AtDevice), depthOf(x))
	case diagnosis.FactNoTelemetry:
		return "no device telemetry: queue fill taken from the engine"
	case diagnosis.FactEngineInflight:
		return fmt.Sprintf("engine in flight %.1f (IOPS × mean latency %.1f)", x.Inflight, x.LittleInflight)
	}
	return ""
}

// cpuText words the measuring process's CPU use: SelfCPUPct is percent of
// one core (so 169 is 1.69 cores), Cores how many cores its jobs can keep
// busy (one per job, at most the CPU count).
func cpuText(x diagnosis.Fact) string {
	jobs := max(x.NumJobs, 1)
	used := fmt.Sprintf("%.0f%% of a core", x.SelfCPUPct)
	if x.SelfCPUPct >= 100 {
		used = fmt.Sprintf("%.2f cores", x.SelfCPUPct/100)
	}
	who0 := "qdsweep"
	if x.CPUOfFio {
		who0 = "fio (which did the I/O)"
	}
	s := fmt.Sprintf("%s: %s used %s with %s ",
		stepSplit(x, splitWords(x.IODepth, x.NumJobs)), who0, used, CountNoun(float64(jobs), "job", "jobs"))
	who, whose := "the submitter was", "its"
	threads := "one submitting thread"
	perJob := 1
	if x.PollThreads {
		threads, perJob = "one submitting thread and one SQ poll thread", 2
	}
	switch {
	case jobs == 1 && perJob == 1:
		s += "(one submitting thread, at most one core)"
	case jobs == 1:
		s += "(" + threads + ", at most " + CountNoun(x.Cores, "core", "cores") + ")"
	default:
		who, whose = "the submitters were", "their"
		s += "(" + threads + " each, at most " + CountNoun(x.Cores, "core", "cores")
		if float64(jobs*perJob) > x.Cores {
			s += fmt.Sprintf(": the machine has %s", CountNoun(math.Floor(x.Cores), "CPU", "CPUs"))
		}
		s += ")"
	}
	switch x.Reason {
	case diagnosis.CPUSaturated:
		return s + ", so " + who + " saturated (CPU beyond that is kernel and runtime work on " + whose + " behalf)"
	case diagnosis.CPUNearlySaturated:
		return s + fmt.Sprintf(", so %s nearly saturated (%.0f%%)", who, x.Busy*100)
	}
	if jobs > 1 {
		s += fmt.Sprintf(": %.0f%% of that", x.Busy*100)
	}
	return s + ", so qdsweep's own CPU was not the limit"
}

// splitWords words an iodepth × numjobs split when known.
func splitWords(iodepth, numjobs int) string {
	if iodepth > 0 && numjobs > 0 {
		return fmt.Sprintf("iodepth %d × numjobs %d", iodepth, numjobs)
	}
	return "split unknown"
}

// inflightWhere names where I/Os in flight were counted.
func inflightWhere(atDevice bool) string {
	if atDevice {
		return "the device"
	}
	return "the engine"
}

// engineOr names an engine, "chosen" when unknown.
func engineOr(e string) string {
	if e == "" {
		return "chosen"
	}
	return e
}

// fmtMiBpsUnit is FormatMiBps with its unit: "357 MiB/s".
func fmtMiBpsUnit(bytesPerSec float64) string { return FormatMiBps(bytesPerSec) + " MiB/s" }

// contradictsTarget reports whether fact x speaks of an IOPS target in a
// way the curve's analysis a does not bear out: a was made without a
// target (the finding is older than it), or x says the target is not
// reached where a's target answer reaches it.
func contradictsTarget(x diagnosis.Fact, a *littleslaw.Analysis) bool {
	if a == nil || (x.Kind != diagnosis.FactTargetShort && x.Kind != diagnosis.FactTargetAbove) {
		return false
	}
	if a.Target == nil {
		return true
	}
	return a.Target.Reachable && x.Kind == diagnosis.FactTargetAbove
}

// CountNoun words a count with its noun: "1 job", "4 jobs", "2 cores".
// n is rounded to a whole number.
func CountNoun(n float64, singular, plural string) string {
	k := int64(math.Round(n))
	if k == 1 {
		return "1 " + singular
	}
	return fmt.Sprintf("%d %s", k, plural)
}

// networkFSVerdict says what a network or FUSE filesystem's latency means.
func networkFSVerdict(f diagnosis.Finding) string {
	g := f.Figures
	what := "a network filesystem"
	switch f.Reason {
	case diagnosis.ReasonFUSEFS:
		what = "a FUSE filesystem"
	case diagnosis.ReasonRemoteFS:
		what = "a filesystem without a block device"
	}
	if g.Detail != "" {
		what += " (" + g.Detail + ")"
	}
	return fmt.Sprintf("the target is on %s: its %s at %s is a round trip to the server (and, for FUSE, through its daemon), not a device's service time and not a cache hit; these figures size that filesystem, not a disk",
		what, FormatLatency(g.LatNs), stepAt(g))
}
