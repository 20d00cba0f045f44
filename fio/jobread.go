package fio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/units"
)

// ErrUnsupported is wrapped when a job file asks for something qdsweep cannot run.
var ErrUnsupported = errors.New("unsupported fio job option")

// JobFile is a parsed fio job file: its [global] options and its jobs in order.
type JobFile struct {
	Global []Option  `json:"global"`
	Jobs   []JobSpec `json:"jobs"`
}

// JobSpec is one [job] section.
type JobSpec struct {
	Name    string   `json:"name"`
	Line    int      `json:"line"` // 1-based line of the section header
	Options []Option `json:"options"`
}

// Option is one key=value line ("key" alone has Value "").
type Option struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Line  int    `json:"line"`
}

// ReadJobFile reads and parses the fio job file at path.
func ReadJobFile(path string) (JobFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return JobFile{}, fmt.Errorf("open fio job file: %w", err)
	}
	defer f.Close()
	return parseJobFile(f, filepath.Dir(path), 0) // callers name the file
}

// takesValue reports whether fio's option k (or an alias) takes a value;
// a switch does not, so an empty one is set.
func takesValue(k string) bool {
	if a, ok := aliases[k]; ok {
		k = a
	}
	info, ok := options[k]
	return !ok || info.value
}

// maxIncludeDepth bounds nested include directives (a file including
// itself would loop).
const maxIncludeDepth = 8

// ParseJobFile parses a fio job file: INI sections, "key=value" or "key"
// lines, ';' and '#' comments (whole lines, or after a blank at the end of
// one), ${VAR} and fio's $pagesize, $mb_memory and $ncpus, arithmetic in
// values, and "include FILE" lines (relative to the working directory).
// Options before any section are an error, as in fio.
func ParseJobFile(r io.Reader) (JobFile, error) { return parseJobFile(r, ".", 0) }

func parseJobFile(r io.Reader, dir string, depth int) (JobFile, error) {
	var jf JobFile
	sc := bufio.NewScanner(io.LimitReader(r, 16<<20))
	line := 0
	section := -2 // -2: none yet, -1: [global], else index into jf.Jobs
	add := func(o Option) {
		if section == -1 {
			jf.Global = append(jf.Global, o)
		} else {
			jf.Jobs[section].Options = append(jf.Jobs[section].Options, o)
		}
	}
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == ';' || t[0] == '#' {
			continue
		}
		t = stripComment(t)
		if inc, ok := strings.CutPrefix(t, "include "); ok {
			// fio's include: the file's options go where the line stands.
			if depth >= maxIncludeDepth {
				return JobFile{}, fmt.Errorf("line %d: include nested deeper than %d files", line, maxIncludeDepth)
			}
			if section == -2 {
				return JobFile{}, fmt.Errorf("line %d: include outside a [section]", line)
			}
			p := strings.TrimSpace(expandVars(inc))
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			f, err := os.Open(p)
			if err != nil {
				return JobFile{}, fmt.Errorf("line %d: include: %w", line, err)
			}
			sub, err := parseJobFile(io.MultiReader(strings.NewReader("[global]\n"), f), filepath.Dir(p), depth+1)
			f.Close()
			if err != nil {
				return JobFile{}, fmt.Errorf("line %d: include %s: %w", line, p, err)
			}
			if len(sub.Jobs) > 0 {
				return JobFile{}, fmt.Errorf("line %d: include %s holds job sections; an included file holds options only", line, p)
			}
			for _, o := range sub.Global {
				o.Line = line
				add(o)
			}
			continue
		}
		if t[0] == '[' {
			if !strings.HasSuffix(t, "]") || len(t) < 3 {
				return JobFile{}, fmt.Errorf("line %d: section header %q is not [name]", line, t)
			}
			name := strings.TrimSpace(t[1 : len(t)-1])
			if name == "global" {
				section = -1
				continue
			}
			jf.Jobs = append(jf.Jobs, JobSpec{Name: name, Line: line})
			section = len(jf.Jobs) - 1
			continue
		}
		if section == -2 {
			return JobFile{}, fmt.Errorf("line %d: option %q outside a [section]", line, t)
		}
		k, v, _ := strings.Cut(t, "=")
		k = strings.TrimSpace(k)
		if k == "" {
			return JobFile{}, fmt.Errorf("line %d: option without a name", line)
		}
		raw := strings.TrimSpace(v)
		v = expandVars(raw)
		if v == "" && raw != "" && takesValue(k) {
			// fio fails such an option too ("failed parsing bs=${X}"); say why.
			return JobFile{}, fmt.Errorf("line %d: %s=%s is empty once its variables are expanded (unset in the environment?)", line, k, raw)
		}
		if n, ok, err := evalArithmetic(v); err != nil {
			return JobFile{}, fmt.Errorf("line %d: %s: %w", line, k, err)
		} else if ok {
			v = n
		}
		add(Option{Key: k, Value: v, Line: line})
	}
	if err := sc.Err(); err != nil {
		return JobFile{}, fmt.Errorf("read fio job file: %w", err)
	}
	if len(jf.Jobs) == 0 && depth == 0 {
		return JobFile{}, fmt.Errorf("no [job] section")
	}
	return jf, nil
}

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
	// RandRepeat is false when randrepeat=0: offsets differ run to run.
	RandRepeat bool `json:"randrepeat"`
	// Directory is fio's directory= ("" when not set).
	Directory string `json:"directory,omitempty"`
	// Files are the job's files as fio names them: filename= split at
	// unescaped ':' (each under Directory), else "<name>.<job>.0" for each
	// of the numjobs clones. Empty when neither filename nor name is set.
	Files []string `json:"files,omitempty"`
	// Percentiles is fio's percentile_list (percent, ascending, at most
	// 20); nil: fio's default list.
	Percentiles []float64 `json:"percentile_list,omitempty"`
	// Ignored names the options accepted but ignored (reporting, naming,
	// grouping); Batching the submission-batching options ignored.
	Ignored  []string `json:"ignored,omitempty"`
	Batching []string `json:"batching,omitempty"`
	// SizePercent and OffsetPercent are fio's size=N% and offset=N%: a share
	// of the target's own size, resolved by whoever knows it (0: not set).
	SizePercent   float64 `json:"size_percent,omitempty"`
	OffsetPercent float64 `json:"offset_percent,omitempty"`
	// Set holds every option name (aliases resolved) the job sets.
	Set map[string]bool `json:"-"`
	// GroupReporting is fio's group_reporting: numjobs clones reported as
	// one; without it each clone is reported on its own.
	GroupReporting bool `json:"group_reporting,omitempty"`
}

// Runs converts every job of the file (with [global] applied) to a
// workload. Options qdsweep cannot honour, and options fio does not have,
// are named together in one error wrapping ErrUnsupported.
func (jf JobFile) Runs() ([]JobRun, error) {
	var runs []JobRun
	var bad, unknown []string
	for _, js := range jf.Jobs {
		opts := append(append([]Option{}, jf.Global...), js.Options...)
		run, unsupported, err := convertJob(js.Name, opts)
		if err != nil && js.Line == 0 {
			return nil, err // a command line: the option names itself
		}
		if err != nil {
			return nil, fmt.Errorf("job [%s] (line %d): %w", js.Name, js.Line, err)
		}
		for _, u := range unsupported {
			if OptionHandling(u.Key) == Unknown {
				d := strings.Replace(describeOption(u), " (not a fio option; did you mean", " (did you mean", 1)
				unknown = append(unknown, strings.Replace(d, " (not a fio option)", "", 1))
			} else {
				bad = append(bad, describeOption(u))
			}
		}
		runs = append(runs, run)
	}
	if len(unknown) > 0 {
		// fio refuses these too: a typo, not a workload qdsweep lacks.
		msg := fmt.Sprintf("%s: %s", ErrNotFio.Error(), strings.Join(dedupSorted(unknown), ", "))
		if len(bad) > 0 {
			msg += "; and options qdsweep does not run: " + strings.Join(dedupSorted(bad), ", ")
		}
		return runs, &notFioError{msg}
	}
	if len(bad) > 0 {
		bad = dedupSorted(bad)
		return runs, fmt.Errorf("%w: %s", ErrUnsupported, strings.Join(bad, ", "))
	}
	return runs, nil
}

// ErrNotFio is wrapped by Runs' error when a job sets an option fio does
// not have (fio refuses such a job too).
var ErrNotFio = errors.New("not fio options")

// notFioError is ErrNotFio with the options named.
type notFioError struct{ msg string }

func (e *notFioError) Error() string        { return e.msg }
func (e *notFioError) Is(target error) bool { return target == ErrNotFio }

// Groups returns, for each job of jf in order, the group it runs in, as
// fio schedules a job file: jobs run together until one says stonewall
// (wait_for_previous) or wait_for, which waits for the jobs before it and
// starts the next group; a [global] stonewall makes every job wait for the
// one before. wait_for=NAME is taken as waiting for every job before it
// (fio waits for NAME alone). new_group changes fio's reporting only.
func (jf JobFile) Groups() []int {
	waits := func(opts []Option) bool {
		for _, o := range opts {
			switch o.Key {
			case "stonewall", "wait_for_previous":
				if o.Value == "" || o.Value != "0" {
					return true
				}
			case "wait_for":
				if o.Value != "" {
					return true
				}
			}
		}
		return false
	}
	all := waits(jf.Global)
	groups := make([]int, len(jf.Jobs))
	g := 0
	for i, js := range jf.Jobs {
		if i > 0 && (all || waits(js.Options)) {
			g++
		}
		groups[i] = g
	}
	return groups
}

// describeOption names an option for a message: "rate_iops=500 (line 4)"
// from a job file, "--rate_iops=500" from a command line (Line 0).
func describeOption(o Option) string {
	s := o.Key
	if o.Value != "" {
		s += "=" + o.Value
	}
	if o.Line == 0 {
		s = "--" + s
	}
	if OptionHandling(o.Key) == Unknown {
		if near := closestOption(o.Key); near != "" {
			s += " (not a fio option; did you mean --" + near + "?)"
		} else {
			s += " (not a fio option)"
		}
	}
	if o.Line > 0 {
		s += fmt.Sprintf(" (line %d)", o.Line)
	}
	return s
}

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

// sizeOrPercent reads fio's size and offset: a size with fio's suffixes,
// or "N%" of the target's own size (pct > 0, n 0). label names the option
// in an error.
func sizeOrPercent(o Option, label string) (n int64, pct float64, err error) {
	if v, ok := strings.CutSuffix(strings.TrimSpace(o.Value), "%"); ok {
		p, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || p < 0 || p > 100 || p == 0 && o.Key != "offset" {
			return 0, 0, fmt.Errorf("%s: a percentage of the target is from 0 to 100%%", label)
		}
		return 0, p, nil
	}
	n, err = units.ParseSize(o.Value)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", label, err)
	}
	return n, 0, nil
}

// SplitFilenames splits fio's filename= at ':' ("a:b" is two files; "\:"
// is a literal colon, as fio escapes it).
func SplitFilenames(v string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '\\' && i+1 < len(v) && v[i+1] == ':':
			cur.WriteByte(':')
			i++
		case v[i] == ':':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(v[i])
		}
	}
	return append(out, cur.String())
}

// fioBool reads a fio boolean option: "", "1", "true", "yes", "on" are
// true; "0", "false", "no", "off" false.
func fioBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not 0 or 1", v)
}

// convertJob maps one job's options (later ones win) onto a workload.
func convertJob(name string, opts []Option) (JobRun, []Option, error) {
	c := &jobConv{run: JobRun{Name: name, Workload: ioengine.Workload{RW: ioengine.Read, BS: 4096, IODepth: 1, NumJobs: 1, Invalidate: true},
		Loops: 1, RandRepeat: true, Set: map[string]bool{}}}
	for _, o := range opts {
		key := OptionName(o.Key)
		c.run.Set[key] = true
		var err error
		if h, ok := jobOptions[key]; ok {
			if uringOption[key] && c.uringOpt == nil {
				c.uringOpt = &o
			}
			err = h(c, key, o)
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
	c.finish()
	return c.run, c.unsupported, nil
}

// checkEngineOptions refuses io_uring's options in a job whose ioengine=
// names another engine, as fio does ("Bad option"). A job that names none
// is judged with the engine it runs on (fio's default psync, or the one
// qdsweep's --ioengine picks: fio's io_uring under --ioengine=fio).
func (c *jobConv) checkEngineOptions() error {
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
	unsupported         []Option
	mixSet              bool
	filename            string
	fileSize, ioSize    int64
	rateIOPS, rateBytes [2]float64 // per direction: rate_iops, rate (bytes/s)
	syncKey             string     // fsync or fdatasync, whichever is set
	uringOpt            *Option    // the first of io_uring's options the job sets
}

// refuse records o as an option qdsweep does not run.
func (c *jobConv) refuse(o Option) error {
	c.unsupported = append(c.unsupported, o)
	return nil
}

// label names an option in an error: "line 4: size=1q" or "--size=1q".
func label(o Option) string {
	kv := o.Key + "=" + o.Value
	if o.Value == "" {
		kv = o.Key // a switch given alone
	}
	if o.Line > 0 {
		return fmt.Sprintf("line %d: %s", o.Line, kv)
	}
	return "--" + kv
}

func optSize(o Option) (int64, error) {
	n, err := units.ParseSize(o.Value)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", label(o), err)
	}
	return n, nil
}

func optInteger(o Option) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(o.Value))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s is not a whole number", label(o))
	}
	return n, nil
}

func optPositive(o Option) (int, error) {
	n, err := optInteger(o)
	if err == nil && n < 1 {
		return 0, fmt.Errorf("%s: must be at least 1", label(o))
	}
	return n, err
}

func optBool(o Option) (bool, error) {
	b, err := fioBool(o.Value)
	if err != nil {
		return false, fmt.Errorf("%s: %w", label(o), err)
	}
	return b, nil
}

func optDuration(o Option) (time.Duration, error) {
	d, err := units.ParseDuration(o.Value)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", label(o), err)
	}
	return d, nil
}

// optPercent reads a 0..100 percentage option.
func optPercent(o Option) (int, error) {
	n, err := optInteger(o)
	if err == nil && n > 100 {
		err = fmt.Errorf("%s: a percentage 0..100", label(o))
	}
	return n, err
}

// jobOptionHandler applies one option (key: fio's name for it) to c.
type jobOptionHandler func(c *jobConv, key string, o Option) error

// jobOptions are the options qdsweep runs, by fio's name; the rest are
// ignored or refused as the option table says (jobConv.other).
var jobOptions map[string]jobOptionHandler

func init() {
	jobOptions = map[string]jobOptionHandler{
		"name":      convName,
		"filename":  func(c *jobConv, _ string, o Option) error { c.filename = o.Value; return nil },
		"directory": convDirectory,
		"size": func(c *jobConv, _ string, o Option) (err error) {
			c.run.Workload.Size, c.run.SizePercent, err = sizeOrPercent(o, label(o))
			return err
		},
		"filesize": convFileSize,
		"io_size":  func(c *jobConv, _ string, o Option) (err error) { c.ioSize, err = optSize(o); return err },
		"nrfiles":  convNrFiles,
		"offset": func(c *jobConv, _ string, o Option) (err error) {
			c.run.Workload.Offset, c.run.OffsetPercent, err = sizeOrPercent(o, label(o))
			return err
		},
		"offset_increment": func(c *jobConv, _ string, o Option) (err error) {
			c.run.Workload.OffsetIncrement, err = optSize(o)
			return err
		},
		"rw":         convRW,
		"rwmixread":  convMix,
		"rwmixwrite": convMix,
		"bs":         convBS,
		"bsrange":    convBS,
		"iodepth":    convIODepth,
		"numjobs": func(c *jobConv, _ string, o Option) (err error) {
			c.run.Workload.NumJobs, err = optPositive(o)
			return err
		},
		"direct":            func(c *jobConv, _ string, o Option) (err error) { c.run.Workload.Direct, err = optBool(o); return err },
		"buffered":          convBuffered,
		"randseed":          convRandSeed,
		"randrepeat":        func(c *jobConv, _ string, o Option) (err error) { c.run.RandRepeat, err = optBool(o); return err },
		"continue_on_error": convContinueOnError,
		"runtime":           func(c *jobConv, _ string, o Option) (err error) { c.run.Runtime, err = optDuration(o); return err },
		"ramp_time":         func(c *jobConv, _ string, o Option) (err error) { c.run.Ramp, err = optDuration(o); return err },
		"time_based":        func(c *jobConv, _ string, o Option) (err error) { c.run.TimeBased, err = optBool(o); return err },
		"loops":             func(c *jobConv, _ string, o Option) (err error) { c.run.Loops, err = optPositive(o); return err },
		"group_reporting": func(c *jobConv, _ string, o Option) (err error) {
			c.run.GroupReporting, err = optBool(o)
			return err
		},
		"number_ios":      func(c *jobConv, _ string, o Option) (err error) { c.run.NumberIOs, err = optSize(o); return err },
		"startdelay":      convStartDelay,
		"percentile_list": convPercentiles,
		"end_fsync":       func(c *jobConv, _ string, o Option) (err error) { c.run.EndFsync, err = optBool(o); return err },
		"readonly":        func(c *jobConv, _ string, o Option) (err error) { c.run.ReadOnly, err = optBool(o); return err },
		"norandommap":     func(*jobConv, string, Option) error { return nil }, // qdsweep draws random offsets with repeats, as norandommap
		"verify":          convVerify,
		"rate_iops":       convRate,
		"rate":            convRate,
		"fsync":           convSync,
		"fdatasync":       convSync,
		"sync":            convOpenSync,
		"invalidate": func(c *jobConv, _ string, o Option) (err error) {
			c.run.Workload.Invalidate, err = optBool(o)
			return err
		},
		"rate_process": convRateProcess,
		"do_verify":    func(*jobConv, string, Option) error { return nil }, // without verify= there is nothing to verify
		"ioengine":     convIOEngine,
		// fio's io_uring engine options.
		"fixedbufs":   func(c *jobConv, _ string, o Option) error { return optChoice(o, &c.run.Workload.Uring.FixedBufs) },
		"nonvectored": func(c *jobConv, _ string, o Option) error { return optChoice(o, &c.run.Workload.Uring.NonVectored) },
		"registerfiles": func(c *jobConv, _ string, o Option) (err error) {
			c.run.Workload.Uring.RegisterFiles, err = optBool(o)
			return err
		},
		"sqthread_poll": func(c *jobConv, _ string, o Option) (err error) {
			c.run.Workload.Uring.SQThreadPoll, err = optBool(o)
			return err
		},
		"hipri": func(c *jobConv, _ string, o Option) (err error) {
			c.run.Workload.Uring.HiPri, err = optBool(o)
			return err
		},
		"sqthread_poll_cpu": convSQThreadCPU,
	}
}

// uringOption are the options of fio's io_uring engine qdsweep runs.
var uringOption = map[string]bool{"fixedbufs": true, "nonvectored": true, "registerfiles": true,
	"sqthread_poll": true, "hipri": true, "sqthread_poll_cpu": true}

// optChoice reads a boolean fio option whose absence leaves the choice to
// qdsweep: 1 is On, 0 is Off.
func optChoice(o Option, dst *ioengine.Choice) error {
	b, err := optBool(o)
	*dst = ioengine.Off
	if b {
		*dst = ioengine.On
	}
	return err
}

// convSQThreadCPU reads sqthread_poll_cpu: the CPU the SQ poll thread is
// pinned to (with sqthread_poll; fio ignores it without).
func convSQThreadCPU(c *jobConv, _ string, o Option) (err error) {
	u := &c.run.Workload.Uring
	u.SQThreadCPU, err = optInteger(o)
	u.SQThreadPin = err == nil
	return err
}

func convName(c *jobConv, _ string, o Option) error {
	if o.Value != "" {
		c.run.Name = o.Value
	}
	return nil
}

func convDirectory(c *jobConv, _ string, o Option) error {
	if strings.Contains(o.Value, ":") {
		return c.refuse(o) // several directories
	}
	c.run.Directory = o.Value
	return nil
}

func convFileSize(c *jobConv, _ string, o Option) (err error) {
	if strings.ContainsAny(o.Value, "-:,") {
		return c.refuse(o) // a range of sizes
	}
	c.fileSize, err = optSize(o)
	return err
}

func convNrFiles(c *jobConv, _ string, o Option) error {
	n, err := optInteger(o)
	if err == nil && n != 1 {
		return c.refuse(o)
	}
	return err
}

func convRW(c *jobConv, _ string, o Option) error {
	switch ioengine.RW(o.Value) {
	case ioengine.Read, ioengine.Write, ioengine.RandRead, ioengine.RandWrite, ioengine.ReadWrite, ioengine.RandRW:
		c.run.Workload.RW = ioengine.RW(o.Value)
	case "readwrite":
		c.run.Workload.RW = ioengine.ReadWrite
	default:
		base, _, _ := strings.Cut(o.Value, ":")
		switch base {
		case "read", "write", "randread", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim", "trimwrite", "randtrimwrite":
			return c.refuse(o) // fio's, with a modifier (read:8k) or trimming: not run here
		}
		return fmt.Errorf("%s: fio's rw is read, write, randread, randwrite, rw (readwrite), randrw, trim, randtrim or trimwrite", label(o))
	}
	return nil
}

func convMix(c *jobConv, key string, o Option) error {
	n, err := optPercent(o)
	if key == "rwmixwrite" {
		n = 100 - n
	}
	c.run.Workload.RWMixRead, c.mixSet = n, true
	return err
}

// convBS reads bs (and bsrange): one size, or fio's per-direction
// ("4k,4k") and ranged ("4k-4k") forms when every size they name is the
// same; sizes that differ between directions or within a range are
// refused (qdsweep runs one block size).
func convBS(c *jobConv, _ string, o Option) (err error) {
	if strings.Contains(o.Value, ":") {
		return c.refuse(o)
	}
	var bs int64
	for _, dir := range strings.Split(o.Value, ",") {
		for _, part := range strings.Split(dir, "-") {
			if strings.TrimSpace(part) == "" && strings.Contains(o.Value, ",") {
				continue // "4k," leaves a direction at the others' size
			}
			n, err := optSize(Option{Key: o.Key, Value: part, Line: o.Line})
			if err != nil {
				return err
			}
			if bs != 0 && n != bs {
				return c.refuse(o) // per-direction or ranged sizes
			}
			bs = n
		}
	}
	if bs < 1 {
		return fmt.Errorf("%s: must be at least 1 byte", label(o))
	}
	c.run.Workload.BS = bs
	return nil
}

func convIODepth(c *jobConv, _ string, o Option) (err error) {
	wl := &c.run.Workload
	wl.IODepth, err = optPositive(o)
	if err == nil && wl.IODepth > maxIODepth {
		err = fmt.Errorf("%s: at most %d", label(o), maxIODepth)
	}
	return err
}

func convBuffered(c *jobConv, _ string, o Option) error {
	b, err := optBool(o)
	c.run.Workload.Direct = !b
	return err
}

func convRandSeed(c *jobConv, _ string, o Option) (err error) {
	if c.run.Workload.RandSeed, err = strconv.ParseUint(o.Value, 10, 64); err != nil {
		return fmt.Errorf("%s is not a whole number", label(o))
	}
	return nil
}

func convContinueOnError(c *jobConv, _ string, o Option) error {
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

func convStartDelay(c *jobConv, _ string, o Option) (err error) {
	if strings.Contains(o.Value, "-") {
		return c.refuse(o) // a random delay in a range
	}
	c.run.StartDelay, err = optDuration(o)
	return err
}

func convPercentiles(c *jobConv, _ string, o Option) error {
	c.run.Percentiles = nil
	for _, f := range strings.Split(o.Value, ":") {
		p, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(p > 0 && p <= 100) {
			return fmt.Errorf("%s: %q is not a percentile (0 < p ≤ 100; fio separates them with ':')", label(o), f)
		}
		c.run.Percentiles = append(c.run.Percentiles, p)
	}
	if len(c.run.Percentiles) > maxPercentileList {
		return fmt.Errorf("%s: at most %d percentiles", label(o), maxPercentileList)
	}
	sort.Float64s(c.run.Percentiles)
	return nil
}

func convVerify(c *jobConv, _ string, o Option) error {
	if v := strings.ToLower(o.Value); v != "0" && v != "null" && v != "" {
		return c.refuse(o)
	}
	return nil
}

func convRate(c *jobConv, key string, o Option) error {
	r, err := rates(o, key == "rate", label)
	switch {
	case err != nil:
		return err
	case key == "rate":
		c.rateBytes = r
	default:
		c.rateIOPS = r
	}
	return nil
}

func convSync(c *jobConv, key string, o Option) error {
	n, err := optInteger(o)
	if err != nil || n == 0 {
		return err
	}
	if c.syncKey != "" && c.syncKey != key {
		return fmt.Errorf("%s: fsync and fdatasync both set; keep one", label(o))
	}
	wl := &c.run.Workload
	c.syncKey, wl.SyncEvery, wl.SyncData = key, n, key == "fdatasync"
	return nil
}

func convOpenSync(c *jobConv, _ string, o Option) error {
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

func convRateProcess(c *jobConv, _ string, o Option) error {
	if v := strings.ToLower(strings.TrimSpace(o.Value)); v != "linear" {
		return c.refuse(o) // poisson arrivals
	}
	return nil
}

func convIOEngine(c *jobConv, _ string, o Option) error {
	switch o.Value {
	case "io_uring", "libaio", "psync":
		c.run.IOEngine = o.Value
	case "sync", "pvsync":
		c.run.IOEngine = "psync" // one synchronous I/O at a time per job, as psync
	default:
		return c.refuse(o)
	}
	return nil
}

// other handles an option qdsweep does not run: ignored (reporting,
// naming), batching, or refused, as the option table says.
func (c *jobConv) other(key string, o Option) error {
	switch OptionHandling(key) {
	case Ignored:
		if isBoolOption(key) {
			if _, err := optBool(o); err != nil {
				return err
			}
		}
		c.run.Ignored = append(c.run.Ignored, key)
	case Batching:
		c.run.Batching = append(c.run.Batching, key)
	default:
		return c.refuse(o)
	}
	return nil
}

// finish applies what only the whole job decides: fio's default mix, the
// rate caps per direction, the size, I/O size and files.
func (c *jobConv) finish() {
	run, wl := &c.run, &c.run.Workload
	if !c.mixSet && (wl.RW == ioengine.ReadWrite || wl.RW == ioengine.RandRW) {
		wl.RWMixRead = 50 // fio's default
	}
	for d := range wl.RateIOPS {
		// rate= is bytes per second: I/Os of bs bytes. With both set fio
		// keeps to the lower.
		r := c.rateIOPS[d]
		if b := c.rateBytes[d] / float64(wl.BS); b > 0 && (r == 0 || b < r) {
			r = b
		}
		wl.RateIOPS[d] = r
	}
	if wl.Size == 0 && c.fileSize > 0 {
		wl.Size = c.fileSize // one file per job: its size is the job's size
	}
	run.IOSize = c.ioSize
	if run.IOSize == 0 {
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
		for _, f := range SplitFilenames(filename) {
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
func rates(o Option, bytes bool, label func(Option) string) ([2]float64, error) {
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
		n, err := units.ParseSize(f)
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
