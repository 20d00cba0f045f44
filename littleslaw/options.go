package littleslaw

// Options steers Analyze: what to recommend and within which limits.
type Options struct {
	// TargetIOPS is the load to size for, I/Os per second (0: none).
	TargetIOPS float64
	// SLO is a latency objective to meet (nil: none).
	SLO *SLO
	// For selects application settings: "", "postgres", "mysql" or "workers".
	For string
	// MaxIODepth is the deepest queue one job may keep (default 256, the
	// NVMe per-queue depth).
	MaxIODepth int
	// MaxJobs is the most jobs a split may use (default CPUs, or 8 when CPUs
	// is unknown).
	MaxJobs int
	// CPUs is the number of CPUs of the machine that will run the load
	// (0: unknown).
	CPUs int
	// BS is the block size in bytes, used for MiB/s wording and throughput
	// forms (0: unknown).
	BS int64
	// Hosts is the number of hosts a fleet spreads its queue over (fio
	// client/server; 0 or 1: one host): queue depths are the fleet's and
	// splits give each host's iodepth × numjobs.
	Hosts int
	// SustainedIOPS is the level the curve's device sustains when a change
	// of regime was found (burst credits spent, a throttle that began: the
	// control step or a ramp fell), I/Os per second (0: none found). No
	// target above it is reachable, whatever steps measured before.
	SustainedIOPS float64
}

// DefaultMaxIODepth is the per-job queue depth limit used when
// Options.MaxIODepth is 0: the 256 entries of one NVMe submission queue.
const DefaultMaxIODepth = 256

// defaultMaxJobs is the job limit used when neither MaxJobs nor CPUs is set.
const defaultMaxJobs = 8

// withDefaults returns o with zero limits replaced by their defaults.
func (o Options) withDefaults() Options {
	if o.MaxIODepth <= 0 {
		o.MaxIODepth = DefaultMaxIODepth
	}
	if o.MaxJobs <= 0 {
		o.MaxJobs = o.CPUs
		if o.MaxJobs <= 0 {
			o.MaxJobs = defaultMaxJobs
		}
	}
	return o
}

// Limits returns the per-job iodepth limit and the job limit a split uses
// under o (the defaults filled in): the same limits Analyze, advise and
// explain split with.
func (o Options) Limits() (maxIODepth, maxJobs int) {
	o = o.withDefaults()
	return o.MaxIODepth, o.MaxJobs
}

// SettingsKinds are the values Options.For takes besides "": the
// applications whose settings Analyze recommends.
var SettingsKinds = []string{"postgres", "mysql", "workers"}

// IsSettingsKind reports whether s is one of SettingsKinds.
func IsSettingsKind(s string) bool {
	for _, k := range SettingsKinds {
		if s == k {
			return true
		}
	}
	return false
}
