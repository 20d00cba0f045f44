package littleslaw

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Rule names of Finding.Rule, in the order Diagnose reports them.
const (
	RuleCache        = "cache"
	RuleQueueNotFull = "queue-not-reaching-device"
	RuleCPUBound     = "cpu-bound"
	RuleDepthBound   = "depth-bound"
	RuleDeviceCap    = "device-cap"
	RuleHealthy      = "healthy"
	// RuleContended replaces healthy when the curve saturated but other I/O
	// shared the device during the sweep: the figures are not the
	// workload's alone.
	RuleContended    = "contended"
	RuleInconclusive = "inconclusive" // no rule fits: says what is missing
)

// Thresholds of the rules.
const (
	diagNearR0        = 1.5  // latency within 1.5 × R0 counts as "near R0"
	diagFlat          = 0.05 // IOPS within 5% counts as flat
	diagQueueShort    = 0.5  // in flight below half the QD: the queue is not full
	diagQueueFull     = 0.8  // in flight at 80% of the QD or more: the queue is full
	diagCPUBusy       = 0.85 // 85% of the cores used: CPU-bound
	diagHostBusyPct   = 90   // host CPU busy percent that starves the submitter
	diagCacheShare    = 0.5  // device saw under half the engine's bytes: cache
	diagProportional  = 0.6  // latency grew by ≥ 60% of the QD growth: ∝ QD
	diagMinDepthCheck = 4    // queue-fill checks start at this QD
	diagNVMeQueue     = 256  // entries of one NVMe submission queue
)

// DiagnoseInput is what the diagnosis rules read: the curves of one sweep
// and what the sweep was for.
type DiagnoseInput struct {
	Curves     []DiagnoseCurve
	TargetIOPS float64 // load to size for, I/Os per second (0: none)
	CPUs       int     // CPUs of the measuring host (0: unknown)
}

// DiagnoseCurve is one rw × bs curve with the facts measured beside it.
type DiagnoseCurve struct {
	Label string // names the curve in summaries, e.g. "randread 4 KiB"
	RW    string // fio rw: read, randread, write, randwrite, rw, randrw
	BS    int64  // block size, bytes (0: unknown)
	// Engine is the engine's name; Synchronous is set when it keeps one I/O
	// in flight per job whatever the iodepth (psync, sync, pvsync).
	Engine      string
	Synchronous bool
	Direct      bool // O_DIRECT (fio direct=1)
	// NoDevice says why the target has no block device figures at all
	// (e.g. "on tmpfs"); "" when it has a block device.
	NoDevice string
	// Points are the measured steps; Telemetry, when set, holds one entry
	// per point (same order).
	Points    []Point
	Telemetry []StepTelemetry
	// Analysis is the curve's analysis when already computed (nil: the
	// rules use the points alone).
	Analysis *Analysis
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
	pts  []Point
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
		return []Finding{d.finding(RuleInconclusive, "no measured steps",
			[]string{fmt.Sprintf("%d points, none with a queue depth, IOPS and latency", len(c.Points))},
			"run the sweep again: every step failed or was skipped")}, nil
	}
	var problems []Finding
	cache := d.cache()
	if cache != nil {
		problems = append(problems, *cache)
	}
	cpu := d.cpuBound()
	if q := d.queueNotFull(cpu != nil); q != nil && cache == nil {
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
		fs[0].Evidence = append(fs[0].Evidence, ev)
	}
}

// shared finds the step where the device moved the most beyond what the
// sweep did (at least 1.5× and 100 IOPS more) and words it. It compares
// bytes when both are known, since the block layer may split one large
// I/O into several requests (a 1 MiB read is two 512 KiB requests on a
// device with max_sectors_kb 512), which doubles the device's IOPS
// without any other I/O; otherwise it compares IOPS.
func (d *diagCurve) shared() (string, bool) {
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
		return "", false
	}
	p, t := d.pts[bi], d.tel[bi]
	if byBytes {
		return fmt.Sprintf("QD %s: the device moved %s, this sweep %s (%.1f×): other I/O shared the device, so these latencies are contended",
			fmtQD(p.QD), fmtMiBps(t.DeviceBWBytes), fmtMiBps(p.BWBytes), best), true
	}
	return fmt.Sprintf("QD %s: the device served %s IOPS, this sweep %s (%.1f×): other I/O shared the device, so these latencies are contended",
		fmtQD(p.QD), fmtIOPS(t.DeviceIOPS), fmtIOPS(p.IOPS), best), true
}

// contended turns a healthy verdict into a contended one: the curve
// saturated, but not on a device the sweep had to itself.
func (d *diagCurve) contended(h Finding, shared string) Finding {
	sum := strings.TrimPrefix(h.Summary, d.Label+": ")
	sum = strings.TrimPrefix(sum, "healthy: ")
	ev := append(append([]string{}, h.Evidence...), shared)
	return d.finding(RuleContended,
		"contended: "+sum+", but other I/O shared the device during the sweep, so the ceiling and latencies are not this workload's alone",
		ev, "measure again while nothing else uses the device (or on a volume of its own) before sizing from this curve")
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

func (d *diagCurve) finding(rule, summary string, evidence []string, next string) Finding {
	if d.Label != "" {
		summary = d.Label + ": " + summary
	}
	if evidence == nil {
		evidence = []string{}
	}
	return Finding{Rule: rule, Summary: summary, Evidence: evidence, Next: next}
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

// cores is how many cores step i's jobs can use.
func (d *diagCurve) cores(i int) float64 {
	n := max(d.pts[i].NumJobs, 1)
	if d.cpus > 0 {
		n = min(n, d.cpus)
	}
	return float64(n)
}

// cache: the device saw far less than the engine moved.
func (d *diagCurve) cache() *Finding {
	if d.NoDevice != "" {
		p := d.pts[d.imax]
		return ptr(d.finding(RuleCache, "the target has no block device: these figures are not a device's",
			[]string{
				"target: " + d.NoDevice,
				fmt.Sprintf("QD %s: %s IOPS at %s mean latency", fmtQD(p.QD), fmtIOPS(p.IOPS), fmtLat(p.LatMeanNs)),
			},
			"measure a file on (or the block device of) the volume you mean to size"))
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
	if len(shares) == 0 || diagMedian(shares) >= diagCacheShare {
		return nil
	}
	p, t := d.pts[wi], d.tel[wi]
	why := "a cache in front of the device (host or hypervisor cache)"
	switch {
	case !d.Direct:
		why = "the page cache: direct=0 lets reads hit memory and writes land in dirty pages"
	case strings.Contains(d.RW, "read"):
		why = "reads of never-written (unwritten or sparse) extents, which the filesystem answers with zeros, or a host cache"
	}
	ev := []string{
		fmt.Sprintf("QD %s: the engine did %s IOPS (%s), the device %s (%s): %.0f%% of the bytes reached it",
			fmtQD(p.QD), fmtIOPS(p.IOPS), fmtMiBps(p.BWBytes), fmtIOPS(t.DeviceIOPS), fmtMiBps(t.DeviceBWBytes), share*100),
		fmt.Sprintf("median share over %d steps: %.0f%%", len(shares), diagMedian(shares)*100),
		fmt.Sprintf("mean latency %s at QD %s", fmtLat(d.pts[0].LatMeanNs), fmtQD(d.pts[0].QD)),
	}
	next := "lay the file out with written data and use direct=1 (or measure the block device itself); do not size a volume from these figures"
	return ptr(d.finding(RuleCache, "I/Os were served without device I/O, most likely by "+why, ev, next))
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
		ev := []string{cpuEvidence(p, t.SelfCPUPct, d.cores(i), max(p.NumJobs, 1))}
		if t.HostBusyPct > 0 {
			ev = append(ev, fmt.Sprintf("host CPU busy %.0f%% (user + system + softirq)", t.HostBusyPct))
		}
		if t.DeviceKnown {
			ev = append(ev, fmt.Sprintf("device: aqu-sz %.1f of QD %s, %%util %.0f", t.AquSz, fmtQD(p.QD), t.UtilPct))
		}
		ev = append(ev, fmt.Sprintf("%s IOPS at %s mean latency", fmtIOPS(p.IOPS), fmtLat(p.LatMeanNs)))
		summary := "the measuring process is CPU-bound: IOPS here are the CPU's limit, not the device's"
		if hostBusy && busy < diagCPUBusy {
			summary = "the host's CPUs were busy: the submitter was starved and IOPS here are not the device's"
		}
		next := "spread the load over more jobs (numjobs up to the CPU count)"
		switch {
		case d.Engine == "io_uring":
			next += ", with registered buffers and files, and fewer CPU-heavy options (verify, random data)"
		case d.Engine == "libaio":
			next += ", and use io_uring with registered buffers (cheaper per I/O than libaio)"
		case d.Synchronous:
			next += ", and use io_uring or libaio with direct=1 instead of the synchronous " + d.Engine
		default:
			next += ", and use io_uring with direct=1 and registered buffers"
		}
		if hostBusy {
			next += "; run on a quieter host"
		}
		return ptr(d.finding(RuleCPUBound, summary, ev, next))
	}
	return nil
}

// cpuEvidence words the measuring process's CPU use at step p: selfPct
// is percent of one core (so 169 is 1.69 cores), cores how many cores its
// jobs can keep busy (a job is one submitting thread, so one core per job,
// at most the CPU count). The process may use more than its jobs' cores:
// the kernel and runtime work done on its behalf is counted too.
func cpuEvidence(p Point, selfPct, cores float64, jobs int) string {
	used := selfPct / 100
	s := fmt.Sprintf("QD %s (%s): qdsweep used %.2f cores of CPU (%.0f%% of a core) with %s; ",
		fmtQD(p.QD), diagSplit(p), used, selfPct, countNoun(float64(jobs), "job", "jobs"))
	limit := "a job is one submitting thread, which can use at most one core"
	if jobs > 1 {
		limit = fmt.Sprintf("each job is one submitting thread, so %s can use at most %s", countNoun(float64(jobs), "job", "jobs"), countNoun(cores, "core", "cores"))
		if float64(jobs) > cores {
			limit += fmt.Sprintf(" (the machine has %s)", countNoun(math.Floor(cores), "CPU", "CPUs"))
		}
	}
	switch busy := used / cores; {
	case busy >= 1:
		return s + limit + ", so the submitters were saturated (the CPU beyond that is kernel and runtime work on their behalf)"
	case busy >= diagCPUBusy:
		return s + limit + fmt.Sprintf(", so the submitters were nearly saturated (%.0f%%)", busy*100)
	default:
		return s + limit + fmt.Sprintf(": %.0f%% of that, so qdsweep's own CPU was not the limit", busy*100)
	}
}

// queueNotFull: the device (or the engine) held far fewer I/Os than the QD.
func (d *diagCurve) queueNotFull(cpuBound bool) *Finding {
	i := len(d.pts) - 1
	p, t := d.pts[i], d.tel[i]
	if p.QD < diagMinDepthCheck {
		return nil
	}
	eng := d.engineInflight(i)
	at, where := eng, "the engine"
	if t.DeviceKnown {
		at, where = t.AquSz, "the device"
	}
	if at >= diagQueueShort*p.QD {
		return nil
	}
	ev := []string{fmt.Sprintf("QD %s (%s): %.1f in flight at %s (%.0f%% of the QD)",
		fmtQD(p.QD), diagSplit(p), at, where, at/p.QD*100)}
	if t.DeviceKnown {
		ev = append(ev, fmt.Sprintf("engine in flight %.1f (IOPS × mean latency %.1f)", eng, p.IOPS*p.LatMeanNs/1e9))
	}
	jobs := float64(max(p.NumJobs, 1))
	var summary, next string
	switch {
	case d.Synchronous && p.IODepth > 1:
		summary = fmt.Sprintf("the %s engine is synchronous: each job keeps one I/O in flight, so iodepth %d adds nothing", diagOr(d.Engine, "chosen"), p.IODepth)
		next = "use io_uring or libaio with direct=1, or raise numjobs to the queue depth you want"
	case eng <= 1.25*jobs && p.IODepth > 1:
		summary = fmt.Sprintf("each job kept about one I/O in flight: the %s engine behaved synchronously", diagOr(d.Engine, "chosen"))
		if !d.Direct {
			summary += " (buffered I/O: libaio and io_uring block in submission without direct=1)"
		}
		next = "use direct=1 so submissions do not block, or raise numjobs"
	case cpuBound:
		summary = "the submitter is CPU-bound and cannot keep the queue full"
		next = "spread the depth over more jobs (numjobs up to the CPU count)"
	case t.DeviceKnown && eng >= diagQueueFull*p.QD:
		limit := d.NrRequests * max(d.HWQueues, 1)
		switch {
		case d.NrRequests > 0 && at <= 1.1*float64(limit) && p.QD > float64(limit):
			summary = fmt.Sprintf("the device queue holds at most %d requests (nr_requests %d × %d hardware queues): the rest wait above it", limit, d.NrRequests, max(d.HWQueues, 1))
			next = "spread the depth over more jobs on more CPUs (more hardware queues) or raise nr_requests"
		case !d.Direct:
			summary = "I/Os wait above the device: buffered I/O lets the page cache decide what reaches the disk"
			next = "use direct=1 to measure the device"
		default:
			summary = "I/Os spend most of their time above the device (filesystem, I/O scheduler or completion reaping)"
			next = "measure the block device itself with direct=1, try scheduler none, and check qdsweep's CPU"
		}
	default:
		summary = "the submitter did not keep the queue depth in flight"
		if p.NumJobs <= 1 && p.IODepth > diagNVMeQueue/4 {
			summary += fmt.Sprintf(": one job at iodepth %d is too few jobs", p.IODepth)
		}
		next = "split the depth over more jobs (numjobs) and check qdsweep's CPU use"
	}
	return ptr(d.finding(RuleQueueNotFull, summary, ev, next))
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
	ev := []string{fmt.Sprintf("QD %s → %s: IOPS %s → %s (×%.1f) while mean latency %s → %s (×%.2f, R0 %s)",
		fmtQD(first.QD), fmtQD(last.QD), fmtIOPS(first.IOPS), fmtIOPS(last.IOPS), last.IOPS/first.IOPS,
		fmtLat(first.LatMeanNs), fmtLat(last.LatMeanNs), last.LatMeanNs/first.LatMeanNs, fmtLat(d.r0))}
	summary := fmt.Sprintf("depth-bound: latency stays near R0 and IOPS still grow with the queue; the device was not saturated by QD %s", fmtQD(last.QD))
	var next string
	if target > 0 {
		qd := CeilQD(QueueDepth(target, last.LatMeanNs))
		ev = append(ev, fmt.Sprintf("target %s IOPS; best measured %s IOPS (%.0f%%)", fmtIOPS(target), fmtIOPS(d.xmax), d.xmax/target*100))
		s, _ := SplitQD(qd, DefaultMaxIODepth, 0)
		next = fmt.Sprintf("raise the queue depth: QD = target × latency = %s × %s ≈ %d (iodepth %d × numjobs %d)",
			fmtIOPS(target), fmtLat(last.LatMeanNs), qd, s.IODepth, s.NumJobs)
	} else {
		next = fmt.Sprintf("extend the sweep past QD %s (e.g. to %s) to find where it saturates", fmtQD(last.QD), fmtQD(4*last.QD))
	}
	return ptr(d.finding(RuleDepthBound, summary, ev, next))
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
	ev := []string{
		fmt.Sprintf("QD %s → %s: IOPS %s → %s (%+.1f%%), %s → %s",
			fmtQD(a.QD), fmtQD(z.QD), fmtIOPS(a.IOPS), fmtIOPS(z.IOPS), (z.IOPS/a.IOPS-1)*100, fmtMiBps(a.BWBytes), fmtMiBps(z.BWBytes)),
		fmt.Sprintf("mean latency %s → %s (×%.1f for ×%.0f QD); Little's Law QD / IOPS = %s at QD %s",
			fmtLat(a.LatMeanNs), fmtLat(z.LatMeanNs), z.LatMeanNs/a.LatMeanNs, z.QD/a.QD, fmtLat(z.QD/z.IOPS*1e9), fmtQD(z.QD)),
	}
	if t := d.tel[len(d.pts)-1]; t.DeviceKnown {
		ev = append(ev, fmt.Sprintf("device at QD %s: aqu-sz %.1f, %%util %.0f, await %.2f ms", fmtQD(z.QD), t.AquSz, t.UtilPct, t.AwaitMs))
	}
	if target > 0 && d.xmax*(1+reachSlack) < target {
		ev = append(ev, fmt.Sprintf("target %s IOPS is above the cap: no queue depth reaches it", fmtIOPS(target)))
	}
	level := fmtIOPS(d.xmax)
	if lo := fmtIOPS(a.IOPS); lo != level {
		level = lo + "–" + level
	}
	summary := fmt.Sprintf("device cap: IOPS flat at %s (up to %s) from QD %s while latency grows in proportion to the queue",
		level, fmtMiBps(bw), fmtQD(a.QD))
	next := fmt.Sprintf("compare %s IOPS and %s with the volume's provisioned IOPS/throughput and the VM's per-instance disk limits; "+
		"queue deeper than QD %s only adds latency", fmtIOPS(d.xmax), fmtMiBps(bw), fmtQD(a.QD))
	return ptr(d.finding(RuleDeviceCap, summary, ev, next)), &diagCap{rw: d.RW, bs: d.BS, iops: d.xmax, bw: bw}
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
	at, where := d.engineInflight(sat), "the engine"
	if t.DeviceKnown {
		at, where = t.AquSz, "the device"
	}
	if at < diagQueueFull*p.QD {
		return nil
	}
	ev := []string{
		fmt.Sprintf("saturates at %s IOPS from QD %s (%s), mean latency %s (R0 %s)",
			fmtIOPS(p.IOPS), fmtQD(p.QD), diagSplit(p), fmtLat(p.LatMeanNs), fmtLat(d.r0)),
		fmt.Sprintf("%.1f in flight at %s for QD %s", at, where, fmtQD(p.QD)),
	}
	if !t.DeviceKnown {
		ev = append(ev, "no device telemetry: queue fill taken from the engine")
	}
	return ptr(d.finding(RuleHealthy,
		fmt.Sprintf("healthy: the device saturates at QD %s with the queue full at %s", fmtQD(p.QD), where), ev,
		fmt.Sprintf("size from this curve: QD %s is where more depth stops paying (see advise for a target or SLO)", fmtQD(p.QD))))
}

func (d *diagCurve) inconclusive() Finding {
	n := len(d.pts)
	last := d.pts[n-1]
	ev := []string{fmt.Sprintf("%d measured steps; deepest QD %s: %s IOPS at %s (R0 %s)",
		n, fmtQD(last.QD), fmtIOPS(last.IOPS), fmtLat(last.LatMeanNs), fmtLat(d.r0))}
	next := "sweep more queue depths (powers of two up to 4× the expected knee)"
	if n >= 2 {
		ev = append(ev, fmt.Sprintf("last step: IOPS gained %.0f%% of the QD growth, latency ×%.2f",
			d.growth(n-1)*100, last.LatMeanNs/d.pts[n-2].LatMeanNs))
		next = fmt.Sprintf("near the knee but not flat: extend the sweep past QD %s", fmtQD(last.QD))
	}
	return d.finding(RuleInconclusive, "no rule fits: the curve neither stays at R0 nor flattens", ev, next)
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
		var ev []string
		for _, c := range cs {
			ev = append(ev, fmt.Sprintf("bs %s: %s IOPS, %s", fmtBS(c.bs), fmtIOPS(c.iops), fmtMiBps(c.bw)))
		}
		ev = append(ev, fmt.Sprintf("spread across sizes (max/min − 1): IOPS %.0f%%, MiB/s %.0f%%", ci*100, cb*100))
		var f Finding
		switch {
		case cb < ci && cb <= 0.15:
			f = Finding{Rule: RuleDeviceCap, Summary: fmt.Sprintf("%s: throughput-bound: MiB/s stays at about %s whatever the block size", rw, fmtMiBps(diagMedian(bw))),
				Next: "the limit is bandwidth: compare with the volume's and the VM's MiB/s limits; smaller blocks buy IOPS, not MiB/s"}
		case ci <= cb && ci <= 0.15:
			f = Finding{Rule: RuleDeviceCap, Summary: fmt.Sprintf("%s: IOPS-bound: IOPS stay at about %s whatever the block size", rw, fmtIOPS(diagMedian(iops))),
				Next: "the limit is IOPS: compare with the volume's provisioned IOPS; larger blocks buy MiB/s at the same IOPS"}
		default:
			f = Finding{Rule: RuleDeviceCap, Summary: fmt.Sprintf("%s: neither IOPS nor MiB/s is constant across block sizes", rw),
				Next: "the cap mixes an IOPS and a throughput limit: check both against the volume's and the VM's limits"}
		}
		f.Evidence = ev
		out = append(out, f)
	}
	return out
}

func ptr(f Finding) *Finding { return &f }

func diagMedian(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

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

func diagOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
