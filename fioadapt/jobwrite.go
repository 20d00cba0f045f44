package fioadapt

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	fmt.Fprintf(bw, "; qdsweep step: rw=%s bs=%d iodepth=%d numjobs=%d (QD %d)\n", wl.RW, wl.BS, wl.IODepth, wl.NumJobs, wl.QD())
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
	switch wl.RW {
	case ioengine.Read, ioengine.Write, ioengine.RandRead, ioengine.RandWrite, ioengine.ReadWrite, ioengine.RandRW:
	default:
		return OptionSet{}, fmt.Errorf("fio job: unknown rw %q", wl.RW)
	}
	if engine == "" {
		engine = DefaultIOEngine
	}
	var s OptionSet
	g := func(k, v string) { s.Global = append(s.Global, [2]string{k, v}) }
	j := func(k, v string) { s.Job = append(s.Job, [2]string{k, v}) }
	g("ioengine", engine)
	g("direct", boolOpt(wl.Direct))
	g("time_based", "1")
	g("runtime", fioDuration(runtime))
	if ramp > 0 {
		g("ramp_time", fioDuration(ramp))
	}
	g("group_reporting", "1")
	if wl.RandSeed != 0 {
		g("randseed", strconv.FormatUint(wl.RandSeed, 10))
	}
	// No do_verify=0: without verify= fio verifies nothing anyway, and
	// fio 3.33 ends a size-based write whose io_size exceeds its size after
	// one pass over the region when do_verify=0 is given (256 writes where
	// 768 were due for size=1m io_size=3m).
	name, err := fio.EscapeFilename(wl.Filename)
	if err != nil {
		return OptionSet{}, err
	}
	if len(wl.Files) > 1 {
		// fio's own list: every job over all the files, size split between them.
		names := make([]string, len(wl.Files))
		for i, f := range wl.Files {
			if names[i], err = fio.EscapeFilename(f); err != nil {
				return OptionSet{}, err
			}
		}
		name = strings.Join(names, ":")
	}
	j("filename", name)
	if wl.Size > 0 {
		j("size", strconv.FormatInt(wl.Size, 10))
	}
	if wl.Offset > 0 {
		j("offset", strconv.FormatInt(wl.Offset, 10))
	}
	if wl.OffsetIncrement > 0 {
		j("offset_increment", strconv.FormatInt(wl.OffsetIncrement, 10))
	}
	j("rw", string(wl.RW))
	if wl.RW == ioengine.ReadWrite || wl.RW == ioengine.RandRW {
		j("rwmixread", strconv.Itoa(wl.RWMixRead))
	}
	j("bs", strconv.FormatInt(wl.BS, 10))
	j("iodepth", strconv.Itoa(wl.IODepth))
	j("numjobs", strconv.Itoa(wl.NumJobs))
	if wl.ContinueOnError {
		j("continue_on_error", "io")
	}
	if !wl.Invalidate {
		// fio drops the files' cached pages first unless told not to;
		// qdsweep's sweeps keep them, as its own engines do.
		j("invalidate", "0")
	}
	for _, kv := range paceAndSyncOptions(wl) {
		j(kv[0], kv[1])
	}
	if wl.Uring.Set() && engine != "io_uring" {
		return OptionSet{}, fmt.Errorf("%w: %s: options of fio's io_uring engine, and this fio job runs ioengine=%s; with --ioengine=fio add --fio-arg=--ioengine=io_uring, or drop them",
			ioengine.ErrBadWorkload, wl.Uring, engine)
	}
	for _, kv := range wl.Uring.FioOptions() {
		j(kv[0], kv[1])
	}
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

// paceAndSyncOptions are fio's options for a workload's syncs and rate
// caps, in the order job files give them: fsync or fdatasync, sync,
// rate_iops. None when the workload has neither.
func paceAndSyncOptions(w ioengine.Workload) [][2]string {
	var out [][2]string
	if w.SyncEvery > 0 {
		key := "fsync"
		if w.SyncData {
			key = "fdatasync"
		}
		out = append(out, [2]string{key, strconv.Itoa(w.SyncEvery)})
	}
	if w.OpenSync != "" {
		out = append(out, [2]string{"sync", w.OpenSync})
	}
	if r := w.RateIOPS; r != [2]float64{} {
		out = append(out, [2]string{"rate_iops", rateValue(r[0]) + "," + rateValue(r[1])})
	}
	return out
}
