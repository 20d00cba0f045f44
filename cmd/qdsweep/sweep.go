package main

import (
	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/urfave/cli/v2"
)

func sweepCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: fio.OptRW, Value: "randread", Usage: fio.Row(fio.OptRW).SweepUsage()},
		&cli.StringFlag{Name: fio.OptBS, Value: "4k", Usage: fio.Row(fio.OptBS).SweepUsage()},
		&cli.StringFlag{Name: fio.OptIODepth, Value: "1:256", Usage: fio.Row(fio.OptIODepth).SweepUsage()},
		&cli.StringFlag{Name: fio.OptNumJobs, Value: "1", Usage: fio.Row(fio.OptNumJobs).SweepUsage()},
		&cli.BoolFlag{Name: "full", Usage: "run the whole grid: no early stop, and grids over 10,000 steps allowed"},
		&cli.StringFlag{Name: fio.OptSS, Value: "2%", Usage: fio.SweepFlagHelp(fio.OptSS)},
		&cli.StringFlag{Name: fio.OptSSDur, Value: "2s", Usage: fio.SweepFlagHelp(fio.OptSSDur)},
		&cli.StringFlag{Name: "mean-precision", Value: "2%", Usage: "a step also ends, from 0.5 s on and while IOPS shows no drift, once its mean IOPS is known to within this (standard error) or sooner once its gain over the step before is clear of the knee's thresholds at 95% (from 0.3 s on when that gain lies wholly above 5%, from 1 s on when it lies wholly below 5% at 1.8× the latency or more), or from 1 s on once, at its spread, its decision would not settle by " + fio.Flag(fio.OptRuntime) + "; 0 leaves only " + fio.Flag(fio.OptSS) + " (and fixed ramps)"},
		&cli.StringFlag{Name: "ss_interval", Value: sweep.DefaultSteady.Interval.String(), Usage: "IOPS sampling period for steady state and progress"},
		&cli.StringFlag{Name: fio.OptMaxLatency, Value: "2s", Usage: fio.SweepFlagHelp(fio.OptMaxLatency)},
		&cli.StringFlag{Name: "output", Aliases: []string{"out", "o"}, Usage: "results directory to create (default ./qdsweep-YYYYMMDD-HHMMSS)"},
		overwriteOpt(),
		&cli.BoolFlag{Name: "control", Value: true, Usage: "measure the best step again at the end: a level that did not last (burst credits, a throttle, a neighbour) is found and left out of the sizing"},
		&cli.StringFlag{Name: "resume", Usage: "continue the interrupted sweep in this results directory"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors (and the JSON with --output-format=json)"},
		targetIOPSFlag("target I/Os per second to size for in the recommendation, e.g. 160000 or 160k"),
		latencySLOFlag("latency objective for the recommendation, e.g. p99=5ms (mean, p50, p90, p99, p999)"),
		&cli.StringFlag{Name: "slo", Hidden: true, Usage: "old name of --latency-slo"},
		&cli.StringFlag{Name: "chart-format", Value: "png", Usage: "png or svg"},
		&cli.BoolFlag{Name: "refine", Usage: "after the grid, measure depths between the grid steps around the saturation knee, the --target-iops depth and the --latency-slo boundary", DefaultText: "on with --target-iops or --latency-slo, else off"},
		&cli.IntFlag{Name: "refine-steps", Value: sweep.DefaultRefineSteps, Usage: "most extra steps per refined boundary"},
		&cli.StringFlag{Name: fio.OptRateIOPS, Usage: fio.SweepFlagHelp(fio.OptRateIOPS),
			DefaultText: "none: depths are swept; with " + fio.FlagSet(fio.OptRateProcess, "poisson") + ", " + sweep.RateFractionsText(sweep.DefaultRateFractions)},
		&cli.StringFlag{Name: fio.OptRateProcess, Value: "linear", Usage: fio.SweepFlagHelp(fio.OptRateProcess)},
	}
	flags = append(flags, stepFlags()...)
	flags = append(flags, workloadFlags(session.SweepDefaultRamp.String(), session.SweepDefaultRuntime.String()+", or sooner once steady")...)
	flags = append(flags, logIntervalFlag())
	flags = append(flags, &cli.StringFlag{Name: "emit-fio-jobs", Usage: "write one fio job file per planned step into this directory before the sweep runs (any engine)"})
	return &cli.Command{
		Name:        "sweep",
		Usage:       "measure IOPS and latency across queue depths, find saturation, recommend a queue depth",
		UsageText:   sweepUsageText(),
		Description: sweepDescription(),
		Flags:       flags,
		Action:      sweepAction,
	}
}

// sweepUsageText is sweep's usage line, fio's options named by their keys.
func sweepUsageText() string {
	opt := func(k fio.OptionKey, v string) string { return "[" + fio.Flag(k) + " " + v + "]" }
	return words("qdsweep sweep", opt(fio.OptFilename, "PATH"), opt(fio.OptIODepth, "1:256"), opt(fio.OptNumJobs, "1"),
		opt(fio.OptRW, "randread"), opt(fio.OptBS, "4k"), "[--output DIR]")
}

// sweepDescription is sweep's help text, fio's options named by their keys.
func sweepDescription() string {
	f := fio.Flag
	return "With no flags it lays out a 1 GiB scratch file ./" + session.ScratchName + ", sweeps 4k random reads over iodepth\n" +
		"1, 2, 4 … 256 with one job, prints the table and recommendation, writes a results directory and\n" +
		"removes the scratch file. A " + f(fio.OptFilename) + " that does not exist is laid out and kept, as fio does.\n" +
		"Each step ramps until its queue is full and latency stopped climbing (at most " + f(fio.OptRampTime) + ", default\n" +
		"0.5 s), then measures until its decision is settled (its gain over the step before clear of the\n" +
		"knee's 5% and 1.8× at 95%; from 0.3 s on when the gain lies wholly above 5%, from 1 s on when it lies\n" +
		"wholly below 5% at 1.8× the latency or more, a flat step: two end the curve), its mean is known to\n" +
		"--mean-precision, its decision would\n" +
		"not settle by " + f(fio.OptRuntime) + " at its spread (from 1 s on), IOPS is steady (" + f(fio.OptSS) + ": drifting\n" +
		"under 2% of its mean per second over the last " + f(fio.OptSSDur) + " 2 s, sampled every --ss_interval 100 ms)\n" +
		"or " + f(fio.OptRuntime) + " (default 3 s) ends. A step whose first 100 ms slices ran above its level (a start-up\n" +
		"burst) ends only once the burst's share of its mean is within what its decision needs, and a step\n" +
		"a deeper one clearly fell below is measured again. For fixed fio-like steps use e.g. " +
		flagIs(fio.OptRuntime, "30") + " " + flagIs(fio.OptSS, "0") + ".\n" +
		"Ctrl-C stops and keeps what was measured; --resume DIR continues.\n" +
		"Write patterns over existing data need --allow-write (a file) or --allow-write-device\n" +
		"[--destroy-data=/dev/X] (a block device), checked for every " + f(fio.OptRW) + " before anything runs.\n" +
		flagIs(fio.OptIOEngine, engineFio) + " runs the installed fio for each step (with --fio-clients on fio servers, whose\n" +
		f(fio.OptFilename) + " is not laid out or checked here); --emit-fio-jobs DIR writes each step as a fio job file."
}

// stepFlags are sweep's flags of fio's options every step runs as run
// does (bssplit, random_distribution, thinktime …: fio.SweepStep rows),
// made from the rows; fio reads their values.
func stepFlags() []cli.Flag {
	var fs []cli.Flag
	for _, d := range fio.SweepStepOptions() {
		fs = append(fs, &cli.StringFlag{Name: d.Name, Usage: d.SweepUsage() + " (each step)"})
	}
	return fs
}

// stepOptions are the step flags given, as fio options in the rows' order.
func stepOptions(c *cli.Context) []fio.Option {
	var opts []fio.Option
	for _, d := range fio.SweepStepOptions() {
		if c.IsSet(d.Name) {
			opts = append(opts, fio.Option{Key: d.Name, Value: c.String(d.Name)})
		}
	}
	return opts
}

func sweepAction(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return usagef("sweep: unexpected argument %q; all settings are flags (see qdsweep sweep --help)", c.Args().First())
	}
	req, err := sweepRequest(c)
	if err != nil {
		return err
	}
	return session.RunSweep(c.Context, req)
}
