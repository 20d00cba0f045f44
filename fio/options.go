package fio

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/xrash/smetrics"
)

// Handling says what qdsweep does with a fio option.
type Handling int

// How qdsweep treats each fio option it knows.
const (
	// Unknown: not a fio option qdsweep knows.
	Unknown Handling = iota
	// Honoured: the option maps onto the workload qdsweep runs.
	Honoured
	// Ignored: the option changes only fio's own reporting or logging, or
	// nothing in a one-job run (naming, grouping); accepted and ignored.
	Ignored
	// Batching: submission and reaping batch sizes. qdsweep's engines
	// submit each I/O as soon as a slot frees and reap whatever has
	// completed, so these are accepted and ignored.
	Batching
	// Unsupported: the option changes the workload in a way qdsweep does
	// not run; a command or job file that sets it is refused.
	Unsupported
)

// optionInfo is one fio option: whether it takes a value on fio's command
// line ("--name VALUE") and how qdsweep treats it.
type optionInfo struct {
	value    bool
	handling Handling
	viaFio   bool // fio may run it under the write guard when qdsweep does not (viaFioOptions)
}

// options is the fio vocabulary qdsweep knows, by fio's option name.
var options = map[string]optionInfo{}

// engineOf lists, for each option an engine adds, the engines that add it.
var engineOf = map[string][]string{}

// aliases are fio's other spellings of an option (fioOptions' Aliases),
// mapped to its name.
var aliases = map[string]string{}

func init() {
	readFioOptions()
	// The workload qdsweep runs.
	for _, d := range RunOptions {
		setHandling(Honoured, !d.Switch, d.Name)
		if d.pass != passNone {
			passable[d.Name] = d.pass
		}
	}
	for _, o := range UringOptions {
		setHandling(Honoured, !o.Switch, o.Name)
		passable[o.Name] = passBool // tunes how fio submits and reaps
		if o.CPU {
			passable[o.Name] = passWord
		}
	}
	for _, h := range handlings {
		setHandling(h.handling, h.value, h.names...)
	}
	for _, n := range viaFioOptions {
		o := options[n]
		o.viaFio = true
		options[n] = o
	}
}

// readFioOptions lists every option fio knows, with its aliases: those
// qdsweep does not list (RunOptions, UringOptions, handlings) are refused
// as options it does not run (never "not a fio option"); the others then
// say what qdsweep does with them.
func readFioOptions() {
	for _, o := range fioOptions {
		options[o.Name] = optionInfo{value: o.Kind != fioOptSwitch, handling: Unsupported}
		switch o.Kind {
		case fioOptEngine:
			engineOf[o.Name] = o.Engines
		case fioOptDeprecated:
			// fio 3.33 says it is deprecated and fails to parse it: the job
			// is refused there too.
			options[o.Name] = optionInfo{value: true, handling: Unsupported}
		case fioOptSoftDeprecated:
			options[o.Name] = optionInfo{value: true, handling: Ignored} // fio warns and ignores it
		}
		for _, a := range o.Aliases {
			if _, ok := aliases[a]; !ok && a != o.Name {
				aliases[a] = o.Name
			}
		}
	}
}

// setHandling gives names their handling; value says whether each takes a value.
func setHandling(h Handling, value bool, names ...string) {
	for _, n := range names {
		options[n] = optionInfo{value: value, handling: h}
	}
}

// handlings is what qdsweep does with the options it neither runs nor
// refuses by fio's own table, applied in order (a later row wins).
var handlings = []struct {
	handling Handling
	value    bool
	names    []string
}{
	// Naming, grouping and threads: nothing a single qdsweep job changes.
	{Ignored, true, []string{"description", "stonewall", "wait_for_previous", "wait_for", "new_group", "thread",
		"exitall", "exit_what", "clocksource", "allrandrepeat", "fallocate", "create_on_open",
		"allow_mounted_write", "overwrite"}},
	{Ignored, false, []string{"exitall_on_error"}},
	// fio's profiles' options: nothing without fio's --profile.
	{Ignored, true, []string{"block", "numruns", "dir", "threads", "device-names", "load", "test-duration",
		"threads-per-queue", "read-req-num-512-blocks", "large-block-op-kbytes"}},
	{Ignored, false, []string{"prep"}},
	// fio's reporting and logging.
	{Ignored, true, []string{"slat_percentiles",
		"disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement", "gtod_reduce",
		"log_compression",
		"eta", "eta_newline", "eta-newline", "eta_interval", "output", "output-format", "status-interval", "terse-version",
		"unit_base", "significant_figures", "warnings-fatal", "max-jobs", "debug", "idle-prof",
		"bandwidth-log", "append-terse", "inplace", "aux-path", "log_alternate_epoch",
		"log_alternate_epoch_clock_id", "log_entries", "log_compression_cpus",
		"bwavgtime", "iopsavgtime", "block_error_percentiles", "stats"}},
	{Ignored, false, []string{"thread", "stonewall", "new_group", "minimal"}},
	// Submission and completion batching.
	{Batching, true, []string{"iodepth_batch", "iodepth_batch_complete_min", "iodepth_batch_complete_max",
		"iodepth_low"}},
	// Workload options qdsweep does not run.
	{Unsupported, true, []string{"write_barrier", "fill_device", "fill_fs", "unlink", "unlink_each_loop", "cpus_allowed", "cpumask",
		"cpus_allowed_policy", "numa_cpu_nodes", "numa_mem_policy", "nice", "verify_offset",
		"experimental_verify", "trim_percentage",
		"file_service_type", "openfiles", "filename_format", "lockfile", "pre_read", "iomem",
		"mem", "iomem_align", "bs_unaligned", "rw_sequencer", "offset_align",
		"ioscheduler", "max_latency", "exec_prerun", "exec_postrun", "io_submit_mode",
		"serialize_overlap", "uncached", "sync_file_range", "atomic", "nowait", "ignore_error",
		"error_dump", "create_serialize", "create_fsync", "end_fsync_on_close", "fsync_on_close", "pre_read",
		"size_increment", "io_size_increment", "trim_backlog", "replay_redirect", "read_iolog", "write_iolog",
		"iolog", "replay_no_stall", "job_start_clock_id", "disk_util", "clat_prio", "rwmix_read_before_write"}},
	// fio's command line's own options (fio --help) that run no job of
	// qdsweep's: help, version and self-tests, fio's server and client
	// modes and triggers (--section is qdsweep's own flag too). Those that
	// take an optional value (--cmdhelp[=rw]) read it only after '='.
	{Unsupported, false, []string{"version", "help", "cpuclock-test", "crctest", "cmdhelp", "enghelp",
		"merge-blktrace-only", "server"}},
	{Unsupported, true, []string{"daemonize", "client", "remote-config", "inflate-log",
		"trigger-file", "trigger-timeout", "trigger", "trigger-remote"}},
	{Ignored, true, []string{"alloc-size"}}, // the size of fio's own memory pool
}

// showPrio is fio 3.33's priority of the options it sorts before reading a
// section (higher first; the others 0), the order --showcmd prints them
// in: filename and filename_format after directory; lockfile,
// cpus_allowed_policy, kb_base and unit_base before the rest.
var showPrio = map[string]int{"filename": -1, "filename_format": -1, "lockfile": 1,
	"cpus_allowed_policy": 1, "kb_base": 1, "unit_base": 1}

// ArgForm is how an option is written on fio's command line, as a usage
// error shows it.
const ArgForm = "--name=value"

// OptionKey is a fio option's name as code outside this table names it.
// Code that reads, writes or refuses a fio option names it by one of the
// constants below, each a row of fioOptions (TestOptionKeysAreRows), and
// never spells it out (TestNoOptionNameOutsideTable).
type OptionKey = string

// The fio options that code outside the table names.
const (
	OptAllowFileCreate         OptionKey = "allow_file_create"
	OptBS                      OptionKey = "bs"
	OptBSRange                 OptionKey = "bsrange"
	OptBlockAlign              OptionKey = "ba"
	OptBSSplit                 OptionKey = "bssplit"
	OptCmdPrio                 OptionKey = "cmdprio"
	OptCmdPrioBSSplit          OptionKey = "cmdprio_bssplit"
	OptCmdPrioClass            OptionKey = "cmdprio_class"
	OptCmdPrioPercentage       OptionKey = "cmdprio_percentage"
	OptBuffered                OptionKey = "buffered"
	OptBufferCompress          OptionKey = "buffer_compress_percentage"
	OptBufferCompressChunk     OptionKey = "buffer_compress_chunk"
	OptBufferPattern           OptionKey = "buffer_pattern"
	OptDedupe                  OptionKey = "dedupe_percentage"
	OptDedupeMode              OptionKey = "dedupe_mode"
	OptDedupeWorkingSet        OptionKey = "dedupe_working_set_percentage"
	OptDedupeGlobal            OptionKey = "dedupe_global"
	OptRefillBuffers           OptionKey = "refill_buffers"
	OptScrambleBuffers         OptionKey = "scramble_buffers"
	OptZeroBuffers             OptionKey = "zero_buffers"
	OptContinueOnError         OptionKey = "continue_on_error"
	OptDirect                  OptionKey = "direct"
	OptDirectory               OptionKey = "directory"
	OptDisableLat              OptionKey = "disable_lat"
	OptDoVerify                OptionKey = "do_verify"
	OptEndFsync                OptionKey = "end_fsync"
	OptExecPrerun              OptionKey = "exec_prerun"
	OptFDataSync               OptionKey = "fdatasync"
	OptFilename                OptionKey = "filename"
	OptFixedBufs               OptionKey = "fixedbufs"
	OptGTODReduce              OptionKey = "gtod_reduce"
	OptFileSize                OptionKey = "filesize"
	OptFSync                   OptionKey = "fsync"
	OptGroupReporting          OptionKey = "group_reporting"
	OptHiPri                   OptionKey = "hipri"
	OptInvalidate              OptionKey = "invalidate"
	OptFadviseHint             OptionKey = "fadvise_hint"
	OptIOSize                  OptionKey = "io_size"
	OptIODepth                 OptionKey = "iodepth"
	OptIODepthBatchCompleteMax OptionKey = "iodepth_batch_complete_max"
	OptIODepthBatchSubmit      OptionKey = "iodepth_batch_submit"
	OptIOEngine                OptionKey = "ioengine"
	OptKBBase                  OptionKey = "kb_base"
	OptLogAvgMsec              OptionKey = "log_avg_msec"
	OptLogHistCoarseness       OptionKey = "log_hist_coarseness"
	OptLogHistMsec             OptionKey = "log_hist_msec"
	OptLogMaxValue             OptionKey = "log_max_value"
	OptLogOffset               OptionKey = "log_offset"
	OptLogPrio                 OptionKey = "log_prio"
	OptLogStoreCompressed      OptionKey = "log_store_compressed"
	OptLogUnixEpoch            OptionKey = "log_unix_epoch"
	OptLoops                   OptionKey = "loops"
	OptMaxLatency              OptionKey = "max_latency"
	OptName                    OptionKey = "name"
	OptDescription             OptionKey = "description"
	OptNewGroup                OptionKey = "new_group"
	OptNoRandomMap             OptionKey = "norandommap"
	OptNonVectored             OptionKey = "nonvectored"
	OptNrFiles                 OptionKey = "nrfiles"
	OptNumberIOs               OptionKey = "number_ios"
	OptNumJobs                 OptionKey = "numjobs"
	OptOffset                  OptionKey = "offset"
	OptOffsetIncrement         OptionKey = "offset_increment"
	OptPerJobLogs              OptionKey = "per_job_logs"
	OptPercentileList          OptionKey = "percentile_list"
	OptClatPercentiles         OptionKey = "clat_percentiles"
	OptUnifiedRWReporting      OptionKey = "unified_rw_reporting"
	OptPercentageRandom        OptionKey = "percentage_random"
	OptPrio                    OptionKey = "prio"
	OptPrioClass               OptionKey = "prioclass"
	OptRampTime                OptionKey = "ramp_time"
	OptRandRepeat              OptionKey = "randrepeat"
	OptRandomDistribution      OptionKey = "random_distribution"
	OptRandomGenerator         OptionKey = "random_generator"
	OptReadOnly                OptionKey = "readonly"
	OptExitAll                 OptionKey = "exitall"
	OptExitWhat                OptionKey = "exit_what"
	OptReadBeyondWP            OptionKey = "read_beyond_wp"
	OptZoneMode                OptionKey = "zonemode"
	OptZoneSize                OptionKey = "zonesize"
	OptZoneRange               OptionKey = "zonerange"
	OptZoneSkip                OptionKey = "zoneskip"
	OptRandSeed                OptionKey = "randseed"
	OptRegisterFiles           OptionKey = "registerfiles"
	OptRate                    OptionKey = "rate"
	OptRateIOPS                OptionKey = "rate_iops"
	OptRateProcess             OptionKey = "rate_process"
	OptRateMin                 OptionKey = "rate_min"
	OptRateIOPSMin             OptionKey = "rate_iops_min"
	OptRateCycle               OptionKey = "rate_cycle"
	OptFlow                    OptionKey = "flow"
	OptFlowID                  OptionKey = "flow_id"
	OptFlowSleep               OptionKey = "flow_sleep"
	OptThinkTime               OptionKey = "thinktime"
	OptThinkTimeSpin           OptionKey = "thinktime_spin"
	OptThinkTimeBlocks         OptionKey = "thinktime_blocks"
	OptThinkTimeBlocksType     OptionKey = "thinktime_blocks_type"
	OptThinkTimeIOTime         OptionKey = "thinktime_iotime"
	OptThread                  OptionKey = "thread"
	OptLatencyTarget           OptionKey = "latency_target"
	OptLatencyWindow           OptionKey = "latency_window"
	OptLatencyPercentile       OptionKey = "latency_percentile"
	OptLatencyRun              OptionKey = "latency_run"
	OptLatPercentiles          OptionKey = "lat_percentiles"
	OptRuntime                 OptionKey = "runtime"
	OptRW                      OptionKey = "rw"
	OptRWMixRead               OptionKey = "rwmixread"
	OptRWMixWrite              OptionKey = "rwmixwrite"
	OptSize                    OptionKey = "size"
	OptSqthreadPoll            OptionKey = "sqthread_poll"
	OptSqthreadPollCPU         OptionKey = "sqthread_poll_cpu"
	OptSS                      OptionKey = "ss"
	OptSSDur                   OptionKey = "ss_dur"
	OptSteadyState             OptionKey = "steadystate"
	OptSteadyStateDuration     OptionKey = "steadystate_duration"
	OptSteadyStateRampTime     OptionKey = "steadystate_ramp_time"
	OptStartDelay              OptionKey = "startdelay"
	OptStonewall               OptionKey = "stonewall"
	OptSync                    OptionKey = "sync"
	OptSyncFileRange           OptionKey = "sync_file_range"
	OptTimeBased               OptionKey = "time_based"
	OptUnitBase                OptionKey = "unit_base"
	OptUnlink                  OptionKey = "unlink"
	OptVerify                  OptionKey = "verify"
	OptVerifyAsync             OptionKey = "verify_async"
	OptVerifyBacklog           OptionKey = "verify_backlog"
	OptVerifyBacklogBatch      OptionKey = "verify_backlog_batch"
	OptVerifyFatal             OptionKey = "verify_fatal"
	OptVerifyStateSave         OptionKey = "verify_state_save"
	OptVerifyInterval          OptionKey = "verify_interval"
	OptVerifyOnly              OptionKey = "verify_only"
	OptVerifyPattern           OptionKey = "verify_pattern"
	OptWaitFor                 OptionKey = "wait_for"
	OptWriteBWLog              OptionKey = "write_bw_log"
	OptWriteHistLog            OptionKey = "write_hist_log"
	OptWriteIOPSLog            OptionKey = "write_iops_log"
	OptWriteLatLog             OptionKey = "write_lat_log"
)

// Flag is option k as fio's command line spells it: --iodepth. Help and
// messages name an option by Flag or Setting of its key, never by hand.
func Flag(k OptionKey) string { return "--" + k }

// FlagSet is option k given value v on fio's command line: --iodepth=32.
func FlagSet(k OptionKey, v string) string { return "--" + k + "=" + v }

// Setting is option k given value v as a job file (and fio's job header
// line) writes it: direct=1.
func Setting(k OptionKey, v string) string { return k + "=" + v }

// rwValues are fio's rw= values (fio --cmdhelp=rw), each mapped to the
// name fio reports it by: readwrite is rw.
var rwValues = map[string]string{
	"read": "read", "write": "write", "trim": "trim", "randread": "randread", "randwrite": "randwrite",
	"randtrim": "randtrim", "rw": "rw", "readwrite": "rw", "randrw": "randrw", "trimwrite": "trimwrite",
	"randtrimwrite": "randtrimwrite",
}

// RWValue returns fio's name for rw value v ("readwrite" is "rw"); ok is
// false when fio has no such value.
func RWValue(v string) (name string, ok bool) {
	name, ok = rwValues[v]
	return name, ok
}

// RWValueNames are fio's rw= values, sorted.
func RWValueNames() []string {
	out := make([]string, 0, len(rwValues))
	for v := range rwValues {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// viaFioOptions are the options fio itself may run for a job qdsweep
// does not run natively (an allow-list): each shapes, paces, verifies or
// places the job's I/O on the files the write guard checked, or its
// process on the CPUs, and names no other file, no command and no system
// setting. Whatever value of them qdsweep does not run (bs=4k,8k, rw=read:8k,
// verify=crc32c) fio runs. An engine's options go with their engine
// (FioEngines). Not here, so refused however fio would run them: files
// fio would create, name or remove (nrfiles, filename_format, opendir,
// unlink, directory lists, filesize ranges, fill_device, the iologs,
// verify_dump, verify_state_*), commands (exec_prerun, exec_postrun),
// system settings (ioscheduler, cgroup, uid, gid), and the rest.
var viaFioOptions = []string{
	// sizes, directions, offsets and their order
	"bs", "bsrange", "bssplit", "ba", "bs_unaligned", "bs_is_seq_rand", "rw", "rw_sequencer", "offset_align",
	"random_distribution", "percentage_random", "random_generator", "softrandommap", "startdelay", "file_append", "lockfile", "file_service_type", "openfiles",
	"zonemode", "zonesize", "zonecapacity", "zonerange", "zoneskip", "read_beyond_wp", "max_open_zones",
	"job_max_open_zones", "ignore_zone_limits", "zone_reset_threshold", "zone_reset_frequency",
	// pacing and submission
	"thinktime", "thinktime_spin", "thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime",
	"rate_process", "rate_ignore_thinktime", "io_submit_mode", "serialize_overlap",
	"latency_target", "latency_window", "latency_percentile", "latency_run", "max_latency",
	"steadystate", "steadystate_duration", "steadystate_ramp_time", "flow", "flow_id", "flow_sleep",
	// data and verification
	"buffer_compress_percentage", "buffer_compress_chunk", "buffer_pattern", "dedupe_percentage",
	"dedupe_mode", "dedupe_working_set_percentage", "dedupe_global", "refill_buffers", "zero_buffers",
	"scramble_buffers", "verify", "verify_only", "verify_interval", "verify_offset", "verify_pattern",
	"verify_fatal", "verify_async", "verify_async_cpus", "verify_backlog", "verify_backlog_batch",
	"experimental_verify", "trim_percentage", "trim_verify_zero", "trim_backlog", "trim_backlog_batch",
	// syncing, caching and errors on the job's files
	"write_barrier", "sync_file_range", "fsync_on_close", "create_serialize", "create_fsync", "pre_read",
	"atomic", "write_hint", "ignore_error", "error_dump",
	"allow_file_create",
	// CPUs, priorities and memory (mem and iomem without a backing file: CheckViaFio)
	"cpus_allowed", "cpumask", "cpus_allowed_policy", "numa_cpu_nodes", "numa_mem_policy", "nice", "prio",
	"prioclass", "gtod_cpu", "mem", "iomem_align", "hugepage-size", "lockmem", "disk_util",
}

// Why fio may not run an option for qdsweep (ViaFioRefusal): what the
// option does beyond the job's checked files, for those known to; the
// rest are only not on the allow-list (viaFioOptions).
const (
	whyCommand  = "it runs a command"
	whyFiles    = "it names, creates, reads, writes or removes files other than the job's own"
	whySystem   = "it changes a system setting or the user fio runs as"
	whyFill     = "it writes the device beyond the job's file until the device is full"
	whyGuard    = "it lifts fio's own refusal to write a mounted device"
	whyFioOnly  = "fio's own help, version or self-test, not a job: run fio itself for it; qdsweep run --help lists the options qdsweep runs"
	whyServer   = "it runs fio as a server or as a client of one, not a job: qdsweep's --fio-clients runs jobs on fio servers"
	whyNotKnown = "qdsweep lets fio run only options known to shape, pace, verify or place the job's I/O on its checked files, and this is not one of them"
)

// viaFioRefused are the options fio may not run for qdsweep whose reason
// is known (ViaFioRefusal).
var viaFioRefused = map[string]string{
	"exec_prerun": whyCommand, "exec_postrun": whyCommand,
	"nrfiles": whyFiles, "filename_format": whyFiles, "opendir": whyFiles, "unique_filename": whyFiles,
	"unlink": whyFiles, "unlink_each_loop": whyFiles, "read_iolog": whyFiles, "write_iolog": whyFiles,
	"iolog": whyFiles, "merge_blktrace_file": whyFiles, "replay_redirect": whyFiles, "verify_dump": whyFiles,
	"verify_state_load": whyFiles, "verify_state_save": whyFiles, "create_only": whyFiles, "aux-path": whyFiles,
	"cgroup": whySystem, "cgroup_weight": whySystem, "cgroup_nodelete": whySystem, "uid": whySystem,
	"gid": whySystem, "ioscheduler": whySystem,
	"fill_device": whyFill, "allow_mounted_write": whyGuard,
	"version": whyFioOnly, "help": whyFioOnly, "cpuclock-test": whyFioOnly, "crctest": whyFioOnly,
	"cmdhelp": whyFioOnly, "enghelp": whyFioOnly, "merge-blktrace-only": whyFioOnly, "inflate-log": whyFioOnly,
	"server": whyServer, "daemonize": whyServer, "client": whyServer, "remote-config": whyServer,
	"trigger-file": whyCommand, "trigger-timeout": whyCommand, "trigger": whyCommand, "trigger-remote": whyCommand,
}

// ViaFioRefusal is why fio may not run option name for a job qdsweep does
// not run natively ("" when it may, OptionViaFio): what the option does
// beyond the job's files where the table knows it, else that the option
// is not on the allow-list. An engine's option is judged with its engine.
func ViaFioRefusal(name string) string {
	n := OptionName(name)
	if OptionViaFio(n) {
		return ""
	}
	if why, ok := viaFioRefused[n]; ok {
		return why
	}
	return whyNotKnown
}

// OptionViaFio reports whether fio itself may run option name for a job
// qdsweep does not run natively (viaFioOptions; an alias is resolved
// first). An engine's option is judged with its engine instead.
func OptionViaFio(name string) bool { return options[OptionName(name)].viaFio }

// CheckViaFio checks the value of an option fio runs for qdsweep: a
// memory type must have no backing file (mem=mmap:/path names one), and
// io_submit_mode=offload is refused: fio 3.33 hangs as the job starts,
// its submit workers' start racing their state (fixed in fio 3.42).
func CheckViaFio(name, value string) error {
	switch n := OptionName(name); n {
	case "io_submit_mode":
		if strings.EqualFold(strings.TrimSpace(value), "offload") {
			return fmt.Errorf("fio 3.33 hangs as such a job starts, its submit workers' start racing their state; fio's default, inline, submits from the job itself")
		}
	case "mem":
		if !slices.Contains(passMems, value) {
			return fmt.Errorf("%s=%s: the memory type may be one of %s, without a backing file", n, value, strings.Join(passMems, ", "))
		}
	}
	return nil
}

// FioEngines are the fio engines fio may run for a job qdsweep runs
// through it (an allow-list of fio 3.33's): each reads and writes only
// the job's files, which it opens as the write guard checked them. fio's
// other engines run commands (exec), create, stat, truncate or delete
// files (filecreate, filestat, filedelete, dircreate, dirstat, dirdelete,
// ftruncate, e4defrag), reach other machines or devices the guard does
// not check (net, rdma, nbd, http, rbd, sg, io_uring_cmd …), load code
// (external) or do no I/O (cpuio).
var FioEngines = []string{"io_uring", "libaio", "psync", "sync", "pvsync", "pvsync2", "vsync", "posixaio",
	"mmap", "splice", "null", "falloc"}

// MaxPercentiles is the most percentiles percentile_list may name (fio's limit).
const MaxPercentiles = 20

// MaxIODepth is the deepest iodepth a job may ask for (fio's own limit
// is its io_u count; deeper queues than this are typing mistakes).
const MaxIODepth = 65536

// ClosestOption returns the known option name within two edits of name, or "".
func ClosestOption(name string) string {
	best, bestD := "", 3
	names := OptionNames()
	for a := range aliases {
		names = append(names, a)
	}
	sort.Strings(names) // ties resolve the same way every time
	for _, n := range names {
		if d := levenshtein(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// OptionIsBool reports whether fio reads key as a flag or a 0/1 switch
// (group_reporting, time_based, thread …).
func OptionIsBool(key string) bool {
	return !options[key].value
}

// OptionName returns fio's name for name, following fio's aliases
// ("readwrite" → "rw", "blocksize" → "bs").
func OptionName(name string) string {
	if a, ok := aliases[name]; ok {
		return a
	}
	return name
}

// OptionHandling says how qdsweep treats fio option name (an alias is
// resolved first).
func OptionHandling(name string) Handling {
	return options[OptionName(name)].handling
}

// OptionKind says how fio reads option name (an alias is resolved
// first): "value", "switch", "engine" (an engine's option), "deprecated"
// (fio 3.33 refuses it), "soft-deprecated" (fio warns and ignores it), or
// "" when fio has no such option.
func OptionKind(name string) string {
	name = OptionName(name)
	for _, o := range fioOptions {
		if o.Name == name {
			return [...]string{fioOptValue: "value", fioOptSwitch: "switch", fioOptEngine: "engine", fioOptDeprecated: "deprecated", fioOptSoftDeprecated: "soft-deprecated"}[o.Kind]
		}
	}
	return ""
}

// OptionEngines names the fio engines that add option name (nil for
// fio's own options).
func OptionEngines(name string) []string {
	return engineOf[OptionName(name)]
}

// OptionTakesValue reports whether fio option name reads the next
// command-line argument as its value ("--name VALUE").
func OptionTakesValue(name string) bool {
	return options[OptionName(name)].value
}

// OptionNamesInOrder returns fio's options in fio's own order (fio
// --cmdhelp), then those of fio's command line qdsweep runs (readonly).
func OptionNamesInOrder() []string {
	out := make([]string, 0, len(fioOptions)+1)
	seen := map[string]bool{}
	for _, o := range fioOptions {
		out = append(out, o.Name)
		seen[o.Name] = true
	}
	for _, d := range RunOptions {
		if !seen[d.Name] {
			out = append(out, d.Name)
		}
	}
	return out
}

// OptionNames returns every fio option name qdsweep knows, sorted.
func OptionNames() []string {
	out := make([]string, 0, len(options))
	for n := range options {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ParseArgs reads a fio command line's options (without the leading "fio")
// as fio does: "--key=value", "--key value" for options that take a value,
// "--key" alone for flags. Options before the first --name are [global];
// each --name starts a job. Arguments that are not options (job files)
// are returned in rest. Every option is recorded, known to qdsweep or not:
// fioadapt.Runs names those it refuses.
func ParseArgs(args []string) (jf JobFile, rest []string, err error) {
	cur := -1 // -1: global
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			rest = append(rest, a)
			continue
		}
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		key, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if key == "" {
			return JobFile{}, nil, fmt.Errorf("argument %d: %q is not an option", i+1, a)
		}
		// As fio's getopt: an option that takes a value reads the next
		// argument, unless that is another option (then the value is empty).
		if !hasVal && OptionTakesValue(key) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
			i++
			val = args[i]
		}
		o := Option{Key: key, Value: val} // Line 0: from a command line
		if OptionName(key) == "name" {
			jf.Jobs = append(jf.Jobs, JobSpec{Name: val})
			cur = len(jf.Jobs) - 1
		}
		if cur < 0 {
			jf.Global = append(jf.Global, o)
		} else {
			jf.Jobs[cur].Options = append(jf.Jobs[cur].Options, o)
		}
	}
	return jf, rest, nil
}

// levenshtein is the edit distance between a and b (insert, delete and
// substitute each cost 1).
func levenshtein(a, b string) int { return smetrics.WagnerFischer(a, b, 1, 1, 1) }

// passable are the fio options qdsweep hands to fio as given (--fio-arg):
// ones that tune how fio submits, reaps, times and reports I/O, and touch
// no file, region, direction, job or command. This is an allow-list: a
// name not here is refused, an abbreviation too (fio's getopt would take a
// unique prefix of any of its options, the dangerous ones included). The
// value, when the option takes one, is checked by its rule. The rows of
// RunOptions and UringOptions say their own rule (pass), added by init;
// the options below are those qdsweep does not run itself.
var passable = map[string]passRule{
	// switches: "--name" or "--name=0|1"
	"thread": passBool, "gtod_reduce": passBool, "disable_lat": passBool,
	"disable_clat": passBool, "disable_slat": passBool, "disable_bw_measurement": passBool,
	"clat_percentiles": passBool, "lat_percentiles": passBool, "slat_percentiles": passBool,
	"allrandrepeat": passBool, "refill_buffers": passBool,
	"scramble_buffers": passBool, "zero_buffers": passBool, "stats": passBool, "unified_rw_reporting": passBool, "cpus_allowed_policy": passWord,
	// numbers, lists and words that name no file
	"iodepth_batch_submit": passWord, "iodepth_batch": passWord, "iodepth_batch_complete_min": passWord,
	"iodepth_batch_complete": passWord, "iodepth_batch_complete_max": passWord, "iodepth_low": passWord,
	"cpus_allowed": passWord, "cpumask": passWord, "nice": passWord, "prio": passWord, "prioclass": passWord,
	"clocksource": passWord, "buffer_compress_percentage": passWord,
	"buffer_compress_chunk": passWord, "dedupe_percentage": passWord, "iomem_align": passWord, "mem_align": passWord, "unit_base": passWord,
	// enumerations: only values that open no file of their own
	"mem": passMem, "iomem": passMem,
}

// OptionDoc is one fio option qdsweep runs: fio's default ("" when it has
// none worth showing), the values fio accepts, and what it does here, as
// run's and sweep's help and the manual show it.
type OptionDoc struct {
	Name    string
	Switch  bool // fio reads it as a switch (no value, or 0/1); else it takes a value
	Default string
	// Range is the numbers fio accepts (fio --cmdhelp's "range", where fio
	// refuses a value outside it); nil: none checked here.
	Range *Range
	// Values are the words fio accepts (fio --cmdhelp's "valid values"),
	// before any ':' (rw=read:8k, random_distribution=zipf:1.2); nil: any
	// value reaches the option's own reader.
	Values []string
	// Refused are values fio takes that qdsweep refuses, each with why and
	// what to do instead (a switch's are "1" and "0"); CheckRuns answers.
	Refused map[string]string
	Help    string
	// pass is how a --fio-arg of it is checked before fio gets it as
	// given (passNone: refused; passable).
	pass passRule
	// SweepHelp is the help of sweep's flag of this name where it differs
	// from Help: sweep takes a list, has its own default, or accepts the
	// option and ignores it ("": Help, where sweep has such a flag).
	SweepHelp string
}

// Usage is the help of run's flag for the row: Help, then the values fio
// takes (Values), as CheckAllowed names them when it refuses another.
func (d OptionDoc) Usage() string { return d.withValues(d.Help) }

// SweepFlagHelp is the help of sweep's flag named after fio option k (an
// alias too: --ss is steadystate's): its row's SweepUsage, or, for an
// option run does not run natively that sweep's flag gives a meaning of
// its own (max_latency), sweepOwnHelp's.
func SweepFlagHelp(k OptionKey) string {
	if d, ok := OptionRow(k); ok {
		return d.SweepUsage()
	}
	return sweepOwnHelp[OptionName(k)]
}

// SweepUsage is the help of sweep's flag for the row: SweepHelp, else
// Help, then the values fio takes (Values).
func (d OptionDoc) SweepUsage() string {
	if d.SweepHelp != "" {
		return d.withValues(d.SweepHelp)
	}
	return d.Usage()
}

// withValues is help h followed by the row's Values, when it has any.
func (d OptionDoc) withValues(h string) string {
	if len(d.Values) == 0 {
		return h
	}
	return h + "; fio's " + d.Name + " takes " + d.ValueList()
}

// Range is the numbers fio accepts for an option: Min to Max, or from
// Min up when Max is NoMax.
type Range struct{ Min, Max float64 }

// NoMax is a Range without an upper bound.
const NoMax = math.MaxFloat64

func between(lo, hi float64) *Range { return &Range{lo, hi} }
func atLeast(lo float64) *Range     { return &Range{lo, NoMax} }

// String is the range as an error names it: "0..100", "at least 80".
func (r Range) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	if r.Max == NoMax {
		return "at least " + f(r.Min)
	}
	return f(r.Min) + ".." + f(r.Max)
}

// Holds reports whether v is within r.
func (r Range) Holds(v float64) bool { return v >= r.Min && v <= r.Max }

// OptionRow returns the row of fio option name (an alias is resolved
// first) among the options qdsweep runs.
func OptionRow(name string) (OptionDoc, bool) {
	name = OptionName(name)
	for _, d := range RunOptions {
		if d.Name == name {
			return d, true
		}
	}
	return OptionDoc{}, false
}

// DefaultInt is the row's Default as a whole number (0 when it is not one).
func (d OptionDoc) DefaultInt() int {
	n, _ := strconv.Atoi(d.Default)
	return n
}

// Row is OptionRow without ok: the zero row for an option qdsweep does not run.
func Row(name string) OptionDoc {
	d, _ := OptionRow(name)
	return d
}

// CheckRange refuses a value of option name outside its row's Range, as
// fio refuses it: each comma-separated part (one per direction) that is a
// number, or a size with fio's suffixes, is checked; parts that are
// neither are left to the option's own reader.
func CheckRange(name, value string) error {
	d, ok := OptionRow(name)
	if !ok || d.Range == nil {
		return nil
	}
	for _, part := range strings.Split(value, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		v, err := strconv.ParseFloat(part, 64)
		if err != nil {
			n, serr := ParseSize(part, KBBase)
			if serr != nil {
				continue
			}
			v = float64(n)
		}
		if !d.Range.Holds(v) {
			return fmt.Errorf("%s is out of range: fio's %s takes %s", part, d.Name, d.Range)
		}
	}
	return nil
}

// CheckAllowed refuses a value of option name that fio refuses: outside its
// row's Range (CheckRange), or, with the row's Values, a word before ':'
// that is none of them (as fio, case counts: Poisson is refused). The
// error is one line naming the option and what it takes.
func CheckAllowed(name, value string) error {
	if err := CheckRange(name, value); err != nil {
		return err
	}
	d, ok := OptionRow(name)
	if !ok || d.Values == nil {
		return nil
	}
	word, _, _ := strings.Cut(strings.TrimSpace(value), ":")
	if !slices.Contains(d.Values, word) {
		return fmt.Errorf("fio's %s takes %s", d.Name, d.ValueList())
	}
	return nil
}

// CheckRuns refuses a value of option name that fio takes and qdsweep
// does not run: one of its row's Refused (a switch's value read as fio
// reads it), with the row's why and fix.
func CheckRuns(name, value string) error {
	d, ok := OptionRow(name)
	if !ok || d.Refused == nil {
		return nil
	}
	v := strings.TrimSpace(value)
	if d.Switch {
		b, err := ParseBool(v)
		if err != nil {
			return nil // the option's own reader refuses it
		}
		v = map[bool]string{true: "1", false: "0"}[b]
	}
	if why, ok := d.Refused[v]; ok {
		return errors.New(why)
	}
	return nil
}

// RWDirections says whether fio's rw value v (a skip after ':' allowed;
// "" is fio's default, read) reads and whether it writes; trims count as
// neither. ok is false when fio has no such value.
func RWDirections(v string) (read, write, ok bool) {
	word, _, _ := strings.Cut(strings.TrimSpace(v), ":")
	if word == "" {
		return true, false, true
	}
	name, ok := RWValue(word)
	if !ok {
		return false, false, false
	}
	switch name {
	case "read", "randread":
		return true, false, true
	case "write", "randwrite", "trimwrite", "randtrimwrite":
		return false, true, true
	case "rw", "randrw":
		return true, true, true
	}
	return false, false, true
}

// ValueList is the row's Values as help and errors list them: "a, b or c".
func (d OptionDoc) ValueList() string {
	switch n := len(d.Values); n {
	case 0:
		return ""
	case 1:
		return d.Values[0]
	default:
		return strings.Join(d.Values[:n-1], ", ") + " or " + d.Values[n-1]
	}
}

// RunOptions are the fio options qdsweep runs (fio's io_uring options
// aside: UringOptions), in the order run's help lists them: the option
// table's Honoured entries and run's flags are made from this list.
var RunOptions = []OptionDoc{
	{Name: "name", Help: "job name; without --filename the job's file is <directory>/<name>.<job>.0, as fio names it (laid out if missing and kept)", SweepHelp: "job name (accepted for fio compatibility, ignored)"},
	{Name: "filename", Help: "file or block device (default: ./qdsweep.scratch, laid out and removed); fio's a:b list spreads each job's I/Os over the files in turn (\\: escapes a colon in a name)", SweepHelp: "file or block device to measure (default: create, lay out and remove ./qdsweep.scratch)"},
	{Name: "directory", Help: "directory of the job's file"},
	{Name: "nrfiles", Default: "1", Help: "files per job: only 1"},
	{Name: "rw", Default: "read", Values: RWValueNames(), Help: "the I/O pattern (also spelled --readwrite), fio's trims aside; read:8k skips 8k after each I/O (read:-8k reads backwards), randread:4 draws a new random offset every 4th I/O, as fio", SweepHelp: "I/O pattern, fio's trims aside, or a list giving one curve each (read,randread)"},
	{Name: "bs", Default: "4k", Help: "bytes per I/O (fio suffixes: 4k, 128k, 1m; also spelled --blocksize); 8k,32k: reads 8k, writes 32k", Range: atLeast(1), SweepHelp: "block size, or a list giving one curve each (4k,16k,64k,1m)"},
	{Name: "bsrange", Help: "block sizes min-max, per direction (4k-64k,8k-8k): each I/O's size drawn as fio draws it (also spelled --blocksize_range)"},
	{Name: "ba", Help: "random offsets are multiples of this, per direction (fio's blockalign; default: the smallest block size)", Range: atLeast(1)},
	{Name: "bssplit", Help: "shares of block sizes, as fio: 4k/50:64k/50 for reads and writes, 4k/50:64k/50,8k/100 reads then writes; 4k/x is taken as 4k/100, as fio 3.33 takes it; buffers hold the largest"},
	{Name: "random_distribution", Default: "random", Values: []string{"random", "zipf", "pareto", "normal", "zoned", "zoned_abs"}, Help: "where random offsets fall, by fio's formulas: zipf:θ, pareto:h, normal:σ (each [:centre 0..1]), zoned:60/10:40/90 (access%/size%), zoned_abs:60/1g:40/9g", pass: passWord},
	{Name: "percentage_random", Default: "100", Help: "percent of a random job's I/Os at random offsets, the rest following the one before (reads,writes)", Range: between(0, 100), pass: passWord},
	{Name: "random_generator", Default: "tausworthe", Values: []string{"tausworthe", "lfsr", "tausworthe64"}, Help: "offsets drawn by qdsweep's generator, to fio's distributions; lfsr visits each block once per pass (the random map), as fio's", pass: passWord},
	{Name: "zonemode", Default: "none", Values: []string{"none", "strided", "zbd"}, Help: "strided: each job's I/O in one zone of its file at a time, --zonesize bytes in each before moving --zonerange + --zoneskip bytes on, as fio (zbd runs through fio)"},
	{Name: "zonesize", Default: "0", Help: "bytes transferred in a zone before the next one (with --zonemode=strided, as fio requires)"},
	{Name: "zonerange", Default: "0", Help: "the bytes of a zone (default: --zonesize); random offsets are drawn within it"},
	{Name: "zoneskip", Default: "0", Help: "bytes skipped after a zone's range; past the file's end the zones start again at --offset, as fio"},
	{Name: "iodepth", Default: "1", Help: "I/Os in flight per job (psync does one at a time whatever the iodepth, as in fio)", Range: atLeast(1), SweepHelp: "I/Os in flight per job: list (1,2,4,8), doubling range (1:256) or range with factor (1:256:x4)"},
	{Name: "numjobs", Default: "1", Help: "parallel jobs", SweepHelp: "parallel jobs: list, range or one value like --iodepth"},
	{Name: "ioengine", Default: "psync", Help: "psync (also sync, pvsync), libaio or io_uring (falls back to libaio when unavailable); " +
		"sim: a simulated device; fio: the installed fio", SweepHelp: "io_uring, libaio, psync (io_uring falls back to libaio when unavailable), sim (a simulated device, no I/O) or fio (runs the installed fio)", pass: passEngine},
	{Name: "direct", Default: "0", Help: "1: O_DIRECT (bypass the page cache), 0: buffered", Range: between(0, 1)},
	{Name: "buffered", Default: "1", Help: "the opposite of --direct", Range: between(0, 1)},
	{Name: "fadvise_hint", Default: "1", Values: []string{"0", "1", "random", "sequential"}, Help: "advice to the kernel on the files' access pattern (posix_fadvise) when they open: 1 by the job's pattern (random or sequential, so a buffered random read gets no readahead), 0 none, as fio", pass: passWord},
	{Name: "invalidate", Default: "1", Help: "drop the file's cached pages before a buffered run", Range: between(0, 1), pass: passBool},
	{Name: "size", Help: "bytes each job covers (default: the whole existing file or device, else 1g is laid out)", SweepHelp: "bytes of the region each job covers (fio suffixes: 4k, 1m, 1g); unset with an existing --filename: the whole file/device"},
	{Name: "filesize", Help: "the job's file size, when --size is not given", Range: atLeast(1)},
	{Name: "io_size", Help: "bytes each job transfers before it ends (default --size)"},
	{Name: "offset", Default: "0", Help: "start of the region, bytes"},
	{Name: "offset_increment", Default: "0", Help: "job i starts at offset + i*offset_increment, bytes"},
	{Name: "rwmixread", Default: "50", Help: "percent of reads for rw/randrw", Range: between(0, 100)},
	{Name: "rwmixwrite", Default: "50", Help: "percent of writes for rw/randrw (100 - rwmixread)", Range: between(0, 100)},
	{Name: "runtime", Help: "longest run (fio's seconds, or 1m, 500ms); without --time_based the run ends sooner when its bytes are done", SweepHelp: "measured window (Go duration or fio's plain seconds)"},
	{Name: "time_based", Switch: true, Help: "run for --runtime whatever --size (without it a job ends after io_size × loops bytes)", SweepHelp: "accepted for fio compatibility: runs are always time based"},
	{Name: "ramp_time", Default: "0", Help: "warm-up before measuring", SweepHelp: "warm-up before measuring (Go duration or fio's plain seconds)"},
	{Name: "loops", Default: "1", Help: "passes over the region of a size-based run"},
	{Name: "number_ios", Help: "caps each loop of a size-based job at this many I/Os (a --time_based job ignores it, as fio does)"},
	{Name: "startdelay", Default: "0", Help: "wait this long before starting"},
	{Name: "rate_iops", Help: "cap each job's IOPS (read,write), as fio paces them", SweepHelp: "sweep offered loads instead of depths, at the one --iodepth × --numjobs: total I/Os per second (1000,2000,4k) or shares of the closed-loop IOPS measured first (25%,50%,90%); each step reports latency against the load offered and the depth it needs (IOPS × latency)"},
	{Name: "rate", Help: "cap each job's bandwidth, bytes per second (read,write)"},
	{Name: "rate_process", Default: "linear", Values: []string{"linear", "poisson"}, Help: "linear: I/Os evenly spaced; poisson: exponential gaps around the rate (open-loop arrivals), as fio", pass: passWord,
		SweepHelp: "how the offered load arrives, as fio: linear (evenly spaced) or poisson (exponential gaps: open-loop arrivals); poisson without --rate_iops offers --rate_iops's default loads"},
	{Name: "rate_min", Help: "fail a job whose bandwidth over --rate_cycle falls below this, bytes per second (read,write), as fio"},
	{Name: "rate_iops_min", Help: "fail a job whose IOPS over --rate_cycle fall below this (read,write), as fio"},
	{Name: "rate_cycle", Default: "1000", Help: "the window of --rate_min and --rate_iops_min, ms (after fio's 2 s of settling)"},
	{Name: "thinktime", Default: "0", Help: "pause this long (µs, or 2ms) with nothing in flight after every --thinktime_blocks I/Os, as fio", pass: passWord},
	{Name: "thinktime_spin", Default: "0", Help: "spin for this part of --thinktime instead of sleeping (µs)", pass: passWord},
	{Name: "thinktime_blocks", Default: "1", Help: "I/Os between two pauses of --thinktime", pass: passWord},
	{Name: "thinktime_blocks_type", Default: "complete", Values: []string{"complete", "issue"}, Help: "what --thinktime_blocks counts: I/Os completed or issued"},
	{Name: "thinktime_iotime", Default: "0", Help: "pause after this long issuing I/O (seconds, or 500ms) instead of a block count"},
	{Name: "latency_target", Help: "search the deepest queue up to --iodepth whose I/Os meet this latency (µs, or 2ms), as fio"},
	{Name: "latency_window", Default: "0", Help: "the stretch of I/O each depth of --latency_target is judged over (µs, or 1s)"},
	{Name: "latency_percentile", Default: "100", Help: "the percent of I/Os that must meet --latency_target", Range: between(0, 100)},
	{Name: "latency_run", Default: "0", Help: "1: keep adjusting the depth until the run ends (0: end once it settles)", Range: between(0, 1)},
	{Name: "flow", Default: "0", Help: "the job's weight in its flow: jobs of one --flow_id issue I/Os in proportion to their weights (1 beside 8: 1:8), each holding back while it is ahead, as fio (at most 1000; a negative weight is fio's unsigned one, all but the whole flow)"},
	{Name: "flow_id", Default: "0", Help: "the flow the job's --flow weighs in: jobs of one ID share it"},
	{Name: "flow_sleep", Default: "0", Help: "µs a job its flow holds back sleeps, its I/Os completed, before it looks again (0: it looks again at once)"},
	{Name: "fsync", Default: "0", Help: "fsync the file after this many writes"},
	{Name: "fdatasync", Default: "0", Help: "fdatasync the file after this many writes"},
	{Name: "sync", Default: "none", Values: []string{"none", "0", "sync", "1", "dsync"}, Help: "open the file O_SYNC (sync) or O_DSYNC (dsync), so each write is durable before it completes"},
	{Name: "end_fsync", Default: "0", Help: "1: fsync the file when the job ends", Range: between(0, 1)},
	{Name: "randseed", Help: "seed of the random offsets"},
	{Name: "randrepeat", Default: "1", Help: "0: different random offsets every run", Range: between(0, 1), pass: passBool},
	{Name: "norandommap", Switch: true, Help: "random offsets repeat; without it a random job does each block of its region once before any again, and cuts an I/O short at a block already done (fio's random map)", pass: passBool},
	{Name: "readonly", Switch: true, Help: "refuse a workload that writes"},
	{Name: "verify", Help: "crc32c (crc32c-intel), md5, meta or pattern: every block carries fio's verify header and checksum, on disk as fio writes them; reads are checked, and a job that writes reads its blocks back when it ends"},
	{Name: "do_verify", Default: "1", Help: "0: a job that writes with --verify does not read its blocks back", Range: between(0, 1)},
	{Name: "verify_only", Switch: true, Help: "write nothing: only read back and check what an earlier run (fio's or qdsweep's) wrote"},
	{Name: "verify_pattern", Help: "the data of every block, hexadecimal (0xdeadbeef) or quoted ('abc'); alone: fio's header then the pattern"},
	{Name: "verify_interval", Help: "a verify header every this many bytes of an I/O (default: the smallest block size)", Range: atLeast(80)},
	{Name: "verify_fatal", Switch: true, Help: "accepted: a verify failure ends the job, as fio's does", Range: between(0, 1)},
	{Name: "verify_async", Default: "0", Help: "accepted: fio's threads that check reads apart from the job; qdsweep checks each read as it completes, with the same checks and errors", Range: atLeast(0)},
	{Name: "verify_backlog", Help: "read back and check the blocks written after every this many writes, while the job writes (the rest when its writes end; each block once)", Range: atLeast(0)},
	{Name: "verify_backlog_batch", Help: "how many of verify_backlog's blocks each read back checks (default: verify_backlog)", Range: atLeast(0)},
	{Name: "buffer_compress_percentage", Help: "percent of each chunk of a write left compressible (zeros, or --buffer_pattern), the rest random, as fio fills it; 100: zeros", Range: between(0, 100)},
	{Name: "buffer_compress_chunk", Default: "512", Help: "bytes of each chunk of --buffer_compress_percentage (at most the smallest write; 0: the smallest write)"},
	{Name: "buffer_pattern", Help: "write buffers hold this pattern, hexadecimal (0xdeadbeef) or quoted ('abc'); with --buffer_compress_percentage, the compressible part of each chunk"},
	{Name: "dedupe_percentage", Help: "percent of writes whose data repeats data written before (deduplicable), as fio draws them", Range: between(0, 100)},
	{Name: "dedupe_mode", Default: "repeat", Values: []string{"repeat", "working_set"}, Help: "what a --dedupe_percentage write repeats: repeat, the job's next unique buffer; working_set, a block drawn from the first --dedupe_working_set_percentage of the job's size", pass: passWord},
	{Name: "dedupe_working_set_percentage", Default: "5", Help: "dedupe_mode=working_set's set, percent of the job's size", Range: between(0, 100), pass: passWord},
	{Name: "dedupe_global", Default: "0", Help: "1: dedupe_mode=working_set's set is shared by every job of the run, so a job repeats what the others wrote", Range: between(0, 1), pass: passBool},
	{Name: "refill_buffers", Switch: true, Help: "fill every write's buffer anew (fio's default with --buffer_compress_percentage, --dedupe_percentage or --verify); else each buffer is filled once as the job starts"},
	{Name: "scramble_buffers", Default: "1", Help: "each write of a buffer filled once carries its offset and the time in each 512-byte block, so no two are alike (0: written as filled)", Range: between(0, 1)},
	{Name: "zero_buffers", Switch: true, Help: "write buffers hold zeros (else random data)"},
	{Name: "steadystate", Default: "iops_slope:0.01%", Help: "end the job at steady state: iops, iops_slope, bw or bw_slope, ':' and the limit (% of the mean with %), as fio (also spelled --ss)",
		SweepHelp: "steady state: a step ends once IOPS drifts less than this share of its mean per second (fio's ss=iops_slope); 0 turns it off"},
	{Name: "steadystate_duration", Default: "0", Help: "the steady-state window, whole seconds, one sample a second (also --ss_dur; 0: no test)",
		SweepHelp: "window the steady-state slope is fitted over"},
	{Name: "steadystate_ramp_time", Default: "0", Help: "time into the job before steady-state samples begin (also --ss_ramp)"},
	{Name: "continue_on_error", Default: "none", Help: "io or all: count I/O errors instead of ending the run", SweepHelp: "count I/O errors instead of ending the run"},
	{Name: "percentile_list", Help: "completion-latency percentiles to report, colon-separated (as fio, only the first 20)", pass: passWord},
	{Name: "clat_percentiles", Switch: true, Default: "1", Help: "0: fio's outputs give no completion-latency percentiles (clat), as fio's", Range: between(0, 1), pass: passBool},
	{Name: "lat_percentiles", Switch: true, Default: "0", Help: "1: fio's outputs give percentiles of the latency from submission (lat) too, and terse's are lat's, as fio's", Range: between(0, 1), pass: passBool},
	{Name: "unified_rw_reporting", Default: "none", Values: []string{"none", "mixed", "both", "0", "1", "2"}, Help: "fio's outputs report reads and writes apart (none), together as one direction, mixed (mixed), or apart and then together (both), as fio's", pass: passWord},
	{Name: "group_reporting", Switch: true, Help: "report a group's jobs together, as fio", SweepHelp: "accepted for fio compatibility: jobs are always reported together", pass: passBool},
	{Name: "write_iops_log", Help: "write fio's IOPS log PREFIX_iops.N.log (a line per I/O; with --log_avg_msec each window's mean)"},
	{Name: "write_bw_log", Help: "write fio's bandwidth log PREFIX_bw.N.log, KiB/s (a line per I/O, or with --log_avg_msec per window)"},
	{Name: "write_lat_log", Help: "write fio's latency logs PREFIX_clat.N.log, PREFIX_slat.N.log (empty: qdsweep times submission and completion as one) and PREFIX_lat.N.log, ns (a line per I/O, or with --log_avg_msec per window)"},
	{Name: "log_avg_msec", Default: "0", Help: "the logs' window, ms: each line is a window's mean (0: a line per I/O, as fio)"},
	{Name: "write_hist_log", Help: "write fio's completion-latency histogram log PREFIX_clat_hist.N.log (with --log_hist_msec: each window's completions in fio's 1856 bins)"},
	{Name: "log_hist_msec", Default: "0", Help: "the histogram log's window, ms (0: no histogram log)"},
	{Name: "log_hist_coarseness", Default: "0", Help: "0 to 6: the histogram log sums 2^N of fio's bins at a time; from 2 on its counts are exact, below 2 each of qdsweep's latency buckets (16 to a power of two) lands in fio's bin of its middle"},
	{Name: "per_job_logs", Default: "1", Help: "0: one log per kind, without the job number, every job's lines in it", Range: between(0, 1)},
	{Name: "log_offset", Default: "0", Help: "1: an offset column before the last, as fio (0 in averaged logs)", Range: between(0, 1)},
	{Name: "allow_file_create", Default: "1", Help: "1: a missing file is laid out, as fio; 0: a missing file is refused, as fio", Range: between(0, 1)},
	{Name: "log_prio", Switch: true, Help: "the logs' last column is the I/O's priority in hex, class << 13 | level (0x0000 for averaged lines); without it 1 for the real-time class, else 0, as fio", Range: between(0, 1)},
	{Name: "log_max_value", Switch: true, Help: "with --log_avg_msec, the latency logs write each window's largest latency instead of its mean, as fio", Range: between(0, 1)},
	{Name: "log_store_compressed", Switch: true, Help: "refused when 1: fio would store its logs as zlib chunks of its in-memory samples (NAME.log.fz, read by fio --inflate-log); qdsweep writes them as text", Range: between(0, 1),
		Refused: map[string]string{"1": "fio stores its logs as zlib chunks of its in-memory samples (NAME.log.fz, read back with fio --inflate-log), which qdsweep does not write: drop it, and the logs are written as text"}},
	{Name: "log_unix_epoch", Switch: true, Help: "the logs' times are Unix time in ms, as fio (else ms since the job's measured window began)", Range: between(0, 1)},
	{Name: "prio", Help: "the job's I/O priority level, 0 (highest) to 7, set on its thread with ioprio_set (class best-effort unless --prioclass), and carried by every io_uring I/O without a priority of its own, as fio", Range: between(0, 7), pass: passWord},
	{Name: "prioclass", Help: "the job's I/O priority class: 1 real-time, 2 best-effort, 3 idle (0: best-effort), as --prio", Range: between(0, 3), pass: passWord},
	{Name: "cmdprio_percentage", Help: "io_uring, libaio: percent of the I/Os, drawn at random, submitted at --cmdprio_class/--cmdprio (reads,writes); the others at the job's priority; fio's output then gives each priority's latency", Range: between(0, 100)},
	{Name: "cmdprio_class", Help: "io_uring, libaio: the class of --cmdprio_percentage's and --cmdprio_bssplit's I/Os, 1 real-time (the default), 2 best-effort, 3 idle (reads,writes)", Range: between(1, 3)},
	{Name: "cmdprio", Help: "io_uring, libaio: the level, 0 (highest, the default) to 7, of --cmdprio_percentage's and --cmdprio_bssplit's I/Os (reads,writes)", Range: between(0, 7)},
	{Name: "cmdprio_bssplit", Help: "io_uring, libaio: percent of each block size's I/Os submitted with a priority, as fio: 64k/40:1m/0 at --cmdprio_class/--cmdprio, or 64k/25/1/1:64k/75/3/2 giving each share's class and level (reads,writes)"},
	{Name: "kb_base", Default: "1024", Values: []string{"1024", "1000"}, Help: "1024: k, m, g are powers of 1024 and KiB, MiB, GiB powers of 1000 (fio's quirk); 1000: the other way round", pass: passWord},
}

// UringOption is one of fio's io_uring options qdsweep runs: run's command
// line and job files, sweep's flags, the fio engine's job files and
// --fio-arg take it by this name, and its flag shows Help.
type UringOption struct {
	Name   string
	Switch bool // fio reads it as a switch (no value, or 0/1); else it takes a value
	CPU    bool // its value is a CPU number (else 0 or 1)
	Help   string
}

// UringOptions are fio's io_uring options qdsweep runs, in fio's order.
var UringOptions = []UringOption{
	{Name: "fixedbufs", Switch: true, Help: "io_uring: 1 registers the I/O buffers with the ring (READ_FIXED), 0 never (default: registered except on tmpfs)"},
	{Name: "registerfiles", Switch: true, Help: "io_uring: register the files with the ring; SQEs name them by index"},
	{Name: "sqthread_poll", Switch: true, Help: "io_uring: a kernel thread polls the submission queue (SQPOLL): no system call to submit"},
	{Name: "sqthread_poll_cpu", CPU: true, Help: "io_uring: pin the --sqthread_poll thread to this CPU"},
	{Name: "hipri", Switch: true, Help: "io_uring: poll for completions (IOPOLL); needs --direct=1 and a device with poll queues (queue/io_poll = 1)"},
	{Name: "nonvectored", Help: "io_uring: 0 uses READV/WRITEV with one iovec per I/O (default 1: READ/WRITE)"},
}

// UringOptionNames are the names of UringOptions.
func UringOptionNames() []string {
	names := make([]string, len(UringOptions))
	for i, o := range UringOptions {
		names[i] = o.Name
	}
	return names
}

// passRule checks a passable option's value.
type passRule int

const (
	passNone   passRule = iota // not passed to fio as given
	passBool                   // no value, or 0/1
	passWord                   // a value of digits, letters and , . : % - _ (no path)
	passEngine                 // an engine that opens the target as the write guard checked it
	passMem                    // a memory type without a backing file
)

// PassEngines are the fio engines a --fio-arg may choose: each opens the
// job's target itself as the guard checked it (no engine that creates,
// deletes or stats files, runs commands or loads code).
var PassEngines = []string{"io_uring", "libaio", "psync", "sync", "pvsync", "pvsync2", "posixaio"}

var passMems = []string{"malloc", "shm", "shmhuge", "mmap", "mmaphuge", "mmapshared"}

// CheckPassArg checks one argument handed to fio as given ("--name" or
// "--name=value"): the name must be a passable option spelled in full, the
// value must keep its rule. The error says why in one phrase.
func CheckPassArg(arg string) error {
	if !strings.HasPrefix(arg, "--") || len(arg) == 2 {
		return fmt.Errorf("only fio --options are passed (a bare argument is a job file or another option's value); write " + ArgForm)
	}
	name, val, hasVal := strings.Cut(arg[2:], "=")
	rule, ok := passable[name]
	if !ok {
		if n := passablePrefixOf(name); n != "" {
			return fmt.Errorf("spell the option in full: --%s (fio would take an abbreviation of any of its options)", n)
		}
		return fmt.Errorf("not passed to fio: qdsweep passes only options that touch no file, region, direction, job or command: %s", passableList())
	}
	for _, r := range val {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("has a control character")
		}
	}
	switch rule {
	case passBool:
		if hasVal && val != "0" && val != "1" {
			return fmt.Errorf("--%s is a switch: give it alone or as --%s=1 or =0", name, name)
		}
	case passWord:
		if !hasVal || val == "" || strings.IndexFunc(val, notWordRune) >= 0 {
			return fmt.Errorf("--%s needs a value of digits, letters and , . : %% - _ written --%s=VALUE", name, name)
		}
	case passEngine:
		if !slices.Contains(PassEngines, val) {
			return fmt.Errorf("--%s=%s: the fio engine may be one of %s (engines that open the guarded target and nothing else)", name, val, strings.Join(PassEngines, ", "))
		}
	case passMem:
		if !slices.Contains(passMems, val) {
			return fmt.Errorf("--%s=%s: the memory type may be one of %s, without a backing file", name, val, strings.Join(passMems, ", "))
		}
	}
	return nil
}

func notWordRune(r rune) bool {
	return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune(",.:%-_", r))
}

// passablePrefixOf is the passable option name begins, when only one does.
func passablePrefixOf(name string) string {
	found := ""
	for n := range passable {
		if name != "" && strings.HasPrefix(n, name) {
			if found != "" {
				return ""
			}
			found = n
		}
	}
	return found
}

func passableList() string {
	names := make([]string, 0, len(passable))
	for n := range passable {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
