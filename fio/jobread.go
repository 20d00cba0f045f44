package fio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
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
	jf, err := ParseJobFile(f)
	if err != nil {
		return JobFile{}, fmt.Errorf("%s: %w", path, err)
	}
	return jf, nil
}

// ParseJobFile parses a fio job file: INI sections, "key=value" or "key"
// lines, ';' and '#' comments. Options before any section are an error, as
// in fio.
func ParseJobFile(r io.Reader) (JobFile, error) {
	var jf JobFile
	sc := bufio.NewScanner(io.LimitReader(r, 16<<20))
	line := 0
	section := -2 // -2: none yet, -1: [global], else index into jf.Jobs
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == ';' || t[0] == '#' {
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
		o := Option{Key: k, Value: strings.TrimSpace(v), Line: line}
		if section == -1 {
			jf.Global = append(jf.Global, o)
		} else {
			jf.Jobs[section].Options = append(jf.Jobs[section].Options, o)
		}
	}
	if err := sc.Err(); err != nil {
		return JobFile{}, fmt.Errorf("read fio job file: %w", err)
	}
	if len(jf.Jobs) == 0 {
		return JobFile{}, fmt.Errorf("no [job] section")
	}
	return jf, nil
}

// JobRun is one job of a job file converted to qdsweep's vocabulary.
type JobRun struct {
	Name     string            `json:"name"`
	Workload ioengine.Workload `json:"workload"`
	IOEngine string            `json:"ioengine"` // fio's ioengine= ("" when not set)
	Runtime  time.Duration     `json:"runtime_ns"`
	Ramp     time.Duration     `json:"ramp_ns"`
}

// ignoredOptions change nothing qdsweep measures (reporting, naming, grouping).
var ignoredOptions = map[string]bool{
	"name": true, "description": true, "group_reporting": true, "stonewall": true, "wait_for_previous": true,
	"new_group": true, "thread": true, "time_based": true, "norandommap": true, "randrepeat": true,
	"invalidate": true, "exitall": true, "clocksource": true, "gtod_reduce": false, "kb_base": false,
	"percentile_list": true, "lat_percentiles": true, "clat_percentiles": true, "slat_percentiles": true,
	"disable_slat": true, "log_avg_msec": true, "do_verify": true, "fadvise_hint": true, "allrandrepeat": true,
}

// Runs converts every job of the file (with [global] applied) to a
// workload. Options qdsweep cannot honour are named together in one error
// wrapping ErrUnsupported.
func (jf JobFile) Runs() ([]JobRun, error) {
	var runs []JobRun
	var bad []string
	for _, js := range jf.Jobs {
		opts := append(append([]Option{}, jf.Global...), js.Options...)
		run, unsupported, err := convertJob(js.Name, opts)
		if err != nil {
			return nil, fmt.Errorf("job [%s] (line %d): %w", js.Name, js.Line, err)
		}
		for _, u := range unsupported {
			bad = append(bad, fmt.Sprintf("%s (line %d)", u.Key, u.Line))
		}
		runs = append(runs, run)
	}
	if len(bad) > 0 {
		bad = dedupSorted(bad)
		return nil, fmt.Errorf("%w: %s; remove them or run the file with fio itself", ErrUnsupported, strings.Join(bad, ", "))
	}
	return runs, nil
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

// convertJob maps one job's options (later ones win) onto a workload.
func convertJob(name string, opts []Option) (JobRun, []Option, error) {
	run := JobRun{Name: name, Workload: ioengine.Workload{RW: ioengine.Read, BS: 4096, IODepth: 1, NumJobs: 1}}
	mixSet := false
	wl := &run.Workload
	var unsupported []Option
	size := func(o Option) (int64, error) {
		n, err := ioengine.ParseSize(o.Value)
		if err != nil {
			return 0, fmt.Errorf("line %d: %s=%s: %w", o.Line, o.Key, o.Value, err)
		}
		return n, nil
	}
	integer := func(o Option) (int, error) {
		n, err := strconv.Atoi(o.Value)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("line %d: %s=%s is not a whole number", o.Line, o.Key, o.Value)
		}
		return n, nil
	}
	duration := func(o Option) (time.Duration, error) {
		d, err := ioengine.ParseDuration(o.Value)
		if err != nil {
			return 0, fmt.Errorf("line %d: %s=%s: %w", o.Line, o.Key, o.Value, err)
		}
		return d, nil
	}
	var err error
	for _, o := range opts {
		switch o.Key {
		case "filename":
			if strings.ContainsAny(o.Value, ":") {
				unsupported = append(unsupported, o) // several files
				continue
			}
			wl.Filename = o.Value
		case "size":
			wl.Size, err = size(o)
		case "offset":
			wl.Offset, err = size(o)
		case "offset_increment":
			wl.OffsetIncrement, err = size(o)
		case "rw", "readwrite":
			switch ioengine.RW(o.Value) {
			case ioengine.Read, ioengine.Write, ioengine.RandRead, ioengine.RandWrite, ioengine.ReadWrite, ioengine.RandRW:
				wl.RW = ioengine.RW(o.Value)
			case "readwrite":
				wl.RW = ioengine.ReadWrite
			default:
				unsupported = append(unsupported, o)
			}
		case "rwmixread":
			wl.RWMixRead, err = integer(o)
			mixSet = true
		case "rwmixwrite":
			var w int
			w, err = integer(o)
			wl.RWMixRead, mixSet = 100-w, true
		case "bs", "blocksize":
			if strings.ContainsAny(o.Value, ",:-") {
				unsupported = append(unsupported, o) // per-direction or ranged sizes
				continue
			}
			wl.BS, err = size(o)
		case "iodepth":
			wl.IODepth, err = integer(o)
		case "numjobs":
			wl.NumJobs, err = integer(o)
		case "direct":
			wl.Direct = o.Value == "" || o.Value == "1" || o.Value == "true"
		case "buffered":
			wl.Direct = o.Value == "0" || o.Value == "false"
		case "randseed":
			wl.RandSeed, err = strconv.ParseUint(o.Value, 10, 64)
			if err != nil {
				err = fmt.Errorf("line %d: randseed=%s is not a whole number", o.Line, o.Value)
			}
		case "continue_on_error":
			wl.ContinueOnError = o.Value != "none" && o.Value != "0"
		case "runtime":
			run.Runtime, err = duration(o)
		case "ramp_time":
			run.Ramp, err = duration(o)
		case "ioengine":
			switch o.Value {
			case "io_uring", "libaio", "psync":
				run.IOEngine = o.Value
			default:
				unsupported = append(unsupported, o)
			}
		default:
			if !ignoredOptions[o.Key] {
				unsupported = append(unsupported, o)
			}
		}
		if err != nil {
			return JobRun{}, nil, err
		}
	}
	if !mixSet && (wl.RW == ioengine.ReadWrite || wl.RW == ioengine.RandRW) {
		wl.RWMixRead = 50 // fio's default
	}
	if wl.IODepth < 1 || wl.NumJobs < 1 || wl.BS < 1 {
		return JobRun{}, nil, fmt.Errorf("iodepth, numjobs and bs must be at least 1")
	}
	if wl.RWMixRead > 100 {
		return JobRun{}, nil, fmt.Errorf("rwmixread %d is above 100", wl.RWMixRead)
	}
	return run, unsupported, nil
}
