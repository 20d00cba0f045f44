package session

import (
	"os"
	"strconv"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// JobFile is the one job of a sweep's --jobfile, with the options it sets.
// A nil *JobFile is no job file: every method answers for none.
type JobFile struct {
	Run fioadapt.JobRun
	set map[string]bool // fio option names present in [global] or the job
}

// ReadSweepJobFile reads the job file a sweep measures (one job section).
// Every problem is a usage error naming the file.
func ReadSweepJobFile(path string) (*JobFile, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, Usagef("--jobfile %s: is a directory; name a fio job file", path)
	}
	jf, err := fio.ReadJobFile(path)
	if err != nil {
		return nil, Usagef("--jobfile %s: %v", path, OneLine(err))
	}
	if len(jf.Jobs) != 1 {
		return nil, Usagef("--jobfile %s: holds %d job sections; a sweep measures one workload: keep one job section (qdsweep run FILE --section=NAME runs one, qdsweep run FILE all)", path, len(jf.Jobs))
	}
	runs, err := fioadapt.Runs(jf)
	if err != nil {
		return nil, Usagef("--jobfile %s: %v", path, OneLine(err))
	}
	j := &JobFile{Run: runs[0], set: map[string]bool{}}
	for _, o := range jf.Scoped(0) {
		j.set[fio.OptionName(o.Key)] = true
	}
	return j, nil
}

// Has reports whether the job file sets one of the fio options names.
func (j *JobFile) Has(names ...string) bool {
	if j == nil {
		return false
	}
	for _, n := range names {
		if j.set[n] {
			return true
		}
	}
	return false
}

// from reports whether the value of flag comes from the job file: the file
// sets one of opts and the flag was not given.
func (j *JobFile) from(g Given, flag string, opts ...string) bool {
	return j.Has(opts...) && !g.IsSet(flag)
}

// defines reports whether the job file decides flag, set or not: the
// options that describe a fio job take fio's defaults when the file omits
// them (rw=read, bs=4k, iodepth=1, numjobs=1, direct=0), unless the flag is given.
func (j *JobFile) defines(g Given, flag string) bool {
	return j != nil && !g.IsSet(flag)
}

// ApplyShared copies what the job file sets onto the shared workload
// fields, except where a flag was given.
func (j *JobFile) ApplyShared(g Given, w *ioengine.Workload) {
	if j == nil {
		return
	}
	jw := j.Run.Workload
	if j.from(g, fio.OptFilename, fio.OptFilename) {
		w.Filename = jw.Filename
	}
	if j.from(g, fio.OptSize, fio.OptSize) {
		w.Size = jw.Size
	} else if !g.IsSet(fio.OptSize) && w.Filename != "" {
		if _, err := os.Stat(w.Filename); err == nil {
			w.Size = 0 // an existing file or device is covered whole
		}
	}
	if j.from(g, fio.OptOffset, fio.OptOffset) {
		w.Offset = jw.Offset
	}
	if j.from(g, fio.OptOffsetIncrement, fio.OptOffsetIncrement) {
		w.OffsetIncrement = jw.OffsetIncrement
	}
	if j.from(g, fio.OptRWMixRead, fio.OptRWMixRead, fio.OptRWMixWrite) {
		w.RWMixRead = jw.RWMixRead
	}
	if j.defines(g, fio.OptDirect) {
		w.Direct = jw.Direct
	}
	uringGiven := false
	for _, n := range fio.UringOptionNames() {
		uringGiven = uringGiven || g.IsSet(n)
	}
	if !uringGiven {
		w.Uring = jw.Uring
	}
	if j.from(g, fio.OptRandSeed, fio.OptRandSeed) {
		w.RandSeed = jw.RandSeed
	}
	if j.from(g, fio.OptContinueOnError, fio.OptContinueOnError) {
		w.ContinueOnError = jw.ContinueOnError
	}
	// The job's shapes (bssplit, bsrange, random_distribution …), which
	// sweep has no flags of its own for; each step keeps them.
	w.Shape = jw.Shape
}

// RW is the pattern to sweep: the flag's value, or the job file's when the
// flag was not given.
func (j *JobFile) RW(g Given, flag string) string {
	if j.defines(g, fio.OptRW) {
		return string(j.Run.Workload.RW)
	}
	return flag
}

// BS is the block size's text: the flag's, or the job file's bytes.
func (j *JobFile) BS(g Given, flag string) string {
	if j.defines(g, fio.OptBS) {
		return strconv.FormatInt(j.Run.Workload.BS, 10)
	}
	return flag
}

// NumJobs is --numjobs's text, or the job file's.
func (j *JobFile) NumJobs(g Given, flag string) string {
	if j.defines(g, fio.OptNumJobs) {
		return strconv.Itoa(j.Run.Workload.NumJobs)
	}
	return flag
}

// IOEngine is the engine named on the command line (name; given: it was),
// or the job file's when none was.
func (j *JobFile) IOEngine(name string, given bool) string {
	if j.Has(fio.OptIOEngine) && !given && j.Run.IOEngine != "" {
		return j.Run.IOEngine
	}
	return name
}
