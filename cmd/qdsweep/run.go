package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/urfave/cli/v2"
)

// runScratchFile is the file `run` lays out and removes when --filename is not given.
const runScratchFile = "qdsweep.scratch"

// Defaults of `qdsweep run`.
const (
	runDefaultRuntime = 5 * time.Second
	runDefaultRamp    = 1 * time.Second
	runDefaultIODepth = 32
)

func runCommand() *cli.Command {
	flags := append([]cli.Flag{
		&cli.StringFlag{Name: "rw", Value: "randread", Usage: "read, write, randread, randwrite, rw or randrw"},
		&cli.StringFlag{Name: "bs", Value: "4k", Usage: "bytes per I/O (fio suffixes: 4k, 128k, 1m)"},
		&cli.StringFlag{Name: "iodepth", Value: strconv.Itoa(runDefaultIODepth), Usage: "I/Os in flight per job (fio's default is 1; qdsweep's is 32 because depth is the point)"},
		&cli.StringFlag{Name: "numjobs", Value: "1", Usage: "parallel jobs, each with its own ring/context and OS thread"},
	}, workloadFlags(runDefaultRamp.String(), runDefaultRuntime.String())...)
	flags = append(flags, logIntervalFlag())
	return &cli.Command{
		Name:      "run",
		Usage:     "run one workload like one fio invocation and report IOPS, latency and in-flight I/Os",
		UsageText: "qdsweep run [--filename=F] [--rw=randread] [--bs=4k] [--iodepth=32] [--numjobs=1] [--runtime=5s] [--ioengine=io_uring] ...",
		Description: "A fio command line with `fio` replaced by `qdsweep run` works. Without --filename, qdsweep lays out\n" +
			"./" + runScratchFile + " (--size, default 1 GiB) with real writes, measures it and removes it.\n" +
			"Defaults: --runtime=5s, --ramp_time=1s, --iodepth=32.\n" +
			"Writes over existing data need --allow-write (a file) or --allow-write-device (a blank block device;\n" +
			"add --destroy-data=/dev/X to overwrite partitions or a filesystem signature); mounted devices are refused.\n" +
			"--ioengine=sim measures a simulated device (no I/O); --ioengine=fio runs the installed fio, and with\n" +
			"--fio-clients runs it on fio servers: --filename then names their target and nothing is laid out or\n" +
			"checked here. --jobfile takes the workload from a fio job file (explicit flags win).",
		Flags:  flags,
		Action: runAction,
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usagef("run: %s%s; see qdsweep run --help", flagErrText(err), suggestFlag(c, err))
		},
	}
}

func runAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("run: unexpected argument %q; flags take the form --name=value (e.g. --filename=%s)", c.Args().First(), c.Args().First())
	}
	// Everything is checked before any file is created.
	jf, err := readJobFileFlag(c)
	if err != nil {
		return err
	}
	w, err := workloadFromFlags(c, jf)
	if err != nil {
		return err
	}
	w.RW = ioengine.RW(jf.rw(c))
	bs, err := ioengine.ParseSize(jf.bs(c))
	if err != nil {
		return usagef("--bs: %v; use e.g. --bs=4k, 1m or 1g", err)
	}
	w.BS = bs
	if w.IODepth, err = intFlagText("iodepth", jf.iodepth(c)); err != nil {
		return err
	}
	if w.NumJobs, err = intFlagText("numjobs", jf.numjobs(c)); err != nil {
		return err
	}
	defRamp, defRuntime := runDefaultRamp, runDefaultRuntime
	if jf.has("ramp_time") {
		defRamp = jf.run.Ramp
	}
	if jf.has("runtime") && jf.run.Runtime > 0 {
		defRuntime = jf.run.Runtime
	}
	ramp, runtime, err := phasesFromFlags(c, defRamp, defRuntime)
	if err != nil {
		return err
	}
	logEvery, err := logIntervalFromFlags(c)
	if err != nil {
		return err
	}
	es, err := engineFromFlags(c, "run", jf.ioengine(c), nil)
	if err != nil {
		return err
	}

	temporary := w.Filename == "" && es.local()
	if temporary {
		w.Filename = runScratchFile
		if _, err := os.Lstat(runScratchFile); err == nil {
			return usagef("--filename: ./%s already exists (left by an earlier run?); remove it or pass --filename", runScratchFile)
		}
	}
	if err := es.validate(w); err != nil {
		return err
	}
	if es.local() {
		if err := checkWrites(w, []ioengine.RW{w.RW}, writeGuardFromFlags(c, temporary)); err != nil {
			return err
		}
	}
	eng, reason, err := es.open()
	if err != nil {
		return err
	}

	ctx := c.Context
	if _, err := os.Stat(w.Filename); es.local() && errors.Is(err, os.ErrNotExist) {
		if temporary {
			remove := func() { _ = os.Remove(runScratchFile) }
			unregister := onHardExit(remove)
			defer func() { remove(); unregister() }()
		} else {
			// As fio does, a file laid out for a named target is kept; say so last.
			defer func() {
				if _, err := os.Stat(w.Filename); err == nil {
					fmt.Fprintf(os.Stderr, "kept %s (created by qdsweep; remove it when done)\n", w.Filename)
				}
			}()
		}
		size := w.Size + w.Offset + int64(w.NumJobs-1)*w.OffsetIncrement
		fmt.Fprintf(os.Stderr, "qdsweep: laying out %s (%s)\n", w.Filename, ioengine.FormatSize(size))
		if err := ioengine.CreateScratch(ctx, w.Filename, size); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("laying out %s: %w", w.Filename, errInterrupted)
			}
			return err
		}
	}
	if reason != "" {
		fmt.Fprintln(os.Stderr, "qdsweep: "+reason)
	}
	st, runErr := eng.Run(ctx, w, ioengine.Control{Ramp: ramp, Runtime: runtime, SeriesInterval: max(0, logEvery)})
	if runErr != nil && errors.Is(runErr, ioengine.ErrBadWorkload) {
		return usageErr(runErr)
	}
	if st != nil {
		out := io.Writer(os.Stdout)
		if runErr != nil && outputFormat(c) == formatNormal {
			out = os.Stderr
		}
		if err := writeRunStats(out, outputFormat(c), w, st, errors.Is(runErr, context.Canceled)); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
	}
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			return fmt.Errorf("%w: %v", errInterrupted, runErr)
		}
		return runErr
	}
	return nil
}

// intFlagText parses the text of integer flag name (given, or from the job file).
func intFlagText(name, text string) (int, error) {
	v, err := strconv.Atoi(text)
	if err != nil {
		return 0, usagef("--%s: %q is not a whole number; use e.g. --%s=4", name, text, name)
	}
	return v, nil
}

// runJSON is the document `run --output-format=json` prints.
type runJSON struct {
	Engine               string             `json:"engine"`
	EngineFallbackReason string             `json:"engine_fallback_reason"`
	Buffers              string             `json:"buffers,omitempty"`
	Filename             string             `json:"filename"`
	RW                   string             `json:"rw"`
	BS                   int64              `json:"bs"`
	IODepth              int                `json:"iodepth"`
	NumJobs              int                `json:"numjobs"`
	Direct               bool               `json:"direct"`
	RuntimeNs            int64              `json:"runtime_ns"`
	TotalIOs             int64              `json:"total_ios"`
	IOBytes              int64              `json:"io_bytes"`
	IOPS                 float64            `json:"iops"`
	BWBytes              float64            `json:"bw_bytes"`
	Lat                  ioengine.Latency   `json:"lat_ns"`
	InflightMean         float64            `json:"inflight_mean"`
	CPU                  ioengine.CPU       `json:"cpu"`
	Errors               []ioengine.IOError `json:"errors"`
	ShortIOs             int64              `json:"short_ios"`
	Read                 *ioengine.DirStats `json:"read,omitempty"`
	Write                *ioengine.DirStats `json:"write,omitempty"`
	Interrupted          bool               `json:"interrupted,omitempty"` // Ctrl-C: partial figures
	// Series is the window in --log-interval slices.
	Series []ioengine.Interval `json:"series,omitempty"`
}

// writeRunStats prints one run's figures in the chosen format.
func writeRunStats(out io.Writer, format string, w ioengine.Workload, st *ioengine.Stats, interrupted bool) error {
	switch format {
	case formatJSON:
		doc := runJSON{
			Engine: st.Engine, EngineFallbackReason: st.FallbackReason, Buffers: st.Buffers,
			Filename: w.Filename, RW: string(w.RW), BS: w.BS, IODepth: w.IODepth, NumJobs: w.NumJobs, Direct: w.Direct,
			RuntimeNs: int64(st.Runtime), TotalIOs: st.All.TotalIOs, IOBytes: st.All.Bytes, IOPS: st.All.IOPS, BWBytes: st.All.BWBytes,
			Lat: st.All.Lat, InflightMean: st.InflightMean, CPU: st.CPU, Errors: st.Errors, ShortIOs: st.ShortIOs,
			Interrupted: interrupted, Series: st.Series,
		}
		if doc.Errors == nil {
			doc.Errors = []ioengine.IOError{}
		}
		if w.RW.IsRead() && w.RW.IsWrite() {
			doc.Read, doc.Write = st.Read, st.Write
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	case formatTerse:
		// qdsweep's own terse line (not fio's): fields separated by ';'.
		_, err := fmt.Fprintf(out, "qdsweep;1;%s;%s;%d;%d;%d;%d;%.1f;%.0f;%.0f;%d;%d;%d;%.2f;%.3f;%.3f\n",
			st.Engine, w.RW, w.BS, w.IODepth, w.NumJobs, int64(st.Runtime), st.All.IOPS, st.All.BWBytes,
			st.All.Lat.MeanNs, st.All.Lat.P50Ns, st.All.Lat.P99Ns, st.All.Lat.P999Ns, st.InflightMean, st.CPU.UsrS, st.CPU.SysS)
		return err
	}
	return writeRunText(out, w, st)
}

// writeRunText is the human summary, at most 80 columns.
func writeRunText(out io.Writer, w ioengine.Workload, st *ioengine.Stats) error {
	var b strings.Builder
	engine := st.Engine
	if st.Buffers == "registered" {
		engine += " (registered buffers)"
	}
	fmt.Fprintf(&b, "%s %s, iodepth %d × %s, %s\n", w.RW, sweep.FormatSize(w.BS), w.IODepth, count(w.NumJobs, "job", "jobs"), engine)
	target := "(simulated device)"
	if w.Filename != "" && st.Engine != engineSim {
		target = filepath.Clean(w.Filename)
	}
	fmt.Fprintf(&b, "  target    %s, %.2f s measured\n", target, st.Runtime.Seconds())
	line := func(label string, d *ioengine.DirStats) {
		fmt.Fprintf(&b, "  %-9s %s IOPS  %s MiB/s  %d I/Os\n", label, report.FormatIOPS(d.IOPS), report.FormatMiBps(d.BWBytes), d.TotalIOs)
		fmt.Fprintf(&b, "  latency   mean %s  p50 %s  p99 %s  p99.9 %s\n",
			report.FormatLatency(d.Lat.MeanNs), report.FormatLatency(float64(d.Lat.P50Ns)), report.FormatLatency(float64(d.Lat.P99Ns)), report.FormatLatency(float64(d.Lat.P999Ns)))
	}
	line("all", &st.All)
	if w.RW.IsRead() && w.RW.IsWrite() {
		if st.Read != nil {
			line("read", st.Read)
		}
		if st.Write != nil {
			line("write", st.Write)
		}
	}
	fmt.Fprintf(&b, "  in flight %.1f mean (IOPS × mean latency = %.1f)\n", st.InflightMean, st.All.IOPS*st.All.Lat.MeanNs/1e9)
	cpu := st.CPU.UsrS + st.CPU.SysS
	perIO := ""
	if st.All.TotalIOs > 0 {
		perIO = fmt.Sprintf(", %s per I/O", report.FormatLatency(cpu*1e9/float64(st.All.TotalIOs)))
	}
	fmt.Fprintf(&b, "  CPU       usr %.2f s  sys %.2f s%s\n", st.CPU.UsrS, st.CPU.SysS, perIO)
	for _, e := range st.Errors {
		fmt.Fprintf(&b, "  errors    %d × %s on %s, first at offset %d\n", e.Count, e.Errno, e.Op, e.FirstOffset)
	}
	_, err := io.WriteString(out, b.String())
	return err
}
