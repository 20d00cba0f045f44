package report

import (
	"errors"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// Options controls what the reports show and how charts are written.
type Options struct {
	// TargetIOPS is the provisioned-IOPS target to mark on charts (I/Os per
	// second; 0 for none).
	TargetIOPS float64
	// SLO is the latency objective to mark on charts (nil for none).
	SLO *littleslaw.SLO
	// ChartFormat is "png" (default) or "svg".
	ChartFormat string
	// DeviceStats adds the device's iostat-style figures to the table.
	DeviceStats bool
	// Width is the terminal width in columns (default 80).
	Width int
}

// withDefaults fills unset options: Width 80, ChartFormat "png".
func (o Options) withDefaults() Options {
	if o.Width <= 0 {
		o.Width = 80
	}
	if o.ChartFormat == "" {
		o.ChartFormat = "png"
	}
	return o
}

// ErrChartFormat is returned for a chart format other than "png" or "svg".
var ErrChartFormat = errors.New(`unknown chart format (use "png" or "svg")`)
