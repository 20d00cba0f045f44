package session

import (
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

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
	// file is the job file as read, its one job with the step flags'
	// options after its own; flagsOnly: no job file, only those flags.
	file      fio.JobFile
	flagsOnly bool
	// notes are said of the file as read (jobFileNotes), before the sweep
	// runs.
	notes []string
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
	set := map[string]bool{}
	var names []string
	for _, o := range jf.Scoped(0) {
		set[fio.OptionName(o.Key)] = true
		names = append(names, fio.OptionName(o.Key))
	}
	if err := fio.SweepRefuses(names); err != nil {
		return nil, Usagef("--jobfile %s: %v", path, err)
	}
	runs, err := fioadapt.Runs(jf)
	if err != nil {
		return nil, Usagef("--jobfile %s: %v", path, OneLine(err))
	}
	return &JobFile{Run: runs[0], set: set, file: jf, notes: jobFileNotes(path, jf)}, nil
}

// WithStepOptions is j with the options of sweep's step flags (fio's
// bssplit, random_distribution, thinktime …: fio.SweepStep rows) after the
// job's own, so the flags win; without a job file (j nil) a job of those
// flags alone, which decides nothing else. Errors are usage errors
// naming the flag.
func WithStepOptions(j *JobFile, opts []fio.Option) (*JobFile, error) {
	if len(opts) == 0 {
		return j, nil
	}
	out := &JobFile{set: map[string]bool{}, file: fio.JobFile{Jobs: []fio.JobSpec{{Name: "sweep"}}}, flagsOnly: true}
	if j != nil {
		out.file, out.flagsOnly, out.notes = j.file, false, j.notes
		out.file.Jobs = slices.Clone(j.file.Jobs)
		maps.Copy(out.set, j.set)
	}
	out.file.Jobs[0].Options = append(slices.Clone(out.file.Jobs[0].Options), opts...)
	for _, o := range opts {
		out.set[fio.OptionName(o.Key)] = true
	}
	runs, err := fioadapt.Runs(out.file)
	if err != nil {
		return nil, Usagef("%v", OneLine(err))
	}
	out.Run = runs[0]
	return out, nil
}

// Notes are what is said of the job file as read (none without one).
func (j *JobFile) Notes() []string {
	if j == nil {
		return nil
	}
	return j.notes
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
	return j != nil && !j.flagsOnly && !g.Has(f)
}

// ApplyShared copies what the job file sets onto the shared workload
// fields, except where the request gave one (g).
func (j *JobFile) ApplyShared(g Fields, w *ioengine.Workload) {
	if j == nil {
		return
	}
	jw := j.Run.Workload
	if j.from(g, FieldFilename, fio.OptFilename, fio.OptDirectory) {
		w.Filename = jw.Filename
	}
	if j.from(g, FieldSize, fio.OptSize, fio.OptFileSize) {
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
	if !g.Has(FieldUring) && !j.flagsOnly {
		w.Uring = jw.Uring
	}
	if j.Has(fio.OptInvalidate) {
		w.Invalidate = jw.Invalidate
	}
	if j.Has(fio.OptFadviseHint) {
		w.Fadvise = jw.Fadvise
	}
	if j.from(g, FieldRandSeed, fio.OptRandSeed) {
		w.RandSeed = jw.RandSeed
	}
	if j.from(g, FieldContinueOnError, fio.OptContinueOnError) {
		w.ContinueOnError = jw.ContinueOnError
	}
	// The job's and the step flags' shapes (bssplit, bsrange,
	// random_distribution …, strided zones), thinking, priorities and
	// syncs: each step keeps them.
	w.Shape, w.Zones, w.Think, w.Prio = jw.Shape, jw.Zones, jw.Think, jw.Prio
	w.SyncEvery, w.SyncData, w.OpenSync = jw.SyncEvery, jw.SyncData, jw.OpenSync
	if !j.flagsOnly {
		w.Buffers = jw.Buffers // what the job's writes carry (fio's default without buffer options)
	}
}

// CheckTarget refuses what the job file forbids of the sweep's plan p
// and target w: writing under readonly, laying out a missing file under
// allow_file_create=0. Under randrepeat=0 without a seed, w gets a new
// seed, as run gives one.
func (j *JobFile) CheckTarget(g Fields, p sweep.Plan, w *ioengine.Workload, scratch bool) error {
	if j == nil || j.flagsOnly {
		return nil
	}
	if fs := j.Run.Files; len(fs) > 1 && j.Has(fio.OptFilename) && !g.Has(FieldFilename) {
		// A sweep's steps measure one target (w.Filename); fio's job
		// would spread its I/O over them all, and a filename= in the job
		// adds to its [global]'s, as in fio.
		return Usagef("--jobfile: the job names %d files (%s; fio adds each %s= to those before it): a sweep measures one target; keep one %s=, or give --%s",
			len(fs), strings.Join(fs, ", "), fio.OptFilename, fio.OptFilename, fio.OptFilename)
	}
	if j.Run.ReadOnly {
		for _, rw := range p.RW {
			if ioengine.RW(rw).IsWrite() {
				return Usagef("--jobfile: %s, and --%s=%s writes; drop one of them", fio.OptReadOnly, fio.OptRW, rw)
			}
		}
	}
	if j.Run.NoCreate && (scratch || !targetExists(w.Filename)) {
		return Usagef("--jobfile: %s=0, and %s does not exist; create it or drop %s", fio.OptAllowFileCreate, w.Filename, fio.OptAllowFileCreate)
	}
	if j.Has(fio.OptRandRepeat) && !j.Run.RandRepeat && !j.Has(fio.OptRandSeed) && !g.Has(FieldRandSeed) {
		w.RandSeed = uint64(time.Now().UnixNano()) // new offsets every sweep
	}
	return nil
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

// IODepths is the depths to sweep: the request's list, or up to the job
// file's iodepth (1 doubling to it) when the request gave none and the
// job sets one above 1. A job at fio's default depth of 1 sets no ceiling.
func (j *JobFile) IODepths(g Fields, given string) string {
	if j.defines(g, FieldIODepth) && j.Has(fio.OptIODepth) && j.Run.Workload.IODepth > 1 {
		return "1:" + strconv.Itoa(j.Run.Workload.IODepth)
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
	if err := fio.CheckAllowed(fio.OptRateProcess, process); err != nil {
		return nil, nil, Usagef("--%s: %q: %v", fio.OptRateProcess, process, err)
	}
	if g.Has(FieldRateIOPS) {
		if rates, fractions, err = sweep.ParseRateList(rateText); err != nil {
			return nil, nil, Usagef("--%s: %v", fio.OptRateIOPS, err)
		}
		return rates, fractions, nil
	}
	if !j.Poisson(g, process) && !j.Has(fio.OptRateIOPS) {
		return nil, nil, nil // a job's rate_iops is the load swept around, linear or poisson
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
