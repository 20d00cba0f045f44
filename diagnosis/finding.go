package diagnosis

import "github.com/qdsweep/qdsweep/littleslaw"

// Fact is one measured fact behind a Finding (or, as Finding.Figures, the
// numbers its verdict quotes). Kind says which fields are set (see the
// FactKind constants); the others are zero. Rates are I/Os per second,
// bandwidths bytes per second, latencies nanoseconds, shares and ratios
// plain fractions.
type Fact struct {
	Kind   FactKind `json:"kind,omitempty"`
	Reason Reason   `json:"reason,omitempty"`
	// A step, or a range of steps QD → ToQD. OfferedIOPS (ToOfferedIOPS)
	// is the load offered to an open-loop step (to the range's last),
	// whose QD is then the I/Os it kept in flight (0: a step over depths).
	OfferedIOPS   float64 `json:"offered_iops,omitempty"`
	ToOfferedIOPS float64 `json:"to_offered_iops,omitempty"`
	QD            float64 `json:"qd,omitempty"`
	ToQD          float64 `json:"to_qd,omitempty"`
	IODepth       int     `json:"iodepth,omitempty"`
	NumJobs       int     `json:"numjobs,omitempty"`
	BS            int64   `json:"bs,omitempty"` // block size, bytes
	// What the engine measured.
	IOPS      float64 `json:"iops,omitempty"`
	ToIOPS    float64 `json:"to_iops,omitempty"`
	BWBytes   float64 `json:"bw_bytes,omitempty"`
	ToBWBytes float64 `json:"to_bw_bytes,omitempty"`
	LatNs     float64 `json:"lat_ns,omitempty"`
	ToLatNs   float64 `json:"to_lat_ns,omitempty"`
	R0Ns      float64 `json:"r0_ns,omitempty"` // base latency
	// LittleLatNs is Little's Law's latency, QD / IOPS, at ToQD.
	LittleLatNs float64 `json:"little_lat_ns,omitempty"`
	// In flight: Inflight where AtDevice says (the device's aqu-sz, else
	// the engine's mean); LittleInflight is IOPS × mean latency; Fill is
	// Inflight / QD.
	Inflight       float64 `json:"inflight,omitempty"`
	LittleInflight float64 `json:"little_inflight,omitempty"`
	AtDevice       bool    `json:"at_device,omitempty"`
	Fill           float64 `json:"fill,omitempty"`
	// What the device showed.
	DeviceIOPS    float64 `json:"device_iops,omitempty"`
	DeviceBWBytes float64 `json:"device_bw_bytes,omitempty"`
	AquSz         float64 `json:"aqu_sz,omitempty"`
	UtilPct       float64 `json:"util_pct,omitempty"`
	AwaitMs       float64 `json:"await_ms,omitempty"`
	// CPU: SelfCPUPct is percent of one core, Cores how many cores the
	// jobs can use, Busy SelfCPUPct / (100 × Cores); HostBusyPct is the
	// host's user + system + softirq percent of all CPUs.
	SelfCPUPct  float64 `json:"self_cpu_pct,omitempty"`
	Cores       float64 `json:"cores,omitempty"`
	Busy        float64 `json:"busy,omitempty"`
	HostBusyPct float64 `json:"host_busy_pct,omitempty"`
	// PollThreads: each job had a kernel thread polling its submission
	// queue (io_uring SQPOLL), a second thread that spins by design.
	PollThreads bool `json:"poll_threads,omitempty"`
	// CPUOfFio: SelfCPUPct is fio's own CPU (its usr_cpu + sys_cpu), the
	// process that did the I/O when a step ran through fio.
	CPUOfFio bool `json:"cpu_of_fio,omitempty"`
	// Shares and ratios: Share a fraction (of bytes, of a target), Ratio
	// and BWRatio growth or spread factors, LatRatio and QDRatio latency
	// and queue-depth growth, Growth the IOPS gain per QD gain.
	Share    float64 `json:"share,omitempty"`
	Ratio    float64 `json:"ratio,omitempty"`
	BWRatio  float64 `json:"bw_ratio,omitempty"`
	LatRatio float64 `json:"lat_ratio,omitempty"`
	QDRatio  float64 `json:"qd_ratio,omitempty"`
	Growth   float64 `json:"growth,omitempty"`
	Count    int     `json:"count,omitempty"`
	// LeftOut is how many measured steps beside Count's the analysis left
	// out (FactDeepest).
	LeftOut int `json:"left_out,omitempty"`
	// Targets and the device's queue limits.
	TargetIOPS float64 `json:"target_iops,omitempty"`
	NrRequests int     `json:"nr_requests,omitempty"`
	HWQueues   int     `json:"hw_queues,omitempty"`
	// The engine the curve was measured with; Synchronous when it keeps
	// one I/O in flight per job; Buffered when direct=0; HostBusy when the
	// host's CPUs were busy.
	Engine      string `json:"engine,omitempty"`
	Synchronous bool   `json:"synchronous,omitempty"`
	Buffered    bool   `json:"buffered,omitempty"`
	HostBusy    bool   `json:"host_busy,omitempty"`
	// Seconds and ToSeconds are times within or of a step (a burst's end, a
	// throttle's period, a plateau's start; a runtime needed and ran).
	Seconds   float64 `json:"s,omitempty"`
	ToSeconds float64 `json:"to_s,omitempty"`
	// Detail is outside text quoted as is (why the target has no device).
	Detail string `json:"detail,omitempty"`
}

// Finding is one diagnosis verdict about one curve (RW, BS) or about all
// the block sizes of one rw (BS 0): its rule, the variant that applied, the
// figures its verdict and next step quote and the facts behind it.
type Finding struct {
	// Rule is the verdict: depth-bound, queue-not-reaching-device,
	// device-cap, cpu-bound, cache, healthy, contended or inconclusive.
	Rule   Rule   `json:"rule"`
	Reason Reason `json:"reason,omitempty"`
	RW     string `json:"rw,omitempty"` // the curve's fio rw
	BS     int64  `json:"bs,omitempty"` // the curve's block size, bytes (0: every size of RW)
	// Figures are the numbers the verdict and the next step quote.
	Figures Fact `json:"figures"`
	// Facts are the evidence, one measured fact each.
	Facts []Fact `json:"facts"`
	// Summary, Evidence and Next are the verdict, the facts and the next
	// step in words, written by report.Annotate for readers of
	// results.json; diagnosis leaves them empty.
	Summary  string   `json:"summary"`
	Evidence []string `json:"evidence"`
	Next     string   `json:"next"`
}

// FindingCaveat is the caveat a diagnosis finding puts on the answers read
// from its curve ("" when it puts none).
func FindingCaveat(f Finding) littleslaw.CaveatKind {
	switch f.Rule {
	case RuleContended:
		return littleslaw.CaveatContended
	case RuleInconclusive:
		return littleslaw.CaveatInconclusive
	case RuleCPUBound:
		return littleslaw.CaveatCPUBound
	case RuleCache:
		if f.Reason == ReasonNoDevice {
			return "" // a network or memory filesystem measured as such: its own figures
		}
		return littleslaw.CaveatCache
	}
	for _, x := range f.Facts {
		if x.Kind == FactSharedBytes || x.Kind == FactSharedIOPS {
			return littleslaw.CaveatContended
		}
	}
	return ""
}
