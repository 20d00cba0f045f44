package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

// Defaults of a sweep: each step's ramp runs until its queue is full and
// latency stopped climbing, 0.5 s at most, and its window until its
// decision is settled (sweep.SteadyConfig), 3 s at most. (With fixed 0.5 s
// ramps and only the ±2 % rule, the default sweep took 25–28 s on a quiet
// disk, most steps ending at 3 s on a shared one; bench/RESULTS.md has the
// default sweep's time now.)
const (
	SweepDefaultRamp    = 500 * time.Millisecond
	SweepDefaultRuntime = 3 * time.Second
)

// Resume continues the interrupted sweep in dir: its result is read and
// the sweep writes to dir. output is --output when given ("" otherwise),
// which must be dir.
func (o *Sweep) Resume(dir, output string) error {
	if dir == "" {
		return nil
	}
	if err := CheckInput("--resume", dir); err != nil {
		return err
	}
	var err error
	if o.Prev, err = sweep.Read(dir); err != nil {
		return Usagef("--resume: %v; name the results directory of an interrupted sweep", err)
	}
	if output != "" && filepath.Clean(output) != filepath.Clean(dir) {
		return Usagef("--output: a resumed sweep writes to its own directory %s; drop --output", dir)
	}
	o.OutDir = dir
	return nil
}

// KeepPrevious gives a resumed sweep its settings back where the request
// gave none (g; engineGiven: the engine was named), and returns the ramp
// and runtime defaults (the sweep's, or the resumed one's).
func (o *Sweep) KeepPrevious(g Fields, engineGiven bool) (ramp, runtime time.Duration) {
	p := o.Prev
	if p == nil {
		return SweepDefaultRamp, SweepDefaultRuntime
	}
	if !engineGiven && p.Meta.Engine != "" {
		o.EngineName = p.Meta.Engine
		if p.Meta.EngineFallbackReason != "" {
			o.EngineName = ioengine.EngineIOUring // fall back again, the same way
		}
	}
	if !g.Has(FieldFilename) {
		o.Workload.Filename = p.Meta.Target
		if filepath.Base(p.Meta.Target) == ScratchName {
			o.Workload.Filename = ""
		}
	}
	if !g.Has(FieldSize) { // 0: the whole existing file, as it was
		o.Workload.Size = p.Meta.Workload.Size
	}
	if !g.Has(FieldDirect) {
		o.Workload.Direct = p.Meta.Workload.Direct
	}
	if u, err := fioadapt.ParseUringText(p.Meta.Workload.IOUring); err == nil && !o.Workload.Uring.Set() {
		o.Workload.Uring = u
	}
	if !g.Has(FieldRWMixRead) && p.Meta.Workload.RWMixRead > 0 {
		o.Workload.RWMixRead = p.Meta.Workload.RWMixRead
	}
	return time.Duration(p.Meta.Workload.RampNs), time.Duration(p.Meta.Workload.RuntimeNs)
}

// SetTarget applies the fleet rule and the scratch file once the engine is
// set: a fleet's QD counts its hosts, and its target takes the documented
// size (defaultSize) when neither the request nor the job file (jf) gives one; a
// local sweep without a target lays out the scratch file.
func (o *Sweep) SetTarget(g Fields, jf *JobFile, defaultSize int64) {
	if o.Engine.Remote() {
		o.Plan.Hosts = len(o.Engine.Clients) // a fleet: QD = hosts × iodepth × numjobs
		if o.Workload.Size == 0 && !g.Has(FieldSize) && !jf.Has(fio.OptSize) {
			// The target lives on the servers: a file here of the same name
			// says nothing about theirs. The documented default applies.
			o.Workload.Size = defaultSize
		}
	}
	if o.Engine.Local() && o.Workload.Filename == "" {
		o.Scratch = true
		o.Workload.Filename = ScratchName
	}
}

// ResultsDir returns the results directory to write: dir, or the default
// ./qdsweep-YYYYMMDD-HHMMSS, checked by the one writer without creating
// anything. A directory holding a sweep's results is refused unless
// opts.Overwrite: a finished sweep is never replaced without a word, and
// an interrupted one is continued with --resume.
func ResultsDir(dir string, opts guard.OutOptions) (string, error) {
	if dir == "" {
		dir = "qdsweep-" + time.Now().Format("20060102-150405")
	}
	if !opts.Overwrite && !guard.DirBusy(dir) { // a running sweep's is refused as locked
		if prev, err := sweep.Read(filepath.Join(dir, sweep.ResultsJSON)); err == nil {
			if prev.Interrupted {
				return "", Usagef("--output %s holds an interrupted sweep; continue it with qdsweep sweep --resume %s, name a new directory, or add --%s to replace it", dir, dir, guard.OverwriteFlag)
			}
			return "", Usagef("--output %s holds a finished sweep; name a new directory, or add --%s to replace its results", dir, guard.OverwriteFlag)
		}
	}
	if err := guard.CheckOut(dir, opts); err != nil {
		return "", OutErr(err)
	}
	return dir, nil
}

func targetExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// LayoutSize is how much of a new target the sweep lays out: every job's
// region of the deepest numjobs, offset + (numjobs-1) × offset_increment + size.
func LayoutSize(w ioengine.Workload, p sweep.Plan) int64 {
	jobs := 1
	for _, n := range p.NumJobs {
		jobs = max(jobs, n)
	}
	return w.RegionEnd(w.Size, jobs)
}

// emitFioJobs writes one fio job file per planned step into o.JobsDir. Every
// file is rendered first: a value fio cannot take (a control character in
// --filename, say) is a usage error and nothing is written.
func (o *Sweep) emitFioJobs() error {
	type jobFile struct {
		name string
		data []byte
	}
	var files []jobFile
	for _, g := range o.Plan.Grid() {
		w := o.Workload
		w.RW, w.BS, w.IODepth, w.NumJobs = g.RW, g.BS, g.IODepth, g.NumJobs
		if w.Filename == "" {
			w.Filename = ScratchName // sim has no target: fio lays this one out
		}
		var b bytes.Buffer
		if err := fioadapt.WriteJobFile(&b, w, o.Runtime, o.Ramp); err != nil {
			return Usagef("--emit-fio-jobs: %v", err)
		}
		files = append(files, jobFile{fioadapt.JobFileName(w), b.Bytes()})
	}
	out, err := OpenOut(o.JobsDir, o.JobsOut)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := out.WriteFile(f.name, f.data); err != nil {
			return fmt.Errorf("--emit-fio-jobs: %w", OutErr(err))
		}
	}
	return nil
}
