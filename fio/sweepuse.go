package fio

import "fmt"

// SweepUse is what a sweep does with one of the fio options qdsweep runs
// (a row of RunOptions), given as a flag or in a sweep's --jobfile. Every
// row has one (TestEveryRowHasASweepUse): no option a sweep is given is
// silently dropped.
type SweepUse int

// What a sweep does with an option.
const (
	// SweepUndecided is no decision: a row must never have it.
	SweepUndecided SweepUse = iota
	// SweepFlag: sweep has a flag of its own of this name (a list where
	// the sweep varies it); a job file's value fills it when the flag is
	// not given.
	SweepFlag
	// SweepStep: every step runs it as run does; sweep's flag of this name
	// is made from the row, and a job file's value applies when the flag
	// is not given.
	SweepStep
	// SweepJobFile: a job file's value applies to every step (the target,
	// its files, how values are read); sweep has no flag of it.
	SweepJobFile
	// SweepAlways: a sweep always does what the option asks (runs are time
	// based, jobs reported together, offsets drawn with repeats, steps
	// named by the sweep), so it is accepted and changes nothing.
	SweepAlways
	// SweepRefused: a sweep refuses the option in one line saying why and
	// what to use instead (SweepRefusal).
	SweepRefused
)

// sweepUses is the sweep's decision for every row of RunOptions, and the
// reason of each refusal with its fix.
var sweepUses = map[OptionKey]struct {
	use SweepUse
	why string
}{
	"name": {use: SweepAlways}, "filename": {use: SweepFlag}, "directory": {use: SweepJobFile}, "nrfiles": {use: SweepAlways},
	"rw": {use: SweepFlag}, "bs": {use: SweepFlag}, "bsrange": {use: SweepStep}, "ba": {use: SweepStep},
	"bssplit": {use: SweepStep}, "random_distribution": {use: SweepStep}, "percentage_random": {use: SweepStep},
	"random_generator": {use: SweepAlways},
	"zonemode":         {use: SweepStep}, "zonesize": {use: SweepStep}, "zonerange": {use: SweepStep}, "zoneskip": {use: SweepStep}, "iodepth": {use: SweepFlag}, "numjobs": {use: SweepFlag},
	"ioengine": {use: SweepFlag}, "direct": {use: SweepFlag}, "buffered": {use: SweepJobFile}, "invalidate": {use: SweepJobFile}, "fadvise_hint": {use: SweepJobFile},
	"size": {use: SweepFlag}, "filesize": {use: SweepJobFile}, "offset": {use: SweepFlag}, "offset_increment": {use: SweepFlag},
	"rwmixread": {use: SweepFlag}, "rwmixwrite": {use: SweepStep},
	"runtime": {use: SweepFlag}, "time_based": {use: SweepAlways}, "ramp_time": {use: SweepFlag},
	"io_size":    {use: SweepRefused, why: "a sweep's steps end on time, not after a number of bytes: drop it (--runtime bounds each step)"},
	"loops":      {use: SweepRefused, why: "a sweep's steps end on time, not after passes over the region: drop it (--runtime bounds each step)"},
	"number_ios": {use: SweepRefused, why: "a sweep's steps end on time, not after a number of I/Os: drop it (--runtime bounds each step)"},
	"startdelay": {use: SweepRefused, why: "a sweep's steps start one after another, each after its ramp: drop it (--ramp_time warms each step up)"},
	"rate_iops":  {use: SweepFlag}, "rate_process": {use: SweepFlag},
	"rate":          {use: SweepRefused, why: "a sweep offers loads in I/Os per second: give them as --rate_iops (a list, or shares such as 50%,90%)"},
	"rate_min":      {use: SweepRefused, why: "a sweep finds the highest load the device keeps up with instead of failing below a floor: drop it and give --rate_iops"},
	"rate_iops_min": {use: SweepRefused, why: "a sweep finds the highest load the device keeps up with instead of failing below a floor: drop it and give --rate_iops"},
	"rate_cycle":    {use: SweepRefused, why: "a sweep finds the highest load the device keeps up with instead of failing below a floor: drop it and give --rate_iops"},
	"thinktime":     {use: SweepStep}, "thinktime_spin": {use: SweepStep}, "thinktime_blocks": {use: SweepStep},
	"thinktime_blocks_type": {use: SweepStep}, "thinktime_iotime": {use: SweepStep},
	"latency_target": {use: SweepRefused, why: latencyTargetWhy}, "latency_window": {use: SweepRefused, why: latencyTargetWhy},
	"latency_percentile": {use: SweepRefused, why: latencyTargetWhy}, "latency_run": {use: SweepRefused, why: latencyTargetWhy},
	"flow": {use: SweepRefused, why: flowWhy}, "flow_id": {use: SweepRefused, why: flowWhy}, "flow_sleep": {use: SweepRefused, why: flowWhy},
	"fsync": {use: SweepStep}, "fdatasync": {use: SweepStep}, "sync": {use: SweepStep},
	"end_fsync": {use: SweepRefused, why: "a sweep's steps are timed windows with nothing after them to sync: drop it (--fsync=N syncs within each step)"},
	"randseed":  {use: SweepFlag}, "randrepeat": {use: SweepJobFile}, "norandommap": {use: SweepAlways}, "readonly": {use: SweepJobFile},
	"verify": {use: SweepRefused, why: verifyWhy}, "do_verify": {use: SweepRefused, why: verifyWhy}, "verify_only": {use: SweepRefused, why: verifyWhy},
	"verify_pattern": {use: SweepRefused, why: verifyWhy}, "verify_interval": {use: SweepRefused, why: verifyWhy}, "verify_fatal": {use: SweepRefused, why: verifyWhy},
	"verify_async": {use: SweepRefused, why: verifyWhy}, "verify_backlog": {use: SweepRefused, why: verifyWhy},
	"verify_backlog_batch": {use: SweepRefused, why: verifyWhy},
	"steadystate":          {use: SweepRefused, why: steadyWhy}, "steadystate_duration": {use: SweepRefused, why: steadyWhy},
	"steadystate_ramp_time":      {use: SweepRefused, why: steadyWhy},
	"continue_on_error":          {use: SweepFlag},
	"buffer_compress_percentage": {use: SweepJobFile}, "buffer_compress_chunk": {use: SweepJobFile}, "buffer_pattern": {use: SweepJobFile},
	"dedupe_percentage": {use: SweepJobFile}, "dedupe_mode": {use: SweepJobFile}, "dedupe_working_set_percentage": {use: SweepJobFile},
	"dedupe_global": {use: SweepJobFile}, "refill_buffers": {use: SweepJobFile}, "scramble_buffers": {use: SweepJobFile}, "zero_buffers": {use: SweepJobFile},
	// A sweep reports the percentiles of its steps' latency from submission
	// (lat), reads and writes together, whatever these ask of fio's outputs.
	"clat_percentiles": {use: SweepAlways}, "lat_percentiles": {use: SweepAlways}, "unified_rw_reporting": {use: SweepAlways},
	"percentile_list": {use: SweepRefused, why: "a sweep reports mean, p50, p90, p99 and p99.9 and answers --latency-slo at any of them: drop it (qdsweep run reports fio's percentile_list)"},
	"group_reporting": {use: SweepAlways},
	"write_iops_log":  {use: SweepRefused, why: logsWhy}, "write_bw_log": {use: SweepRefused, why: logsWhy},
	"write_lat_log": {use: SweepRefused, why: logsWhy}, "log_avg_msec": {use: SweepRefused, why: logsWhy},
	"write_hist_log": {use: SweepRefused, why: logsWhy}, "log_hist_msec": {use: SweepRefused, why: logsWhy},
	"log_hist_coarseness": {use: SweepRefused, why: logsWhy}, "per_job_logs": {use: SweepRefused, why: logsWhy},
	"log_offset": {use: SweepRefused, why: logsWhy}, "log_prio": {use: SweepRefused, why: logsWhy},
	"log_max_value": {use: SweepRefused, why: logsWhy}, "log_unix_epoch": {use: SweepRefused, why: logsWhy},
	"log_store_compressed": {use: SweepRefused, why: logsWhy},
	"allow_file_create":    {use: SweepJobFile}, "kb_base": {use: SweepJobFile},
	"prio": {use: SweepStep}, "prioclass": {use: SweepStep}, "cmdprio_percentage": {use: SweepStep},
	"cmdprio_class": {use: SweepStep}, "cmdprio": {use: SweepStep}, "cmdprio_bssplit": {use: SweepStep},
}

// sweepOwnHelp is the help of sweep's flags named after fio options that
// are no row of RunOptions (run passes them to fio): sweep gives each a
// meaning of its own, said here beside fio's.
var sweepOwnHelp = map[OptionKey]string{
	"max_latency": "stop a curve once a step's p99 latency exceeds this (0: no limit); fio's max_latency ends a job at the first I/O over it",
}

// The reasons shared by an option family.
const (
	flowWhy          = "a flow weighs a job file's jobs against each other, and a sweep's step runs one job's clones, which it would only hold to equal shares: drop flow, flow_id and flow_sleep (qdsweep run runs them)"
	latencyTargetWhy = "the sweep itself finds the deepest queue under a latency objective: drop latency_target, latency_window, latency_percentile and latency_run and give --latency-slo"
	verifyWhy        = "a sweep measures speed over timed steps, with no pass that reads its blocks back: drop the verify options (qdsweep run verifies as fio does)"
	steadyWhy        = "a sweep ends each step by its own steadiness rule: drop steadystate, ss_dur and ss_ramp and give --ss and --ss_dur"
	logsWhy          = "a sweep keeps each step's time series in results.json (--log-interval): drop fio's log options (qdsweep run writes fio's logs)"
)

// SweepUse is what a sweep does with the row's option.
func (d OptionDoc) SweepUse() SweepUse { return sweepUses[d.Name].use }

// SweepRefusal is why a sweep refuses the row's option, with what to use
// instead ("" unless its SweepUse is SweepRefused).
func (d OptionDoc) SweepRefusal() string { return sweepUses[d.Name].why }

// SweepRefuses returns, for the options a sweep's job file sets (fio's
// names, aliases resolved), the first a sweep refuses, as an error naming
// it and saying why and what to use instead (nil: none refused).
func SweepRefuses(names []string) error {
	for _, n := range names {
		if d, ok := OptionRow(n); ok && d.SweepUse() == SweepRefused {
			return fmt.Errorf("%s: %s", d.Name, d.SweepRefusal())
		}
	}
	return nil
}

// SweepStepOptions are the rows whose sweep flags are made from the row
// (SweepStep), in the table's order.
func SweepStepOptions() []OptionDoc {
	var out []OptionDoc
	for _, d := range RunOptions {
		if d.SweepUse() == SweepStep {
			out = append(out, d)
		}
	}
	return out
}
