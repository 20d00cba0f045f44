package littleslaw

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/xrash/smetrics"
)

// ErrUnknownPreset is wrapped by LookupPreset for a name it does not know.
var ErrUnknownPreset = errors.New("unknown cloud preset")

// Preset is a cloud volume type's published per-volume ceiling and a
// typical latency to plan with. Per-VM limits cap all of these and are not
// included.
type Preset struct {
	Name   string `json:"name"`   // e.g. "gcp-hyperdisk-balanced"
	Vendor string `json:"vendor"` // "gcp", "aws" or "azure"
	Title  string `json:"title"`  // the vendor's product name
	Doc    string `json:"doc"`    // vendor page the limits come from
	// MaxIOPS is the most I/Os per second one volume can be provisioned for.
	MaxIOPS float64 `json:"max_iops"`
	// MaxBWBytes is the most bytes per second one volume can deliver.
	MaxBWBytes float64 `json:"max_bw_bytes"`
	// TypicalLatNs is a planning latency in nanoseconds for small (4–16 KiB)
	// I/O, on the slow side of the vendor's description.
	TypicalLatNs float64 `json:"typical_lat_ns"`
	// LatLowNs and LatHighNs are the planning range around TypicalLatNs
	// the sources state (equal to it when they state one figure), and
	// LatSource says where the range comes from. An answer at the typical
	// latency gives the range beside it.
	LatLowNs  float64 `json:"lat_low_ns"`
	LatHighNs float64 `json:"lat_high_ns"`
	LatSource string  `json:"lat_source"`
	// Note carries the caveats worth a sentence (throughput coupling, reads only…).
	Note string `json:"note,omitempty"`
}

const (
	mib = 1 << 20
	mb  = 1e6
	ms  = 1e6 // nanoseconds per millisecond
)

// presets are the published per-volume limits, each from its vendor page:
//   - GCP Hyperdisk Balanced: https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-balanced
//     (up to 160,000 IOPS and 2,400 MiB/s per volume, sub-millisecond design).
//   - GCP Hyperdisk Extreme: https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-extreme
//     (up to 350,000 IOPS; 250 MiB/s per 1,000 IOPS up to 5,000 MiB/s).
//   - GCP Hyperdisk Throughput: https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-throughput
//     (up to 2,400 MiB/s; IOPS 4 per MiB/s, so ≤ 9,600; 10–30 ms reads).
//   - GCP Hyperdisk ML: https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-ml
//     (up to 1,200,000 MiB/s; 16 IOPS per MiB/s, so ≤ 19,200,000; read-only multi-attach).
//   - AWS gp3 and io2 Block Express: https://docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html
//     (gp3 3,000–16,000 IOPS, 125–1,000 MiB/s; io2 up to 256,000 IOPS, 4,000 MiB/s,
//     sub-millisecond); queue guidance "one per 1,000 IOPS" in
//     https://docs.aws.amazon.com/ebs/latest/userguide/ebs-io-characteristics.html.
//   - Azure Premium SSD v2 and Ultra Disk: https://learn.microsoft.com/azure/virtual-machines/disks-types
//     (Premium SSD v2 ≤ 80,000 IOPS, 1,200 MB/s; Ultra ≤ 400,000 IOPS, 10,000 MB/s).
//
// Typical latencies follow the vendors' wording (sub-millisecond → 1 ms,
// GCP's queue-depth guidance → 2 ms is a slight overestimate).
var presets = []Preset{
	{Name: "gcp-hyperdisk-balanced", Vendor: "gcp", Title: "Hyperdisk Balanced",
		Doc:     "https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-balanced",
		MaxIOPS: 160000, MaxBWBytes: 2400 * mib, TypicalLatNs: 1 * ms,
		LatLowNs: 1 * ms, LatHighNs: 2 * ms,
		LatSource: "sub-millisecond by design, per the vendor page; GCP's Hyperdisk queue-depth guidance plans with 2 ms, a slight overestimate",
		Note:      "3,000 IOPS and 140 MiB/s are included; the VM's own limits apply too"},
	{Name: "gcp-hyperdisk-extreme", Vendor: "gcp", Title: "Hyperdisk Extreme",
		Doc:     "https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-extreme",
		MaxIOPS: 350000, MaxBWBytes: 5000 * mib, TypicalLatNs: 0.5 * ms,
		LatLowNs: 0.5 * ms, LatHighNs: 2 * ms,
		LatSource: "sub-millisecond by design, per the vendor page; GCP's Hyperdisk queue-depth guidance plans with 2 ms, a slight overestimate",
		Note:      "throughput is 250 MiB/s per 1,000 provisioned IOPS, up to 5,000 MiB/s"},
	{Name: "gcp-hyperdisk-throughput", Vendor: "gcp", Title: "Hyperdisk Throughput",
		Doc:     "https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-throughput",
		MaxIOPS: 9600, MaxBWBytes: 2400 * mib, TypicalLatNs: 20 * ms,
		LatLowNs: 10 * ms, LatHighNs: 30 * ms,
		LatSource: "reads take 10–30 ms, per the vendor page",
		Note:      "IOPS follow throughput at 4 IOPS per MiB/s; reads take 10–30 ms"},
	{Name: "gcp-hyperdisk-ml", Vendor: "gcp", Title: "Hyperdisk ML",
		Doc:     "https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-ml",
		MaxIOPS: 19200000, MaxBWBytes: 1200000 * mib, TypicalLatNs: 2 * ms,
		LatLowNs: 2 * ms, LatHighNs: 2 * ms,
		LatSource: "GCP's Hyperdisk queue-depth guidance plans with 2 ms",
		Note:      "IOPS follow throughput at 16 IOPS per MiB/s; read-only when multi-attached; per-VM limits are far lower"},
	{Name: "aws-gp3", Vendor: "aws", Title: "EBS General Purpose SSD (gp3)",
		Doc:     "https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html",
		MaxIOPS: 16000, MaxBWBytes: 1000 * mib, TypicalLatNs: 1 * ms,
		LatLowNs: 1 * ms, LatHighNs: 1 * ms,
		LatSource: "a planning figure: AWS states no latency for gp3; its queue guidance (1 per 1,000 IOPS) implies 1 ms",
		Note:      "3,000 IOPS and 125 MiB/s baseline; AWS advises a queue length of 1 per 1,000 IOPS"},
	{Name: "aws-io2", Vendor: "aws", Title: "EBS Provisioned IOPS SSD (io2 Block Express)",
		Doc:     "https://docs.aws.amazon.com/ebs/latest/userguide/provisioned-iops.html",
		MaxIOPS: 256000, MaxBWBytes: 4000 * mib, TypicalLatNs: 0.5 * ms,
		LatLowNs: 0.5 * ms, LatHighNs: 1 * ms,
		LatSource: "sub-millisecond, per the vendor page",
		Note:      "sub-millisecond for 16 KiB I/O; the instance's EBS limits apply too"},
	{Name: "azure-premium-v2", Vendor: "azure", Title: "Premium SSD v2",
		Doc:     "https://learn.microsoft.com/azure/virtual-machines/disks-types#premium-ssd-v2",
		MaxIOPS: 80000, MaxBWBytes: 1200 * mb, TypicalLatNs: 1 * ms,
		LatLowNs: 1 * ms, LatHighNs: 1 * ms,
		LatSource: "a planning figure on the slow side of the vendor's description",
		Note:      "3,000 IOPS and 125 MB/s baseline; the VM's uncached limits apply too"},
	{Name: "azure-ultra", Vendor: "azure", Title: "Ultra Disk",
		Doc:     "https://learn.microsoft.com/azure/virtual-machines/disks-types#ultra-disks",
		MaxIOPS: 400000, MaxBWBytes: 10000 * mb, TypicalLatNs: 0.5 * ms,
		LatLowNs: 0.5 * ms, LatHighNs: 1 * ms,
		LatSource: "sub-millisecond, per the vendor page",
		Note:      "sub-millisecond; the VM's uncached limits apply too"},
}

// Presets returns the known cloud volume presets, sorted by name.
func Presets() []Preset {
	out := append([]Preset(nil), presets...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// PresetNames returns the known preset names, sorted.
func PresetNames() []string {
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	return names
}

// LookupPreset returns the preset called name (case-insensitive). An unknown
// name gives an error wrapping ErrUnknownPreset that lists the known ones.
func LookupPreset(name string) (Preset, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, p := range presets {
		if p.Name == n {
			return p, nil
		}
	}
	best, bestD := "", 4 // within three edits
	for _, p := range PresetNames() {
		if d := smetrics.WagnerFischer(n, p, 1, 1, 1); d < bestD {
			best, bestD = p, d
		}
	}
	if best != "" {
		return Preset{}, fmt.Errorf("%w %q: did you mean %s? (known: %s)", ErrUnknownPreset, name, best, strings.Join(PresetNames(), ", "))
	}
	return Preset{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownPreset, name, strings.Join(PresetNames(), ", "))
}

// PresetExcess is a target above one of a preset's per-volume limits.
type PresetExcess struct {
	Limit string  `json:"limit"` // "iops" or "bw"
	Want  float64 `json:"want"`  // the target: I/Os per second, or bytes per second
	Max   float64 `json:"max"`   // the preset's limit, same unit
}

// PresetCheck compares a target with a preset's per-volume limits and
// returns one PresetExcess per limit exceeded (none when it fits).
// targetIOPS is in I/Os per second, targetBW in bytes per second (0: not
// given).
func PresetCheck(p Preset, targetIOPS, targetBW float64) []PresetExcess {
	var out []PresetExcess
	if p.MaxIOPS > 0 && targetIOPS > p.MaxIOPS {
		out = append(out, PresetExcess{Limit: "iops", Want: targetIOPS, Max: p.MaxIOPS})
	}
	if p.MaxBWBytes > 0 && targetBW > p.MaxBWBytes {
		out = append(out, PresetExcess{Limit: "bw", Want: targetBW, Max: p.MaxBWBytes})
	}
	return out
}
