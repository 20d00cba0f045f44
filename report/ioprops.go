package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/qdsweep/qdsweep/sweep"
	"go.yaml.in/yaml/v3"
)

// ioPropertiesDoc is Seastar's io_properties.yaml: a list of disks.
type ioPropertiesDoc struct {
	Disks []ioPropertiesDisk `yaml:"disks"`
}

type ioPropertiesDisk struct {
	Mountpoint            string `yaml:"mountpoint"`
	ReadIOPS              int64  `yaml:"read_iops,omitempty"`
	ReadBandwidth         int64  `yaml:"read_bandwidth,omitempty"`
	WriteIOPS             int64  `yaml:"write_iops,omitempty"`
	WriteBandwidth        int64  `yaml:"write_bandwidth,omitempty"`
	ReadSaturationLength  int64  `yaml:"read_saturation_length,omitempty"`
	WriteSaturationLength int64  `yaml:"write_saturation_length,omitempty"`
}

// IOPropertiesYAML renders p as Seastar's io_properties.yaml, with a
// comment header saying where each figure came from and what is missing.
func IOPropertiesYAML(p sweep.IOProperties, from string) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# Seastar I/O properties, written by qdsweep from %s: each figure is the sustained\n", from)
	b.WriteString("# plateau the sweep measured (bursts and warm-ups left out), not a peak.\n")
	for _, s := range p.Sources {
		fmt.Fprintf(&b, "#   %s = %s: %s %s at QD %s\n", s.Field, FormatCount(s.Value), s.RW, fmtBS(s.BS), FormatQD(s.QD))
	}
	if len(p.LowerBound) > 0 {
		fmt.Fprintf(&b, "# a lower bound (the curve did not saturate; sweep deeper): %s\n", strings.Join(p.LowerBound, ", "))
	}
	if len(p.Missing) > 0 {
		fmt.Fprintf(&b, "# not measured by this sweep, left out: %s\n", strings.Join(p.Missing, ", "))
	}
	doc := ioPropertiesDoc{Disks: []ioPropertiesDisk{{
		Mountpoint: p.Mountpoint, ReadIOPS: int64(p.ReadIOPS), ReadBandwidth: int64(p.ReadBandwidth),
		WriteIOPS: int64(p.WriteIOPS), WriteBandwidth: int64(p.WriteBandwidth),
		ReadSaturationLength: p.ReadSaturationLength, WriteSaturationLength: p.WriteSaturationLength,
	}}}
	y, err := yaml.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("io_properties: %w", err)
	}
	b.Write(y)
	return []byte(b.String()), nil
}

// WriteIOPropertiesNote says on w where the file went and what it lacks.
func WriteIOPropertiesNote(w io.Writer, path string, p sweep.IOProperties) {
	fmt.Fprintf(w, "Seastar I/O properties: %s\n", path)
	if len(p.Missing) > 0 {
		fmt.Fprintf(w, "qdsweep: %s not measured by this sweep (sweep the 4k randread and randwrite curves and sequential read and write at two block sizes or more)\n", strings.Join(p.Missing, ", "))
	}
}
