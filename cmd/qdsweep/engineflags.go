package main

import (
	"os/exec"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/sweep"
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
// --sim_* flags (one per key), hidden, kept so scripts that use them still
// work.
func simFlags() []cli.Flag {
	fs := []cli.Flag{&cli.StringFlag{Name: "sim", Usage: simUsage()}}
	for _, n := range simFlagNames {
		if n == "sim_burst_carry" {
			fs = append(fs, &cli.BoolFlag{Name: n, Hidden: true})
			continue
		}
		fs = append(fs, &cli.StringFlag{Name: n, Hidden: true})
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

// ioengineFlag is the engine the command line names: --ioengine, or sim
// when --sim is given; set says whether either was.
func ioengineFlag(c *cli.Context) (name string, set bool) {
	if c.IsSet("sim") {
		return engineSim, true
	}
	return c.String(fio.OptIOEngine), c.IsSet(fio.OptIOEngine)
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

// engineFromFlags reads --ioengine and the engine's own flags. It refuses
// an engine's flags given without that engine, and a missing fio binary.
// Nothing is opened or created.
func engineFromFlags(c *cli.Context, cmd, name string, prev *sweep.Result) (session.Engine, error) {
	e := session.Engine{Name: name}
	switch name {
	case ioengine.EngineIOUring, ioengine.EngineLibaio, ioengine.EnginePsync, engineSim, engineFio:
	default:
		return e, usagef("--ioengine: unknown engine %q; use io_uring, libaio, psync, sim or fio", name)
	}
	if c.IsSet("sim") {
		if n := c.String(fio.OptIOEngine); c.IsSet(fio.OptIOEngine) && n != engineSim {
			return e, usagef("--sim runs the simulated device and --ioengine=%s a real one; drop one of them", n)
		}
		name = engineSim
		e.Name = name
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
		if prev != nil && prev.Meta.Workload.Sim != "" && !anySet(c, append(simFlagNames, "sim", fio.OptRandSeed)...) {
			if cfg, err = ioengine.ParseSimConfig(prev.Meta.Workload.Sim); err != nil {
				return e, usagef("--resume: %v", err)
			}
		}
		e.Sim = &cfg
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
			if cmd != "run" && !c.IsSet(fio.OptFilename) && !c.IsSet("jobfile") { // run checks its fio options itself
				return e, usagef("--fio-clients: name the target on the servers with --filename (nothing is laid out on them)")
			}
			o.Clients, e.Clients = clients, clients
		}
		e.Fio = &o
	}
	return e, nil
}

// simFromFlags reads --sim, or the older --sim_* flags (each the key of
// its name); an error names the flags given.
func simFromFlags(c *cli.Context) (ioengine.SimConfig, error) {
	spec, flags := c.String("sim"), "--sim"
	if !c.IsSet("sim") {
		var kv, names []string
		for _, n := range simFlagNames {
			if c.IsSet(n) {
				v := c.String(n)
				if n == "sim_burst_carry" {
					v = strconv.FormatBool(c.Bool(n))
				}
				kv, names = append(kv, strings.TrimPrefix(n, "sim_")+"="+v), append(names, "--"+n)
			}
		}
		spec, flags = strings.Join(kv, ","), strings.Join(names, ", ")
	}
	cfg, err := ioengine.ParseSimSpec(spec)
	if err != nil {
		return cfg, usagef("%s: %v; use e.g. --sim=latency=1ms,iops=20000", flags, err)
	}
	if !strings.Contains(spec, "seed=") {
		cfg.Seed = c.Uint64(fio.OptRandSeed)
	}
	return cfg, nil
}

func anySet(c *cli.Context, names ...string) bool {
	for _, n := range names {
		if c.IsSet(n) {
			return true
		}
	}
	return false
}
