package fio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// ErrNotFio is wrapped by fioadapt.Runs' error when a job sets an option fio does
// not have (fio refuses such a job too).
var ErrNotFio = errors.New("not fio options")

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

// DescribeOption names an option for a message: "rate_iops=500 (line 4)"
// from a job file, "--rate_iops=500" from a command line (Line 0).
func DescribeOption(o Option) string {
	s := o.Key
	if o.Value != "" {
		s += "=" + o.Value
	}
	if o.Line == 0 {
		s = "--" + s
	}
	if OptionHandling(o.Key) == Unknown {
		if near := ClosestOption(o.Key); near != "" {
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

// ParseBool reads a fio boolean option: "", "1", "true", "yes", "on" are
// true; "0", "false", "no", "off" false.
func ParseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not 0 or 1", v)
}
