package session

import (
	"os"
	"slices"
	"strconv"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
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

// from reports whether the value of field f comes from the job file: the
// file sets one of opts and the request did not give f.
func (j *JobFile) from(g Fields, f Field, opts ...string) bool {
	return j.Has(opts...) && !g.Has(f)
}

// defines reports whether the job file decides field f, set or not: the
// options that describe a fio job take fio's defaults when the file omits
// them (rw=read, bs=4k, iodepth=1, numjobs=1, direct=0), unless f is given.
func (j *JobFile) defines(g Fields, f Field) bool {
	return j != nil && !g.Has(f)
}

// ApplyShared copies what the job file sets onto the shared workload
// fields, except where the request gave one (g).
func (j *JobFile) ApplyShared(g Fields, w *ioengine.Workload) {
	if j == nil {
		return
	}
	jw := j.Run.Workload
	if j.from(g, FieldFilename, fio.OptFilename) {
		w.Filename = jw.Filename
	}
	if j.from(g, FieldSize, fio.OptSize) {
		w.Size = jw.Size
	} else if !g.Has(FieldSize) && w.Filename != "" {
		if _, err := os.Stat(w.Filename); err == nil {
			w.Size = 0 // an existing file or device is covered whole
		}
	}
	if j.from(g, FieldOffset, fio.OptOffset) {
		w.Offset = jw.Offset
	}
	if j.from(g, FieldOffsetIncrement, fio.OptOffsetIncrement) {
		w.OffsetIncrement = jw.OffsetIncrement
	}
	if j.from(g, FieldRWMixRead, fio.OptRWMixRead, fio.OptRWMixWrite) {
		w.RWMixRead = jw.RWMixRead
	}
	if j.defines(g, FieldDirect) {
		w.Direct = jw.Direct
	}
	if !g.Has(FieldUring) {
		w.Uring = jw.Uring
	}
	if j.from(g, FieldRandSeed, fio.OptRandSeed) {
		w.RandSeed = jw.RandSeed
	}
	if j.from(g, FieldContinueOnError, fio.OptContinueOnError) {
		w.ContinueOnError = jw.ContinueOnError
	}
	// The job's shapes (bssplit, bsrange, random_distribution …), which
	// sweep has no flags of its own for; each step keeps them.
	w.Shape = jw.Shape
}

// RW is the pattern to sweep: the request's (given), or the job file's
// when the request gave none.
func (j *JobFile) RW(g Fields, given string) string {
	if j.defines(g, FieldRW) {
		return string(j.Run.Workload.RW)
	}
	return given
}

// BS is the block size's text: the request's, or the job file's bytes.
func (j *JobFile) BS(g Fields, given string) string {
	if j.defines(g, FieldBS) {
		return strconv.FormatInt(j.Run.Workload.BS, 10)
	}
	return given
}

// NumJobs is the request's numjobs text, or the job file's.
func (j *JobFile) NumJobs(g Fields, given string) string {
	if j.defines(g, FieldNumJobs) {
		return strconv.Itoa(j.Run.Workload.NumJobs)
	}
	return given
}

// IOEngine is the engine the request names (name; given: it was), or the
// job file's when none was.
func (j *JobFile) IOEngine(name string, given bool) string {
	if j.Has(fio.OptIOEngine) && !given && j.Run.IOEngine != "" {
		return j.Run.IOEngine
	}
	return name
}

// Poisson reports whether the sweep's arrivals are Poisson: --rate_process
// (process, when given) or the job file's rate_process.
func (j *JobFile) Poisson(g Fields, process string) bool {
	if j.from(g, FieldRateProcess, fio.OptRateProcess) {
		return j.Run.Workload.Poisson
	}
	return process == "poisson"
}

// SweepRates reads the offered loads of an open-loop sweep: --rate_iops's
// list (rateText) when given; else, when the arrivals are Poisson
// (--rate_process, or the job file's), sweep.DefaultRateFractions and the
// job file's own load (its rate_iops over its jobs, total) when it sets
// one. None (nil, nil): a sweep over depths.
func SweepRates(g Fields, j *JobFile, rateText, process string) (rates, fractions []float64, err error) {
	if process != "linear" && process != "poisson" {
		return nil, nil, Usagef("--%s: %q; use linear or poisson", fio.OptRateProcess, process)
	}
	if g.Has(FieldRateIOPS) {
		if rates, fractions, err = sweep.ParseRateList(rateText); err != nil {
			return nil, nil, Usagef("--%s: %v", fio.OptRateIOPS, err)
		}
		return rates, fractions, nil
	}
	if !j.Poisson(g, process) {
		return nil, nil, nil
	}
	if j.Has(fio.OptRateIOPS) {
		w := j.Run.Workload
		r := 0.0
		if w.RW.IsRead() {
			r += w.RateIOPS[0]
		}
		if w.RW.IsWrite() {
			r += w.RateIOPS[1]
		}
		if r *= float64(max(w.NumJobs, 1)); r > 0 {
			rates = []float64{r}
		}
	}
	return rates, slices.Clone(sweep.DefaultRateFractions), nil
}

// OpenLoopIODepth is the iodepth an open-loop sweep runs at when
// --iodepth is not given: the job file's, else OpenLoopDefaultIODepth.
func OpenLoopIODepth(j *JobFile) int {
	if j.Has(fio.OptIODepth) && j.Run.Workload.IODepth > 0 {
		return j.Run.Workload.IODepth
	}
	return OpenLoopDefaultIODepth
}

// OpenLoopDefaultIODepth is the most in flight per job of an open-loop
// sweep without --iodepth or a job file's: deep enough that arrivals
// rarely wait for a slot below the device's saturation.
const OpenLoopDefaultIODepth = 64
