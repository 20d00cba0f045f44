package fio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ErrUnsupported is wrapped when a job file asks for something qdsweep cannot run.
var ErrUnsupported = errors.New("unsupported fio job option")

// JobFile is a parsed fio job file: its [global] options and its jobs in order.
type JobFile struct {
	Global []Option  `json:"global"`
	Jobs   []JobSpec `json:"jobs"`
	// DroppedIncludes are the include lines' files (as written) that hold
	// a section: fio 3.33 reads none of such a file ("No new sections in
	// included files") and ends the section holding the include there.
	DroppedIncludes []string `json:"dropped_includes,omitempty"`
	// sections says an included file (or one it includes) holds a
	// section: fio read it up to there.
	sections bool
	// globals are the file's [global] sections in order: where each ends
	// in Global and how many jobs come before it (ShowCmd).
	globals []globalPart
}

// globalPart is one [global] section of a job file: its options end at
// Global[:end], and jobs job sections come before it.
type globalPart struct{ end, jobs int }

// JobSpec is one [job] section.
type JobSpec struct {
	Name    string   `json:"name"`
	Line    int      `json:"line"` // 1-based line of the section header
	Options []Option `json:"options"`
	// LaterGlobals is how many of the file's [global] options, the last
	// ones, come after this job's section: fio reads a job file in order,
	// so they do not apply to it (see Scoped).
	LaterGlobals int `json:"later_globals,omitempty"`
}

// Scoped is job i's options in the order fio applies them: the [global]
// options written before its section, then its own. A [global] name=
// names no job (fio names a job after its section unless the section
// itself says name=).
func (jf JobFile) Scoped(i int) []Option {
	js := jf.Jobs[i]
	n := max(len(jf.Global)-js.LaterGlobals, 0)
	out := make([]Option, 0, n+len(js.Options))
	for _, o := range jf.Global[:n] {
		if OptionName(o.Key) != OptName {
			out = append(out, o)
		}
	}
	return append(out, js.Options...)
}

// WithDefaults is jf with opts (a command line's options) before every
// [global] option: fio reads its command line first, so its options are
// defaults the file's [global] sections and jobs may set again.
func (jf JobFile) WithDefaults(opts []Option) JobFile {
	jf.Global = append(append([]Option{}, opts...), jf.Global...)
	return jf
}

// firstOfBatch moves fio's options that change how the others are read
// (kb_base, unit_base: fio's options of priority 1) to the front of
// opts[from:], keeping the order of the rest: fio sorts a section's
// options so before it reads them. A command line is read in order.
func firstOfBatch(opts []Option, from int) {
	batch := opts[from:]
	slices.SortStableFunc(batch, func(a, b Option) int {
		return cmpBool(readsFirst(b.Key), readsFirst(a.Key))
	})
}

// readsFirst reports whether fio reads option key before the others of
// its section.
func readsFirst(key string) bool {
	k := OptionName(key)
	return k == OptKBBase || k == OptUnitBase
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
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

// parseJobFile reads one job file, or one included depth deep, whose
// includes are relative to dir.
func parseJobFile(r io.Reader, dir string, depth int) (JobFile, error) {
	jr := &jobReader{dir: dir, depth: depth, section: noSection}
	sc := bufio.NewScanner(io.LimitReader(r, 16<<20))
	for sc.Scan() {
		jr.line++
		t := stripComment(strings.TrimSpace(sc.Text()))
		if t == "" {
			continue
		}
		var err error
		if inc, ok := strings.CutPrefix(t, "include "); ok {
			err = jr.include(inc)
		} else if t[0] == '[' && depth > 0 && jr.line > 1 { // past the "[global]" include adds
			// fio stops at it and keeps nothing of the file.
			jr.jf.sections, jr.jf.Global = true, nil
			break
		} else if t[0] == '[' {
			err = jr.header(t)
		} else {
			err = jr.option(t)
		}
		if err != nil {
			return JobFile{}, err
		}
		if depth > 0 && jr.jf.sections {
			break // fio stops at an include it dropped, keeping what came before
		}
	}
	if err := sc.Err(); err != nil {
		return JobFile{}, fmt.Errorf("read fio job file: %w", err)
	}
	jr.endSection()
	jf := jr.jf
	for i := range jf.Jobs {
		jf.Jobs[i].LaterGlobals += len(jf.Global) // the globals written after the section
	}
	if len(jf.Jobs) == 0 && depth == 0 {
		return JobFile{}, fmt.Errorf("no [job] section")
	}
	return jf, jr.unset
}

// Sections of a job file being read: jobReader.section is one of these or
// the index of a job in JobFile.Jobs.
const (
	noSection     = -2 // none yet
	globalSection = -1 // [global]
)

// jobReader is one job file being read, line by line.
type jobReader struct {
	jf      JobFile
	dir     string // the file's directory, for relative includes
	depth   int    // how many includes deep
	unset   error  // the first option a variable left empty
	line    int
	section int // noSection, globalSection, else index into jf.Jobs
	dropped int // the line of the last include that ended its section (DroppedIncludes)
	batch   int // where the [global] section being read starts in jf.Global
}

// endSection closes the section being read.
func (jr *jobReader) endSection() {
	switch {
	case jr.section == globalSection:
		firstOfBatch(jr.jf.Global, jr.batch)
		if jr.depth == 0 {
			jr.jf.globals = append(jr.jf.globals, globalPart{end: len(jr.jf.Global), jobs: len(jr.jf.Jobs)})
		}
	case jr.section >= 0:
		firstOfBatch(jr.jf.Jobs[jr.section].Options, 0)
	}
}

// add puts o in the section being read.
func (jr *jobReader) add(o Option) {
	if jr.section == globalSection {
		jr.jf.Global = append(jr.jf.Global, o)
	} else {
		jr.jf.Jobs[jr.section].Options = append(jr.jf.Jobs[jr.section].Options, o)
	}
}

// include reads fio's include: the file's options go where the line
// stands; a file holding a section is dropped (DroppedIncludes).
func (jr *jobReader) include(inc string) error {
	line := jr.line
	if jr.depth >= maxIncludeDepth {
		return fmt.Errorf("line %d: include nested deeper than %d files", line, maxIncludeDepth)
	}
	if jr.section == noSection {
		return fmt.Errorf("line %d: include outside a [section]", line)
	}
	p := strings.TrimSpace(expandVars(inc))
	if !filepath.IsAbs(p) {
		p = filepath.Join(jr.dir, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("line %d: include: %w", line, err)
	}
	sub, err := parseJobFile(io.MultiReader(strings.NewReader("[global]\n"), f), filepath.Dir(p), jr.depth+1)
	f.Close()
	if err != nil {
		return fmt.Errorf("line %d: include %s: %w", line, p, err)
	}
	for _, o := range sub.Global {
		o.Line = line
		jr.add(o)
	}
	if sub.sections {
		// As fio: a file holding a section counts for nothing, one
		// including it for its options before that include, and the
		// section of the job file it stands in ends here (an option after
		// it is outside any section).
		jr.jf.sections = true
		if jr.depth == 0 {
			jr.jf.DroppedIncludes = append(jr.jf.DroppedIncludes, strings.TrimSpace(inc))
			jr.endSection()
			jr.section, jr.dropped = noSection, line
		}
	}
	return nil
}

// header starts the section a [name] line opens.
func (jr *jobReader) header(t string) error {
	if !strings.HasSuffix(t, "]") || len(t) < 3 {
		return fmt.Errorf("line %d: section header %q is not [name]", jr.line, t)
	}
	name := strings.TrimSpace(t[1 : len(t)-1])
	jr.endSection()
	if name == "global" {
		jr.section, jr.batch = globalSection, len(jr.jf.Global)
		return nil
	}
	jr.jf.Jobs = append(jr.jf.Jobs, JobSpec{Name: name, Line: jr.line, LaterGlobals: -len(jr.jf.Global)})
	jr.section = len(jr.jf.Jobs) - 1
	return nil
}

// option reads a key=value line: its variables expanded, its arithmetic
// evaluated.
func (jr *jobReader) option(t string) error {
	line := jr.line
	if jr.section == noSection && jr.dropped > 0 {
		return fmt.Errorf("line %d: option %q follows the include on line %d, whose file holds a section: fio 3.33 reads none of that file and ends the section at the include (No new sections in included files); move the option above the include, or the sections out of the included file", line, t, jr.dropped)
	}
	if jr.section == noSection {
		return fmt.Errorf("line %d: option %q outside a [section]", line, t)
	}
	k, v, _ := strings.Cut(t, "=")
	k = strings.TrimSpace(k)
	if k == "" {
		return fmt.Errorf("line %d: option without a name", line)
	}
	raw := strings.TrimSpace(v)
	if raw != "" && strings.TrimLeft(v, " \t") != v && strings.Trim(raw, "0123456789") != "" && OptionName(k) != OptDescription {
		// fio 3.33 keeps the blank: a block size " 8k" runs 8-byte I/Os,
		// an rw of " read" fails, a filename " f" names " f"; only a plain
		// number reads as written. A description is free text fio only
		// prints: "description= a test" runs in fio as it does here.
		return fmt.Errorf("line %d: %s=%s has a blank after '=', which fio 3.33 keeps: a size loses its unit (8k reads as 8 bytes), a word fails to parse; write %s=%s", line, k, v, k, raw)
	}
	v = expandVars(raw)
	if v == "" && raw != "" && takesValue(k) {
		// fio fails such an option too ("failed parsing bs=${X}"); say
		// why, after reading the rest (ErrUnsetVar).
		if jr.unset == nil {
			jr.unset = &unsetVarError{fmt.Sprintf("line %d: %s=%s is empty once its variables are expanded (unset in the environment?)", line, k, raw)}
		}
		return nil
	}
	if splitOptions[OptionName(k)] {
		// A list of size/percent shares (bssplit=64k/100), never a
		// quotient: fio evaluates only a value within parentheses.
		jr.add(Option{Key: k, Value: v, Line: line})
		return nil
	}
	if n, ok, err := evalArithmetic(v); err != nil {
		return fmt.Errorf("line %d: %s: %w", line, k, err)
	} else if ok {
		v = n
	}
	jr.add(Option{Key: k, Value: v, Line: line})
	return nil
}

// splitOptions are the options whose values are lists of shares written
// with '/' (bssplit=64k/100, cmdprio_bssplit=64k/25/1/1).
var splitOptions = map[string]bool{OptBSSplit: true, OptCmdPrioBSSplit: true}

// ErrUnsetVar is wrapped when an option's value is empty once its
// variables are expanded. The JobFile returned with it holds the rest of
// the file (that option left out), so a caller can name another reason
// first: the variable is the reason only when nothing else refuses it.
var ErrUnsetVar = errors.New("a variable is unset")

// unsetVarError is ErrUnsetVar naming the option.
type unsetVarError struct{ msg string }

func (e *unsetVarError) Error() string        { return e.msg }
func (e *unsetVarError) Is(target error) bool { return target == ErrUnsetVar }

// ErrNotFio is wrapped by fioadapt.Runs' error when a job sets an option fio does
// not have (fio refuses such a job too).
var ErrNotFio = errors.New("not fio options")

// Groups returns, for each job of jf in order, its reporting group
// (fio's groupid), as fio numbers them: a job that says stonewall
// (wait_for_previous) or new_group, itself or in a [global] written before
// it, starts the next group when the group so far has a job; wait_for=NAME
// orders the jobs but keeps the group.
func (jf JobFile) Groups() []int {
	return jf.number(func(o Option) bool {
		switch OptionName(o.Key) {
		case OptStonewall, OptNewGroup:
			return switchOn(o.Value)
		}
		return false
	})
}

// Waves returns, for each job of jf in order, the wave it runs in: jobs
// of a wave start together, waves one after another. A stonewall waits
// for every job before it; new_group does not wait; wait_for=NAME holds
// its job alone until NAME ends (WaitFor), the jobs after it start with
// the wave, as in fio.
func (jf JobFile) Waves() []int {
	return jf.number(func(o Option) bool {
		return OptionName(o.Key) == OptStonewall && switchOn(o.Value)
	})
}

// WaitFor returns, for each job in order, the earlier jobs it waits for as
// fio's wait_for= makes it (indices; nil when none). names are the jobs'
// names and waitFor each job's wait_for value ("" when unset). As fio, a
// job waits for every earlier job of that name, and a name that is no
// earlier job's, or the job's own, is refused (fio: "waitee job NAME
// unknown", "a job cannot wait for itself").
func WaitFor(names, waitFor []string) ([][]int, error) {
	out := make([][]int, len(names))
	for i, w := range waitFor {
		if w == "" {
			continue
		}
		if w == names[i] {
			return nil, fmt.Errorf("job %s: %s=%s: a job cannot wait for itself (fio refuses it too)", names[i], OptWaitFor, w)
		}
		for k := 0; k < i; k++ {
			if names[k] == w {
				out[i] = append(out[i], k)
			}
		}
		if out[i] == nil {
			return nil, fmt.Errorf("job %s: %s=%s: no job before it is named %s (fio refuses it too: waitee job unknown); name an earlier job", names[i], OptWaitFor, w, w)
		}
	}
	return out, nil
}

// OrdersJobs reports whether fio option name only orders or groups a job
// file's jobs (stonewall, wait_for, new_group) or stops them (exitall, exit_what): Groups and Waves read it;
// in a run of one job it changes nothing.
func OrdersJobs(name string) bool {
	switch OptionName(name) {
	case OptStonewall, OptWaitFor, OptNewGroup, OptExitAll, OptExitWhat:
		return true
	}
	return false
}

// number numbers the jobs: a job for which starts says so of its scoped
// options (the last one of each name deciding) begins the next number.
func (jf JobFile) number(starts func(Option) bool) []int {
	out := make([]int, len(jf.Jobs))
	g := 0
	for i := range jf.Jobs {
		last := map[string]bool{}
		for _, o := range jf.Scoped(i) {
			last[OptionName(o.Key)] = starts(o)
		}
		begins := false
		for _, b := range last {
			begins = begins || b
		}
		if i > 0 && begins {
			g++
		}
		out[i] = g
	}
	return out
}

// switchOn reads a fio switch's value as fio does: given alone or with
// any value but 0 (or false, no, off) it is on.
func switchOn(v string) bool {
	b, err := ParseBool(v)
	return err != nil || b
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
