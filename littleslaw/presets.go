package littleslaw

import (
	"bytes"
	_ "embed"
	"encoding/json"
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

// presetsJSON is the table of presets: each volume type's published
// per-volume limits, the vendor page they come from (doc), the figures
// that page states (source), and a planning latency range in
// milliseconds with where it comes from. Typical latencies follow the
// vendors' wording (sub-millisecond → 1 ms or 0.5 ms; GCP's queue-depth
// guidance → 2 ms, a slight overestimate). Bandwidths are in MiB/s
// (max_bw_mib_s) or, as Azure states them, MB/s (max_bw_mb_s).
//
//go:embed presets.json
var presetsJSON []byte

// presetRow is one row of presets.json.
type presetRow struct {
	Name      string  `json:"name"`
	Vendor    string  `json:"vendor"`
	Title     string  `json:"title"`
	Doc       string  `json:"doc"`
	Source    string  `json:"source"`
	MaxIOPS   float64 `json:"max_iops"`
	MaxBWMiBs float64 `json:"max_bw_mib_s"`
	MaxBWMBs  float64 `json:"max_bw_mb_s"`
	LatMs     struct {
		Typical float64 `json:"typical"`
		Low     float64 `json:"low"`
		High    float64 `json:"high"`
	} `json:"lat_ms"`
	LatSource string `json:"lat_source"`
	Note      string `json:"note"`
}

// presets are the rows of presets.json as Presets, in the file's order.
var presets = presetsOf(presetsJSON)

// presetsOf reads the table; the table is part of the program, so a row
// it cannot read, or one without its source, is a bug and panics (a test
// loads it).
func presetsOf(data []byte) []Preset {
	var rows []presetRow
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rows); err != nil {
		panic("littleslaw: presets.json: " + err.Error())
	}
	out := make([]Preset, 0, len(rows))
	for _, r := range rows {
		if r.Name == "" || r.Doc == "" || r.Source == "" || r.LatSource == "" || r.MaxIOPS <= 0 || (r.MaxBWMiBs > 0) == (r.MaxBWMBs > 0) {
			panic("littleslaw: presets.json: row " + r.Name + " lacks its name, doc, source, latency source, IOPS or one bandwidth")
		}
		out = append(out, Preset{Name: r.Name, Vendor: r.Vendor, Title: r.Title, Doc: r.Doc,
			MaxIOPS: r.MaxIOPS, MaxBWBytes: r.MaxBWMiBs*mib + r.MaxBWMBs*mb,
			TypicalLatNs: r.LatMs.Typical * ms, LatLowNs: r.LatMs.Low * ms, LatHighNs: r.LatMs.High * ms,
			LatSource: r.LatSource, Note: r.Note})
	}
	return out
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
