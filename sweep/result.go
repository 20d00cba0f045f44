// Package sweep plans and runs queue-depth sweeps through an ioengine.Engine
// and holds the Result type that every later stage reads.
package sweep

import (
	"math"
	"time"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// Schema is the value of Result.Schema this package writes and reads.
const Schema = "qdsweep/v1"

// Result is the contract between measuring and everything after it: what
// results.json holds, what `import fio` produces and what report, compare,
// advise --from and diagnose read. Fields are only ever added.
type Result struct {
	Schema    string              `json:"schema"`
	Meta      Meta                `json:"meta"`
	Plan      Plan                `json:"plan"`
	Steps     []Step              `json:"steps"`
	Analysis  []CurveAnalysis     `json:"analysis,omitempty"`
	Diagnosis []diagnosis.Finding `json:"diagnosis,omitempty"`
	// Control is an early step measured again at the end (RunControl).
	Control *ControlStep `json:"control,omitempty"`
	// Capacity is the closed-loop step an open-loop sweep measured first,
	// at the plan's iodepth × numjobs, whose IOPS Plan.RateFractions are
	// fractions of (nil: none measured).
	Capacity    *Step `json:"capacity,omitempty"`
	Interrupted bool  `json:"interrupted"`
}

// Meta describes where, when and how a result was measured.
type Meta struct {
	Tool     string    `json:"tool"`    // "qdsweep"
	Version  string    `json:"version"` // tool version
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
	Hostname string    `json:"hostname"`
	Kernel   string    `json:"kernel"`
	CPUs     int       `json:"cpus"`
	Target   string    `json:"target"` // path measured
	// TargetID is the identity of the file or device measured, taken from
	// the descriptor the sweep held: a resume onto another file is refused.
	TargetID  *TargetID   `json:"target_id,omitempty"`
	Device    *DeviceInfo `json:"device,omitempty"`
	DeviceOff string      `json:"device_off,omitempty"` // why Device is nil on a measured target (DeviceProbe.Off)
	// FSType and FSClass are the mount the target lives on, from the mount
	// table: its filesystem type ("ext4", "nfs4", "fuse.gcsfuse", "tmpfs")
	// and class (local, network, fuse, memory, other); "" when unknown.
	FSType               string   `json:"fstype,omitempty"`
	FSClass              string   `json:"fsclass,omitempty"`
	Engine               string   `json:"engine"`
	EngineFallbackReason string   `json:"engine_fallback_reason,omitempty"`
	Simulated            bool     `json:"simulated"`
	Source               string   `json:"source,omitempty"` // "qdsweep" (measured), "fio-import", …
	Workload             Workload `json:"workload"`
	// SteadyWindowNs and SteadyLimit are the steady-state criterion the
	// sweep ran with (SteadyConfig.Window, ns, and Limit, a fraction per
	// second); 0 when unknown.
	SteadyWindowNs int64   `json:"steady_window_ns,omitempty"`
	SteadyLimit    float64 `json:"steady_limit,omitempty"`
	// SteadyPrecision is the steady criterion's other rule: a step ended
	// once its mean IOPS was known to within this fraction (0: not used).
	SteadyPrecision float64 `json:"steady_precision,omitempty"`
}

// TargetID is a measured target's identity: a file's device and inode, or
// a block device's number, and its size in bytes.
type TargetID struct {
	Dev  uint64 `json:"dev,omitempty"`  // a file's filesystem device
	Ino  uint64 `json:"ino,omitempty"`  // a file's inode
	Rdev uint64 `json:"rdev,omitempty"` // a block device's number
	Size int64  `json:"size_bytes"`
}

// Workload is the fixed part of the sweep's workload (what does not vary by step).
type Workload struct {
	Size      int64  `json:"size"` // bytes
	Direct    bool   `json:"direct"`
	RWMixRead int    `json:"rwmixread,omitempty"` // percent
	RampNs    int64  `json:"ramp_ns"`
	RuntimeNs int64  `json:"runtime_ns"`    // longest measured window per step
	Sim       string `json:"sim,omitempty"` // sim parameters when simulated
	// LogIntervalNs is the period of each step's Series (0: none recorded).
	LogIntervalNs int64 `json:"log_interval_ns,omitempty"`
	// IOUring is fio's io_uring options the sweep ran with, as fio spells
	// them: name=value pairs, space-separated, as fioadapt.UringText writes
	// them and fioadapt.ParseUringText reads them ("" for qdsweep's own setup).
	IOUring string `json:"io_uring,omitempty"`
	// Shape is how the steps drew their block sizes and offsets beyond bs
	// and rw, as fio's options ("bssplit=4096/50:65536/50
	// random_distribution=zipf:1.2"; "" for fio's defaults).
	Shape string `json:"shape,omitempty"`
}

// DeviceInfo holds the block device's queue facts (filled by device telemetry).
type DeviceInfo struct {
	Name              string   `json:"name"` // e.g. "vda"
	MajMin            string   `json:"majmin,omitempty"`
	Parent            string   `json:"parent,omitempty"`  // disk of a partition
	Members           []string `json:"members,omitempty"` // dm/md members
	Model             string   `json:"model,omitempty"`
	Vendor            string   `json:"vendor,omitempty"`
	Rotational        *bool    `json:"rotational,omitempty"`
	LogicalBlockSize  int      `json:"logical_block_size,omitempty"`  // bytes
	PhysicalBlockSize int      `json:"physical_block_size,omitempty"` // bytes
	NrRequests        int      `json:"nr_requests,omitempty"`
	Scheduler         string   `json:"scheduler,omitempty"`
	HWQueues          int      `json:"hw_queues,omitempty"`
	MaxSectorsKB      int      `json:"max_sectors_kb,omitempty"`
	WriteCache        string   `json:"write_cache,omitempty"`
	ReadAheadKB       int      `json:"read_ahead_kb,omitempty"`
}

// Plan is the grid a sweep runs; identical plans can be resumed.
type Plan struct {
	RW      []string `json:"rw"`
	BS      []int64  `json:"bs"` // bytes
	IODepth []int    `json:"iodepth"`
	NumJobs []int    `json:"numjobs"`
	Full    bool     `json:"full"`
	// Hosts is the number of hosts each step runs on at once (fio
	// client/server fleets; 0 or 1: one host). IODepth and NumJobs are per
	// host; a step's QD is Hosts × iodepth × numjobs, the fleet's.
	Hosts int `json:"hosts,omitempty"`
	// Rates are the offered loads of an open-loop sweep, total I/Os per
	// second (per host), ascending: the grid runs each rw × bs at each
	// rate, at its one iodepth × numjobs, the workload's arrivals paced to
	// it (Poisson under rate_process=poisson). Empty: a sweep over depths.
	Rates []float64 `json:"rate_iops,omitempty"`
	// RateFractions are offered loads as fractions of the IOPS a
	// closed-loop step at the plan's iodepth × numjobs measures first
	// (Result.Capacity): Run adds them to Rates, in whole I/Os per second.
	RateFractions []float64 `json:"rate_fractions,omitempty"`
}

// Step is one measured (or skipped) point of the grid.
type Step struct {
	RW      string `json:"rw"`
	BS      int64  `json:"bs"` // bytes
	IODepth int    `json:"iodepth"`
	NumJobs int    `json:"numjobs"`
	QD      int    `json:"qd"` // iodepth × numjobs (× hosts of a fleet: Plan.Hosts)
	// OfferedIOPS is the load offered to a step of an open-loop sweep
	// (Plan.Rates), I/Os per second; IOPS is what was achieved and QD the
	// most that could be in flight. 0: a step over depths.
	OfferedIOPS float64 `json:"offered_iops,omitempty"`
	IOPS        float64 `json:"iops"`
	BWBytes     float64 `json:"bw_bytes"` // bytes per second
	// Lat runs from each I/O's issue to its completion, as fio's clat and
	// lat. ArrivalLat, for a step offered a load (OfferedIOPS), is the
	// response time an application sees: from each I/O's scheduled arrival
	// to its completion, its wait to be issued included; a latency
	// objective of an open-loop sweep is judged on it (nil: not measured,
	// or a step over depths).
	Lat          ioengine.Latency   `json:"lat_ns"`
	ArrivalLat   *ioengine.Latency  `json:"arrival_lat_ns,omitempty"`
	Read         *ioengine.DirStats `json:"read,omitempty"`
	Write        *ioengine.DirStats `json:"write,omitempty"`
	InflightMean float64            `json:"inflight_mean"`
	// LittleError is (inflight_mean − iops × lat_mean) / inflight_mean.
	LittleError float64            `json:"little_error"`
	Steady      bool               `json:"steady"`
	RuntimeNs   int64              `json:"runtime_ns"`
	CPU         ioengine.CPU       `json:"cpu"`
	Errors      []ioengine.IOError `json:"errors"`
	Failed      string             `json:"failed,omitempty"`  // why the step failed
	Skipped     string             `json:"skipped,omitempty"` // why the step was not run
	Device      *DeviceStats       `json:"device,omitempty"`
	HostCPU     *HostCPU           `json:"host_cpu,omitempty"`

	// NotSteady says why a step is not steady: NotSteadyShort,
	// NotSteadyDrift or NotSteadyOff; empty when steady or unknown (results
	// written before the field, fio imports).
	NotSteady string `json:"not_steady,omitempty"`
	// SteadyDrift is |IOPS slope| / mean IOPS over the last steady window,
	// a fraction per second (0 when fewer samples than the window holds).
	SteadyDrift float64 `json:"steady_drift,omitempty"`
	// IOPSCV is the coefficient of variation (standard deviation / mean, a
	// fraction) of the per-interval IOPS over the last steady window: the
	// step's own noise (0 when unknown).
	IOPSCV float64 `json:"iops_cv,omitempty"`
	// IOPSSamples is how many per-interval IOPS samples IOPSCV was taken
	// over when the step came from elsewhere (fio's iops_samples, one per
	// 500 ms); 0: the intervals its runtime holds.
	IOPSSamples int64 `json:"iops_samples,omitempty"`

	// LatNotMeasured marks a step whose source reported IOPS but no
	// latency (fio with gtod_reduce=1 or disable_lat): Lat is zero and means
	// "not measured", and the step stays out of Little's Law.
	LatNotMeasured bool `json:"lat_not_measured,omitempty"`
	// IODepthUnknown marks an imported step whose source did not say its
	// iodepth (a pasted job block or "All clients" block without the job's
	// header line): IODepth and QD are 0, never assumed 1, and the step
	// stays out of the curve.
	IODepthUnknown bool `json:"iodepth_unknown,omitempty"`

	// Hosts holds per-host figures of a multi-host (fio client/server) step.
	Hosts []HostStep `json:"hosts,omitempty"`
	// Series is the measured window in slices (see series.go); Time is
	// what the time rules read from it (filled by Result.Analyze).
	Series *Series             `json:"series,omitempty"`
	Time   *diagnosis.StepTime `json:"time,omitempty"`
	// Refined names the boundary a step of the refine pass was measured
	// for (RefineKnee, RefineTarget, RefineSLO): a depth between two grid
	// steps, not part of the plan's grid. "" for grid steps.
	Refined string `json:"refined,omitempty"`
	// Settle is the settling rule's verdict over the step's samples at
	// its end (littleslaw.Settle: what it was judged against, the
	// confidence, whether and how it settled); nil when the rule was off
	// (--ss=0, --mean-precision=0) or the step came from elsewhere.
	Settle *littleslaw.Settle `json:"settle,omitempty"`
	// RampNs is how long the step's ramp ran and RampEnd why it ended
	// (RampEndFull: its queue was full and latency had stopped climbing;
	// RampEndTime: Workload.RampNs ran out); 0 and "" when unknown.
	RampNs  int64  `json:"ramp_ns,omitempty"`
	RampEnd string `json:"ramp_end,omitempty"`
	// Shortfall, when set, says the step kept fewer than
	// ioengine.ShortfallFraction × QD I/Os in flight, and why.
	Shortfall *ioengine.Shortfall `json:"inflight_shortfall,omitempty"`
}

// DeviceStats are iostat -x's columns over the step's measured window.
type DeviceStats struct {
	ReadsPerSec  float64 `json:"r_s"`
	WritesPerSec float64 `json:"w_s"`
	ReadMBps     float64 `json:"rMB_s"` // MB/s as iostat (MiB: 1048576 bytes)
	WriteMBps    float64 `json:"wMB_s"`
	ReadAwaitMs  float64 `json:"r_await"`
	WriteAwaitMs float64 `json:"w_await"`
	AquSz        float64 `json:"aqu_sz"`
	UtilPct      float64 `json:"util"`
	RareqSzKB    float64 `json:"rareq_sz"`
	WareqSzKB    float64 `json:"wareq_sz"`
}

// HostCPU is the host's CPU use over a step, in percent of all CPUs, plus
// the tool's own CPU in percent of one core.
type HostCPU struct {
	UserPct    float64 `json:"user"`
	SystemPct  float64 `json:"system"`
	IOWaitPct  float64 `json:"iowait"`
	SoftIRQPct float64 `json:"softirq"`
	SelfPct    float64 `json:"self"` // this process, percent of one core
}

// HostStep is one client's share of a multi-host step.
type HostStep struct {
	Host    string           `json:"host"`
	IOPS    float64          `json:"iops"`
	BWBytes float64          `json:"bw_bytes"`
	Lat     ioengine.Latency `json:"lat_ns"`
}

// CurveAnalysis is the analysis of one curve (one rw × bs) of a result.
type CurveAnalysis struct {
	RW       string              `json:"rw"`
	BS       int64               `json:"bs"`
	Analysis littleslaw.Analysis `json:"analysis"`
	// Time sums up what the steps' series showed (burst, throttle, …);
	// nil when they showed nothing or had no series.
	Time *diagnosis.CurveTime `json:"time,omitempty"`
}

// SliceIOPS is the step's per-slice IOPS from its series, a partial last
// slice (shorter than half the interval) left out; nil without a series.
// It is the one sample of a step's noise: the settling rule, the control
// band and the comparison of runs all read it.
func (s Step) SliceIOPS() []float64 {
	if s.Series == nil {
		return nil
	}
	var xs []float64
	for _, p := range s.Series.Points {
		if p.DurNs <= 0 || s.Series.IntervalNs > 0 && 2*p.DurNs < s.Series.IntervalNs {
			continue
		}
		xs = append(xs, p.IOPS())
	}
	return xs
}

// IOPSNoise is the noise of the step's mean IOPS as the comparison of runs
// judges it (littleslaw.SampleNoise): from its slices when it has a
// series, else IOPSCV over IOPSSamples (an import's, e.g. fio's
// iops_stddev over iops_samples) or over the slices its runtime holds at
// the default interval (littleslaw.SummaryNoise). A step with neither has
// no known noise.
func (s Step) IOPSNoise() littleslaw.MeanNoise {
	if s.Series != nil && len(s.Series.Points) > 0 {
		return littleslaw.SampleNoise(s.SliceIOPS())
	}
	if s.IOPSCV <= 0 {
		return littleslaw.MeanNoise{}
	}
	n := s.IOPSSamples
	if n <= 0 {
		n = s.RuntimeNs / int64(ioengine.DefaultSeriesInterval)
	}
	return littleslaw.SummaryNoise(s.IOPSCV, int(n))
}

// IOPSUncertainty is the standard error of the step's mean IOPS, a
// fraction of it, as the sweep's settling rule and control band read it:
// littleslaw.MeanUncertainty of its slices (their likeness counted from 3
// slices on) when it has at least 3, else IOPSNoise's. 0 when the step
// says nothing of its noise.
func (s Step) IOPSUncertainty() float64 {
	if u := littleslaw.MeanUncertainty(s.SliceIOPS()); u > 0 {
		return u
	}
	if n := s.IOPSNoise(); n.Samples >= littleslaw.MinNoiseSamples {
		return n.RelSE
	}
	return 0
}

// SourceFioImport is Meta.Source of a result made from fio outputs.
const SourceFioImport = "fio-import"

// Series sources of an imported step.
const (
	SeriesFioLogs   = "fio-logs"   // --write_iops_log / --write_lat_log
	SeriesFioStatus = "fio-status" // --status-interval reports
)

// HostSteps converts an engine's per-host figures (multi-host fio runs)
// into Step.Hosts; nil stays nil.
func HostSteps(hs []ioengine.HostStats) []HostStep {
	if hs == nil {
		return nil
	}
	out := make([]HostStep, len(hs))
	for i, h := range hs {
		out[i] = HostStep{Host: h.Host, IOPS: h.IOPS, BWBytes: h.BWBytes, Lat: h.Lat}
	}
	return out
}

// IssuedIOs is the I/Os the step completed over its ramp and its window:
// its reads' and writes' counts (else its IOPS over its runtime) and its
// ramp's slices. A step measured again adds what its first measurement
// completed (Settle.FirstIOs).
func (s Step) IssuedIOs() int64 {
	var n int64
	for _, d := range []*ioengine.DirStats{s.Read, s.Write} {
		if d != nil {
			n += d.TotalIOs
		}
	}
	if n == 0 {
		n = int64(math.Round(s.IOPS * float64(s.RuntimeNs) / 1e9))
	}
	if s.Series != nil {
		for _, iv := range s.Series.Ramp {
			n += iv.IOs
		}
	}
	if s.Settle != nil {
		n += s.Settle.FirstIOs
	}
	return n
}
