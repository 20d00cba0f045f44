package fioadapt

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/qdsweep/qdsweep/fio"

	"github.com/qdsweep/qdsweep/ioengine"
)

// DefaultIOEngine is the fio ioengine qdsweep asks for when none is given.
const DefaultIOEngine = "io_uring"

// WriteJobFile writes wl as a fio job file fio runs as-is: one [global]
// section with ramp and runtime (time_based, group_reporting) and one job
// section with the workload. The ioengine is io_uring.
func WriteJobFile(w io.Writer, wl ioengine.Workload, runtime, ramp time.Duration) error {
	return WriteJobFileEngine(w, wl, runtime, ramp, DefaultIOEngine)
}

// WriteJobFileEngine is WriteJobFile with the given fio ioengine ("" means DefaultIOEngine).
func WriteJobFileEngine(w io.Writer, wl ioengine.Workload, runtime, ramp time.Duration, engine string) error {
	opts, err := JobOptions(wl, runtime, ramp, engine)
	if err != nil {
		return err
	}
	return WriteOptions(w, wl, opts)
}

// WriteOptions writes opts (from JobOptions for wl) as a fio job file.
func WriteOptions(w io.Writer, wl ioengine.Workload, opts OptionSet) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "; qdsweep step: %s=%s %s=%d %s=%d %s=%d (QD %d)\n",
		fio.OptRW, wl.RW, fio.OptBS, wl.BS, fio.OptIODepth, wl.IODepth, fio.OptNumJobs, wl.NumJobs, wl.QD())
	fmt.Fprintln(bw, "[global]")
	for _, kv := range opts.Global {
		fmt.Fprintf(bw, "%s=%s\n", kv[0], kv[1])
	}
	fmt.Fprintf(bw, "\n[%s]\n", JobName(wl))
	for _, kv := range opts.Job {
		fmt.Fprintf(bw, "%s=%s\n", kv[0], kv[1])
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write fio job file: %w", err)
	}
	return nil
}

// JobName names the job section after the step: "randread-4096-iodepth32-numjobs1".
func JobName(wl ioengine.Workload) string {
	return fmt.Sprintf("%s-%d-iodepth%d-numjobs%d", wl.RW, wl.BS, wl.IODepth, wl.NumJobs)
}

// UnnamedJob is the name of a job its command line names none (no
// --name), in fio's shapes and when fio runs it: fio requires one.
const UnnamedJob = "qdsweep"

// JobFileName is the file name WriteJobFile's output should get for wl
// (one per sweep step, distinct for every rw, bs, iodepth and numjobs):
// "randread-4096-iodepth32-numjobs1.fio".
func JobFileName(wl ioengine.Workload) string { return JobName(wl) + ".fio" }

// OptionSet is a job's options in order: [global] then the job section,
// each a name and value pair.
type OptionSet struct {
	Global, Job [][2]string
}

// JobOptions renders wl in fio's option vocabulary.
func JobOptions(wl ioengine.Workload, runtime, ramp time.Duration, engine string) (OptionSet, error) {
	if wl.Filename == "" {
		return OptionSet{}, fmt.Errorf("fio job: no filename")
	}
	if wl.BS <= 0 || wl.IODepth <= 0 || wl.NumJobs <= 0 {
		return OptionSet{}, fmt.Errorf("fio job: bs %d, iodepth %d, numjobs %d must be positive", wl.BS, wl.IODepth, wl.NumJobs)
	}
	if !wl.RW.Valid() {
		return OptionSet{}, fmt.Errorf("fio job: unknown rw %q", wl.RW)
	}
	if engine == "" {
		engine = DefaultIOEngine
	}
	var s OptionSet
	g := func(k, v string) { s.Global = append(s.Global, [2]string{k, v}) }
	g(fio.OptIOEngine, engine)
	direct, _ := jobOptions[fio.OptDirect].render(wl)
	g(fio.OptDirect, direct)
	g(fio.OptTimeBased, "1")
	g(fio.OptRuntime, fioDuration(runtime))
	if ramp > 0 {
		g(fio.OptRampTime, fioDuration(ramp))
	}
	g(fio.OptGroupReporting, "1")
	if v, ok := jobOptions[fio.OptRandSeed].render(wl); ok {
		g(fio.OptRandSeed, v)
	}
	// No do_verify=0: without verify= fio verifies nothing anyway, and
	// fio 3.33 ends a size-based write whose io_size exceeds its size after
	// one pass over the region when do_verify=0 is given (256 writes where
	// 768 were due for size=1m io_size=3m).
	for _, f := range append([]string{wl.Filename}, wl.Files...) {
		if _, err := fio.EscapeFilename(f); err != nil {
			return OptionSet{}, err
		}
	}
	if wl.Uring.Set() && engine != ioengine.EngineIOUring {
		return OptionSet{}, fmt.Errorf("%w: %s: options of fio's io_uring engine, and this fio job runs %s=%s; with --%s=%s add --fio-arg=--%s=%s, or drop them",
			ioengine.ErrBadWorkload, UringText(wl.Uring), fio.OptIOEngine, engine, fio.OptIOEngine, ioengine.EngineFio, fio.OptIOEngine, ioengine.EngineIOUring)
	}
	if err := checkPrioEngine(wl, engine); err != nil {
		return OptionSet{}, err
	}
	s.Job = rendered(wl, fio.OptDirect, fio.OptRandSeed)
	for _, kv := range append(append([][2]string{}, s.Global...), s.Job...) {
		if err := fio.CheckValue(kv[0], kv[1]); err != nil {
			return OptionSet{}, err
		}
	}
	return s, nil
}

// fioDuration renders d for fio: whole microseconds with fio's "us" suffix
// (fio reads a bare number as seconds); at least 1 s when d is 0.
func fioDuration(d time.Duration) string {
	if d <= 0 {
		return "1"
	}
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatInt(int64(d/time.Microsecond), 10) + "us"
}

// boolOpt renders a boolean fio option.
func boolOpt(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// rateValue renders one direction of fio's rate_iops: whole I/Os per
// second, "" for no cap (fio's empty field).
func rateValue(r float64) string {
	if r <= 0 {
		return ""
	}
	return strconv.FormatInt(max(int64(r+0.5), 1), 10)
}

// SteadyOptions are s as fio's options (steadystate, ss_dur, ss_ramp),
// for a job fio runs with the steady-state test qdsweep read from it;
// none without a test (Dur 0).
func SteadyOptions(s fio.SteadySpec) [][2]string {
	if s.Dur <= 0 {
		return nil
	}
	limit := strconv.FormatFloat(s.Limit, 'f', -1, 64)
	if s.Pct {
		limit += "%"
	}
	out := [][2]string{{fio.OptSteadyState, s.Name() + ":" + limit}, {fio.OptSteadyStateDuration, fioDuration(s.Dur)}}
	if s.Ramp > 0 {
		out = append(out, [2]string{fio.OptSteadyStateRampTime, fioDuration(s.Ramp)})
	}
	return out
}

// AsGiven returns opts (JobOptions' rendering of a workload) with the
// values of given (the options the workload was converted from, as the
// user wrote them: Runs' JobRun.Given) in place of their rendering, so a
// job file says bs=4k and rwmixwrite=30 where the user did, not bs=4096
// and rwmixread=70, and runtime=1m, ramp_time=5s and time_based=1 as
// given where the run's are those. A value is put back only where the job file, read
// through the same handlers, still renders every option as before: a
// step of a sweep at another bs, or a size under another kb_base, keeps
// the rendered value.
func AsGiven(opts OptionSet, given []fio.Option) OptionSet {
	want, ok := meaning(opts)
	if !ok || len(given) == 0 {
		return opts
	}
	for _, sec := range []*[][2]string{&opts.Global, &opts.Job} {
		for i, kv := range *sec {
			if jobOptions[kv[0]].render == nil && !slices.Contains(runTimeOptions, kv[0]) {
				continue
			}
			for _, g := range givenFor(given, kv[0]) {
				trial := slices.Clone(*sec)
				trial[i] = [2]string{fio.OptionName(g.Key), g.Value}
				orig := *sec
				*sec = trial
				if got, ok := meaning(opts); ok && slices.Equal(got, want) {
					break
				}
				*sec = orig
			}
		}
	}
	return opts
}

// givenFor are the options of given that set option name, itself or as
// another option that name's rendering stands for (handler.as), the last
// given first (it wins in a job file; a sweep's list gives one value a
// step); a switch given bare keeps its rendering (1).
func givenFor(given []fio.Option, name string) []fio.Option {
	var out []fio.Option
	for _, g := range slices.Backward(given) {
		if k := fio.OptionName(g.Key); (k == name || jobOptions[k].as == name) && g.Value != "" {
			out = append(out, g)
		}
	}
	return out
}

// runTimeOptions are the options of how long a job runs, which JobOptions
// renders from the run, not the workload: meaning holds them too.
var runTimeOptions = []string{fio.OptRuntime, fio.OptRampTime, fio.OptTimeBased}

// meaning is what a job of opts runs, as the handlers render it back,
// and how long (runtime, ramp_time, time_based).
func meaning(opts OptionSet) ([][2]string, bool) {
	var jo []fio.Option
	for _, kv := range append(slices.Clone(opts.Global), opts.Job...) {
		jo = append(jo, fio.Option{Key: kv[0], Value: kv[1]})
	}
	run, _, err := convertJob("", jo)
	if err != nil {
		return nil, false
	}
	return append(rendered(run.Workload), [2]string{fio.OptRuntime, run.Runtime.String()}, [2]string{fio.OptRampTime, run.Ramp.String()},
		[2]string{fio.OptTimeBased, strconv.FormatBool(run.TimeBased)}), true
}
