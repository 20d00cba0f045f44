package main

import (
	"runtime"
	"slices"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/units"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/urfave/cli/v2"
)

func adviseCommand() *cli.Command {
	return &cli.Command{
		Name:  "advise",
		Usage: "size queue depth and iodepth × numjobs with Little's Law (QD = IOPS × latency), from numbers or from a sweep",
		Description: "Without data: qdsweep advise --target-iops 160000 --latency 2ms (→ QD 320)\n" +
			"   throughput: qdsweep advise --target-bw 1200MiB " + fio.Flag(fio.OptBS) + " 16k --latency 2ms\n" +
			"   cloud:      qdsweep advise --cloud gcp-hyperdisk-balanced --target-iops 100000\n" +
			"   table:      qdsweep advise --table\n" +
			"From data:     qdsweep advise --from results.json|DIR|points.csv [--target-iops T] [--latency-slo p99=5ms] [--for postgres]",
		Flags: []cli.Flag{
			targetIOPSFlag("target I/Os per second, e.g. 160000 or 160k"),
			&cli.StringFlag{Name: "target-bw", Usage: "target throughput per second, e.g. 1200MiB (converted at " + fio.Flag(fio.OptBS) + ")"},
			&cli.StringFlag{Name: fio.OptBS, Usage: "block size for --target-bw and to pick a curve from --from (default 4k)"},
			&cli.StringFlag{Name: fio.OptRW, Usage: "pick the curve of this rw from --from"},
			&cli.StringFlag{Name: "latency", Usage: "mean latency per I/O with a unit, e.g. 2ms or 800us"},
			&cli.StringFlag{Name: "cloud", Usage: "cloud volume preset: " + strings.Join(littleslaw.PresetNames(), ", ")},
			&cli.BoolFlag{Name: "table", Usage: "print GCP's Hyperdisk queue-depth table, regenerated from Little's Law"},
			&cli.StringFlag{Name: "from", Usage: "measured data: results.json, a results directory, or a points CSV (iodepth,numjobs,iops,lat_mean_us)"},
			latencySLOFlag("latency objective, e.g. p99=5ms (mean, p50, p90, p99, p999); needs --from"),
			forFlag("settings for " + orList(append(slices.Clone(littleslaw.SettingsKinds), seastarFor)) + " (Seastar's io_properties.yaml, written into the results directory); needs --from"),
			&cli.StringFlag{Name: "mountpoint", Usage: "with --for seastar: the mount point to name in io_properties.yaml", DefaultText: "the mount holding the sweep's target, on this machine"},
			&cli.IntFlag{Name: "max-iodepth", Value: littleslaw.DefaultMaxIODepth, Usage: "deepest queue per job (NVMe queues hold 256)"},
			&cli.IntFlag{Name: "max-jobs", Usage: "most jobs in a split", DefaultText: "the CPU count"},
			&cli.IntFlag{Name: "cpus", Usage: "CPUs of the machine that will run the load", DefaultText: "this machine's"},
			jsonFormatFlag(),
		},
		Action: adviseAction,
	}
}

// adviseFlags are advise's parsed, validated flags.
type adviseFlags struct {
	targetIOPS, targetBW float64
	bs                   int64
	bsSet                bool
	rw                   string
	latNs                float64
	preset               *littleslaw.Preset
	table                bool
	from                 string
	slo                  *littleslaw.SLO
	forWhat              string
	opts                 littleslaw.Options
	json                 bool
}

func adviseAction(c *cli.Context) error {
	if err := session.CheckInput("--from", c.String("from")); err != nil {
		return err // a named pipe would block the read
	}
	if c.String("for") == seastarFor {
		return adviseSeastar(c)
	}
	f, err := parseAdviseFlags(c)
	if err != nil {
		return err
	}
	return session.RunAdvise(session.AdviseRequest{Input: f.input(), From: f.from, RW: f.rw, Table: f.table, JSON: f.json,
		Out: session.Out{Stdout: c.App.Writer, Stderr: c.App.ErrWriter}})
}

// input is what the flags ask of littleslaw's advice.
func (f adviseFlags) input() littleslaw.AdviceInput {
	return littleslaw.AdviceInput{TargetIOPS: f.targetIOPS, TargetBW: f.targetBW, BS: f.bs, BSSet: f.bsSet,
		LatNs: f.latNs, Preset: f.preset, Options: f.opts}
}

// parseAdviseFlags validates every flag; all failures are usage errors.
// It reads them phase by phase: the target, what the device is known by
// (latency, cloud preset, SLO, settings), the flags that do not go
// together, the limits of the advice, and what a run without data needs.
func parseAdviseFlags(c *cli.Context) (adviseFlags, error) {
	var f adviseFlags
	if c.NArg() > 0 {
		return f, usagef("advise takes no arguments (got %q); use --from FILE for data", c.Args().First())
	}
	var err error
	if f.json, err = jsonOutput(c); err != nil {
		return f, err
	}
	if err := f.parseTarget(c); err != nil {
		return f, err
	}
	if err := f.parseDevice(c); err != nil {
		return f, err
	}
	f.table, f.from, f.rw = c.Bool("table"), c.String("from"), c.String(fio.OptRW)
	if err := checkAdviseConflicts(c, f); err != nil {
		return f, err
	}
	if f.opts, err = adviseOptions(c, f); err != nil {
		return f, err
	}
	return f, f.checkNeeds()
}

// parseTarget reads the target (--target-iops or --target-bw, the latter
// turned into IOPS at --bs) and the block size.
func (f *adviseFlags) parseTarget(c *cli.Context) error {
	var err error
	if f.targetIOPS, err = targetIOPS(c); err != nil {
		return err
	}
	f.bs = 4096
	if s := c.String(fio.OptBS); s != "" {
		if f.bs, err = units.ParseSize(s); err != nil || f.bs <= 0 {
			return usagef("%s %q: use a positive size such as 4k or 16k", fio.Flag(fio.OptBS), s)
		}
		f.bsSet = true
	}
	if s := c.String("target-bw"); s != "" {
		bw, err := units.ParseSize(strings.TrimSuffix(strings.TrimSuffix(s, "/s"), "ps"))
		if err != nil || bw <= 0 {
			return usagef("--target-bw %q: use a positive throughput such as 1200MiB or 500m (per second)", s)
		}
		if f.targetIOPS > 0 {
			return usagef("--target-bw and --target-iops: give one target, not both")
		}
		f.targetBW = float64(bw)
		f.targetIOPS = littleslaw.ThroughputIOPS(f.targetBW, f.bs)
	}
	return nil
}

// parseDevice reads what the device is known or asked by: its latency, a
// cloud preset, a latency SLO and the settings to write (--for).
func (f *adviseFlags) parseDevice(c *cli.Context) error {
	var err error
	if s := c.String("latency"); s != "" {
		if f.latNs, err = parseLatency(s); err != nil {
			return usagef("--latency: %v", err)
		}
	}
	if s := c.String("cloud"); s != "" {
		p, err := littleslaw.LookupPreset(s)
		if err != nil {
			return usagef("--cloud: %v", err)
		}
		f.preset = &p
	}
	if f.slo, err = latencySLO(c, "latency-slo"); err != nil {
		return err
	}
	f.forWhat, err = settingsFor(c)
	return err
}

// adviseOptions is littleslaw's options from the flags read and the
// limits (--cpus, 0: this machine's; --max-iodepth, --max-jobs).
func adviseOptions(c *cli.Context, f adviseFlags) (littleslaw.Options, error) {
	cpus := c.Int("cpus")
	if cpus < 0 || c.Int("max-iodepth") <= 0 || c.Int("max-jobs") < 0 {
		return littleslaw.Options{}, usagef("--cpus, --max-iodepth and --max-jobs must be positive")
	}
	if cpus == 0 {
		cpus = runtime.NumCPU()
	}
	return littleslaw.Options{TargetIOPS: f.targetIOPS, SLO: f.slo, For: f.forWhat,
		MaxIODepth: c.Int("max-iodepth"), MaxJobs: c.Int("max-jobs"), CPUs: cpus, BS: f.bs}, nil
}

// checkNeeds refuses advice without measured data (--from) or the table
// that lacks what it is computed from: a target and a latency.
func (f adviseFlags) checkNeeds() error {
	if f.from != "" || f.table {
		return nil
	}
	if f.slo != nil || f.forWhat != "" {
		return usagef("--latency-slo and --for need measured data: add --from results.json or --from points.csv")
	}
	if f.targetIOPS == 0 && f.preset == nil {
		return usagef("advise needs a target: --target-iops 160000 or --target-bw 1200MiB (or --cloud, --table or --from)")
	}
	if f.latNs == 0 && f.preset == nil {
		return usagef("advise needs --latency with a unit, e.g. --latency 2ms (or --cloud for a typical latency)")
	}
	return nil
}

// checkAdviseConflicts refuses flags that do not go together or would be
// silently ignored: --table answers alone, --rw picks a curve of --from.
func checkAdviseConflicts(c *cli.Context, f adviseFlags) error {
	if c.IsSet(fio.OptRW) {
		if !ioengine.RW(f.rw).Valid() {
			return usagef("%s: unknown pattern %q; use read, write, randread, randwrite, rw or randrw", fio.Flag(fio.OptRW), f.rw)
		}
		if f.from == "" {
			return usagef("%[1]s picks a curve of measured data: add --from results.json, or drop %[1]s", fio.Flag(fio.OptRW))
		}
	}
	if f.table {
		for _, other := range []string{"from", "target-iops", "target-bw", "latency", "cloud", "latency-slo", "for", fio.OptRW, fio.OptBS} {
			if c.IsSet(other) {
				return usagef("--table prints the fixed GCP table (16 KiB at 2 ms) and takes no --%s; drop one of them", other)
			}
		}
	}
	return nil
}

// seastarFor is the --for value that writes Seastar's io_properties.yaml.
const seastarFor = "seastar"

// adviseSeastar writes Seastar's io_properties.yaml into the results
// directory --from names (through the one writer) and prints it.
func adviseSeastar(c *cli.Context) error {
	from := c.String("from")
	if from == "" {
		return usagef("--for seastar reads a sweep: add --from DIR (sweep %s %s first; see the README)", fio.FlagSet(fio.OptRW, "randread,randwrite,read,write"), fio.FlagSet(fio.OptBS, "4k,1m"))
	}
	oo := outOptions(c, "from", session.ResultInputs(from)...)
	oo.Renders = from // the results directory it reads
	return session.WriteIOProperties(c.App.Writer, c.App.ErrWriter, from, c.String("mountpoint"), oo)
}
