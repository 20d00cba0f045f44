package fioadapt

import (
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/units"
)

// JobRun is one job of a job file (or fio command line) converted to
// qdsweep's vocabulary, with fio's defaults where the job sets nothing:
// rw=read, bs=4k, iodepth=1, numjobs=1, direct=0, no ramp.
type JobRun struct {
	Name     string            `json:"name"`
	Workload ioengine.Workload `json:"workload"`
	IOEngine string            `json:"ioengine"` // fio's ioengine= ("" when not set; fio's default is psync)
	Runtime  time.Duration     `json:"runtime_ns"`
	Ramp     time.Duration     `json:"ramp_ns"`
	// TimeBased is fio's time_based: run for Runtime whatever the size.
	// Without it a job ends after IOSize bytes (or at Runtime if sooner).
	TimeBased bool `json:"time_based"`
	// IOSize is the bytes each job transfers before it ends when not
	// TimeBased: io_size, else size, times Loops (0: the whole file).
	IOSize int64 `json:"io_size"`
	// IOSizePercent is fio's io_size=N%: each job transfers N% of its
	// region (size, else the file less the offset) per loop, IOSize 0.
	IOSizePercent float64 `json:"io_size_percent,omitempty"`
	// Loops is fio's loops (at least 1).
	Loops int `json:"loops"`
	// NumberIOs is fio's number_ios: each loop of a size-based job ends
	// after this many I/Os if its bytes are not done sooner (0: no such
	// cap). As in fio 3.33, a time-based job ignores it.
	NumberIOs int64 `json:"number_ios,omitempty"`
	// StartDelay is fio's startdelay: wait before starting the job.
	StartDelay time.Duration `json:"startdelay_ns"`
	// EndFsync is fio's end_fsync: fsync the file when the job ends.
	EndFsync bool `json:"end_fsync"`
	// ReadOnly is fio's --readonly: a workload that writes is refused.
	ReadOnly bool `json:"readonly"`
	// NoRandomMap is fio's norandommap: random offsets repeat; without it
	// the workload keeps fio's random map (ioengine.Shape.RandomMap).
	NoRandomMap bool `json:"norandommap,omitempty"`
	// LFSR is fio's random_generator=lfsr: uniform random offsets visit
	// every block once per pass, norandommap or not, as fio's linear
	// feedback shift register does (its order is its own; the blocks and
	// their count are fio's). Other distributions do not use it, as in fio.
	LFSR bool `json:"lfsr,omitempty"`
	// NoCreate is fio's allow_file_create=0: a job file that does not
	// exist is refused, not laid out.
	NoCreate bool `json:"no_create,omitempty"`
	// RandRepeat is false when randrepeat=0: offsets differ run to run.
	RandRepeat bool `json:"randrepeat"`
	// Directory is fio's directory= ("" when not set).
	Directory string `json:"directory,omitempty"`
	// Files are the job's files as fio names them: filename= split at
	// unescaped ':' (each under Directory), else "<name>.<job>.0" for each
	// of the numjobs clones. Empty when neither filename nor name is set.
	Files []string `json:"files,omitempty"`
	// Percentiles is fio's percentile_list (percent, ascending, its first
	// 20); nil: fio's default list.
	Percentiles []float64 `json:"percentile_list,omitempty"`
	// PercentilesDropped counts the percentile_list values past fio's
	// limit, dropped as fio drops them.
	PercentilesDropped int `json:"percentiles_dropped,omitempty"`
	// Reporting is what fio's reporting options (clat_percentiles,
	// lat_percentiles, unified_rw_reporting) ask of the job's fio outputs.
	Reporting fio.Reporting `json:"reporting,omitzero"`
	// Ignored names the options accepted but ignored (reporting, naming,
	// grouping); Batching the submission-batching options ignored.
	Ignored  []string `json:"ignored,omitempty"`
	Batching []string `json:"batching,omitempty"`
	// SizePercent and OffsetPercent are fio's size=N% and offset=N%: a share
	// of the target's own size, resolved by whoever knows it (0: not set).
	SizePercent   float64 `json:"size_percent,omitempty"`
	OffsetPercent float64 `json:"offset_percent,omitempty"`
	// IncrementPercent is fio's offset_increment=N%, likewise a share of
	// the target's size (0: not set).
	IncrementPercent float64 `json:"offset_increment_percent,omitempty"`
	// TrimBS is the smallest and largest trim of fio's bs, bsrange or
	// bssplit (the third of reads,writes,trims), which only fio's header
	// line shows: qdsweep runs no trims.
	TrimBS [2]int64 `json:"trim_bs,omitempty"`
	// KBBase is the job's kb_base (1024 or 1000): how fio's normal output
	// writes its sizes and rates.
	KBBase int `json:"kb_base,omitempty"`
	// Set holds every option name (aliases resolved) the job sets.
	Set map[string]bool `json:"-"`
	// GroupReporting is fio's group_reporting: numjobs clones reported as
	// one; without it each clone is reported on its own.
	GroupReporting bool `json:"group_reporting,omitempty"`
	// JobOptions are the options the job's own section (or, on a command
	// line, its --name and what follows) sets, and GlobalOptions those of
	// the command line and the file's [global] sections: each by fio's
	// name, its value as written, the last one given winning. fio's JSON
	// lists these ("job options", "global options"), and nothing else.
	// Each is in the order fio lists it (fio.JobFile.Listed), an option
	// given twice listed twice; fio.OptionValue reads the last.
	JobOptions    []fio.Option `json:"-"`
	GlobalOptions []fio.Option `json:"-"`
	// Given are the options the job was converted from, as written, in the
	// order applied ([global]'s then the job's): AsGiven writes their
	// values back where they mean what the workload does.
	Given []fio.Option `json:"-"`
	// Logs are fio's per-window logs the job asks for; LogsIgnored says
	// why those it asks for are not written (LogsPerIO …; "": all are).
	Logs        JobLogs `json:"logs,omitzero"`
	LogsIgnored string  `json:"logs_ignored,omitempty"`
	// Steady is fio's steady-state test (steadystate=, ss_dur, ss_ramp):
	// the job ends once it holds. Dur 0: none.
	Steady fio.SteadySpec `json:"steadystate,omitzero"`
	// Unsupported are the options (ioengine= among them) qdsweep does not
	// run natively, as written, in the job's order; EngineOptions the
	// options of the job's engine when qdsweep does not run that engine.
	// A run that goes through fio hands fio both (session decides).
	Unsupported   []fio.Option `json:"-"`
	EngineOptions []fio.Option `json:"-"`
	// Engine is the engine fio runs the job on (fio.EngineUsed of its ioengine=).
	Engine string `json:"-"`
	// NoVerifyPass is do_verify=0: a job that writes with verify= does not
	// read its blocks back when it ends. VerifyOnly is verify_only: it
	// writes nothing and only reads back what an earlier run wrote.
	NoVerifyPass bool `json:"no_verify_pass,omitempty"`
	VerifyOnly   bool `json:"verify_only,omitempty"`
}

// VerifyPass reports whether the job reads back what it wrote when it
// ends (fio's verify phase): a size-based job that writes with verify=,
// unless do_verify=0; always with verify_only.
func (r JobRun) VerifyPass() bool {
	w := r.Workload
	return w.FioVerify.Kind != "" && w.RW.IsWrite() && !r.TimeBased && (r.VerifyOnly || !r.NoVerifyPass)
}

// JobLogs are fio's logs of one job: write_iops_log, write_bw_log and
// write_lat_log's prefixes ("" when not asked for), each line the mean of
// a log_avg_msec window (PerIO without one: a line per I/O), and write_hist_log's, each line a log_hist_msec
// window's completion latencies in fio's bins.
type JobLogs struct {
	IOPS, BW, Lat string
	AvgMs         int64
	Hist          string
	HistMs        int64
	HistCoarse    int  // log_hist_coarseness: 2^HistCoarse of fio's bins to a count
	PerJob        bool // per_job_logs: the job's number in the names
	Prio          bool // log_prio: the last column is the I/O's priority, in hex
	Offset        bool // log_offset: an offset column before the priority
	MaxValue      bool // log_max_value: an averaged latency line is its window's largest
	UnixEpoch     bool // log_unix_epoch: times are Unix time in ms
}

// Any reports whether a log is asked for.
func (l JobLogs) Any() bool { return l.Averaged() || l.Hist != "" }

// Averaged reports whether an averaged log (IOPS, bandwidth, latency) is
// asked for.
func (l JobLogs) Averaged() bool { return l.IOPS != "" || l.BW != "" || l.Lat != "" }

// PerIO reports whether the averaged logs asked for log every I/O, as fio
// does without log_avg_msec.
func (l JobLogs) PerIO() bool { return l.Averaged() && l.AvgMs <= 0 }

// Runs converts every job of the file (with [global] applied) to a
// workload. Options qdsweep cannot honour, and options fio does not have,
// are named together in one error wrapping ErrUnsupported.
func Runs(jf fio.JobFile) ([]JobRun, error) {
	var runs []JobRun
	var bad, unknown []string
	for i, js := range jf.Jobs {
		run, unsupported, err := convertJob(js.Name, jf.Scoped(i))
		if err != nil && js.Line == 0 {
			return nil, err // a command line: the option names itself
		}
		if err != nil {
			return nil, fmt.Errorf("job [%s] (line %d): %w", js.Name, js.Line, err)
		}
		for _, u := range unsupported {
			if fio.OptionHandling(u.Key) == fio.Unknown {
				d := strings.Replace(fio.DescribeOption(u), " (not a fio option; did you mean", " (did you mean", 1)
				unknown = append(unknown, strings.Replace(d, " (not a fio option)", "", 1))
			} else {
				bad = append(bad, fio.DescribeOption(u))
			}
		}
		run.JobOptions, run.GlobalOptions = jf.Listed(i)
		run.Given = jf.Scoped(i)
		runs = append(runs, run)
	}
	numberBufferJobs(runs)
	if len(unknown) > 0 {
		// fio refuses these too: a typo, not a workload qdsweep lacks.
		msg := fmt.Sprintf("%s: %s", fio.ErrNotFio.Error(), strings.Join(dedupSorted(unknown), ", "))
		if len(bad) > 0 {
			msg += "; and options qdsweep does not run: " + strings.Join(dedupSorted(bad), ", ")
		}
		return runs, &notFioError{msg}
	}
	if len(bad) > 0 {
		bad = dedupSorted(bad)
		return runs, fmt.Errorf("%w: %s", fio.ErrUnsupported, strings.Join(bad, ", "))
	}
	return runs, nil
}

// notFioError is ErrNotFio with the options named.
type notFioError struct{ msg string }

func (e *notFioError) Error() string        { return e.msg }
func (e *notFioError) Is(target error) bool { return target == fio.ErrNotFio }

// dedupSorted sorts s and drops repeated entries.
func dedupSorted(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// sizeOrPercent reads fio's size, offset and offset_increment (their
// value's last piece, fio.LastPiece): a size with fio's suffixes, or "N%" of the target's own size (pct > 0, n 0), N
// whole as fio reads it (10.5% is 10 bytes to fio, refused). label names
// the option in an error.
func (c *jobConv) sizeOrPercent(o fio.Option, label string) (n int64, pct float64, err error) {
	o.Value = fio.LastPiece(o.Value)
	if v, ok := strings.CutSuffix(strings.TrimSpace(o.Value), "%"); ok {
		if strings.Contains(v, ".") {
			return 0, 0, fmt.Errorf("%s: fio 3.33 reads a percentage only up to its '.', as bytes; give it whole: %s%%", label, strings.SplitN(v, ".", 2)[0])
		}
		p, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || p < 0 || p > 100 || p == 0 && fio.OptionName(o.Key) == fio.OptSize {
			return 0, 0, fmt.Errorf("%s: a percentage of the target is from 0 to 100%%", label)
		}
		return 0, float64(p), nil
	}
	n, err = fio.ParseSize(o.Value, c.kbBase)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", label, err)
	}
	return n, 0, wholeSize(o, n)
}

// convertJob maps one job's options (later ones win) onto a workload.
func convertJob(name string, opts []fio.Option) (JobRun, []fio.Option, error) {
	c := &jobConv{kbBase: fio.KBBase, given: map[string]fio.Option{}, run: JobRun{Name: name, Set: map[string]bool{}}}
	if err := c.applyDefaults(); err != nil {
		return JobRun{}, nil, err
	}
	for _, o := range opts {
		key := fio.OptionName(o.Key)
		c.run.Set[key] = true
		c.given[key] = o
		var err error
		if h, ok := jobOptions[key]; ok {
			if isUringOption(key) && c.uringOpt == nil {
				c.uringOpt = &o
			}
			if err = fio.CheckAllowed(key, o.Value); err == nil {
				err = fio.CheckRuns(key, o.Value)
			}
			if err != nil {
				return JobRun{}, nil, fmt.Errorf("%s: %w", label(o), err)
			}
			err = h.apply(c, key, o)
		} else {
			err = c.other(key, o)
		}
		if err != nil {
			return JobRun{}, nil, err
		}
	}
	if err := c.checkEngineOptions(); err != nil {
		return JobRun{}, nil, err
	}
	if err := c.finishPrio(); err != nil {
		return JobRun{}, nil, err
	}
	if err := c.checkRates(); err != nil {
		return JobRun{}, nil, err
	}
	if err := c.finishFileSize(); err != nil {
		return JobRun{}, nil, err
	}
	c.finish()
	if err := c.finishZones(); err != nil {
		return JobRun{}, nil, err
	}
	if err := c.finishBuffers(); err != nil {
		return JobRun{}, nil, err
	}
	c.checkSteady()
	c.checkVerify()
	c.run.Unsupported, c.run.Engine, c.run.KBBase = c.unsupported, fio.EngineUsed(c.engine), c.kbBase
	return c.run, c.unsupported, nil
}

// fadviseOf is the advice each of fio's fadvise_hint values gives.
var fadviseOf = map[string]ioengine.Fadvise{"1": ioengine.FadviseByPattern, "0": ioengine.FadviseNone,
	"random": ioengine.FadviseRandom, "sequential": ioengine.FadviseSequential}

// startDefaults are the options a job starts from at fio's default, the
// table's Default applied through each one's handler; fio's other defaults
// are a zero field, or applied where the whole job decides (finish).
var startDefaults = []fio.OptionKey{fio.OptRW, fio.OptBS, fio.OptIODepth, fio.OptNumJobs, fio.OptDirect,
	fio.OptInvalidate, fio.OptLoops, fio.OptRandRepeat, fio.OptPerJobLogs}

// applyDefaults sets the startDefaults as the option table gives them.
func (c *jobConv) applyDefaults() error {
	for _, key := range startDefaults {
		d, _ := fio.OptionRow(key)
		if err := jobOptions[key].apply(c, key, fio.Option{Key: key, Value: d.Default}); err != nil {
			return fmt.Errorf("fio's default %s=%s: %w", key, d.Default, err) // a broken table
		}
	}
	c.finishShape() // bs's default is the workload's block size until the job sets one
	return nil
}

// checkRates refuses what fio 3.33 refuses of a job's rates before it
// runs: rate with rate_iops, rate_min with rate_iops_min ("mutually
// exclusive"), and a floor above its direction's cap ("minimum rate
// exceeds rate").
func (c *jobConv) checkRates() error {
	f := c.run.Workload.RateMin
	if c.rateBytes != [2]float64{} && c.rateIOPS != [2]float64{} || f.Bytes != [2]float64{} && f.IOPS != [2]float64{} {
		return fmt.Errorf("job %s: rate and rate_iops (or rate_min and rate_iops_min) are mutually exclusive, as in fio; keep one of each pair", c.run.Name)
	}
	for d, dir := range []string{"reads", "writes"} {
		if c.rateBytes[d] > 0 && c.rateBytes[d] < f.Bytes[d] || c.rateIOPS[d] > 0 && c.rateIOPS[d] < f.IOPS[d] {
			return fmt.Errorf("job %s: the minimum rate of %s exceeds their rate, which fio refuses; lower rate_min/rate_iops_min or raise rate/rate_iops", c.run.Name, dir)
		}
	}
	return nil
}

// checkEngineOptions refuses io_uring's options in a job whose ioengine=
// names another engine, as fio does ("Bad option"). A job that names none
// is judged with the engine it runs on (fio's default psync, or the one
// qdsweep's --ioengine picks: fio's io_uring under --ioengine=fio).
func (c *jobConv) checkEngineOptions() error {
	if c.engine != "" && c.run.IOEngine == "" {
		c.refuse(c.engineOpt) // the job's engine (a [global] one it sets again is not)
	}
	engine := fio.EngineUsed(c.engine)
	for _, o := range c.engineOpts {
		engines := fio.OptionEngines(o.Key)
		switch {
		case !slices.Contains(engines, engine) && slices.ContainsFunc(c.enginesNamed, func(e string) bool { return slices.Contains(engines, e) }):
			// Set under an engine a [global] named and the job then left:
			// fio took it there, and the job's engine does not read it.
		case !slices.Contains(engines, engine):
			return fmt.Errorf("%s: an option of fio's %s engine, and the job's ioengine is %s (fio refuses it too); set ioengine=%s or drop %s",
				label(o), strings.Join(engines, " or "), engine, engines[0], o.Key)
		case c.run.IOEngine != "":
			c.refuse(o) // an option of an engine qdsweep runs, which qdsweep does not run
		default:
			// The job's engine is not one qdsweep runs: it says so for its
			// options, which go with it to fio.
			c.run.EngineOptions = append(c.run.EngineOptions, o)
		}
	}
	if c.uringOpt == nil || c.run.IOEngine == "io_uring" || c.run.IOEngine == "" {
		return nil
	}
	return fmt.Errorf("%s: an option of fio's io_uring engine, and the job's ioengine is %s (fio refuses it too); use ioengine=io_uring or drop %s",
		label(*c.uringOpt), c.run.IOEngine, c.uringOpt.Key)
}

// jobConv is one job's conversion under way: the run being built and what
// the options set that only the end of the job can apply.
type jobConv struct {
	run                 JobRun
	unsupported         []fio.Option
	mixSet              bool
	filename            string
	fileSize, ioSize    int64
	rateIOPS, rateBytes [2]float64            // per direction: rate_iops, rate (bytes/s)
	bs                  [2][2]int64           // per direction: bs or bsrange, smallest and largest (fio's default first)
	split               [2][]ioengine.BSShare // per direction: bssplit
	syncKey             string                // fsync or fdatasync, whichever is set
	uringOpt            *fio.Option           // the first of io_uring's options the job sets
	kbBase              int                   // fio's kb_base so far: how the sizes after it read
	engine              string                // the ioengine= the job names, as written ("": fio's default, psync)
	enginesNamed        []string              // every ioengine= the job's options name, in order
	engineOpt           fio.Option            // the last ioengine= that names an engine qdsweep does not run
	engineOpts          []fio.Option          // options that an engine adds, other than io_uring's that qdsweep runs
	steadyOpt           *fio.Option           // the steadystate= the job sets (nil: fio's default criterion)
	given               map[string]fio.Option // each option by fio's name, the last given
	verifySet           bool                  // verify= was given (verify_pattern then keeps its kind)
	zones               zoneConv              // zonemode and its sizes (finishZones)
	buf                 bufConv               // the buffer options so far (buffers.go)
	prio                *prioConv             // the priority options (nil: none given)
}

// refuse records o as an option qdsweep does not run.
func (c *jobConv) refuse(o fio.Option) error {
	c.unsupported = append(c.unsupported, o)
	return nil
}

// label names an option in an error: "line 4: size=1q" or "--size=1q".
func label(o fio.Option) string {
	kv := o.Key + "=" + o.Value
	if o.Value == "" {
		kv = o.Key // a switch given alone
	}
	if o.Line > 0 {
		return fmt.Sprintf("line %d: %s", o.Line, kv)
	}
	return "--" + kv
}

// size reads a size option under the job's kb_base so far.
// convIOSize reads io_size: bytes, or as in fio 3.33 a percentage of the
// job's region up to 100% (fio: "io_size values greater than 100% aren't
// supported").
func convIOSize(c *jobConv, _ string, o fio.Option) error {
	c.ioSize, c.run.IOSizePercent = 0, 0
	if v, ok := strings.CutSuffix(strings.TrimSpace(o.Value), "%"); ok {
		p, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || p <= 0 || p > 100 {
			return fmt.Errorf("%s: a percentage of the job's region is above 0 and at most 100%%, as in fio", label(o))
		}
		c.run.IOSizePercent = p
		return nil
	}
	var err error
	c.ioSize, err = c.size(o)
	return err
}

func (c *jobConv) size(o fio.Option) (int64, error) {
	n, err := fio.ParseSize(o.Value, c.kbBase)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", label(o), err)
	}
	return n, wholeSize(o, n)
}

// wholeSize refuses a size written with a decimal point (n: what it
// means, read as written): fio 3.33 reads a size only up to its '.'
// (size=0.5m is 0, the whole file; size=1.5m one byte, too small; bs=1.5k
// one byte), which no job file means; the fix names it whole.
func wholeSize(o fio.Option, n int64) error {
	if !strings.Contains(o.Value, ".") {
		return nil
	}
	fix := o
	fix.Value, fix.Line = units.FioSize(n), 0
	if o.Line > 0 {
		return fmt.Errorf("%s: fio 3.33 reads a size only up to its '.', so it would not run %s as written; give it whole: %s=%s",
			label(o), o.Value, fix.Key, fix.Value)
	}
	return fmt.Errorf("%s: fio 3.33 reads a size only up to its '.', so it would not run %s as written; give it whole: %s",
		label(o), o.Value, label(fix))
}

func optInteger(o fio.Option) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(o.Value))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s is not a whole number", label(o))
	}
	return n, nil
}

func optPositive(o fio.Option) (int, error) {
	n, err := optInteger(o)
	if err == nil && n < 1 {
		return 0, fmt.Errorf("%s: must be at least 1", label(o))
	}
	return n, err
}

func optBool(o fio.Option) (bool, error) {
	b, err := fio.ParseBool(o.Value)
	if err != nil {
		return false, fmt.Errorf("%s: %w", label(o), err)
	}
	return b, nil
}

func optDuration(o fio.Option) (time.Duration, error) {
	v := strings.TrimSpace(o.Value)
	if days, ok := strings.CutSuffix(v, "d"); ok {
		// fio's days ("365d"), which Go's durations lack.
		if n, err := strconv.ParseFloat(days, 64); err == nil && n >= 0 && n < 1e5 {
			return time.Duration(n * 24 * float64(time.Hour)), nil
		}
	}
	d, err := units.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", label(o), err)
	}
	return d, nil
}

// optPercent reads a 0..100 percentage option.
func optPercent(o fio.Option) (int, error) {
	n, err := optInteger(o)
	if err == nil && n > 100 {
		err = fmt.Errorf("%s: a percentage 0..100", label(o))
	}
	return n, err
}

// jobOptionHandler applies one option (key: fio's name for it) to c.
type jobOptionHandler func(c *jobConv, key string, o fio.Option) error

// handler is what qdsweep does with one fio option it runs (a row of
// fio's table that is Honoured): apply reads the option into the job being
// converted; render, where set, writes it back from a workload (the job
// files qdsweep writes for fio, fio's "job options" of a run no job file
// describes): the value, and false when the workload leaves fio's default.
type handler struct {
	apply  jobOptionHandler
	render func(wl ioengine.Workload) (string, bool)
	// as names the option whose render says what this one sets, when this
	// one has none of its own (rwmixwrite=30 is rendered rwmixread=70):
	// AsGiven writes the user's spelling in its place.
	as fio.OptionKey
}

// jobOptions are the options qdsweep runs, by fio's name; the rest are
// ignored or refused as the option table says (jobConv.other).
var jobOptions map[string]handler

func init() {
	jobOptions = map[string]handler{}
	for _, group := range []map[string]handler{fileHandlers(), ioHandlers(), verifyLogHandlers(), backlogHandlers(), zoneHandlers(), bufferHandlers(), prioHandlers(), flowHandlers(), reportingHandlers()} {
		maps.Copy(jobOptions, group)
	}
	for _, name := range fio.UringOptionNames() {
		jobOptions[name] = handler{apply: convUring, render: renderUring(name)}
	}
	for key, render := range renders {
		h := jobOptions[key]
		h.render = render
		jobOptions[key] = h
	}
}

// fileHandlers convert the options that name the files and the region
// of them a job covers.
func fileHandlers() map[string]handler {
	return map[string]handler{
		fio.OptName:      {apply: convName},
		fio.OptFilename:  {apply: convFilename},
		fio.OptDirectory: {apply: convDirectory},
		fio.OptSize: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Workload.Size, c.run.SizePercent, err = c.sizeOrPercent(o, label(o))
			return err
		}},
		fio.OptFileSize: {apply: convFileSize},
		fio.OptIOSize:   {apply: convIOSize},
		fio.OptNrFiles:  {apply: convNrFiles},
		fio.OptOffset: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Workload.Offset, c.run.OffsetPercent, err = c.sizeOrPercent(o, label(o))
			return err
		}},
		fio.OptOffsetIncrement: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Workload.OffsetIncrement, c.run.IncrementPercent, err = c.sizeOrPercent(o, label(o))
			return err
		}},
	}
}

// ioHandlers convert the options that shape the I/O: its pattern, sizes,
// depth, length, rates, think time, latency target and steadiness.
func ioHandlers() map[string]handler {
	return map[string]handler{
		fio.OptRW:                 {apply: convRW},
		fio.OptRWMixRead:          {apply: convMix},
		fio.OptRWMixWrite:         {apply: convMix, as: fio.OptRWMixRead},
		fio.OptBS:                 {apply: convBS},
		fio.OptBSRange:            {apply: convBS},
		fio.OptBSSplit:            {apply: convBSSplit},
		fio.OptBlockAlign:         {apply: convBlockAlign},
		fio.OptRandomDistribution: {apply: convDistribution},
		fio.OptPercentageRandom:   {apply: convPercentRandom},
		fio.OptRandomGenerator:    {apply: convRandomGenerator},
		fio.OptLogPrio:            {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.Logs.Prio, err = optBool(o); return err }},
		fio.OptIODepth:            {apply: convIODepth},
		fio.OptNumJobs: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Workload.NumJobs, err = optPositive(o)
			return err
		}},
		fio.OptDirect: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Workload.Direct, err = optBool(o)
			return err
		}},
		fio.OptBuffered:        {apply: convBuffered, as: fio.OptDirect},
		fio.OptRandSeed:        {apply: convRandSeed},
		fio.OptRandRepeat:      {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.RandRepeat, err = optBool(o); return err }},
		fio.OptContinueOnError: {apply: convContinueOnError},
		fio.OptRuntime:         {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.Runtime, err = optDuration(o); return err }},
		fio.OptRampTime:        {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.Ramp, err = optDuration(o); return err }},
		fio.OptTimeBased:       {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.TimeBased, err = optBool(o); return err }},
		fio.OptLoops:           {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.Loops, err = optPositive(o); return err }},
		fio.OptGroupReporting: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.GroupReporting, err = optBool(o)
			return err
		}},
		fio.OptNumberIOs:      {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.NumberIOs, err = c.size(o); return err }},
		fio.OptStartDelay:     {apply: convStartDelay},
		fio.OptPercentileList: {apply: convPercentiles},
		fio.OptEndFsync:       {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.EndFsync, err = optBool(o); return err }},
		fio.OptReadOnly:       {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.ReadOnly, err = optBool(o); return err }},
		fio.OptNoRandomMap:    {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.NoRandomMap, err = optBool(o); return err }},
		fio.OptVerify: {apply: convVerify, render: func(wl ioengine.Workload) (string, bool) {
			// verify_pattern alone is fio's header and pattern: its own row says it
			return wl.FioVerify.Kind, wl.FioVerify.Kind != "" && wl.FioVerify.Kind != ioengine.VerifyMeta
		}},
		fio.OptRateIOPS:  {apply: convRate},
		fio.OptRate:      {apply: convRate},
		fio.OptFSync:     {apply: convSync},
		fio.OptFDataSync: {apply: convSync},
		fio.OptSync:      {apply: convOpenSync},
		fio.OptInvalidate: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Workload.Invalidate, err = optBool(o)
			return err
		}},
		fio.OptFadviseHint: {apply: func(c *jobConv, _ string, o fio.Option) error {
			c.run.Workload.Fadvise = fadviseOf[o.Value] // the row's CheckAllowed took only these
			return nil
		}},
		fio.OptRateProcess: {apply: convRateProcess},
		fio.OptRateMin:     {apply: convRateFloor},
		fio.OptRateIOPSMin: {apply: convRateFloor},
		fio.OptRateCycle: {apply: func(c *jobConv, _ string, o fio.Option) error {
			n, err := optInteger(o) // fio's milliseconds
			c.run.Workload.RateMin.Cycle = time.Duration(n) * time.Millisecond
			return err
		}},
		fio.OptThinkTime:           {apply: convThink},
		fio.OptThinkTimeSpin:       {apply: convThink},
		fio.OptThinkTimeBlocks:     {apply: convThink},
		fio.OptThinkTimeBlocksType: {apply: convThink},
		fio.OptThinkTimeIOTime:     {apply: convThink},
		fio.OptLatencyTarget:       {apply: convLatencyTarget},
		fio.OptLatencyWindow:       {apply: convLatencyTarget},
		fio.OptLatencyPercentile:   {apply: convLatencyTarget},
		fio.OptLatencyRun:          {apply: convLatencyTarget},
		fio.OptSteadyState:         {apply: convSteady},
		fio.OptSteadyStateDuration: {apply: convSteady},
		fio.OptSteadyStateRampTime: {apply: convSteady},
	}
}

// backlogHandlers convert verify_backlog and verify_backlog_batch.
// reportingHandlers read fio's reporting options, which shape the job's
// fio outputs (fio.Reporting).
func reportingHandlers() map[string]handler {
	return map[string]handler{
		fio.OptClatPercentiles: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			on, err := optBool(o)
			c.run.Reporting.NoClatPercentiles = !on
			return err
		}},
		fio.OptLatPercentiles: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Reporting.LatPercentiles, err = optBool(o)
			return err
		}},
		fio.OptUnifiedRWReporting: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Reporting.Unified, err = fio.ParseUnified(o.Value)
			return err
		}},
	}
}

func backlogHandlers() map[string]handler {
	return map[string]handler{
		fio.OptVerifyBacklog: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			n, err := c.size(o)
			c.run.Workload.FioVerify.Backlog = int(n)
			return err
		}, render: func(wl ioengine.Workload) (string, bool) {
			return strconv.Itoa(wl.FioVerify.Backlog), wl.FioVerify.Backlog > 0
		}},
		fio.OptVerifyBacklogBatch: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			n, err := c.size(o)
			c.run.Workload.FioVerify.BacklogBatch = int(n)
			return err
		}, render: func(wl ioengine.Workload) (string, bool) {
			return strconv.Itoa(wl.FioVerify.BacklogBatch), wl.FioVerify.Backlog > 0 && wl.FioVerify.BacklogBatch > 0
		}},
	}
}

// verifyLogHandlers convert verification, the engine, the logs, file
// creation and the unit base.
func verifyLogHandlers() map[string]handler {
	return map[string]handler{
		fio.OptDoVerify: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			v, err := optBool(o)
			c.run.NoVerifyPass = !v
			return err
		}},
		fio.OptVerifyOnly:  {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.VerifyOnly, err = optBool(o); return err }},
		fio.OptVerifyFatal: {apply: func(_ *jobConv, _ string, o fio.Option) error { _, err := optBool(o); return err }}, // a failure ends the job either way
		// fio's verify threads check what the job read apart from it:
		// the same checks, the same errors, so each read is checked here
		// as it completes.
		fio.OptVerifyAsync: {apply: func(_ *jobConv, _ string, o fio.Option) error { _, err := optInteger(o); return err }},
		fio.OptVerifyPattern: {apply: convVerifyPattern, render: func(wl ioengine.Workload) (string, bool) {
			return "0x" + hex.EncodeToString(wl.FioVerify.Pattern), len(wl.FioVerify.Pattern) > 0
		}},
		fio.OptVerifyInterval: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Workload.FioVerify.Interval, err = c.size(o)
			return err
		}, render: func(wl ioengine.Workload) (string, bool) {
			return strconv.FormatInt(wl.FioVerify.Interval, 10), wl.FioVerify.Interval > 0
		}},
		fio.OptIOEngine:     {apply: convIOEngine},
		fio.OptWriteIOPSLog: {apply: convLog},
		fio.OptWriteBWLog:   {apply: convLog},
		fio.OptWriteLatLog:  {apply: convLog},
		fio.OptWriteHistLog: {apply: convLog},
		fio.OptLogHistMsec: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			n, err := optInteger(o)
			c.run.Logs.HistMs = int64(n)
			return err
		}},
		fio.OptLogHistCoarseness: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Logs.HistCoarse, err = optInteger(o)
			if err == nil && (c.run.Logs.HistCoarse < 0 || c.run.Logs.HistCoarse > fio.MaxHistCoarseness) {
				err = fmt.Errorf("want 0 to %d (fio's bins summed 2^N at a time)", fio.MaxHistCoarseness)
			}
			return err
		}},
		fio.OptLogAvgMsec: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			n, err := optInteger(o)
			c.run.Logs.AvgMs = int64(n)
			return err
		}},
		fio.OptPerJobLogs: {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.Logs.PerJob, err = optBool(o); return err }},
		fio.OptLogOffset:  {apply: func(c *jobConv, _ string, o fio.Option) (err error) { c.run.Logs.Offset, err = optBool(o); return err }},
		fio.OptLogMaxValue: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Logs.MaxValue, err = optBool(o)
			return err
		}},
		fio.OptLogStoreCompressed: {apply: func(_ *jobConv, _ string, o fio.Option) error {
			_, err := optBool(o) // 1 is the row's Refused (CheckRuns)
			return err
		}},
		fio.OptLogUnixEpoch: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.Logs.UnixEpoch, err = optBool(o)
			return err
		}},
		fio.OptAllowFileCreate: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			c.run.NoCreate, err = optBool(o)
			c.run.NoCreate = !c.run.NoCreate
			return err
		}},
		fio.OptKBBase: {apply: func(c *jobConv, _ string, o fio.Option) error {
			if b, ok := fio.ParseKBBase(o.Value); ok { // the row's Values refused any other
				c.kbBase = b
			}
			return nil
		}},
	}
}

// renders write a workload's options back as fio reads them (handler's
// render), for the options a workload holds.
var renders = map[string]func(wl ioengine.Workload) (string, bool){
	fio.OptFilename: renderFilename,
	fio.OptSize:     func(wl ioengine.Workload) (string, bool) { return strconv.FormatInt(wl.Size, 10), wl.Size > 0 },
	fio.OptOffset:   func(wl ioengine.Workload) (string, bool) { return strconv.FormatInt(wl.Offset, 10), wl.Offset > 0 },
	fio.OptOffsetIncrement: func(wl ioengine.Workload) (string, bool) {
		return strconv.FormatInt(wl.OffsetIncrement, 10), wl.OffsetIncrement > 0
	},
	fio.OptRW:                 func(wl ioengine.Workload) (string, bool) { return string(wl.RW) + wl.Shape.RWSuffix(), true },
	fio.OptRWMixRead:          func(wl ioengine.Workload) (string, bool) { return strconv.Itoa(wl.RWMixRead), wl.RW.Mixed() },
	fio.OptBS:                 func(wl ioengine.Workload) (string, bool) { return strconv.FormatInt(wl.BS, 10), true },
	fio.OptBSRange:            renderShape(fio.OptBSRange),
	fio.OptBSSplit:            renderShape(fio.OptBSSplit),
	fio.OptBlockAlign:         renderShape(fio.OptBlockAlign),
	fio.OptRandomDistribution: renderShape(fio.OptRandomDistribution),
	fio.OptPercentageRandom:   renderShape(fio.OptPercentageRandom),
	fio.OptIODepth:            func(wl ioengine.Workload) (string, bool) { return strconv.Itoa(wl.IODepth), true },
	fio.OptNumJobs:            func(wl ioengine.Workload) (string, bool) { return strconv.Itoa(wl.NumJobs), true },
	fio.OptDirect:             func(wl ioengine.Workload) (string, bool) { return boolOpt(wl.Direct), true },
	fio.OptRandSeed: func(wl ioengine.Workload) (string, bool) {
		return strconv.FormatUint(wl.RandSeed, 10), wl.RandSeed != 0
	},
	fio.OptNoRandomMap: func(wl ioengine.Workload) (string, bool) { return "1", wl.RW.IsRandom() && !wl.Shape.RandomMap },
	// fio drops the files' cached pages first unless told not to;
	// qdsweep's sweeps keep them, as its own engines do.
	fio.OptInvalidate: func(wl ioengine.Workload) (string, bool) { return "0", !wl.Invalidate },
	fio.OptFadviseHint: func(wl ioengine.Workload) (string, bool) {
		for v, f := range fadviseOf {
			if f == wl.Fadvise && f != ioengine.FadviseByPattern {
				return v, true
			}
		}
		return "", false
	},
	fio.OptContinueOnError: func(wl ioengine.Workload) (string, bool) { return "io", wl.ContinueOnError },
	fio.OptFSync: func(wl ioengine.Workload) (string, bool) {
		return strconv.Itoa(wl.SyncEvery), wl.SyncEvery > 0 && !wl.SyncData
	},
	fio.OptFDataSync: func(wl ioengine.Workload) (string, bool) {
		return strconv.Itoa(wl.SyncEvery), wl.SyncEvery > 0 && wl.SyncData
	},
	fio.OptSync: func(wl ioengine.Workload) (string, bool) { return wl.OpenSync, wl.OpenSync != "" },
	fio.OptRateIOPS: func(wl ioengine.Workload) (string, bool) {
		r := wl.RateIOPS
		return rateValue(r[0]) + "," + rateValue(r[1]), r != [2]float64{}
	},
	fio.OptRateProcess: func(wl ioengine.Workload) (string, bool) { return "poisson", wl.Poisson },
	fio.OptRateMin: func(wl ioengine.Workload) (string, bool) {
		r := wl.RateMin.Bytes
		return rateValue(r[0]) + "," + rateValue(r[1]), r != [2]float64{}
	},
	fio.OptRateIOPSMin: func(wl ioengine.Workload) (string, bool) {
		r := wl.RateMin.IOPS
		return rateValue(r[0]) + "," + rateValue(r[1]), r != [2]float64{}
	},
	fio.OptRateCycle: func(wl ioengine.Workload) (string, bool) {
		return strconv.FormatInt(wl.RateMin.Cycle.Milliseconds(), 10), wl.RateMin.Cycle > 0
	},
	fio.OptThinkTime:     func(wl ioengine.Workload) (string, bool) { return micros(wl.Think.Time), wl.Think.On() },
	fio.OptThinkTimeSpin: func(wl ioengine.Workload) (string, bool) { return micros(wl.Think.Spin), wl.Think.Spin > 0 },
	fio.OptThinkTimeBlocks: func(wl ioengine.Workload) (string, bool) {
		return strconv.Itoa(max(wl.Think.Blocks, 1)), wl.Think.BlocksSet || wl.Think.Blocks > 1
	},
	fio.OptThinkTimeBlocksType: func(wl ioengine.Workload) (string, bool) { return "issue", wl.Think.Issued },
	fio.OptThinkTimeIOTime:     func(wl ioengine.Workload) (string, bool) { return micros(wl.Think.IOTime) + "us", wl.Think.IOTime > 0 },
	fio.OptLatencyTarget:       func(wl ioengine.Workload) (string, bool) { return micros(wl.LatTarget.Target), wl.LatTarget.On() },
	fio.OptLatencyWindow:       func(wl ioengine.Workload) (string, bool) { return micros(wl.LatTarget.Window), wl.LatTarget.On() },
	fio.OptLatencyPercentile: func(wl ioengine.Workload) (string, bool) {
		return strconv.FormatFloat(wl.LatTarget.Percentile, 'f', -1, 64), wl.LatTarget.On() && wl.LatTarget.Percentile > 0
	},
	fio.OptLatencyRun: func(wl ioengine.Workload) (string, bool) { return "1", wl.LatTarget.On() && wl.LatTarget.Run },
}

// micros is d in fio's microseconds, the unit of its time options.
func micros(d time.Duration) string { return strconv.FormatInt(d.Microseconds(), 10) }

// renderFilename is fio's filename= of wl: its files joined with ':',
// each with fio's escapes (JobOptions refuses a name fio would misread).
func renderFilename(wl ioengine.Workload) (string, bool) {
	files := wl.Files
	if len(files) < 2 {
		files = []string{wl.Filename}
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i], _ = fio.EscapeFilename(f)
		if names[i] == "" {
			names[i] = f
		}
	}
	return strings.Join(names, ":"), wl.Filename != ""
}

// renderShape renders one of fio's shape options (bssplit,
// random_distribution …), as ioengine.Shape.Values gives it.
func renderShape(name string) func(wl ioengine.Workload) (string, bool) {
	return func(wl ioengine.Workload) (string, bool) {
		for _, kv := range shapeOptions(wl.Shape) {
			if kv[0] == name {
				return kv[1], true
			}
		}
		return "", false
	}
}

// shapeOptions are s as fio's options (row name, value), sizes in bytes;
// none for what is fio's default.
func shapeOptions(s ioengine.Shape) [][2]string {
	var out [][2]string
	for _, u := range s.Values() {
		out = append(out, [2]string{fio.OptionName(SettingKey(u.Setting)), u.Value})
	}
	return out
}

// shapeText is s as fio's options, "bssplit=4096/50:65536/50
// random_distribution=zipf:1.2" ("" for fio's defaults), with rw's suffix
// as "rw=…:8192".
func shapeText(s ioengine.Shape) string {
	var parts []string
	for _, kv := range shapeOptions(s) {
		parts = append(parts, kv[0]+"="+kv[1])
	}
	if x := s.RWSuffix(); x != "" {
		parts = append(parts, fio.OptRW+"=…"+x)
	}
	return strings.Join(parts, " ")
}

// renderUring renders one of fio's io_uring options, as UringPairs gives it.
func renderUring(name string) func(wl ioengine.Workload) (string, bool) {
	return func(wl ioengine.Workload) (string, bool) {
		n, ok := wl.Uring.Value(uringSettings[name])
		return strconv.Itoa(n), ok
	}
}

// rendered are wl's options, each as its handler renders it, in the order
// of fio's table; skip names those the caller writes elsewhere.
func rendered(wl ioengine.Workload, skip ...string) [][2]string {
	var out [][2]string
	for _, name := range fio.OptionNamesInOrder() {
		h := jobOptions[name]
		if h.render == nil || slices.Contains(skip, name) {
			continue
		}
		if v, ok := h.render(wl); ok {
			out = append(out, [2]string{name, v})
		}
	}
	return out
}

// isUringOption reports whether key is one of fio's io_uring options qdsweep runs.
func isUringOption(key string) bool { return slices.Contains(fio.UringOptionNames(), key) }

// uringSettings are the engine's io_uring settings by the rows of fio's
// table (fio.UringOptions) that name them: the one place a setting meets
// its name (TestUringSettingsAreRows).
var uringSettings = map[fio.OptionKey]ioengine.UringSetting{
	fio.OptFixedBufs:       ioengine.UringFixedBufs,
	fio.OptRegisterFiles:   ioengine.UringRegisterFiles,
	fio.OptSqthreadPoll:    ioengine.UringSQThreadPoll,
	fio.OptSqthreadPollCPU: ioengine.UringSQThreadCPU,
	fio.OptHiPri:           ioengine.UringHiPri,
	fio.OptNonVectored:     ioengine.UringNonVectored,
}

// UringKey is the fio option that names io_uring setting s ("" for none).
func UringKey(s ioengine.UringSetting) fio.OptionKey {
	for k, v := range uringSettings {
		if v == s {
			return k
		}
	}
	return ""
}

// uringFlagNames name io_uring's settings and the options their fixes
// name as flags (--fixedbufs, --iodepth), uringJobNames as a job file's
// options (fixedbufs, iodepth).
var (
	uringFlagNames = ioengine.UringNames{Setting: func(s ioengine.UringSetting) string { return "--" + UringKey(s) },
		IODepth: "--" + fio.OptIODepth, Engine: "--" + fio.OptIOEngine, Direct: "--" + fio.OptDirect}
	uringJobNames = ioengine.UringNames{Setting: UringKey, IODepth: fio.OptIODepth, Engine: fio.OptIOEngine, Direct: fio.OptDirect}
)

// UringPairs are o's settings as fio's io_uring options name them, in
// fio's order, each name=value; the rest keep their defaults.
func UringPairs(o ioengine.UringOptions) [][2]string {
	var out [][2]string
	for _, s := range o.Given() {
		n, _ := o.Value(s)
		out = append(out, [2]string{UringKey(s), strconv.Itoa(n)})
	}
	return out
}

// UringText is o as fio's options, "fixedbufs=1 sqthread_poll=1" ("" when
// none is set), the form a sweep's results keep; ParseUringText reads it back.
func UringText(o ioengine.UringOptions) string {
	var kv []string
	for _, p := range UringPairs(o) {
		kv = append(kv, p[0]+"="+p[1])
	}
	return strings.Join(kv, " ")
}

// ParseUringText reads UringText's form.
func ParseUringText(s string) (ioengine.UringOptions, error) {
	var o ioengine.UringOptions
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		n, err := strconv.Atoi(v)
		if err != nil {
			return o, fmt.Errorf("io_uring options: %q is not name=0 or name=1", f)
		}
		if err := SetUringOption(&o, k, n); err != nil {
			return o, fmt.Errorf("io_uring options: %w", err)
		}
	}
	return o, nil
}

// SetUringOption sets the io_uring option fio calls key to n: 0 or 1, or
// a CPU for sqthread_poll_cpu; its error names the option as a job file
// does (nonvectored=2: use 0 or 1).
func SetUringOption(o *ioengine.UringOptions, key string, n int) error {
	s, ok := uringSettings[key]
	if !ok {
		return fmt.Errorf("%q is not one of fio's io_uring options", key)
	}
	var ue *ioengine.UringError
	if err := o.Apply(s, n); errors.As(err, &ue) {
		return errors.New(ue.Line(uringJobNames))
	} else if err != nil {
		return err
	}
	return nil
}

// UringFirstKey is the fio option of the first io_uring setting o sets,
// in fio's order ("" for none): the one a refusal names.
func UringFirstKey(o ioengine.UringOptions) fio.OptionKey {
	if g := o.Given(); len(g) > 0 {
		return UringKey(g[0])
	}
	return ""
}

// settingKeys are the fio options that name the engine's settings
// (ioengine.Setting): what its refusals speak of and their fixes name.
var settingKeys = map[ioengine.Setting]fio.OptionKey{
	ioengine.SetEngine: fio.OptIOEngine, ioengine.SetFilename: fio.OptFilename, ioengine.SetSize: fio.OptSize,
	ioengine.SetOffset: fio.OptOffset, ioengine.SetOffsetIncrement: fio.OptOffsetIncrement, ioengine.SetRW: fio.OptRW,
	ioengine.SetRWMixRead: fio.OptRWMixRead, ioengine.SetBS: fio.OptBS, ioengine.SetBSSplit: fio.OptBSSplit,
	ioengine.SetBSRange: fio.OptBSRange, ioengine.SetBlockAlign: "blockalign", // fio's ba, by the name users know
	ioengine.SetPercentageRandom: fio.OptPercentageRandom, ioengine.SetRandomDistribution: fio.OptRandomDistribution,
	ioengine.SetIODepth: fio.OptIODepth, ioengine.SetNumJobs: fio.OptNumJobs, ioengine.SetDirect: fio.OptDirect,
	ioengine.SetContinueOnError: fio.OptContinueOnError, ioengine.SetRateIOPS: fio.OptRateIOPS,
	ioengine.SetRateProcess: fio.OptRateProcess, ioengine.SetFsync: fio.OptFSync, ioengine.SetFdatasync: fio.OptFDataSync,
	ioengine.SetSync: fio.OptSync, ioengine.SetThinkTime: fio.OptThinkTime, ioengine.SetThinkTimeSpin: fio.OptThinkTimeSpin,
	ioengine.SetThinkTimeBlocks: fio.OptThinkTimeBlocks, ioengine.SetThinkTimeIOTime: fio.OptThinkTimeIOTime,
	ioengine.SetRateMin: fio.OptRateMin, ioengine.SetRateIOPSMin: fio.OptRateIOPSMin, ioengine.SetRateCycle: fio.OptRateCycle,
	ioengine.SetLatencyTarget: fio.OptLatencyTarget, ioengine.SetLatencyWindow: fio.OptLatencyWindow,
	ioengine.SetLatencyPercentile: fio.OptLatencyPercentile, ioengine.SetFlow: fio.OptFlow, ioengine.SetVerify: fio.OptVerify,
	ioengine.SetVerifyPattern: fio.OptVerifyPattern, ioengine.SetVerifyInterval: fio.OptVerifyInterval,
	ioengine.SetZoneSize: fio.OptZoneSize, ioengine.SetZoneRange: fio.OptZoneRange, ioengine.SetZoneSkip: fio.OptZoneSkip,
	ioengine.SetPrio: fio.OptPrio, ioengine.SetCmdPrio: fio.OptCmdPrioPercentage, ioengine.SetRuntime: fio.OptRuntime,
}

// SettingKey is the fio option that names the engine's setting s ("" for
// none).
func SettingKey(s ioengine.Setting) fio.OptionKey { return settingKeys[s] }

// settingFlagNames name the engine's settings as flags (--iodepth).
func settingFlagNames(s ioengine.Setting) string {
	if k := SettingKey(s); k != "" {
		return "--" + k
	}
	return ""
}

// ErrorLine is err's one line for the user: each setting the engine
// refused or names in its fix named by its flag (--iodepth: …; use
// --iodepth=32), an io_uring setting with its fix (--fixedbufs: …; drop
// --fixedbufs), a rate floor missed as fio says it (rate_iops_min=100 not
// met, …), the write guard's refusals and fixes by the flags they name
// (use --direct=0), the rest as err says it.
func ErrorLine(err error) string {
	msg := err.Error()
	walkErrors(err, func(e error) {
		var line string
		switch v := e.(type) {
		case *ioengine.FloorError:
			line = v.Line(SettingKey)
		case interface {
			Line(ioengine.SettingNames) string
		}:
			line = v.Line(settingFlagNames)
		case *ioengine.UringError:
			line = v.Line(uringFlagNames)
		default: // the write guard's own error, as the fio engine's hold returns it; any other as it is
			line = ioengine.GuardLine(e, settingFlagNames)
		}
		msg = strings.Replace(msg, e.Error(), line, 1)
	})
	return msg
}

// walkErrors calls fn on err and every error it wraps, outer first.
func walkErrors(err error, fn func(error)) {
	if err == nil {
		return
	}
	fn(err)
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		walkErrors(u.Unwrap(), fn)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			walkErrors(e, fn)
		}
	}
}

// convUring reads one of fio's io_uring options: a CPU for
// sqthread_poll_cpu (pinned with sqthread_poll; fio ignores it without),
// a boolean for the others (fixedbufs and nonvectored absent leave the
// choice to qdsweep).
func convUring(c *jobConv, key string, o fio.Option) error {
	var n int
	var err error
	if key == fio.OptSqthreadPollCPU {
		n, err = optInteger(o)
	} else {
		var b bool
		b, err = optBool(o)
		if b {
			n = 1
		}
	}
	if err != nil {
		return err
	}
	return SetUringOption(&c.run.Workload.Uring, key, n)
}

// convLog reads write_iops_log, write_bw_log, write_lat_log or
// write_hist_log: the
// logs' prefix (given alone: the job's name, as fio).
func convLog(c *jobConv, key string, o fio.Option) error {
	p := o.Value
	if p == "" {
		p = c.run.Name
	}
	switch key {
	case fio.OptWriteIOPSLog:
		c.run.Logs.IOPS = p
	case fio.OptWriteBWLog:
		c.run.Logs.BW = p
	case fio.OptWriteHistLog:
		c.run.Logs.Hist = p
	default:
		c.run.Logs.Lat = p
	}
	return nil
}

func convName(c *jobConv, _ string, o fio.Option) error {
	if o.Value != "" {
		c.run.Name = o.Value
	}
	return nil
}

// convFilename adds a filename's files to the job's, as fio 3.33 adds
// them: a job's filename= after its [global]'s, or a command line's, or
// another of its own, names more files, never others (fio writes to both
// of filename=a in [global] and filename=b in the job, half the I/O each).
func convFilename(c *jobConv, _ string, o fio.Option) error {
	if c.filename != "" && o.Value != "" {
		c.filename += ":" + o.Value
		return nil
	}
	c.filename = o.Value
	return nil
}

func convDirectory(c *jobConv, _ string, o fio.Option) error {
	if strings.Contains(o.Value, ":") {
		return c.refuse(o) // several directories
	}
	c.run.Directory = o.Value
	return nil
}

func convFileSize(c *jobConv, _ string, o fio.Option) (err error) {
	if strings.ContainsAny(o.Value, "-:,") {
		return c.refuse(o) // a range of sizes
	}
	c.fileSize, err = c.size(o)
	return err
}

func convNrFiles(c *jobConv, _ string, o fio.Option) error {
	n, err := optInteger(o)
	if err == nil && n != 1 {
		return c.refuse(o)
	}
	return err
}

func convRW(c *jobConv, _ string, o fio.Option) error {
	base, suffix, hasSuffix := strings.Cut(o.Value, ":")
	name, _ := fio.RWValue(base) // the row's Values refused any other (CheckAllowed)
	if !ioengine.RW(name).Valid() {
		// fio's trimming: not run here. The workload keeps a write's
		// direction (a trim discards data, as a write overwrites it), so
		// the write guard judges the job as fio would run it.
		c.run.Workload.RW = trimAsWrite[name]
		return c.refuse(o)
	}
	c.run.Workload.RW = ioengine.RW(name)
	c.run.Workload.Shape.Skip, c.run.Workload.Shape.RandomEvery = 0, 0
	if hasSuffix {
		return c.rwSuffix(o, suffix) // read:8k skips, randread:4 draws every 4th offset
	}
	return nil
}

// trimAsWrite is the direction the write guard judges each of fio's
// trimming rw= values by: a trim discards data, as a write overwrites it.
var trimAsWrite = map[string]ioengine.RW{"trim": ioengine.Write, "trimwrite": ioengine.Write,
	"randtrim": ioengine.RandWrite, "randtrimwrite": ioengine.RandWrite}

func convMix(c *jobConv, key string, o fio.Option) error {
	n, err := optPercent(o)
	if key == fio.OptRWMixWrite {
		n = 100 - n
	}
	c.run.Workload.RWMixRead, c.mixSet = n, true
	return err
}

func convIODepth(c *jobConv, _ string, o fio.Option) (err error) {
	wl := &c.run.Workload
	wl.IODepth, err = optPositive(o)
	if err == nil && wl.IODepth > fio.MaxIODepth {
		err = fmt.Errorf("%s: at most %d", label(o), fio.MaxIODepth)
	}
	return err
}

func convBuffered(c *jobConv, _ string, o fio.Option) error {
	b, err := optBool(o)
	c.run.Workload.Direct = !b
	return err
}

func convRandSeed(c *jobConv, _ string, o fio.Option) (err error) {
	if c.run.Workload.RandSeed, err = strconv.ParseUint(o.Value, 10, 64); err != nil {
		return fmt.Errorf("%s is not a whole number", label(o))
	}
	return nil
}

func convContinueOnError(c *jobConv, _ string, o fio.Option) error {
	switch o.Value {
	case "none", "0":
		c.run.Workload.ContinueOnError = false
	case "", "1", "all", "io", "read", "write", "verify":
		c.run.Workload.ContinueOnError = true
	default:
		return fmt.Errorf("%s: use none, io or all", label(o))
	}
	return nil
}

func convStartDelay(c *jobConv, _ string, o fio.Option) (err error) {
	if strings.Contains(o.Value, "-") {
		return c.refuse(o) // a random delay in a range
	}
	c.run.StartDelay, err = optDuration(o)
	return err
}

// convPercentiles reads percentile_list. As fio 3.33, values past the
// first fio.MaxPercentiles are dropped unread (fio says "the list
// exceeding max length 20" of each and runs with the first 20).
func convPercentiles(c *jobConv, _ string, o fio.Option) error {
	c.run.Percentiles, c.run.PercentilesDropped = nil, 0
	fields := strings.Split(o.Value, ":")
	if len(fields) > fio.MaxPercentiles {
		c.run.PercentilesDropped = len(fields) - fio.MaxPercentiles
		fields = fields[:fio.MaxPercentiles]
	}
	for _, f := range fields {
		p, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(p > 0 && p <= 100) {
			return fmt.Errorf("%s: %q is not a percentile (0 < p ≤ 100; fio separates them with ':')", label(o), f)
		}
		c.run.Percentiles = append(c.run.Percentiles, p)
	}
	sort.Float64s(c.run.Percentiles)
	return nil
}

// convSteady reads fio's steady-state options: the criterion and its
// limit (steadystate=, fio's iops_slope:0.01% when only ss_dur is set),
// the window in whole seconds (fio drops a part second) and the ramp.
func convSteady(c *jobConv, key string, o fio.Option) (err error) {
	s := &c.run.Steady
	switch key {
	case "steadystate":
		c.steadyOpt = &o
		if *s, err = fio.ParseSteadyCriterion(*s, o.Value, c.kbBase); err != nil {
			return fmt.Errorf("%s: %w", label(o), err)
		}
	case "steadystate_duration":
		s.Dur, err = optDuration(o)
		s.Dur = s.Dur.Truncate(time.Second)
	default:
		s.Ramp, err = optDuration(o)
	}
	return err
}

// checkSteady applies fio's default criterion to a window set without
// one, and refuses a test fio would make on each numjobs clone apart
// (no group_reporting): qdsweep tests a job's clones together.
func (c *jobConv) checkSteady() {
	s := &c.run.Steady
	if s.Dur <= 0 {
		*s = fio.SteadySpec{}
		return
	}
	if c.steadyOpt == nil {
		s.BW, s.Slope, s.Pct, s.Limit = fio.DefaultSteady.BW, fio.DefaultSteady.Slope, fio.DefaultSteady.Pct, fio.DefaultSteady.Limit
	}
	if c.run.Workload.NumJobs > 1 && !c.run.GroupReporting {
		c.refuse(c.given[fio.OptSteadyStateDuration]) // fio tests each clone apart
	}
}

// convVerify reads fio's verify=: crc32c (crc32c-intel), md5, meta and
// pattern run; 0 and null verify nothing; fio's other checksums are refused.
func convVerify(c *jobConv, _ string, o fio.Option) error {
	v := &c.run.Workload.FioVerify
	c.verifySet = true
	switch k := strings.ToLower(strings.TrimSpace(o.Value)); k {
	case "0", "null", "", "none":
		v.Kind = ""
	case "crc32c", "crc32c-intel":
		v.Kind = ioengine.VerifyCRC32C
	case ioengine.VerifyMD5, ioengine.VerifyPattern, ioengine.VerifyMeta:
		v.Kind = k
	default:
		return c.refuse(o)
	}
	return nil
}

// convVerifyPattern reads verify_pattern: the data of every block; without
// verify= it verifies the header and the pattern (fio's VERIFY_PATTERN).
func convVerifyPattern(c *jobConv, _ string, o fio.Option) (err error) {
	v := &c.run.Workload.FioVerify
	if v.Pattern, err = fio.ParseVerifyPattern(o.Value); err != nil {
		return fmt.Errorf("%s: %w", label(o), err)
	}
	if !c.verifySet {
		v.Kind = ioengine.VerifyMeta
	}
	return nil
}

func convRate(c *jobConv, key string, o fio.Option) error {
	r, err := rates(o, key == fio.OptRate, c.kbBase)
	switch {
	case err != nil:
		return err
	case key == fio.OptRate:
		c.rateBytes = r
	default:
		c.rateIOPS = r
	}
	return nil
}

func convSync(c *jobConv, key string, o fio.Option) error {
	n, err := optInteger(o)
	if err != nil || n == 0 {
		return err
	}
	if c.syncKey != "" && c.syncKey != key {
		return fmt.Errorf("%s: fsync and fdatasync both set; keep one", label(o))
	}
	wl := &c.run.Workload
	c.syncKey, wl.SyncEvery, wl.SyncData = key, n, key == fio.OptFDataSync
	return nil
}

func convOpenSync(c *jobConv, _ string, o fio.Option) error {
	switch v := strings.ToLower(strings.TrimSpace(o.Value)); v {
	case "", "1", "true", "sync":
		c.run.Workload.OpenSync = "sync"
	case "0", "false", "none":
		c.run.Workload.OpenSync = ""
	case "dsync":
		c.run.Workload.OpenSync = "dsync"
	default:
		return fmt.Errorf("%s: use sync, dsync or 0", label(o))
	}
	return nil
}

func convRateProcess(c *jobConv, _ string, o fio.Option) error {
	// linear or poisson: the row's Values refused any other (CheckAllowed).
	c.run.Workload.Poisson = strings.TrimSpace(o.Value) == "poisson"
	return nil
}

// convRateFloor reads fio's rate_min (bytes per second) and rate_iops_min,
// per direction as rate and rate_iops.
func convRateFloor(c *jobConv, key string, o fio.Option) error {
	r, err := rates(o, key == fio.OptRateMin, c.kbBase)
	if key == fio.OptRateMin {
		c.run.Workload.RateMin.Bytes = r
	} else {
		c.run.Workload.RateMin.IOPS = r
	}
	return err
}

// convThink reads fio's thinktime family: times in microseconds unless a
// unit says otherwise (thinktime_iotime in seconds), blocks a count.
func convThink(c *jobConv, key string, o fio.Option) (err error) {
	th := &c.run.Workload.Think
	switch key {
	case fio.OptThinkTime:
		th.Time, err = optTime(o, time.Microsecond)
	case fio.OptThinkTimeSpin:
		th.Spin, err = optTime(o, time.Microsecond)
	case fio.OptThinkTimeIOTime:
		th.IOTime, err = optTime(o, time.Second)
	case fio.OptThinkTimeBlocks:
		th.Blocks, err = optPositive(o)
		th.BlocksSet = true
	case fio.OptThinkTimeBlocksType:
		switch strings.ToLower(strings.TrimSpace(o.Value)) {
		case "complete":
			th.Issued = false
		case "issue":
			th.Issued = true
		default:
			err = fmt.Errorf("%s: use complete or issue", label(o))
		}
	}
	return err
}

// convLatencyTarget reads fio's latency_target family: the target and
// window in microseconds unless a unit says otherwise, the percentile
// 0..100 (fio's default 100), latency_run a switch.
func convLatencyTarget(c *jobConv, key string, o fio.Option) (err error) {
	lt := &c.run.Workload.LatTarget
	switch key {
	case fio.OptLatencyTarget:
		lt.Target, err = optTime(o, time.Microsecond)
	case fio.OptLatencyWindow:
		lt.Window, err = optTime(o, time.Microsecond)
	case fio.OptLatencyRun:
		lt.Run, err = optBool(o)
	case fio.OptLatencyPercentile:
		p, perr := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(o.Value, "%")), 64)
		if perr != nil || !(p >= 0 && p <= 100) {
			return fmt.Errorf("%s: a percentage 0..100, e.g. 99.9", label(o))
		}
		lt.Percentile = p
	}
	return err
}

// optTime reads one of fio's time options: a plain number is in unit
// (fio's microseconds, or seconds for the few it marks so), a suffix
// (us, ms, s, m, h, d) says its own.
func optTime(o fio.Option, unit time.Duration) (time.Duration, error) {
	v := strings.TrimSpace(o.Value)
	if n, err := strconv.ParseUint(v, 10, 63); err == nil {
		if n > uint64(math.MaxInt64/int64(unit)) {
			return 0, fmt.Errorf("%s: too long", label(o))
		}
		return time.Duration(n) * unit, nil
	}
	for _, s := range [][2]string{{"usec", "us"}, {"msec", "ms"}, {"sec", "s"}, {"min", "m"}} {
		if base, ok := strings.CutSuffix(v, s[0]); ok {
			v = base + s[1]
			break
		}
	}
	return optDuration(fio.Option{Key: o.Key, Value: v, Line: o.Line})
}

func convIOEngine(c *jobConv, _ string, o fio.Option) error {
	c.engine, c.run.IOEngine = o.Value, ""
	c.enginesNamed = append(c.enginesNamed, o.Value)
	switch o.Value {
	case "io_uring", "libaio", "psync":
		c.run.IOEngine = o.Value
	case "sync", "pvsync", "pvsync2":
		c.run.IOEngine = "psync" // one synchronous I/O at a time per job, as psync
	case ioengine.EngineNull:
		c.run.IOEngine = o.Value // every I/O done at once, no file touched, as fio's
	default:
		c.engineOpt = o // refused if the job keeps it (checkEngineOptions)
	}
	return nil
}

// other handles an option qdsweep does not run: ignored (reporting,
// naming), batching, or refused, as the option table says.
func (c *jobConv) other(key string, o fio.Option) error {
	switch fio.OptionHandling(key) {
	case fio.Ignored:
		if fio.OptionIsBool(key) {
			if _, err := optBool(o); err != nil {
				return err
			}
		}
		c.run.Ignored = append(c.run.Ignored, o.Key) // as the job spells it
	case fio.Batching:
		c.run.Batching = append(c.run.Batching, o.Key)
	default:
		if len(fio.OptionEngines(key)) > 0 {
			c.engineOpts = append(c.engineOpts, o) // judged with the job's engine (checkEngineOptions)
			return nil
		}
		return c.refuse(o)
	}
	return nil
}

// finishFileSize applies fio's filesize to the job's region: the file is
// that big, so the region ends at its end, as fio caps a job's I/O at its
// file's (size= only where it ends sooner; io_size= and loops go over the
// region again). fio 3.33, filesize=256k over a file of 8 MiB: size=1m
// reads 256 KiB, offset=128k size=1m 128 KiB. An offset at or past the
// file's end leaves no region: fio runs such a job with no I/O, qdsweep
// refuses it. A share (size=N%, offset=N%) is left to the file's size.
func (c *jobConv) finishFileSize() error {
	wl := &c.run.Workload
	if c.fileSize <= 0 || c.run.OffsetPercent > 0 || c.run.SizePercent > 0 {
		return nil
	}
	room := c.fileSize - wl.Offset
	if room <= 0 {
		return fmt.Errorf("%s=%d is at or past %s=%d, the file's end: the job has no region to do I/O in (fio runs it and does none); lower %s or raise %s",
			fio.OptOffset, wl.Offset, fio.OptFileSize, c.fileSize, fio.OptOffset, fio.OptFileSize)
	}
	if wl.Size == 0 || wl.Size > room {
		wl.Size = room
	}
	return nil
}

// finish applies what only the whole job decides: fio's default mix, the
// rate caps per direction, the size, I/O size and files.
func (c *jobConv) finish() {
	run, wl := &c.run, &c.run.Workload
	c.finishShape()
	wl.Shape.RandomMap = wl.RW.IsRandom() && (!run.NoRandomMap || run.LFSR && wl.Shape.Dist.Kind == ioengine.DistRandom)
	if !c.mixSet && wl.RW.Mixed() {
		wl.RWMixRead = fio.Row(fio.OptRWMixRead).DefaultInt()
	}
	for d := range wl.RateIOPS {
		// rate= is bytes per second: I/Os of bs bytes (never with
		// rate_iops: checkRates).
		r := c.rateIOPS[d]
		if b := c.rateBytes[d] / wl.MeanBS(d); b > 0 {
			r = b
		}
		wl.RateIOPS[d] = r
	}
	if wl.Size == 0 && c.fileSize > 0 {
		wl.Size = c.fileSize // one file per job: its size is the job's size
	}
	run.IOSize = c.ioSize
	if run.IOSize == 0 && run.IOSizePercent == 0 {
		run.IOSize = wl.Size
	}
	run.IOSize *= int64(run.Loops)
	run.Files = jobFiles(run.Name, c.filename, run.Directory, wl.NumJobs)
	if len(run.Files) > 0 {
		wl.Filename = run.Files[0]
	}
	run.Ignored = dedupSorted(run.Ignored)
	run.Batching = dedupSorted(run.Batching)
}

// Why fio's logs a job asks for are not written (JobRun.LogsIgnored).
const (
	LogsPerIO    = "per-io"    // no log_avg_msec (fio logs every I/O) on an engine that keeps no I/Os (the simulator)
	LogsPerClone = "per-clone" // numjobs > 1 on an engine without a series per clone (the simulator)
)

// jobFiles names a job's files as fio does: filename= split at ':' under
// directory, shared by every clone; without filename, one file per clone
// named "<name>.<clone>.0" under directory (or the working directory).
func jobFiles(name, filename, directory string, numjobs int) []string {
	join := func(f string) string {
		if directory == "" || strings.HasPrefix(f, "/") {
			return f
		}
		return strings.TrimSuffix(directory, "/") + "/" + f
	}
	var out []string
	if filename != "" {
		for _, f := range fio.SplitFilenames(filename) {
			if f != "" {
				out = append(out, join(f))
			}
		}
		return out
	}
	if name == "" {
		return nil
	}
	for i := 0; i < numjobs; i++ {
		out = append(out, join(fmt.Sprintf("%s.%d.0", name, i)))
	}
	return out
}

// rates reads fio's rate_iops (or, with bytes, rate) value: a number for
// reads and writes alike, or "read,write[,trim]"; an empty field or 0
// means no cap, as in fio. qdsweep does no trims, so the trim field
// changes nothing.
func rates(o fio.Option, bytes bool, kbBase int) ([2]float64, error) {
	var r [2]float64
	fields := strings.Split(o.Value, ",")
	if len(fields) > 3 {
		return r, fmt.Errorf("%s: at most three comma-separated rates (read,write,trim)", label(o))
	}
	for d := range r {
		f := ""
		switch {
		case d < len(fields):
			f = strings.TrimSpace(fields[d])
		case len(fields) == 1:
			f = strings.TrimSpace(fields[0]) // one value: every direction
		}
		if f == "" {
			continue
		}
		n, err := fio.ParseSize(f, kbBase)
		if !bytes {
			var v uint64
			v, err = strconv.ParseUint(f, 10, 63)
			n = int64(v)
		}
		if err != nil || n < 0 {
			what := "a whole number of I/Os per second"
			if bytes {
				what = "bytes per second, e.g. 10m"
			}
			return r, fmt.Errorf("%s: %q is not %s", label(o), f, what)
		}
		r[d] = float64(n)
	}
	return r, nil
}

// checkVerify refuses what qdsweep's verify phase cannot read back as
// fio does: a job that both reads and writes (fio verifies only the
// blocks it wrote), random writes without fio's random map (blocks written
// twice or never), and verify_only without verify=.
func (c *jobConv) checkVerify() {
	r, v := &c.run, c.run.Workload.FioVerify
	switch {
	case r.VerifyOnly && (v.Kind == "" || r.TimeBased || !r.Workload.RW.IsWrite()):
		c.refuse(c.given[fio.OptVerifyOnly]) // fio's verify_only of a job without a verify phase
	case v.Kind == "":
	case r.Workload.RW == ioengine.ReadWrite || r.Workload.RW == ioengine.RandRW:
		c.refuse(c.given[fio.OptVerify]) // fio verifies the blocks a mixed job wrote, qdsweep's pass the region
	case r.Workload.RW.IsRandom() && r.Workload.RW.IsWrite() && r.NoRandomMap && r.VerifyPass():
		c.refuse(c.given[fio.OptVerify]) // blocks written twice: fio checks the last of each
	case v.Backlog > 0 && (r.TimeBased || r.Workload.ContinueOnError) && r.Workload.RW.IsWrite() && !r.NoVerifyPass:
		// fio reads back within the runtime; a write that failed is never read back
		c.refuse(c.given[fio.OptVerifyBacklog])
	}
	if !r.VerifyPass() || r.VerifyOnly {
		// fio logs no write to read back without verify= or do_verify,
		// and verify_only writes nothing
		r.Workload.FioVerify.Backlog, r.Workload.FioVerify.BacklogBatch = 0, 0
	}
}

// StepShape is what every step of a sweep over wl runs beyond its plan,
// as fio's options: its shape (bssplit, random_distribution …, rw's
// suffix as rw=…:8), then its thinking and syncs (the other
// fio.SweepStep rows), "" when all are fio's defaults.
func StepShape(wl ioengine.Workload) string {
	var parts []string
	if s := shapeText(wl.Shape); s != "" {
		parts = append(parts, s)
	}
	shape := []string{fio.OptBSRange, fio.OptBlockAlign, fio.OptBSSplit, fio.OptRandomDistribution, fio.OptPercentageRandom}
	for _, kv := range rendered(wl, shape...) {
		if fio.Row(kv[0]).SweepUse() == fio.SweepStep {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	return strings.Join(parts, " ")
}
