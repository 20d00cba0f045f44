package main

import (
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/session"
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
	{"seed", "seed of the jitter (default " + fio.Flag(fio.OptRandSeed) + ")"},
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
	return "run a simulated device, no I/O (" + flagIs(fio.OptIOEngine, engineSim) + "), as comma-separated key=value over " +
		ioengine.DefaultSim.Spec() + ". " + strings.Join(keys, "; ")
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
		if err := fioadapt.SetUringOption(&o, u.Name, n); err != nil {
			return o, usagef("--%v", err)
		}
	}
	return o, nil
}

// fioFlags are the flags of the fio engine (--ioengine=fio).
func fioFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "fio-arg", Usage: "fio: extra argument passed to fio as is (repeatable), e.g. --fio-arg=" + fio.Flag(fio.OptThread)},
		&cli.StringFlag{Name: "fio-clients", Usage: "fio: run on fio servers (host1,host2:8765 or @hostfile, one host per line); " +
			fio.Flag(fio.OptFilename) + " then names the target on the servers and nothing is laid out or checked locally"},
	}
}

// engineFromFlags reads --ioengine, --sim (or the older --sim_* flags),
// --randseed and the fio engine's flags into the request's engine
// settings; session checks them once the engine is known.
func engineFromFlags(c *cli.Context) session.EngineRequest {
	e := session.EngineRequest{Name: c.String(fio.OptIOEngine), Sim: c.String("sim"), Seed: c.Uint64(fio.OptRandSeed),
		FioArgs: c.StringSlice("fio-arg"), FioClients: c.String("fio-clients")}
	var kv []string
	for _, n := range simFlagNames {
		if c.IsSet(n) {
			v := c.String(n)
			if n == "sim_burst_carry" {
				v = strconv.FormatBool(c.Bool(n))
			}
			k := strings.TrimPrefix(n, "sim_")
			kv, e.SimKeys = append(kv, k+"="+v), append(e.SimKeys, k)
		}
	}
	if !c.IsSet("sim") {
		e.Sim = strings.Join(kv, ",")
	}
	return e
}
