package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
)

// RunSpec is one job a run's command line asks for, fio's options converted.
type RunSpec struct {
	run     fioadapt.JobRun
	group   int           // the job's reporting group (fio's groupid)
	wave    int           // the job's wave: waves run one after another, a wave's jobs together
	waitFor []int         // the earlier jobs fio's wait_for holds this one for (indices into the specs)
	files   []string      // the job's files (one per clone when --name names them)
	engine  string        // io_uring, libaio, psync, sim or fio
	runtime time.Duration // the measured window's cap (RunForever: none)
	notes   []string      // said on stderr before the run
	// viaFio: fio runs the job, qdsweep not running all of it natively
	// (routeRuns), on fioEngine with the options qdsweep hands it.
	viaFio    bool
	fioEngine string
}

// RunRequest is everything a run's command line says: fio's options, the
// job files and sections to run, the engine's settings, how the figures
// are reported and where, and Set: which of its settings were given.
// RunJobs runs it.
type RunRequest struct {
	Set       Fields
	FioArgs   []string // fio's options and arguments, as fio takes them
	JobFile   string   // --jobfile ("": none)
	Sections  []string // --section
	ParseOnly bool     // read and check the jobs, run nothing
	ShowCmd   bool     // print the job files as fio command lines, run nothing
	// Engines are the engine's settings; when one is named (FieldEngine,
	// FieldSim) every job runs on it, else each job on its own.
	Engines   EngineRequest
	Permit    guard.Permit // what may be written over
	IOTimeout time.Duration
	LogEvery  time.Duration // series interval (< 0: off)
	Format    string        // report.RunNormal (""), RunJSON, RunTerse, RunFioJSON or RunJSONPlus
	Output    string        // file for the figures ("": Stdout)
	Overwrite bool          // Output may replace a file qdsweep did not write
	Version   string
	Out
}

// engine is the engine the request names for every job ("": each job's own).
func (req RunRequest) engine() string {
	if name, given := req.Engines.name(req.Set); given {
		return name
	}
	return ""
}

// RunJobs reads and checks the jobs req names, every one before any file
// is created, and runs them (unless ParseOnly).
func RunJobs(ctx context.Context, req RunRequest) error {
	inputs, err := req.Inputs() // before any is opened: a named pipe would block
	if err != nil {
		return err
	}
	if req.ShowCmd {
		return showCmd(req)
	}
	specs, err := RunSpecs(req)
	if err != nil || req.ParseOnly {
		return err
	}
	req.commit()
	r := &Run{Specs: specs, Permit: req.Permit, IOTimeout: req.IOTimeout, LogEvery: req.LogEvery, Format: req.Format,
		Output: req.Output, Overwrite: req.Overwrite, JobFile: req.JobFile, Inputs: inputs, Version: req.Version,
		Stdout: req.Stdout, Stderr: req.Stderr, OnHardExit: req.OnHardExit, Engines: req.Engines, Set: req.Set}
	return r.Execute(ctx)
}

// RunSpecs reads fio's options from the command line (and job files) with
// fio's defaults, one spec per job (a job file's sections, or --name given
// several times), each in its group (fio.JobFile.Groups), and refuses what
// qdsweep does not run, every such option named in one line.
func RunSpecs(req RunRequest) ([]RunSpec, error) {
	var rs runSet
	rs.notesAt = map[int][]string{}
	fioArgs := req.FioArgs
	cmdline, rest, err := fio.ParseArgs(fioArgs)
	if err != nil {
		return nil, Usagef("run: %v", err)
	}
	jobFiles, err := jobFilesOf(req.JobFile, rest, fioArgs, &rs.notes)
	if err != nil {
		return nil, err
	}
	if len(jobFiles) == 0 && len(req.Sections) > 0 {
		return nil, Usagef("--section picks sections of a job file: name one (qdsweep run job.fio --section=NAME)")
	}
	if len(jobFiles) == 0 {
		rt := routeNative
		if rs.runs, rs.groups, rs.waves, rt, err = commandLineRuns(cmdline, req.engine(), req.Engines.FioClients != "", &rs.notes); err != nil {
			return nil, err
		}
		for range rs.runs {
			rs.routes = append(rs.routes, rt)
		}
	}
	for _, path := range jobFiles {
		if len(cmdline.Jobs) > 0 {
			return nil, Usagef("--jobfile %s: --%s on the command line starts another job; qdsweep runs the file's jobs or the command line's: drop --%s", path, fio.OptName, fio.OptName)
		}
		if err := rs.addFile(path, cmdline.Global, req); err != nil {
			return nil, err
		}
	}
	if err := checkSections(req.Sections, rs.sectionNames); err != nil {
		return nil, err
	}
	return rs.specs(req)
}

// runSet is the jobs of run's command line or job files, as RunSpecs
// reads them: each job's group, wave and route, and what is said of them.
type runSet struct {
	runs          []fioadapt.JobRun
	groups, waves []int
	routes        []route          // each job's
	sectionNames  []string         // every section of the job files
	notes         []string         // said of the run (first job)
	notesAt       map[int][]string // a job file's notes, by its first job
}

// addFile adds a job file's jobs, each file after the first waiting for
// the one before, as in fio.
func (rs *runSet) addFile(path string, global []fio.Option, req RunRequest) error {
	var fileNotes []string // said of this file's first job, as fio names the job
	fr, fg, fw, rt, err := jobFileRuns(path, global, req, &rs.sectionNames, &fileNotes)
	if err != nil {
		return err
	}
	if len(fr) == 0 {
		rs.notes = append(rs.notes, fileNotes...)
	} else if len(fileNotes) > 0 {
		rs.notesAt[len(rs.runs)] = fileNotes
	}
	for range fr {
		rs.routes = append(rs.routes, rt)
	}
	nextG, nextW := 0, 0
	if len(rs.groups) > 0 {
		nextG, nextW = rs.groups[len(rs.groups)-1]+1, rs.waves[len(rs.waves)-1]+1
	}
	for i := range fg {
		rs.groups, rs.waves = append(rs.groups, nextG+fg[i]), append(rs.waves, nextW+fw[i])
	}
	rs.runs = append(rs.runs, fr...)
	return nil
}

// specs are the run's specs, one per job.
func (rs *runSet) specs(req RunRequest) ([]RunSpec, error) {
	waits, err := waitsOf(rs.runs)
	if err != nil {
		return nil, err
	}
	specs := make([]RunSpec, len(rs.runs))
	for i, r := range rs.runs {
		engine := req.engine()
		if rs.routes[i] == routeFio {
			engine = ioengine.EngineFio
		}
		spec, err := specOf(engine, r, len(rs.runs) > 1)
		if err != nil {
			return nil, err
		}
		spec.group, spec.wave, spec.waitFor = rs.groups[i], rs.waves[i], waits[i]
		if rs.routes[i] == routeFio {
			spec.viaFio, spec.fioEngine = true, r.Engine
			if e := req.engine(); e != "" && e != ioengine.EngineFio {
				spec.fioEngine = e // the command line's, for every job
			}
		}
		spec.notes = append(slices.Clone(rs.notesAt[i]), spec.notes...)
		if i == 0 {
			spec.notes = append(slices.Clone(rs.notes), spec.notes...)
		}
		specs[i] = spec
	}
	return specs, nil
}

// showCmd prints each job file req names as fio's --showcmd does, one
// line each, and runs nothing: fio's options given on the command line
// print nothing, as in fio.
func showCmd(req RunRequest) error {
	_, rest, err := fio.ParseArgs(req.FioArgs)
	if err != nil {
		return Usagef("run: %v", err)
	}
	var notes []string
	files, err := jobFilesOf(req.JobFile, rest, req.FioArgs, &notes)
	if err != nil {
		return err
	}
	for _, f := range files {
		jf, err := fio.ReadJobFile(f)
		if err == nil {
			var line string
			if line, err = fio.ShowCmd(jf, req.Sections); err == nil {
				fmt.Fprint(req.Stdout, line)
				continue
			}
		}
		return Usagef("run: --showcmd: job file %s: %v; fix it (fio fails it too)", f, err)
	}
	return nil
}

// jobFilesOf are the job files a run names: --jobfile's, then the
// arguments that are regular files (as in `fio job.fio`); the word fio
// left first in a pasted command adds a note; any other argument is
// refused.
func jobFilesOf(jobFile string, rest, fioArgs []string, notes *[]string) ([]string, error) {
	var jobFiles []string
	if jobFile != "" {
		jobFiles = append(jobFiles, jobFile)
	}
	for i, a := range rest {
		fi, statErr := os.Stat(a)
		switch {
		case i == 0 && a == "fio" && statErr != nil && len(fioArgs) > 0 && fioArgs[0] == "fio":
			// "qdsweep run fio --name=…": the word fio left in a pasted command.
			*notes = append(*notes, report.FioWordNote)
		case statErr == nil && fi.Mode().IsRegular():
			jobFiles = append(jobFiles, a) // a job file, as in `fio job.fio`
		default:
			return nil, Usagef("run: unexpected argument %q; options take the form %s (e.g. --%s=%s), a job file must exist", a, fio.ArgForm, fio.OptFilename, a)
		}
	}
	return jobFiles, nil
}

// waitsOf is, for each run, the earlier runs its wait_for (its own, else
// its [global]'s or the command line's) holds it for, as fio reads it.
func waitsOf(runs []fioadapt.JobRun) ([][]int, error) {
	names, waitFor := make([]string, len(runs)), make([]string, len(runs))
	for i, r := range runs {
		names[i] = r.Name
		w, ok := fio.OptionValue(r.JobOptions, fio.OptWaitFor)
		if !ok {
			w, _ = fio.OptionValue(r.GlobalOptions, fio.OptWaitFor)
		}
		waitFor[i] = w
	}
	waits, err := fio.WaitFor(names, waitFor)
	if err != nil {
		return nil, Usagef("run: %v", err)
	}
	return waits, nil
}

// commandLineRuns is the jobs of a command line (--name starts each), their
// groups and waves, and how they run (routeRuns; its note joins notes).
func commandLineRuns(jf fio.JobFile, engine string, remote bool, notes *[]string) ([]fioadapt.JobRun, []int, []int, route, error) {
	if len(jf.Jobs) == 0 {
		jf.Jobs = []fio.JobSpec{{Options: jf.Global}}
		jf.Global = nil
	}
	runs, err := fioadapt.Runs(jf)
	if err != nil && !errors.Is(err, fio.ErrUnsupported) {
		return nil, nil, nil, 0, Usagef("run: %v", OneLine(err))
	}
	rt, note, err := routeRuns(runs, nil, engine, remote, "run")
	if err != nil {
		return nil, nil, nil, 0, err
	}
	if note != "" {
		*notes = append(*notes, note)
	}
	return runs, jf.Groups(), jf.Waves(), rt, nil
}

// jobFileNotes are what is said of a job file as read, by run and sweep
// alike: includes of files holding a section, which fio 3.33 reads
// nothing of (its "No new sections in included files").
func jobFileNotes(path string, file fio.JobFile) []string {
	if n := report.DroppedIncludesNote(path, file.DroppedIncludes); n != "" {
		return []string{n}
	}
	return nil
}

// jobFileRuns reads one job file: its jobs (those sections names, when
// given), the command line's options as defaults the file's [global]
// sections and jobs may set again (as fio reads them), their groups and
// waves, and how they run (routeRuns; its note joins notes). Every problem
// is a usage error naming the file.
func jobFileRuns(path string, cmdline []fio.Option, req RunRequest, names, notes *[]string) (runs []fioadapt.JobRun, groups, waves []int, rt route, err error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, nil, nil, 0, Usagef("--jobfile %s: is a directory; name a fio job file", path)
	}
	file, unset := fio.ReadJobFile(path)
	if unset != nil && !errors.Is(unset, fio.ErrUnsetVar) {
		return nil, nil, nil, 0, Usagef("--jobfile %s: %v", path, OneLine(unset))
	}
	if len(file.Jobs) == 0 {
		return nil, nil, nil, 0, Usagef("--jobfile %s: holds no job section; add one, e.g. [job1]", path)
	}
	*notes = append(*notes, jobFileNotes(path, file)...)
	sections := req.Sections
	for _, j := range file.Jobs {
		*names = append(*names, j.Name)
	}
	if len(sections) > 0 {
		file.Jobs = slices.DeleteFunc(file.Jobs, func(j fio.JobSpec) bool { return !slices.Contains(sections, j.Name) })
		if len(file.Jobs) == 0 {
			return nil, nil, nil, 0, nil
		}
	}
	file = file.WithDefaults(cmdline)
	runs, err = fioadapt.Runs(file)
	if err != nil && !errors.Is(err, fio.ErrUnsupported) {
		return nil, nil, nil, 0, Usagef("--jobfile %s: %v", path, OneLine(err))
	}
	rt, note, err := routeRuns(runs, unset, req.engine(), req.Engines.FioClients != "", "--jobfile "+path)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	if note != "" {
		*notes = append(*notes, note)
	}
	return runs, file.Groups(), file.Waves(), rt, nil
}

// checkSections fails when --section names a section none of the job
// files has (have), naming the sections there are.
func checkSections(names, have []string) error {
	for _, n := range names {
		if !slices.Contains(have, n) {
			return Usagef("--section: no job section [%s]; the job file has %s", n, strings.Join(have, ", "))
		}
	}
	return nil
}

// specOf is one job's spec: its engine, files, depth and end, and the
// notes said before it runs; several says the run has more than one job
// (then stonewall, wait_for and new_group are not ignored: they group it).
func specOf(engine string, run fioadapt.JobRun, several bool) (RunSpec, error) {
	spec := RunSpec{run: run}
	r := &spec.run
	spec.files = r.Files
	spec.engine = r.IOEngine
	if engine != "" {
		spec.engine = engine // sim or fio
	}
	if spec.engine == "" {
		spec.engine = ioengine.EnginePsync // fio's default
	}
	if len(spec.files) > 1 && r.Set[fio.OptFilename] {
		// fio's filename=a:b: every job spreads its I/Os over the files.
		r.Workload.Files = spec.files
	} else if len(spec.files) > 1 {
		// fio's per-job files: <directory>/<name>.<job>.0.
		r.Workload.JobFiles = spec.files
	}
	if r.ReadOnly && r.Workload.RW.IsWrite() {
		return spec, Usagef("run: --%s with --%s=%s, which writes; drop one of them", fio.OptReadOnly, fio.OptRW, r.Workload.RW)
	}
	if u := r.Workload.Uring; u.Set() && spec.engine != ioengine.EngineIOUring && spec.engine != ioengine.EngineFio {
		// As fio: its io_uring engine's options are unknown to the others.
		n := fioadapt.UringFirstKey(u)
		return spec, Usagef("run: %s is an option of fio's io_uring engine, and this job runs %s (fio's default when no ioengine is given); set %s=%s or drop %s", n, spec.engine, fio.OptIOEngine, ioengine.EngineIOUring, n)
	}
	if spec.engine == ioengine.EnginePsync && r.Workload.IODepth > 1 {
		spec.notes = append(spec.notes, report.PsyncDepthNote(r.Workload.IODepth))
		r.Workload.IODepth = 1
	}
	if !r.RandRepeat && !r.Set[fio.OptRandSeed] {
		r.Workload.RandSeed = uint64(time.Now().UnixNano()) // randrepeat=0: new offsets every run
	}
	spec.runtime = r.Runtime
	if spec.runtime <= 0 {
		spec.runtime = RunForever
		if r.TimeBased {
			spec.notes = append(spec.notes, report.ForeverNote)
		}
	}
	if several {
		r.Ignored = slices.DeleteFunc(slices.Clone(r.Ignored), fio.OrdersJobs)
	}
	if n := report.IgnoredNote(r.Ignored, r.Batching); n != "" {
		spec.notes = append(spec.notes, n)
	}
	if n := report.PercentilesDroppedNote(r.PercentilesDropped); n != "" {
		spec.notes = append(spec.notes, n)
	}
	if n := report.LogsIgnoredNote(r.LogsIgnored); n != "" {
		spec.notes = append(spec.notes, n)
	}
	return spec, nil
}

// resolvePercents applies fio's size=N%, offset=N% and
// offset_increment=N%, shares of the target's own size (existing bytes;
// a target yet to be laid out is 0 bytes to fio's offsets), to w, as fio
// 3.33's get_start_offset and setup_files do: N × size / 100 in whole
// bytes, a start so computed rounded up to the smallest block size, a
// size down to it.
func resolvePercents(run fioadapt.JobRun, w *ioengine.Workload, missing []string, existing int64) error {
	share := func(p float64) int64 { return existing * int64(p) / 100 }
	if run.OffsetPercent > 0 || run.IncrementPercent > 0 {
		w.StartAlign = w.MinBS()
	}
	if p := run.IncrementPercent; p > 0 {
		w.OffsetIncrement = share(p)
	}
	if p := run.OffsetPercent; p > 0 {
		w.Offset = share(p)
	}
	if run.SizePercent <= 0 {
		return nil
	}
	if len(missing) == 0 && existing <= 0 {
		return Usagef("run: job %s: %s as a percentage needs a target that is not empty; give %s= in bytes (e.g. %s=1g)", run.Name, fio.OptSize, fio.OptSize, fio.OptSize)
	}
	if len(missing) > 0 {
		return Usagef("run: job %s: %s as a percentage needs an existing target: %s does not exist (fio refuses it: you need to specify %s=); give %s= in bytes (e.g. %s=1g) to lay it out",
			run.Name, fio.OptSize, strings.Join(missing, ":"), fio.OptSize, fio.OptSize, fio.OptSize)
	}
	// Each clone's share, cut at the file's end from its own start
	// (size=90%, offset_increment=10%, numjobs=3 over 1,000,000 bytes:
	// 219, 219 and 195 reads of 4k).
	sizes := make([]int64, max(w.NumJobs, 1))
	for i := range sizes {
		sizes[i] = alignDown(min(share(run.SizePercent), existing-w.JobStart(i)), w.MinBS())
	}
	w.Size = sizes[0]
	if len(w.Files) <= 1 && slices.ContainsFunc(sizes, func(n int64) bool { return n != sizes[0] }) {
		w.JobSizes = sizes
	}
	return nil
}

// cloneStarts gives each of a job's clones its start as fio 3.33 sets
// them up on a file yet to be laid out, base bytes long (0, or as an
// earlier job lays it out): clone 0 first, then the last back to clone 1,
// each taking its offset=N% and offset_increment=N% of the file as the
// clones before it left it, which grows to the furthest region's end
// (size=64k, offset=50%, numjobs=3: starts 0, 49,152 and 32,768 and
// 114,688 bytes laid out, where every clone took 0).
func cloneStarts(run fioadapt.JobRun, w *ioengine.Workload, base int64) {
	if w.NumJobs < 2 || run.OffsetPercent <= 0 && run.IncrementPercent <= 0 {
		return
	}
	share := func(size int64, p float64, bytes int64) int64 {
		if p > 0 {
			return size * int64(p) / 100
		}
		return bytes
	}
	w.Starts = make([]int64, w.NumJobs)
	order := []int{0}
	for k := w.NumJobs - 1; k > 0; k-- {
		order = append(order, k) // fio adds clones last first
	}
	size := base
	for _, k := range order {
		s := share(size, run.OffsetPercent, w.Offset) + int64(k)*share(size, run.IncrementPercent, w.OffsetIncrement)
		if a := w.StartAlign; a > 1 {
			s = (s + a - 1) / a * a
		}
		w.Starts[k] = s
		size = max(size, s+w.FileSize())
	}
}

// alignDown rounds n down to a multiple of bs (n when bs < 1).
func alignDown(n, bs int64) int64 {
	if bs < 1 {
		return n
	}
	return n / bs * bs
}
