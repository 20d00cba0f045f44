package sweep

import (
	"math"
	"sort"
)

// IOProperties is what Seastar's I/O scheduler reads from its
// io_properties.yaml for one disk (iotune writes it), taken from a
// sweep's sustained plateaus: IOPS from the 4k random read and write
// curves, bandwidth from the largest-block sequential read and write
// curves, each the level the analysis sizes from (burst and warm-up left
// out), never a burst. A figure the sweep did not measure is 0 and named
// in Missing; one whose curve did not saturate is the deepest step's,
// named in LowerBound.
type IOProperties struct {
	Mountpoint     string  `json:"mountpoint"`
	ReadIOPS       float64 `json:"read_iops,omitempty"`
	WriteIOPS      float64 `json:"write_iops,omitempty"`
	ReadBandwidth  float64 `json:"read_bandwidth,omitempty"`  // bytes per second
	WriteBandwidth float64 `json:"write_bandwidth,omitempty"` // bytes per second
	// ReadSaturationLength and WriteSaturationLength are the smallest
	// sequential block size, bytes, whose plateau reaches 95% of the
	// direction's best bandwidth (0: fewer than two block sizes measured).
	ReadSaturationLength  int64 `json:"read_saturation_length,omitempty"`
	WriteSaturationLength int64 `json:"write_saturation_length,omitempty"`
	// Sources name the curve and depth each figure came from.
	Sources []IOSource `json:"sources"`
	// Missing and LowerBound name fields (Seastar's names) that are 0, or
	// that come from a curve that did not saturate.
	Missing    []string `json:"missing,omitempty"`
	LowerBound []string `json:"lower_bound,omitempty"`
}

// IOSource is where one io_properties figure came from.
type IOSource struct {
	Field string  `json:"field"`
	RW    string  `json:"rw"`
	BS    int64   `json:"bs"`
	QD    float64 `json:"qd"`
	Value float64 `json:"value"`
}

// SaturationLengthShare is the share of the best bandwidth a block size
// must reach to count as saturating it (IOProperties.*SaturationLength).
const SaturationLengthShare = 0.95

// IOProperties reads r's analysed curves as Seastar's io_properties
// (r.Analyze first); mountpoint is the disk's mount point.
func (r *Result) IOProperties(mountpoint string) IOProperties {
	p := IOProperties{Mountpoint: mountpoint}
	level := func(ca CurveAnalysis) (iops, qd float64, saturated bool) {
		a := ca.Analysis
		if a.Saturation.Found {
			return a.Saturation.IOPS, a.Saturation.QD, true
		}
		return a.MaxIOPS, a.MaxIOPSQD, false
	}
	iops := func(field, rw string, dst *float64) {
		for _, ca := range r.Analysis {
			if ca.RW == rw && ca.BS == 4096 {
				v, qd, sat := level(ca)
				*dst = math.Round(v)
				p.Sources = append(p.Sources, IOSource{Field: field, RW: rw, BS: ca.BS, QD: qd, Value: *dst})
				if !sat {
					p.LowerBound = append(p.LowerBound, field)
				}
				return
			}
		}
		p.Missing = append(p.Missing, field)
	}
	bandwidth := func(field, lenField, rw string, dst *float64, length *int64) {
		var cs []CurveAnalysis
		for _, ca := range r.Analysis {
			if ca.RW == rw {
				cs = append(cs, ca)
			}
		}
		if len(cs) == 0 {
			p.Missing = append(p.Missing, field, lenField)
			return
		}
		sort.Slice(cs, func(i, j int) bool { return cs[i].BS < cs[j].BS })
		biggest := cs[len(cs)-1]
		v, qd, sat := level(biggest)
		*dst = math.Round(v * float64(biggest.BS))
		p.Sources = append(p.Sources, IOSource{Field: field, RW: rw, BS: biggest.BS, QD: qd, Value: *dst})
		if !sat {
			p.LowerBound = append(p.LowerBound, field)
		}
		if len(cs) < 2 {
			p.Missing = append(p.Missing, lenField)
			return
		}
		best := 0.0
		for _, ca := range cs {
			v, _, _ := level(ca)
			best = math.Max(best, v*float64(ca.BS))
		}
		for _, ca := range cs {
			if v, _, _ := level(ca); v*float64(ca.BS) >= SaturationLengthShare*best {
				*length = ca.BS
				return
			}
		}
	}
	iops("read_iops", "randread", &p.ReadIOPS)
	iops("write_iops", "randwrite", &p.WriteIOPS)
	bandwidth("read_bandwidth", "read_saturation_length", "read", &p.ReadBandwidth, &p.ReadSaturationLength)
	bandwidth("write_bandwidth", "write_saturation_length", "write", &p.WriteBandwidth, &p.WriteSaturationLength)
	return p
}
