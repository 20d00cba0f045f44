package session

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
)

// runJob is one job of a run, from its checks to its figures.
type runJob struct {
	spec   RunSpec
	prefix string // "job [name]: " before what is said of it when the run has several jobs
	w      ioengine.Workload
	es     Engine
	eng    ioengine.Engine
	reason string // why the engine fell back, said before the run
	t      runTarget
	ours   []guard.FileID // files this run laid out for the job
	// judged is the identity of each of the job's files when it was
	// judged (checked, or laid out): its hold must be that file.
	judged map[string]guard.FileID
	ctl    ioengine.Control
	disks  *fioadapt.DiskWatch
	steady *steadyWatch // fio's steady-state test run natively (nil without one)
	// fioSteady is the steady-state test fio ran and reported, for a job
	// fio runs (nil otherwise).
	fioSteady *fio.SteadyState
	st        *ioengine.Stats
	err       error
	// fsyncFailed: the job's end_fsync failed, which ends the command
	// without a report (as a single run always did).
	fsyncFailed bool
	// cpuShared: the job ran beside others and its CPU is its share of
	// the process's by I/O count (fioadapt.RunGroups).
	cpuShared bool
	version   string // qdsweep's, in the reports
	// logEpoch is when the job's measured window began, Unix ms, for its
	// logs' times under log_unix_epoch (markLogEpoch).
	logEpoch int64
}

// prepareJob opens a job's engine and checks its targets (sizes, the
// write guard, limits, remote writes) without creating anything. laid
// holds the files earlier jobs lay out, with their sizes.
func (r *Run) prepareJob(ctx context.Context, spec RunSpec, several bool, laid map[string]int64) (*runJob, error) {
	j := &runJob{spec: spec, w: spec.run.Workload, version: r.Version}
	if several {
		j.prefix = fmt.Sprintf("job [%s]: ", spec.run.Name)
	}
	j.w.IOTimeout = r.IOTimeout
	es, err := r.Engines.engine(r.Set, spec.engine, true, nil)
	if err != nil {
		return nil, err
	}
	if err := viaFioRemote(spec, es); err != nil {
		return nil, err
	}
	configureFioEngine(es, &j.spec)
	if es.Fio != nil && j.spec.run.Steady.Dur > 0 {
		es.Fio.Steady = func(s *fio.SteadyState) { j.fioSteady = fioSteadyOf(s, j.spec.run.Steady) }
	}
	j.es = es
	if j.t, err = runTargets(&j.w, es, j.spec.run, laid); err != nil {
		return nil, err
	}
	if err := checkRunTargets(es, j.w, j.t, r.Permit); err != nil {
		return nil, err
	}
	j.judged = map[string]guard.FileID{}
	for _, f := range j.t.files {
		if id, err := guard.PathID(f); err == nil && !slices.Contains(j.t.missing, f) {
			j.judged[f] = id
		}
	}
	if j.eng, j.reason, err = es.Open(); err != nil {
		return nil, err
	}
	rw := j.w
	rw.Permit = r.Permit
	if err := CheckRemoteWrites(ctx, j.eng, rw, []ioengine.RW{j.w.RW}); err != nil {
		return nil, err
	}
	return j, nil
}

// layOutJobs lays out every job's missing files, one job after another; a
// file an earlier job laid out is that job's, and the later one's too (by
// inode); then it holds every job's files for the run (holdJobFiles).
// cleanup undoes what layOutRun's cleanups undo, last job first, and
// releases the holds.
func (r *Run) layOutJobs(ctx context.Context, errw io.Writer, jobs []*runJob) (cleanup func(), err error) {
	var cleanups []func()
	cleanup = func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	laid := map[string]guard.FileID{}
	// A file several jobs name is laid out once, long enough for each of
	// them, as fio extends a file a later job reaches past (offset=32k
	// size=64k after a job's size=64k: 96 KiB).
	need, laidSize := map[string]int64{}, map[string]int64{}
	for _, j := range jobs {
		for _, f := range j.t.missing {
			need[f] = max(need[f], j.t.perFile+j.w.LastStart())
		}
	}
	var layouts []*ioengine.Layout
	for _, j := range jobs {
		var missing []string
		for _, f := range j.t.missing {
			if id, ok := laid[f]; ok {
				j.ours, j.judged[f] = append(j.ours, id), id
				j.t.existingSize = max(j.t.existingSize, laidSize[f])
				continue
			}
			missing = append(missing, f)
			j.t.layoutSize = max(j.t.layoutSize, need[f])
		}
		j.t.missing = missing
		l, undo, err := r.layOutRun(ctx, errw, j.w, &j.t)
		cleanups, layouts = append(cleanups, undo), append(layouts, l)
		if err != nil {
			return cleanup, err
		}
		ids := l.IDs()
		for i, id := range ids {
			laid[j.t.missing[i]], j.judged[j.t.missing[i]] = id, id
			laidSize[j.t.missing[i]] = j.t.existingSize
			j.ours = append(j.ours, id) // laid out here, by inode
		}
		// The guard judges the jobs' files again as they are held: the
		// files laid out here are qdsweep's own.
		j.w.Permit = r.Permit
		j.w.Permit.Ours = append(j.w.Permit.Ours, j.ours...)
	}
	release, err := holdJobFiles(jobs)
	cleanups = append([]func(){release}, cleanups...) // released last, after the last job's undoing
	if err != nil {
		for _, l := range layouts {
			l.Discard() // refused before any I/O: nothing it laid out stays
		}
	}
	return cleanup, err
}

// configureFioEngine hands fio what the job asks of it when fio runs it.
func configureFioEngine(es Engine, spec *RunSpec) {
	if es.Fio == nil {
		return
	}
	if n := report.IgnoredNote(spec.run.Ignored, spec.run.Batching); n != "" {
		// fio itself honours them: no note says they are ignored.
		spec.notes = slices.DeleteFunc(spec.notes, func(s string) bool { return s == n })
	}
	// The job's own ioengine (fio's default psync when it names none),
	// unless --fio-arg names one.
	es.Fio.IOEngine = fio.EngineUsed(spec.run.Engine)
	if spec.viaFio {
		es.Fio.IOEngine, es.Fio.JobOptions = spec.fioEngine, viaFioOptions(spec.run)
	}
	// fio runs the steady-state test itself: qdsweep reads its result back.
	es.Fio.JobOptions = append(es.Fio.JobOptions, fioadapt.SteadyOptions(spec.run.Steady)...)
	if !spec.run.TimeBased {
		// fio ends each loop itself, at its region's end or where a zoned
		// job's zones run out (an io_size of the region's bytes would
		// carry it on: 1036 KiB for fio's own 272), and runs the loops:
		// io_size only as given, each loop's.
		es.Fio.IOSize, es.Fio.SizeBased = 0, true
		if spec.run.Set[fio.OptIOSize] {
			es.Fio.IOSize = spec.run.IOSize / int64(max(spec.run.Loops, 1))
		}
		if loops := spec.run.Loops; loops > 1 {
			es.Fio.JobOptions = append(es.Fio.JobOptions, [2]string{fio.OptLoops, strconv.Itoa(loops)})
		}
	}
	if p := spec.run.IOSizePercent; p > 0 && es.Fio.IOSize == 0 {
		// fio takes the share of the region it lays out itself
		es.Fio.JobOptions = append(es.Fio.JobOptions, [2]string{fio.OptIOSize, strconv.FormatFloat(p, 'f', -1, 64) + "%"})
	}
	es.Fio.EndFsync = spec.run.EndFsync
	es.Fio.Given = spec.run.Given
	if n := spec.run.NumberIOs; n > 0 && !spec.run.TimeBased {
		es.Fio.NumberIOs = n // each loop's, as fio counts it
	}
}

// runTarget is what a run measures: its files, those to lay out, the size
// of the existing ones and each file's share of --size.
type runTarget struct {
	files, missing []string
	temporary      bool // a scratch file laid out and removed
	existingSize   int64
	perFile        int64
	// layoutSize is the size its missing files are laid out at when later
	// jobs need them longer than this one does (0: this job's own).
	layoutSize int64
}

// runTargets names the run's files and sizes w's region as fio would:
// existing targets whole (or their N%), new ones at --size; a file an
// earlier job lays out (laid) at its size, as fio lays jobs' files out one
// after another before any runs. Only the scratch file (no --name, no
// --filename) is laid out at 1 GiB when no size is given.
func runTargets(w *ioengine.Workload, es Engine, run fioadapt.JobRun, laid map[string]int64) (runTarget, error) {
	var t runTarget
	if es.Name == ioengine.EngineNull {
		// fio's null engine touches no file: nothing to check, lay out or
		// hold; its offsets span the job's size, as fio's.
		if w.Size <= 0 {
			return t, Usagef("run: job %s: %s=null needs %s= for its offsets, as fio does; add e.g. %s=1g", run.Name, fio.OptIOEngine, fio.OptSize, fio.OptSize)
		}
		w.Filename, w.Files, w.JobFiles = run.Name, nil, nil
		t.existingSize, t.perFile = w.Size, w.Size
		return t, nil
	}
	if len(w.JobFiles) > 0 && !es.Local() {
		return t, Usagef("run: --%s=%d gives each job its own file, which --%s=%s does not run; name one shared file with --%s", fio.OptNumJobs, w.NumJobs, fio.OptIOEngine, es.Name, fio.OptFilename)
	}
	if len(w.JobFiles) > 0 && es.Fio != nil {
		// Refused before anything is laid out: fio gets each target as a
		// held descriptor, and numjobs clones of one job share its filename.
		return t, Usagef("run: job %s: %s=%d with no %s gives each clone its own file (%s …), which qdsweep does not hand fio; name one shared file (%s=PATH), or run the job file with fio itself",
			run.Name, fio.OptNumJobs, w.NumJobs, fio.OptFilename, w.JobFiles[0], fio.OptFilename)
	}
	t.temporary = w.Filename == "" && es.Local()
	if t.temporary {
		w.Filename = runScratchFile
		if _, err := os.Lstat(runScratchFile); err == nil {
			return t, Usagef("--%s: ./%s already exists (another run or sweep is using it here, or one was killed); wait for it, remove the file, or pass --%s", fio.OptFilename, runScratchFile, fio.OptFilename)
		}
	}
	if len(w.Files) > 1 && es.Sim != nil {
		return t, Usagef("run: --%s lists %d files, which --%s=%s does not model; name one file", fio.OptFilename, len(w.Files), fio.OptIOEngine, ioengine.EngineSim)
	}
	t.files = []string{w.Filename}
	if len(w.JobFiles) > 0 {
		t.files = w.JobFiles
	}
	if len(w.Files) > 1 {
		t.files = w.Files
	}
	for _, f := range t.files {
		if fi, err := os.Stat(f); err == nil && es.Local() {
			t.existingSize = fioadapt.FileBytes(f, fi)
		} else if es.Local() {
			t.missing = append(t.missing, f)
		}
	}
	if run.NoCreate && len(t.missing) > 0 && !t.temporary {
		return t, Usagef("%s=0: %s does not exist and the job forbids creating it (fio refuses it too: file creation disallowed); create it first or drop %s=0", fio.OptAllowFileCreate, t.missing[0], fio.OptAllowFileCreate)
	}
	base := t.existingSize // what fio's offsets take their N% of
	for _, f := range t.missing {
		base = max(base, laid[f]) // as an earlier job lays it out
	}
	if err := resolvePercents(run, w, t.missing, base); err != nil {
		return t, err
	}
	if err := sizeMissing(run, w, &t, laid); err != nil {
		return t, err
	}
	if len(t.missing) > 0 {
		cloneStarts(run, w, base)
	}
	if es.Sim != nil && w.Size == 0 {
		w.Size = runDefaultSize
	}
	t.perFile = w.FileSize() // each file of a list holds an equal share of --size
	if es.Remote() && w.Filename == "" {
		return t, errClientsNeedTarget()
	}
	return t, nil
}

// sizeMissing sizes a job whose files do not exist and that gives no
// size=: the scratch file at 1 GiB (qdsweep's own job); files earlier jobs
// lay out at their size; a job none of whose files exists or is laid out
// first is refused, as fio refuses it ("you need to specify size="),
// before anything is laid out. A list with existing files among missing
// ones (which fio runs over the existing ones, the missing empty) keeps
// the 1 GiB share, which the region check then refuses.
func sizeMissing(run fioadapt.JobRun, w *ioengine.Workload, t *runTarget, laid map[string]int64) error {
	if len(t.missing) == 0 || w.Size > 0 {
		return nil
	}
	if t.temporary || len(t.missing) < len(t.files) {
		w.Size = runDefaultSize
		return nil
	}
	var size int64
	for _, f := range t.missing {
		if fi, err := os.Stat(filepath.Dir(f)); err != nil || !fi.IsDir() {
			return nil // the target's own check refuses it first, naming the directory
		}
		n, ok := laid[f]
		if !ok {
			job := "the job"
			if run.Name != "" {
				job = "job " + run.Name
			}
			return Usagef("run: %s does not exist and %s gives no size (fio refuses it: you need to specify %s=); give one (--%s=1g, or %s=1g in a job file), or name an existing file or device",
				f, job, fio.OptSize, fio.OptSize, fio.OptSize)
		}
		size += n
	}
	w.Size = max(size-w.Offset, 0)
	return nil
}

// laidSizes adds the files j lays out, at the size it lays them out, to
// laid (a file an earlier job lays out stays at that job's size).
func laidSizes(j *runJob, laid map[string]int64) {
	size := j.t.perFile + j.w.LastStart()
	for _, f := range j.t.missing {
		if _, ok := laid[f]; !ok {
			laid[f] = size
		}
	}
}

// checkRunTargets validates each file of the run and runs the write guard
// on it, and checks the process limits, before anything is laid out.
func checkRunTargets(es Engine, w ioengine.Workload, t runTarget, permit guard.Permit) error {
	for _, f := range t.files {
		fw := w
		fw.Filename, fw.Size, fw.Files = f, t.perFile, nil
		if err := es.Validate(fw); err != nil {
			return err
		}
		if es.Local() {
			if err := CheckWrites(fw, []ioengine.RW{w.RW}, permit); err != nil {
				return err
			}
		}
	}
	if es.Sim == nil {
		return CheckRunLimits(w.NumJobs, w.IODepth, w.MaxBS())
	}
	return nil
}

// layOutRun lays out the run's missing files (ioengine.LayOut: removed
// only by inode; a partial layout always goes, a scratch file when the run
// ends, and a named target is kept as fio keeps it, said last) and returns
// the layout (its files' identities: IDs). cleanup, which the caller defers
// even on an error, does the going.
func (r *Run) layOutRun(ctx context.Context, errw io.Writer, w ioengine.Workload, t *runTarget) (*ioengine.Layout, func(), error) {
	temporary, missing := t.temporary, t.missing
	size := max(t.perFile+w.LastStart(), t.layoutSize)
	if n := report.LayoutNote(missing, size); n != "" {
		fmt.Fprintln(errw, n)
	}
	l, err := ioengine.LayOut(ctx, missing, size, temporary, r.OnHardExit)
	cleanup := func() {
		if !temporary && len(missing) > 0 {
			if n := report.KeptNote(l.Kept()); n != "" {
				fmt.Fprintln(errw, n)
			}
		}
		l.Close()
	}
	if err != nil {
		if ctx.Err() != nil {
			return l, cleanup, fmt.Errorf("%w: %v", ErrInterrupted, err)
		}
		return l, cleanup, err
	}
	if len(missing) > 0 {
		t.existingSize = size
	}
	return l, cleanup, nil
}

// runControl is the engine's control of a run: phases, series, fio's disk
// utilisation over the window (local engines) and the size-based end.
func runControl(spec RunSpec, es Engine, w ioengine.Workload, t runTarget, logEvery time.Duration) (ioengine.Control, *fioadapt.DiskWatch) {
	ctl := ioengine.Control{Ramp: spec.run.Ramp, Runtime: spec.runtime, SeriesInterval: max(0, logEvery)}
	var disks *fioadapt.DiskWatch // fio's disk utilisation over the measured window
	if es.Local() && es.Fio == nil {
		disks = fioadapt.NewDiskWatch(t.files)
		ctl.OnWindowStart, ctl.OnWindowEnd = disks.Start, disks.End
	}
	if !spec.run.TimeBased && es.Fio == nil {
		ctl.IOsPerJob = fioadapt.IOsPerJob(spec.run, w, t.existingSize)
		ctl.BytesPerJob = fioadapt.BytesPerJob(spec.run, w, t.existingSize)
		ctl.JobIOs, ctl.JobBytes = fioadapt.JobEnds(spec.run, w, t.existingSize)
		ctl.PassEnds, ctl.Loops = fioadapt.PassEnds(spec.run, w, t.existingSize), spec.run.Loops
		ctl.LoopsRepeat = spec.run.RandRepeat
	}
	// fio reports numjobs clones apart unless group_reporting; the fio
	// engine always groups, the simulator has no jobs apart.
	ctl.PerJob = w.NumJobs > 1 && !spec.run.GroupReporting && es.Fio == nil && es.Sim == nil
	return ctl, disks
}

// fioSteadyOf is fio's steady-state result with the test the job asked for
// (fio's JSON carries neither ss_ramp nor a bandwidth limit's exact bytes);
// a job fio ended before reporting a test has one not attained, its window
// empty.
func fioSteadyOf(s *fio.SteadyState, spec fio.SteadySpec) *fio.SteadyState {
	if s == nil {
		n := int(spec.Dur / time.Second)
		return &fio.SteadyState{Spec: spec, IOPS: make([]uint64, n), BW: make([]uint64, n)}
	}
	r := *s
	r.Spec = spec
	return &r
}
