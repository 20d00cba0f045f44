package main

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/ioengine/fioengine"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/qdsweep/qdsweep/units"
	"github.com/urfave/cli/v2"
)

// Engine names --ioengine takes beyond the kernel engines.
const (
	engineSim = ioengine.EngineSim
	engineFio = ioengine.EngineFio
)

// simFlagNames are the flags of the simulated device.
var simFlagNames = []string{"sim_latency", "sim_jitter", "sim_channels", "sim_iops", "sim_bw",
	"sim_burst_iops", "sim_burst_credits", "sim_burst_carry", "sim_throttle_period", "sim_throttle_iops"}

// fioFlagNames are the flags of the fio engine.
var fioFlagNames = []string{"fio-arg", "fio-clients"}

// simFlags are the flags of the simulated device: --sim, and the older
// --sim_* flags, hidden, kept so scripts that use them still work.
func simFlags() []cli.Flag {
	fs := []cli.Flag{&cli.StringFlag{Name: "sim", Usage: simUsage()}}
	for _, f := range oldSimFlags() {
		setHidden(f)
		fs = append(fs, f)
	}
	return fs
}

// simKeyHelp says what each key of --sim sets, in ioengine.SimKeys' order.
var simKeyHelp = [][2]string{
	{"latency", "base round-trip time of one I/O"},
	{"jitter", "spread of that time, a fraction of it (0..2)"},
	{"channels", "I/Os the device serves at once (0: unlimited)"},
	{"iops", "IOPS cap (0: none)"},
	{"bw", "bandwidth cap per second, fio size suffixes (0: none)"},
	{"bw_bytes", "the same cap in bytes"},
	{"seed", "seed of the jitter (default --randseed)"},
	{"burst_iops", "IOPS cap while burst credits last (iops is then the baseline)"},
	{"burst_credits", "burst bucket in I/Os, full at each step's start, refilled at iops per second"},
	{"burst_carry", "keep the bucket from step to step, as a volume does"},
	{"throttle_period", "window of a periodic throttle, e.g. 1s"},
	{"throttle_iops", "IOPS the throttle admits per window on average"},
}

// simUsage is --sim's help: its keys and what each sets, over the
// default device.
func simUsage() string {
	var keys []string
	for _, kh := range simKeyHelp {
		keys = append(keys, kh[0]+": "+kh[1])
	}
	return "run a simulated device, no I/O (--ioengine=sim), as comma-separated key=value over " +
		ioengine.DefaultSim.Spec() + ". " + strings.Join(keys, "; ")
}

// oldSimFlags are the flags each sim setting had before --sim.
func oldSimFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "sim_latency", Value: "1.3ms", Usage: "sim: base round-trip latency per I/O"},
		&cli.Float64Flag{Name: "sim_jitter", Value: 0.05, Usage: "sim: latency spread as a fraction of sim_latency (0..2)"},
		&cli.IntFlag{Name: "sim_channels", Value: 0, Usage: "sim: I/Os the device serves at once (0: unlimited)"},
		&cli.Float64Flag{Name: "sim_iops", Value: 160000, Usage: "sim: IOPS cap (0: none)"},
		&cli.StringFlag{Name: "sim_bw", Value: "2400MiB", Usage: "sim: bandwidth cap per second, fio size suffixes (0: none)"},
		&cli.Float64Flag{Name: "sim_burst_iops", Usage: "sim: IOPS cap while burst credits last (--sim_iops is then the baseline; 0: no burst)"},
		&cli.Float64Flag{Name: "sim_burst_credits", Usage: "sim: burst bucket in I/Os, full at each step's start, refilled at --sim_iops per second"},
		&cli.BoolFlag{Name: "sim_burst_carry", Usage: "sim: keep the burst bucket from step to step, as a volume does (credits can run out between steps)"},
		&cli.StringFlag{Name: "sim_throttle_period", Usage: "sim: window of a periodic throttle, e.g. 1s (with --sim_throttle_iops)"},
		&cli.Float64Flag{Name: "sim_throttle_iops", Usage: "sim: IOPS the throttle admits per window on average (its budget is this × the period)"},
	}
}

// setHidden hides a flag from help.
func setHidden(f cli.Flag) {
	switch f := f.(type) {
	case *cli.StringFlag:
		f.Hidden = true
	case *cli.Float64Flag:
		f.Hidden = true
	case *cli.IntFlag:
		f.Hidden = true
	case *cli.BoolFlag:
		f.Hidden = true
	}
}

// ioengineFlag is the engine the command line names: --ioengine, or sim
// when --sim is given; set says whether either was.
func ioengineFlag(c *cli.Context) (name string, set bool) {
	if c.IsSet("sim") {
		return engineSim, true
	}
	return c.String("ioengine"), c.IsSet("ioengine")
}

// uringFlags are fio's io_uring options as sweep's flags.
func uringFlags() []cli.Flag {
	var fs []cli.Flag
	for _, u := range fio.UringOptions {
		if u.CPU {
			fs = append(fs, &cli.IntFlag{Name: u.Name, Usage: u.Help})
		} else {
			fs = append(fs, &cli.BoolFlag{Name: u.Name, Usage: u.Help})
		}
	}
	return fs
}

// uringFromFlags reads sweep's io_uring flags (fio's meaning); an option
// not given keeps qdsweep's choice.
func uringFromFlags(c *cli.Context) (ioengine.UringOptions, error) {
	var o ioengine.UringOptions
	for _, u := range fio.UringOptions {
		if !c.IsSet(u.Name) {
			continue
		}
		n := c.Int(u.Name)
		if !u.CPU && !c.Bool(u.Name) {
			n = 0
		} else if !u.CPU {
			n = 1
		}
		if err := o.SetOption(u.Name, n); err != nil {
			return o, usagef("--%v", err)
		}
	}
	return o, nil
}

// fioFlags are the flags of the fio engine (--ioengine=fio).
func fioFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "fio-arg", Usage: "fio: extra argument passed to fio as is (repeatable), e.g. --fio-arg=--thread"},
		&cli.StringFlag{Name: "fio-clients", Usage: "fio: run on fio servers (host1,host2:8765 or @hostfile, one host per line); " +
			"--filename then names the target on the servers and nothing is laid out or checked locally"},
	}
}

// engineSetup is the engine the command line asks for, checked before
// anything is created or run.
type engineSetup struct {
	name    string              // io_uring, libaio, psync, sim or fio
	sim     *ioengine.SimConfig // set for sim
	fio     *fioengine.Options  // set for fio
	clients []string            // fio servers; the target lives there
	prev    *sweep.Result       // resumed sweep, for its sim settings
	cmd     string              // "run" or "sweep", for messages
}

// remote reports whether the target lives on fio servers, not on this machine.
func (e engineSetup) remote() bool { return len(e.clients) > 0 }

// local reports whether the engine does I/O on a local file or device.
func (e engineSetup) local() bool { return e.sim == nil && !e.remote() }

// engineFromFlags reads --ioengine and the engine's own flags. It refuses
// an engine's flags given without that engine, and a missing fio binary.
// Nothing is opened or created.
func engineFromFlags(c *cli.Context, cmd, name string, prev *sweep.Result) (engineSetup, error) {
	e := engineSetup{name: name, prev: prev, cmd: cmd}
	switch name {
	case ioengine.EngineIOUring, ioengine.EngineLibaio, ioengine.EnginePsync, engineSim, engineFio:
	default:
		return e, usagef("--ioengine: unknown engine %q; use io_uring, libaio, psync, sim or fio", name)
	}
	if c.IsSet("sim") {
		if n := c.String("ioengine"); c.IsSet("ioengine") && n != engineSim {
			return e, usagef("--sim runs the simulated device and --ioengine=%s a real one; drop one of them", n)
		}
		name = engineSim
		e.name = name
		for _, n := range simFlagNames {
			if c.IsSet(n) {
				return e, usagef("--%s and --sim both set the simulated device; put its setting in --sim (see --help) and drop --%s", n, n)
			}
		}
	}
	if name != engineSim {
		for _, n := range simFlagNames {
			if c.IsSet(n) {
				return e, usagef("--%s applies only with --ioengine=sim; add --ioengine=sim or drop --%s", n, n)
			}
		}
	}
	if name != engineFio {
		for _, n := range fioFlagNames {
			if c.IsSet(n) {
				return e, usagef("--%s applies only with --ioengine=fio; add --ioengine=fio or drop --%s", n, n)
			}
		}
	}
	switch name {
	case engineSim:
		cfg, err := simFromFlags(c)
		if err != nil {
			return e, err
		}
		if prev != nil && prev.Meta.Workload.Sim != "" && !anySet(c, append(simFlagNames, "sim", "randseed")...) {
			if cfg, err = ioengine.ParseSimConfig(prev.Meta.Workload.Sim); err != nil {
				return e, usagef("--resume: %v", err)
			}
		}
		e.sim = &cfg
	case engineFio:
		o := fioengine.Options{ExtraArgs: c.StringSlice("fio-arg")}
		if err := fioengine.CheckExtraArgs(o.ExtraArgs); err != nil {
			return e, usageErr(err)
		}
		if _, err := exec.LookPath("fio"); err != nil {
			return e, usagef("--ioengine=fio: %v", fioengine.ErrNotFound)
		}
		if spec := c.String("fio-clients"); c.IsSet("fio-clients") {
			if len(spec) > 1 && spec[0] == '@' {
				spec = spec[1:]
			}
			clients, err := fio.ReadClients(spec)
			if err != nil {
				return e, usagef("--fio-clients: %v", err)
			}
			if cmd != "run" && !c.IsSet("filename") && !c.IsSet("jobfile") { // run checks its fio options itself
				return e, usagef("--fio-clients: name the target on the servers with --filename (nothing is laid out on them)")
			}
			o.Clients, e.clients = clients, clients
		}
		e.fio = &o
	}
	return e, nil
}

// simFromFlags reads --sim, or the older sim flags; each error names its flag.
func simFromFlags(c *cli.Context) (ioengine.SimConfig, error) {
	if spec := c.String("sim"); c.IsSet("sim") {
		cfg, err := ioengine.ParseSimSpec(spec)
		if err != nil {
			return cfg, usagef("--sim: %v; use e.g. --sim=latency=1ms,iops=20000", err)
		}
		if !strings.Contains(spec, "seed=") {
			cfg.Seed = c.Uint64("randseed")
		}
		return cfg, nil
	}
	var cfg ioengine.SimConfig
	lat, err := units.ParseDuration(c.String("sim_latency"))
	if err != nil || lat <= 0 {
		return cfg, usagef("--sim_latency: %q is not a positive duration; use e.g. --sim_latency=1.3ms", c.String("sim_latency"))
	}
	bw, err := units.ParseSize(c.String("sim_bw"))
	if err != nil {
		return cfg, usagef("--sim_bw: %v; use e.g. --sim_bw=2400MiB or 0", err)
	}
	cfg = ioengine.SimConfig{
		Latency: lat, Jitter: c.Float64("sim_jitter"), Channels: c.Int("sim_channels"),
		IOPS: c.Float64("sim_iops"), BWBytes: float64(bw), Seed: c.Uint64("randseed"),
	}
	cfg.BurstIOPS, cfg.BurstCredits, cfg.BurstCarry = c.Float64("sim_burst_iops"), c.Float64("sim_burst_credits"), c.Bool("sim_burst_carry")
	if s := c.String("sim_throttle_period"); s != "" {
		if cfg.ThrottlePeriod, err = units.ParseDuration(s); err != nil || cfg.ThrottlePeriod < 0 {
			return cfg, usagef("--sim_throttle_period: %q is not a duration; use e.g. --sim_throttle_period=1s", s)
		}
	}
	cfg.ThrottleIOPS = c.Float64("sim_throttle_iops")
	switch {
	case (cfg.BurstIOPS > 0) != (cfg.BurstCredits > 0):
		return cfg, usagef("--sim_burst_iops and --sim_burst_credits go together; use e.g. --sim_burst_iops=3000 --sim_burst_credits=30000")
	case cfg.BurstIOPS > 0 && !(cfg.IOPS > 0 && cfg.IOPS < cfg.BurstIOPS):
		return cfg, usagef("--sim_burst_iops: %v must exceed the baseline --sim_iops (%v, which must be > 0); use e.g. --sim_iops=1000 --sim_burst_iops=3000", cfg.BurstIOPS, cfg.IOPS)
	case (cfg.ThrottlePeriod > 0) != (cfg.ThrottleIOPS > 0):
		return cfg, usagef("--sim_throttle_period and --sim_throttle_iops go together; use e.g. --sim_throttle_period=1s --sim_throttle_iops=2000")
	case !(cfg.Jitter >= 0 && cfg.Jitter <= 2):
		return cfg, usagef("--sim_jitter: %v must be within 0..2 (a fraction of --sim_latency); use e.g. --sim_jitter=0.05", cfg.Jitter)
	case cfg.Channels < 0:
		return cfg, usagef("--sim_channels: %d must be 0 (unlimited) or more; use e.g. --sim_channels=64", cfg.Channels)
	case !(cfg.IOPS >= 0):
		return cfg, usagef("--sim_iops: %v must be 0 (no cap) or more; use e.g. --sim_iops=160000", cfg.IOPS)
	}
	if _, err := ioengine.ParseSimConfig(cfg.String()); err != nil {
		return cfg, usagef("--sim_*: %v", err)
	}
	return cfg, nil
}

// open returns the engine and, for io_uring falling back to libaio, why.
func (e engineSetup) open() (ioengine.Engine, string, error) {
	switch {
	case e.sim != nil:
		return ioengine.NewSim(*e.sim), "", nil
	case e.fio != nil:
		return fioengine.NewEngine(*e.fio), "", nil
	}
	eng, reason, err := ioengine.New(e.name)
	if err != nil {
		if errors.Is(err, ioengine.ErrBadWorkload) {
			return nil, "", usageErr(err)
		}
		return nil, "", fmt.Errorf("engine %s: %w", e.name, err)
	}
	return eng, reason, nil
}

// validate checks w for this engine before anything runs. For fio servers
// only the workload's own fields are checked: the target is not here.
func (e engineSetup) validate(w ioengine.Workload) error {
	name := e.name
	if e.remote() {
		w.Filename = ""
		if err := ioengine.Validate(w, engineSim); err != nil { // field checks, no target
			return usageErr(err)
		}
		return nil
	}
	if err := ioengine.Validate(w, name); err != nil {
		return usageErr(err)
	}
	return nil
}

func anySet(c *cli.Context, names ...string) bool {
	for _, n := range names {
		if c.IsSet(n) {
			return true
		}
	}
	return false
}
