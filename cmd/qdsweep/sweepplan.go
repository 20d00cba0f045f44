package main

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/urfave/cli/v2"
)

// steadyFromFlags reads --ss (percent per second), --ss_dur and --ss_interval.
func steadyFromFlags(c *cli.Context) (sweep.SteadyConfig, error) {
	var s sweep.SteadyConfig
	txt := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.String(fio.OptSS)), "%"))
	pct, err := strconv.ParseFloat(txt, 64)
	if err != nil || !finite(pct) || pct < 0 || pct > 100 {
		return s, usagef("%[1]s: %[2]q is not a percentage per second; use e.g. %[1]s=2%% or %[1]s=0 to turn steady state off", fio.Flag(fio.OptSS), c.String(fio.OptSS))
	}
	s.Limit = pct / 100
	if s.Window, err = durationFlag(c, fio.OptSSDur, sweep.DefaultSteady.Window); err != nil {
		return s, err
	}
	if s.Interval, err = durationFlag(c, "ss_interval", sweep.DefaultSteady.Interval); err != nil {
		return s, err
	}
	if s.Interval < time.Millisecond {
		return s, usagef("--ss_interval: %v is too short; use e.g. --ss_interval=250ms", s.Interval)
	}
	if s.Window < 2*s.Interval {
		return s, usagef("%[1]s: %[2]v holds fewer than two --ss_interval samples (%[3]v); use e.g. %[1]s=2s", fio.Flag(fio.OptSSDur), s.Window, s.Interval)
	}
	ptxt := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.String("mean-precision")), "%"))
	prec, err := strconv.ParseFloat(ptxt, 64)
	if err != nil || !finite(prec) || prec < 0 || prec >= 100 {
		return s, usagef("--mean-precision: %q is not a percentage; use e.g. --mean-precision=2%% or 0 to leave only %s", c.String("mean-precision"), fio.Flag(fio.OptSS))
	}
	s.Precision = prec / 100
	s.MinWindow = max(sweep.DefaultSteady.MinWindow, 3*s.Interval)
	s.MinRising = max(sweep.DefaultSteady.MinRising, 3*s.Interval)
	s.MinFlat = max(sweep.DefaultSteady.MinFlat, 3*s.Interval)
	s.MinUndecided = max(sweep.DefaultSteady.MinUndecided, 3*s.Interval)
	s.RampInterval = sweep.DefaultSteady.RampInterval
	return s, nil
}

// finite reports whether v is a number (not NaN, not ±Inf): a NaN passes
// every comparison false, so a range check alone lets it through.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
