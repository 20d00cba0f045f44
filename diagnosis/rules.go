package diagnosis

import (
	"math"
	"sort"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// Thresholds of the rules.
const (
	diagNearR0        = 1.5                 // latency within 1.5 × R0 counts as "near R0"
	diagFlat          = 0.05                // IOPS within 5% counts as flat
	diagQueueShort    = littleslaw.FillFlag // in flight below half the QD: the queue is not full
	diagQueueFull     = littleslaw.FullFill // in flight at 80% of the QD or more: the queue is full
	diagCPUBusy       = CPUBusyShare
	diagHostBusyPct   = 90  // host CPU busy percent that starves the submitter
	diagCacheShare    = 0.5 // device saw under half the engine's bytes: cache
	diagProportional  = 0.6 // latency grew by ≥ 60% of the QD growth: ∝ QD
	diagMinDepthCheck = 4   // queue-fill checks start at this QD
	diagNVMeQueue     = 256 // entries of one NVMe submission queue
)

// CPUBusyShare is the share of its cores the measuring process must use
// to count as CPU-bound (85%).
const CPUBusyShare = 0.85

// DiagnoseInput is what the diagnosis rules read: the curves of one sweep
// and what the sweep was for.
type DiagnoseInput struct {
	Curves     []DiagnoseCurve
	TargetIOPS float64 // load to size for, I/Os per second (0: none)
	CPUs       int     // CPUs of the measuring host (0: unknown)
}

// DiagnoseCurve is one rw × bs curve with the facts measured beside it.
type DiagnoseCurve struct {
	RW string // fio rw: read, randread, write, randwrite, rw, randrw
	BS int64  // block size, bytes (0: unknown)
	// Engine is the engine's name; Synchronous is set when it keeps one I/O
	// in flight per job whatever the iodepth (psync, sync, pvsync).
	Engine      string
	Synchronous bool
	Direct      bool // O_DIRECT (fio direct=1)
	// PollThreads: every job had a kernel thread polling its submission
	// queue (io_uring's SQPOLL, fio's sqthread_poll), which spins: a job
	// then keeps up to two cores busy.
	PollThreads bool
	// NoDevice says why the target has no block device figures at all
	// (e.g. "on tmpfs"); "" when it has a block device.
	NoDevice string
	// FSType is the filesystem the target lives on as the mount table
	// names it ("nfs4", "fuse.gcsfuse", "ext4"; "" unknown) and FSClass its
	// class: FSClassNetwork, FSClassFUSE, FSClassMemory, "local", "other".
	FSType  string
	FSClass string
	// Points are the measured steps; Telemetry, when set, holds one entry
	// per point (same order). LeftOut counts the curve's measured steps
	// that Points leaves out (the analysis set them aside), so that a fact
	// that counts the steps says how many were measured as well.
	Points    []littleslaw.Point
	Telemetry []StepTelemetry
	LeftOut   int
	// Analysis is the curve's analysis when already computed (nil: the
	// rules use the points alone).
	Analysis *littleslaw.Analysis
	// NrRequests and HWQueues are the device's request limit per hardware
	// queue and its number of hardware queues (0: unknown).
	NrRequests int
	HWQueues   int
}

// StepTelemetry is what the device and the host showed during one step.
type StepTelemetry struct {
	DeviceKnown   bool    // the device figures below were measured
	DeviceIOPS    float64 // r/s + w/s at the device
	DeviceBWBytes float64 // bytes per second at the device, reads + writes
	AquSz         float64 // mean requests outstanding at the device
	UtilPct       float64 // percent of the window with a request outstanding
	AwaitMs       float64 // mean device time per request, ms
	CPUKnown      bool    // the CPU figures below were measured
	SelfCPUPct    float64 // the measuring process, percent of one core
	CPUOfFio      bool    // SelfCPUPct is fio's (usr_cpu + sys_cpu): fio did the I/O
	HostBusyPct   float64 // host user + system + softirq, percent of all CPUs
}

// Diagnose applies the bottleneck rules to each curve and returns their
// findings: the problems first (cache, queue-not-reaching-device,
// cpu-bound, depth-bound); else device-cap; else healthy, or contended
// when other I/O shared the device; a curve no rule fits gets one
// inconclusive finding. The verdicts of one curve do not contradict each
// other: device-cap already says the device saturated, so it comes without
// healthy, and healthy is said only when nothing else was found. Across curves of one rw at several
// block sizes it also says whether a cap is on IOPS or on MiB/s.
func Diagnose(in DiagnoseInput) []Finding {
	var out []Finding
	var caps []diagCap
	for _, c := range in.Curves {
		fs, cp := diagnoseCurve(c, in)
		out = append(out, fs...)
		if cp != nil {
			caps = append(caps, *cp)
		}
	}
	return append(out, diagCapKind(caps)...)
}

// diagCurve is one curve prepared for the rules.
type diagCurve struct {
	DiagnoseCurve
	pts  []littleslaw.Point
	tel  []StepTelemetry // same length as pts; zero entries when unknown
	r0   float64         // base latency, ns
	xmax float64         // highest IOPS
	imax int             // index of xmax
	cpus int
}

// diagCap is a curve found capped, for the cross-block-size verdict.
type diagCap struct {
	rw   string
	bs   int64
	iops float64
	bw   float64 // bytes per second
}

func diagnoseCurve(c DiagnoseCurve, in DiagnoseInput) ([]Finding, *diagCap) {
	d := prepareDiag(c, in.CPUs)
	if len(d.pts) == 0 {
		return []Finding{d.finding(RuleInconclusive, ReasonNoSteps, Fact{},
			Fact{Kind: FactNoSteps, Count: len(c.Points)})}, nil
	}
	nfs := d.networkFS()
	fs, cp := diagnoseRules(d, in, nfs == nil)
	if nfs != nil {
		fs = append([]Finding{*nfs}, fs...)
	}
	return fs, cp
}

// diagnoseRules applies the bottleneck rules to a prepared curve; cacheOK
// is false when the target is known to be a network filesystem (its
// latency is a round trip, not a cache's).
func diagnoseRules(d *diagCurve, in DiagnoseInput, cacheOK bool) ([]Finding, *diagCap) {
	var problems []Finding
	var cache *Finding
	if cacheOK {
		cache = d.cache()
	}
	if cache != nil {
		problems = append(problems, *cache)
	}
	cpu := d.cpuBound()
	if q := d.queueNotFull(cpu); q != nil && cache == nil {
		problems = append(problems, *q)
	}
	if cpu != nil {
		problems = append(problems, *cpu)
	}
	if len(problems) == 0 {
		if f := d.depthBound(in.TargetIOPS); f != nil {
			problems = append(problems, *f)
		}
	}
	if len(problems) > 0 {
		d.noteShared(problems)
		return problems, nil
	}
	if capF, cp := d.deviceCap(in.TargetIOPS); capF != nil {
		out := []Finding{*capF}
		d.noteShared(out)
		return out, cp
	}
	if h := d.healthy(); h != nil {
		if ev, ok := d.shared(); ok {
			return []Finding{d.contended(*h, ev)}, nil
		}
		return []Finding{*h}, nil
	}
	out := []Finding{d.inconclusive()}
	d.noteShared(out)
	return out, nil
}

// noteShared adds to the first finding that the device served much more
// I/O than the sweep did at some step: other I/O contended with it.
func (d *diagCurve) noteShared(fs []Finding) {
	if ev, ok := d.shared(); ok && len(fs) > 0 {
		fs[0].Facts = append(fs[0].Facts, ev)
	}
}

// shared finds the step where the device moved the most beyond what the
// sweep did (at least 1.5× and 100 IOPS more). It compares
// bytes when both are known, since the block layer may split one large
// I/O into several requests (a 1 MiB read is two 512 KiB requests on a
// device with max_sectors_kb 512), which doubles the device's IOPS
// without any other I/O; otherwise it compares IOPS.
func (d *diagCurve) shared() (Fact, bool) {
	best, bi, byBytes := 1.5, -1, false
	for i, t := range d.tel {
		p := d.pts[i]
		if !t.DeviceKnown {
			continue
		}
		if t.DeviceBWBytes > 0 && p.BWBytes > 0 {
			r := t.DeviceBWBytes / p.BWBytes
			extraIOPS := (t.DeviceBWBytes - p.BWBytes) / (p.BWBytes / p.IOPS)
			if extraIOPS > 100 && r > best {
				best, bi, byBytes = r, i, true
			}
			continue
		}
		if t.DeviceIOPS-p.IOPS > 100 && t.DeviceIOPS/p.IOPS > best {
			best, bi, byBytes = t.DeviceIOPS/p.IOPS, i, false
		}
	}
	if bi < 0 {
		return Fact{}, false
	}
	p, t := d.pts[bi], d.tel[bi]
	if byBytes {
		return Fact{Kind: FactSharedBytes, QD: p.QD, OfferedIOPS: p.OfferedIOPS, DeviceBWBytes: t.DeviceBWBytes, BWBytes: p.BWBytes, Ratio: best}, true
	}
	return Fact{Kind: FactSharedIOPS, QD: p.QD, OfferedIOPS: p.OfferedIOPS, DeviceIOPS: t.DeviceIOPS, IOPS: p.IOPS, Ratio: best}, true
}

// contended turns a healthy verdict into a contended one: the curve
// saturated, but not on a device the sweep had to itself.
func (d *diagCurve) contended(h Finding, shared Fact) Finding {
	h.Rule = RuleContended
	h.Facts = append(append([]Fact{}, h.Facts...), shared)
	return h
}

func prepareDiag(c DiagnoseCurve, cpus int) *diagCurve {
	d := &diagCurve{DiagnoseCurve: c, cpus: cpus}
	idx := make([]int, 0, len(c.Points))
	for i, p := range c.Points {
		if p.QD > 0 && p.IOPS > 0 && p.LatMeanNs > 0 && !math.IsNaN(p.IOPS+p.LatMeanNs+p.QD) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return c.Points[idx[a]].QD < c.Points[idx[b]].QD })
	for _, i := range idx {
		d.pts = append(d.pts, c.Points[i])
		var t StepTelemetry
		if i < len(c.Telemetry) {
			t = c.Telemetry[i]
		}
		d.tel = append(d.tel, t)
	}
	if len(d.pts) == 0 {
		return d
	}
	d.r0 = d.pts[0].LatMeanNs
	if c.Analysis != nil && c.Analysis.BaseLatencyNs > 0 {
		d.r0 = c.Analysis.BaseLatencyNs
	}
	for i, p := range d.pts {
		if p.IOPS > d.xmax {
			d.xmax, d.imax = p.IOPS, i
		}
	}
	return d
}

func (d *diagCurve) finding(rule Rule, reason Reason, figures Fact, facts ...Fact) Finding {
	if facts == nil {
		facts = []Fact{}
	}
	return Finding{Rule: rule, Reason: reason, RW: d.RW, BS: d.BS, Figures: figures, Facts: facts}
}

// engineInflight is the engine's mean in flight at step i: measured when
// known, else Little's Law from IOPS × mean latency.
func (d *diagCurve) engineInflight(i int) float64 {
	p := d.pts[i]
	if p.InflightMean > 0 {
		return p.InflightMean
	}
	return p.IOPS * p.LatMeanNs / 1e9
}

// offeredAt is the load offered to the step whose QD (in flight, in open
// loop) is qd: 0 for a step over depths or none.
func (d *diagCurve) offeredAt(qd float64) float64 {
	for _, p := range d.pts {
		if p.QD == qd {
			return p.OfferedIOPS
		}
	}
	return 0
}

// cores is how many cores step i's jobs can use.
func (d *diagCurve) cores(i int) float64 {
	n := max(d.pts[i].NumJobs, 1)
	if d.PollThreads {
		n *= 2
	}
	if d.cpus > 0 {
		n = min(n, d.cpus)
	}
	return float64(n)
}

// cache: the device saw far less than the engine moved.
func (d *diagCurve) cache() *Finding {
	if d.NoDevice != "" {
		p := d.pts[d.imax]
		return ptr(d.finding(RuleCache, ReasonNoDevice, Fact{},
			Fact{Kind: FactNoDevice, Detail: d.NoDevice},
			Fact{Kind: FactPoint, QD: p.QD, OfferedIOPS: p.OfferedIOPS, IOPS: p.IOPS, LatNs: p.LatMeanNs}))
	}
	var worst, share float64 = -1, 0
	wi := -1
	var shares []float64
	for i, p := range d.pts {
		t := d.tel[i]
		if !t.DeviceKnown {
			continue
		}
		var s float64
		switch {
		case t.DeviceBWBytes > 0 && p.BWBytes > 0:
			s = t.DeviceBWBytes / p.BWBytes
		case p.BWBytes > 0 || p.IOPS > 0:
			s = t.DeviceIOPS / p.IOPS
		default:
			continue
		}
		shares = append(shares, s)
		if gap := p.IOPS * (1 - s); gap > worst {
			worst, share, wi = gap, s, i
		}
	}
	if len(shares) == 0 || median(shares) >= diagCacheShare {
		return nil
	}
	p, t := d.pts[wi], d.tel[wi]
	why := ReasonHostCache
	switch {
	case !d.Direct:
		why = ReasonPageCache
	case isReadRW(d.RW):
		why = ReasonUnwritten
	}
	return ptr(d.finding(RuleCache, why, Fact{},
		Fact{Kind: FactCacheShare, QD: p.QD, OfferedIOPS: p.OfferedIOPS, IOPS: p.IOPS, BWBytes: p.BWBytes, DeviceIOPS: t.DeviceIOPS, DeviceBWBytes: t.DeviceBWBytes, Share: share},
		Fact{Kind: FactCacheMedian, Count: len(shares), Share: median(shares)},
		Fact{Kind: FactLatencyAt, LatNs: d.pts[0].LatMeanNs, QD: d.pts[0].QD, OfferedIOPS: d.pts[0].OfferedIOPS}))
}

// cpuBound: the measuring process used nearly all of its cores (or the host
// was busy) while the device was not saturated.
func (d *diagCurve) cpuBound() *Finding {
	for i := len(d.pts) - 1; i >= 0; i-- {
		t, p := d.tel[i], d.pts[i]
		if !t.CPUKnown {
			continue
		}
		busy := t.SelfCPUPct / (100 * d.cores(i))
		hostBusy := t.HostBusyPct >= diagHostBusyPct
		if busy < diagCPUBusy && !hostBusy {
			return nil // the deepest step with CPU figures decides
		}
		if t.DeviceKnown && t.AquSz >= diagQueueFull*p.QD && t.UtilPct >= 95 {
			return nil // the device was saturated: the CPU did not hold it back
		}
		cf := cpuFact(p, t.SelfCPUPct, d.cores(i))
		cf.PollThreads, cf.CPUOfFio = d.PollThreads, t.CPUOfFio
		ev := []Fact{cf}
		if t.HostBusyPct > 0 {
			ev = append(ev, Fact{Kind: FactHostBusy, HostBusyPct: t.HostBusyPct})
		}
		if t.DeviceKnown {
			ev = append(ev, Fact{Kind: FactDeviceQueue, AquSz: t.AquSz, QD: p.QD, OfferedIOPS: p.OfferedIOPS, UtilPct: t.UtilPct})
		}
		ev = append(ev, Fact{Kind: FactIOPSLatency, IOPS: p.IOPS, LatNs: p.LatMeanNs})
		reason := ReasonSelfCPU
		if hostBusy && busy < diagCPUBusy {
			reason = ReasonHostBusy
		}
		return ptr(d.finding(RuleCPUBound, reason, d.engineFigures(Fact{HostBusy: hostBusy}), ev...))
	}
	return nil
}

// cpuFact is the measuring process's CPU use at step p: selfPct is
// percent of one core (so 169 is 1.69 cores), cores how many cores its
// jobs can keep busy (a job is one submitting thread, so one core per job,
// at most the CPU count). The process may use more than its jobs' cores:
// the kernel and runtime work done on its behalf is counted too.
func cpuFact(p littleslaw.Point, selfPct, cores float64) Fact {
	busy := selfPct / 100 / cores
	grade := CPUNotLimit
	switch {
	case busy >= 1:
		grade = CPUSaturated
	case busy >= diagCPUBusy:
		grade = CPUNearlySaturated
	}
	return Fact{Kind: FactCPU, Reason: grade, QD: p.QD, OfferedIOPS: p.OfferedIOPS, IODepth: p.IODepth, NumJobs: p.NumJobs,
		SelfCPUPct: selfPct, Cores: cores, Busy: busy}
}

// engineFigures fills f with the curve's engine facts, which the next
// steps of several rules depend on.
func (d *diagCurve) engineFigures(f Fact) Fact {
	f.Engine, f.Synchronous, f.Buffered = d.Engine, d.Synchronous, !d.Direct
	return f
}

// isReadRW reports whether fio rw pattern rw reads.
func isReadRW(rw string) bool { return strings.Contains(rw, "read") }

// Shortfall causes a Point carries (the engine's ShortfallCause values).
const (
	ShortfallLimit = "limit"
	ShortfallCPU   = "cpu"
)

// queueNotFull: the device (or the engine) held far fewer I/Os than the QD.
// cpu is the curve's cpu-bound finding (nil when the CPU was not the limit).
func (d *diagCurve) queueNotFull(cpu *Finding) *Finding {
	cpuBound := cpu != nil
	i := len(d.pts) - 1
	p, t := d.pts[i], d.tel[i]
	if p.QD < diagMinDepthCheck {
		return nil
	}
	eng := d.engineInflight(i)
	at := eng
	if t.DeviceKnown {
		at = t.AquSz
	}
	if at >= diagQueueShort*p.QD {
		return nil
	}
	ev := []Fact{{Kind: FactInflight, QD: p.QD, OfferedIOPS: p.OfferedIOPS, IODepth: p.IODepth, NumJobs: p.NumJobs,
		Inflight: at, AtDevice: t.DeviceKnown, Fill: at / p.QD}}
	if t.DeviceKnown {
		ev = append(ev, Fact{Kind: FactEngineInflight, Inflight: eng, LittleInflight: p.IOPS * p.LatMeanNs / 1e9})
	}
	jobs := float64(max(p.NumJobs, 1))
	fig := d.engineFigures(Fact{IODepth: p.IODepth, OfferedIOPS: p.OfferedIOPS})
	var reason Reason
	switch {
	case d.Synchronous && p.IODepth > 1:
		reason = ReasonSyncEngine
	case p.Shortfall == ShortfallLimit:
		// Fewer jobs ran than the split names: the engine said which limit.
		reason = ReasonJobsLimited
	case p.Shortfall == ShortfallCPU:
		reason = ReasonJobsCPU
	case eng <= 1.25*jobs && p.IODepth > 1:
		reason = ReasonBehavedSync
	case cpuBound && p.NumJobs > 1 && d.cpus > 0 && p.NumJobs >= d.cpus:
		reason = ReasonSubmitterCPUCores
	case cpuBound:
		reason = ReasonSubmitterCPU
		// Other work held the CPUs, not qdsweep's own use: say so, as the
		// cpu-bound finding beside this one does.
		fig.HostBusy = cpu.Reason == ReasonHostBusy
	case t.DeviceKnown && eng >= diagQueueFull*p.QD:
		limit := d.NrRequests * max(d.HWQueues, 1)
		switch {
		case d.NrRequests > 0 && at <= 1.1*float64(limit) && p.QD > float64(limit):
			reason = ReasonNrRequests
			fig.Count, fig.NrRequests, fig.HWQueues = limit, d.NrRequests, max(d.HWQueues, 1)
		case !d.Direct:
			reason = ReasonBuffered
		default:
			reason = ReasonAboveDevice
		}
	default:
		reason = ReasonSubmitter
		if p.NumJobs <= 1 && p.IODepth > diagNVMeQueue/4 {
			reason = ReasonOneJob
		}
		if p.NumJobs > 1 {
			// The engine keeps every job's I/Os in flight whatever the
			// CPU count: more jobs are not what is missing.
			reason = ReasonManyJobs
		}
	}
	return ptr(d.finding(RuleQueueNotFull, reason, fig, ev...))
}

// depthBound: latency stays near R0 while IOPS still climbs with QD (or stays
// under the target): the device was not pushed.
func (d *diagCurve) depthBound(target float64) *Finding {
	last := d.pts[len(d.pts)-1]
	if last.LatMeanNs > diagNearR0*d.r0 {
		return nil
	}
	first := d.pts[0]
	rising := len(d.pts) >= 2 && d.growth(len(d.pts)-1) > 0.5
	short := target > 0 && d.xmax < 0.9*target
	if !rising && !short {
		return nil
	}
	ev := []Fact{{Kind: FactGrowth, QD: first.QD, ToQD: last.QD, OfferedIOPS: first.OfferedIOPS, ToOfferedIOPS: last.OfferedIOPS, IOPS: first.IOPS, ToIOPS: last.IOPS, Ratio: last.IOPS / first.IOPS,
		LatNs: first.LatMeanNs, ToLatNs: last.LatMeanNs, LatRatio: last.LatMeanNs / first.LatMeanNs, R0Ns: d.r0}}
	if target > 0 {
		// The one interpolation of the curve where it reaches the target
		// (so this agrees with the target answer); beyond the deepest step,
		// Little's Law at the deepest step's latency.
		lat := last.LatMeanNs
		qd := littleslaw.CeilQD(littleslaw.QueueDepth(target, lat))
		if op, ok := littleslaw.NewCurve(d.pts).For(target); ok {
			lat, qd = op.LatencyNs, littleslaw.CeilQD(op.QD)
		}
		ev = append(ev, Fact{Kind: FactTargetShort, TargetIOPS: target, IOPS: d.xmax, Share: d.xmax / target})
		md, mj := littleslaw.Options{CPUs: d.cpus}.Limits()
		s := littleslaw.SplitFor(qd, md, mj).Best
		return ptr(d.finding(RuleDepthBound, ReasonBelowTarget, Fact{QD: last.QD, OfferedIOPS: last.OfferedIOPS, TargetIOPS: target, LatNs: lat,
			ToQD: float64(qd), IODepth: s.IODepth, NumJobs: s.NumJobs}, ev...))
	}
	return ptr(d.finding(RuleDepthBound, ReasonRising, Fact{QD: last.QD, ToQD: 4 * last.QD, OfferedIOPS: last.OfferedIOPS}, ev...))
}

// growth is the relative IOPS gain of step i over step i−1 per relative QD
// gain: 1 for IOPS ∝ QD, 0 for flat.
func (d *diagCurve) growth(i int) float64 {
	a, b := d.pts[i-1], d.pts[i]
	if b.QD <= a.QD || a.IOPS <= 0 {
		return 0
	}
	return (b.IOPS/a.IOPS - 1) / (b.QD/a.QD - 1)
}

// plateau returns the first index of the flat top of the curve (IOPS
// within diagFlat of the maximum up to the deepest step) and whether it
// spans at least a doubling of QD with latency growing in proportion.
func (d *diagCurve) plateau() (start int, ok bool) {
	n := len(d.pts)
	start = n - 1
	for start > 0 && d.pts[start-1].IOPS >= (1-diagFlat)*d.xmax {
		start--
	}
	last := d.pts[n-1]
	if last.IOPS < (1-diagFlat)*d.xmax {
		return start, false // retrograde or noisy top: not a flat cap
	}
	a := d.pts[start]
	qdRatio := last.QD / a.QD
	if qdRatio < 2 {
		return start, false
	}
	latRatio := last.LatMeanNs / a.LatMeanNs
	return start, latRatio-1 >= diagProportional*(qdRatio-1)
}

// deviceCap: IOPS flat while latency grows with QD (Little's Law at
// saturation) with the queue reaching the device.
func (d *diagCurve) deviceCap(target float64) (*Finding, *diagCap) {
	if len(d.pts) < 3 {
		return nil, nil
	}
	s, ok := d.plateau()
	if !ok {
		return nil, nil
	}
	a, z := d.pts[s], d.pts[len(d.pts)-1]
	bw := 0.0 // the most bandwidth on the plateau, bytes/s
	for _, p := range d.pts[s:] {
		b := p.BWBytes
		if b == 0 && d.BS > 0 {
			b = p.IOPS * float64(d.BS)
		}
		bw = max(bw, b)
	}
	ev := []Fact{
		{Kind: FactPlateau, QD: a.QD, ToQD: z.QD, OfferedIOPS: a.OfferedIOPS, ToOfferedIOPS: z.OfferedIOPS, IOPS: a.IOPS, ToIOPS: z.IOPS, Ratio: z.IOPS / a.IOPS, BWBytes: a.BWBytes, ToBWBytes: z.BWBytes},
		{Kind: FactPlateauLatency, LatNs: a.LatMeanNs, ToLatNs: z.LatMeanNs, LatRatio: z.LatMeanNs / a.LatMeanNs, QDRatio: z.QD / a.QD,
			LittleLatNs: z.QD / z.IOPS * 1e9, ToQD: z.QD, ToOfferedIOPS: z.OfferedIOPS},
	}
	if t := d.tel[len(d.pts)-1]; t.DeviceKnown {
		ev = append(ev, Fact{Kind: FactDeviceAt, QD: z.QD, OfferedIOPS: z.OfferedIOPS, AquSz: t.AquSz, UtilPct: t.UtilPct, AwaitMs: t.AwaitMs})
	}
	if target > 0 && d.xmax*(1+littleslaw.ReachSlack) < target {
		ev = append(ev, Fact{Kind: FactTargetAbove, TargetIOPS: target})
	}
	fig := Fact{IOPS: a.IOPS, ToIOPS: d.xmax, BWBytes: bw, QD: a.QD, OfferedIOPS: a.OfferedIOPS}
	return ptr(d.finding(RuleDeviceCap, ReasonPlateau, fig, ev...)), &diagCap{rw: d.RW, bs: d.BS, iops: d.xmax, bw: bw}
}

// healthy: saturation reached with the queue full at the device.
func (d *diagCurve) healthy() *Finding {
	n := len(d.pts)
	if n < 2 {
		return nil
	}
	sat := -1
	if a := d.Analysis; a != nil {
		// The analysis decided whether the curve saturated: follow it.
		for i, p := range d.pts {
			if a.Saturation.Found && p.QD == a.Saturation.QD {
				sat = i
			}
		}
	} else if d.imax < n-1 || d.growth(n-1) < 0.1 {
		sat = d.imax
		if s, _ := d.plateau(); s < sat {
			sat = s
		}
	}
	if sat < 0 {
		return nil
	}
	p, t := d.pts[sat], d.tel[sat]
	at := d.engineInflight(sat)
	if t.DeviceKnown {
		at = t.AquSz
	}
	if at < diagQueueFull*p.QD {
		return nil
	}
	ev := []Fact{
		{Kind: FactSaturates, IOPS: p.IOPS, QD: p.QD, OfferedIOPS: p.OfferedIOPS, IODepth: p.IODepth, NumJobs: p.NumJobs, LatNs: p.LatMeanNs, R0Ns: d.r0},
		{Kind: FactInflightAt, Inflight: at, AtDevice: t.DeviceKnown, QD: p.QD, OfferedIOPS: p.OfferedIOPS},
	}
	if !t.DeviceKnown {
		ev = append(ev, Fact{Kind: FactNoTelemetry})
	}
	return ptr(d.finding(RuleHealthy, ReasonSaturated, Fact{QD: p.QD, OfferedIOPS: p.OfferedIOPS, AtDevice: t.DeviceKnown}, ev...))
}

func (d *diagCurve) inconclusive() Finding {
	n := len(d.pts)
	last := d.pts[n-1]
	ev := []Fact{{Kind: FactDeepest, Count: n, LeftOut: d.LeftOut + len(d.Points) - n, QD: last.QD, OfferedIOPS: last.OfferedIOPS, IOPS: last.IOPS, LatNs: last.LatMeanNs, R0Ns: d.r0}}
	if n < 2 {
		return d.finding(RuleInconclusive, ReasonOneStep, Fact{}, ev...)
	}
	prev := d.pts[n-2]
	ev = append(ev, Fact{Kind: FactLastStep, QD: prev.QD, ToQD: last.QD, OfferedIOPS: prev.OfferedIOPS, ToOfferedIOPS: last.OfferedIOPS, Ratio: last.IOPS / prev.IOPS,
		Growth: d.growth(n - 1), LatRatio: last.LatMeanNs / prev.LatMeanNs})
	// A curve the saturation rule found saturated, or one the sweep stopped
	// after flat steps, must not be told to extend the sweep.
	if a := d.Analysis; a != nil && a.Saturation.Found {
		return d.finding(RuleInconclusive, ReasonSaturatedUnclear, Fact{QD: a.Saturation.QD, OfferedIOPS: d.offeredAt(a.Saturation.QD), IOPS: a.Saturation.IOPS}, ev...)
	}
	if a := d.Analysis; a != nil && a.EarlyStopped {
		return d.finding(RuleInconclusive, ReasonEarlyStopped, Fact{QD: last.QD, OfferedIOPS: last.OfferedIOPS}, ev...)
	}
	return d.finding(RuleInconclusive, ReasonNotFlat, Fact{QD: last.QD, OfferedIOPS: last.OfferedIOPS}, ev...)
}

// diagCapKind tells, for an rw capped at two block sizes or more, whether
// the cap is on IOPS (IOPS alike across sizes) or on throughput (MiB/s
// alike): the flatter figure names it.
func diagCapKind(caps []diagCap) []Finding {
	byRW := map[string][]diagCap{}
	var order []string
	for _, c := range caps {
		if c.bs <= 0 || c.iops <= 0 || c.bw <= 0 {
			continue
		}
		if _, ok := byRW[c.rw]; !ok {
			order = append(order, c.rw)
		}
		byRW[c.rw] = append(byRW[c.rw], c)
	}
	var out []Finding
	for _, rw := range order {
		cs := byRW[rw]
		sizes := map[int64]bool{}
		var iops, bw []float64
		for _, c := range cs {
			sizes[c.bs] = true
			iops = append(iops, c.iops)
			bw = append(bw, c.bw)
		}
		if len(sizes) < 2 {
			continue
		}
		ci, cb := diagSpread(iops), diagSpread(bw)
		var ev []Fact
		for _, c := range cs {
			ev = append(ev, Fact{Kind: FactCapAtBS, BS: c.bs, IOPS: c.iops, BWBytes: c.bw})
		}
		ev = append(ev, Fact{Kind: FactCapSpread, Ratio: ci, BWRatio: cb})
		f := Finding{Rule: RuleDeviceCap, Reason: ReasonMixedCap, RW: rw, Facts: ev}
		switch {
		case cb < ci && cb <= capAlike:
			f.Reason, f.Figures = ReasonThroughputCap, Fact{BWBytes: median(bw)}
		case ci <= cb && ci <= capAlike:
			f.Reason, f.Figures = ReasonIOPSCap, Fact{IOPS: median(iops)}
		}
		out = append(out, f)
	}
	return out
}

func ptr(f Finding) *Finding { return &f }

// capAlike is the most a figure may spread across block sizes (max/min −
// 1) to count as the same cap (15%).
const capAlike = 0.15

// diagSpread is max/min − 1 of positive values.
func diagSpread(v []float64) float64 {
	lo, hi := math.Inf(1), 0.0
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if lo <= 0 || math.IsInf(lo, 1) {
		return math.Inf(1)
	}
	return hi/lo - 1
}
