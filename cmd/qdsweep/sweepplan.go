package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/qdsweep/qdsweep/units"
	"github.com/urfave/cli/v2"
)

// planFromFlags builds the plan from --rw --bs --iodepth --numjobs --full.
// When resuming, unset flags take the resumed plan's values and the result
// must equal it.
func planFromFlags(c *cli.Context, prev *sweep.Result, jf *session.JobFile) (sweep.Plan, error) {
	var p sweep.Plan
	if prev != nil {
		p = prev.Plan
	}
	fresh := prev == nil
	if fresh || c.IsSet(fio.OptRW) {
		rw, err := sweep.ParseRWList(jf.RW(c, c.String(fio.OptRW)))
		if err != nil {
			return p, usagef("--rw: %v", err)
		}
		p.RW = sweep.NewPlan(rw, nil, nil, nil, false).RW
	}
	if fresh || c.IsSet(fio.OptBS) {
		bs, err := sweep.ParseSizeList(jf.BS(c, c.String(fio.OptBS)))
		if err != nil {
			return p, usagef("--bs: %v", err)
		}
		p.BS = bs
	}
	for _, f := range []struct {
		name string
		dst  *[]int
		text string
	}{{fio.OptIODepth, &p.IODepth, c.String(fio.OptIODepth)}, {fio.OptNumJobs, &p.NumJobs, jf.NumJobs(c, c.String(fio.OptNumJobs))}} {
		if fresh || c.IsSet(f.name) {
			v, err := sweep.ParseIntSpec(f.text)
			if err != nil {
				return p, usagef("--%s: %v", f.name, err)
			}
			*f.dst = v
		}
	}
	if fresh || c.IsSet("full") {
		p.Full = c.Bool("full")
	}
	if err := p.Validate(); err != nil {
		return p, usagef("%v", err)
	}
	if prev != nil && !p.Equal(prev.Plan) {
		return p, usagef("--resume: the plan given (%s) differs from the sweep's (%s); drop the plan flags to continue it, or start a new sweep",
			planWords(p), planWords(prev.Plan))
	}
	return p, nil
}

// planWords renders a plan as flags.
func planWords(p sweep.Plan) string {
	ints := func(v []int) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = strconv.Itoa(x)
		}
		return strings.Join(s, ",")
	}
	bs := make([]string, len(p.BS))
	for i, b := range p.BS {
		bs[i] = units.FioSize(b)
	}
	s := fmt.Sprintf("--rw %s --bs %s --iodepth %s --numjobs %s", strings.Join(p.RW, ","), strings.Join(bs, ","), ints(p.IODepth), ints(p.NumJobs))
	if p.Full {
		s += " --full"
	}
	return s
}

// steadyFromFlags reads --ss (percent per second), --ss_dur and --ss_interval.
func steadyFromFlags(c *cli.Context) (sweep.SteadyConfig, error) {
	var s sweep.SteadyConfig
	txt := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.String(fio.OptSS)), "%"))
	pct, err := strconv.ParseFloat(txt, 64)
	if err != nil || !finite(pct) || pct < 0 || pct > 100 {
		return s, usagef("--ss: %q is not a percentage per second; use e.g. --ss=2%% or --ss=0 to turn steady state off", c.String(fio.OptSS))
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
		return s, usagef("--ss_dur: %v holds fewer than two --ss_interval samples (%v); use e.g. --ss_dur=2s", s.Window, s.Interval)
	}
	ptxt := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.String("mean-precision")), "%"))
	prec, err := strconv.ParseFloat(ptxt, 64)
	if err != nil || !finite(prec) || prec < 0 || prec >= 100 {
		return s, usagef("--mean-precision: %q is not a percentage; use e.g. --mean-precision=2%% or 0 to leave only --ss", c.String("mean-precision"))
	}
	s.Precision = prec / 100
	s.MinWindow = max(sweep.DefaultSteady.MinWindow, 3*s.Interval)
	s.RampInterval = sweep.DefaultSteady.RampInterval
	return s, nil
}

// finite reports whether v is a number (not NaN, not ±Inf): a NaN passes
// every comparison false, so a range check alone lets it through.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
