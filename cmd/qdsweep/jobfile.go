package main

import (
	"errors"
	"os"
	"strconv"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/urfave/cli/v2"
)

// jobFileFlag is --jobfile, shared by run and sweep.
func jobFileFlag() cli.Flag {
	return &cli.StringFlag{Name: "jobfile", Usage: "take the workload from a fio job file ([global] and its job sections: run runs every section as fio does, sweep takes one); " +
		"flags given explicitly win; as in fio, rw, bs, iodepth, numjobs and direct the file does not set are read, 4k, 1, 1 and 0 " +
		"(sweep keeps its --iodepth list)"}
}

// jobFile is the one job of a --jobfile, with the options it sets.
type jobFile struct {
	run fioadapt.JobRun
	set map[string]bool // fio option names present in [global] or the job
}

// readJobFileFlag reads --jobfile; nil when the flag is not given. Every
// problem is a usage error naming the file.
func readJobFileFlag(c *cli.Context) (*jobFile, error) {
	path := c.String("jobfile")
	if !c.IsSet("jobfile") {
		return nil, nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, usagef("--jobfile %s: is a directory; name a fio job file", path)
	}
	jf, err := fio.ReadJobFile(path)
	if err != nil {
		return nil, usagef("--jobfile %s: %v", path, oneLine(err))
	}
	if len(jf.Jobs) != 1 {
		return nil, usagef("--jobfile %s: holds %d job sections; a sweep measures one workload: keep one job section (qdsweep run FILE --section=NAME runs one, qdsweep run FILE all)", path, len(jf.Jobs))
	}
	runs, err := fioadapt.Runs(jf)
	if err != nil {
		if errors.Is(err, fio.ErrUnsupported) {
			return nil, usagef("--jobfile %s: %v", path, oneLine(err))
		}
		return nil, usagef("--jobfile %s: %v", path, oneLine(err))
	}
	j := &jobFile{run: runs[0], set: map[string]bool{}}
	for _, o := range append(append([]fio.Option{}, jf.Global...), jf.Jobs[0].Options...) {
		j.set[o.Key] = true
	}
	return j, nil
}

// has reports whether the job file sets one of the fio options names.
func (j *jobFile) has(names ...string) bool {
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
func (j *jobFile) from(c *cli.Context, flag string, opts ...string) bool {
	return j.has(opts...) && !c.IsSet(flag)
}

// defines reports whether the job file decides flag, set or not: the
// options that describe a fio job take fio's defaults when the file omits
// them (rw=read, bs=4k, iodepth=1, numjobs=1, direct=0), unless the flag is given.
func (j *jobFile) defines(c *cli.Context, flag string) bool {
	return j != nil && !c.IsSet(flag)
}

// applyShared copies what the job file sets onto the shared workload
// fields, except where a flag was given.
func (j *jobFile) applyShared(c *cli.Context, w *ioengine.Workload) {
	if j == nil {
		return
	}
	jw := j.run.Workload
	if j.from(c, "filename", "filename") {
		w.Filename = jw.Filename
	}
	if j.from(c, "size", "size") {
		w.Size = jw.Size
	} else if !c.IsSet("size") && w.Filename != "" {
		if _, err := os.Stat(w.Filename); err == nil {
			w.Size = 0 // an existing file or device is covered whole
		}
	}
	if j.from(c, "offset", "offset") {
		w.Offset = jw.Offset
	}
	if j.from(c, "offset_increment", "offset_increment") {
		w.OffsetIncrement = jw.OffsetIncrement
	}
	if j.from(c, "rwmixread", "rwmixread", "rwmixwrite") {
		w.RWMixRead = jw.RWMixRead
	}
	if j.defines(c, "direct") {
		w.Direct = jw.Direct
	}
	if !anySet(c, fio.UringOptionNames()...) {
		w.Uring = jw.Uring
	}
	if j.from(c, "randseed", "randseed") {
		w.RandSeed = jw.RandSeed
	}
	if j.from(c, "continue_on_error", "continue_on_error") {
		w.ContinueOnError = jw.ContinueOnError
	}
}

// rw returns the pattern flag's value, or the job file's when the flag is unset.
func (j *jobFile) rw(c *cli.Context) string {
	if j.defines(c, "rw") {
		return string(j.run.Workload.RW)
	}
	return c.String("rw")
}

// bs returns the block size flag's text, or the job file's bytes.
func (j *jobFile) bs(c *cli.Context) string {
	if j.defines(c, "bs") {
		return strconv.FormatInt(j.run.Workload.BS, 10)
	}
	return c.String("bs")
}

// numjobs returns --numjobs's text, or the job file's.
func (j *jobFile) numjobs(c *cli.Context) string {
	if j.defines(c, "numjobs") {
		return strconv.Itoa(j.run.Workload.NumJobs)
	}
	return c.String("numjobs")
}

// ioengine returns --ioengine, or the job file's when the flag is unset.
func (j *jobFile) ioengine(c *cli.Context) string {
	name, set := ioengineFlag(c)
	if j.has("ioengine") && !set && j.run.IOEngine != "" {
		return j.run.IOEngine
	}
	return name
}
