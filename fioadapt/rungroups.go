package fioadapt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// Job is one job of a fio job file (or command line) run on one of
// qdsweep's engines: RunGroups runs it as fio would.
type Job struct {
	Group int // jobs of a group run together, groups one after another
	// WaitFor are the jobs (indices into RunGroups' jobs, in this group or
	// an earlier one) this job waits for before it starts, as fio's
	// wait_for holds a job until the job it names ends; the group's other
	// jobs do not wait.
	WaitFor    []int
	StartDelay time.Duration // fio's startdelay
	// EndFsync is fio's end_fsync on a local file the job writes: the
	// file is flushed to stable storage when the job ends.
	EndFsync bool
	// VerifyPass reads back and checks what the job wrote when it ends
	// (fio's verify phase, JobRun.VerifyPass); VerifyOnly skips the
	// writing and runs only that.
	VerifyPass, VerifyOnly bool
	written                *ioengine.WrittenBlocks // the blocks the random writes wrote (writeMap)
	Engine                 ioengine.Engine
	Workload               ioengine.Workload
	Control                ioengine.Control

	Stats *ioengine.Stats
	Err   error
	// FsyncFailed: the job's end_fsync failed, which ends the command
	// without a report.
	FsyncFailed bool
	// CPUShared: the job ran beside others and its CPU is its share of
	// the process's by I/O count (see RunGroups).
	CPUShared bool
	// ExitAll is fio's exitall: when the job ends, others end too, as
	// ExitWhat says (fio's exit_what): ExitGroup the jobs of its reporting
	// group (ReportGroup), ExitStonewall every job running (its wave), ExitAll
	// every job, no later wave starting. Stopped says another's exitall
	// ended the job (its figures are those until then).
	ExitAll     bool
	ExitWhat    string
	ReportGroup int
	Stopped     bool
	// start lets the job go with the others of its group that share a
	// flow (startFlowsTogether; nil: when it is set up).
	start *flowStart
}

// fio's exit_what values (Job.ExitWhat).
const (
	ExitGroup     = "group"
	ExitStonewall = "stonewall"
	ExitEvery     = "all"
)

// RunGroups runs the jobs' groups one after another and the jobs of a
// group together, as fio runs a job file; each job waits for its WaitFor
// jobs to end, then its startdelay. Jobs of one flow_id share one flow
// (joinFlows). The CPU time of a group's jobs, which ran together and each
// measured the whole process's, is split between them by their I/O counts
// (the CPU is the longest measurement's: the jobs' windows overlap). A
// job's result and error stay with it; the error returned is one that ends
// the command before any report: a workload the engine refuses
// (ioengine.ErrBadWorkload) or a failed end_fsync. An interrupted run
// starts no later group.
func RunGroups(ctx context.Context, jobs []*Job) error {
	done := make([]chan struct{}, len(jobs))
	for i := range done {
		done[i] = make(chan struct{})
	}
	ex := newExits(jobs)
	joinFlows(jobs)
	for g := 0; !ex.all; g++ {
		var wg sync.WaitGroup
		n := 0
		startFlowsTogether(ctx, jobs, g)
		for i, j := range jobs {
			if j.Group != g {
				continue
			}
			n++
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer close(done[i])
				for _, k := range j.WaitFor {
					<-done[k] // an earlier job: closed when it ends, run or not
				}
				if ex.stopped(i) {
					j.Stats = noIO(j.Workload) // stopped before it started, as fio reports it
					j.Workload.Flow.Counter.Unjoin(j.Workload.Flow.Weight, max(j.Workload.NumJobs, 1))
				} else {
					j.execute(ctx)
				}
				j.start.arrive(j) // ended without starting: the others go
				ex.ended(jobs, i)
			}()
		}
		wg.Wait()
		if n == 0 {
			break
		}
		if n > 1 {
			shareCPU(jobs, g)
		}
		for _, j := range jobs {
			if j.Group == g && j.Err != nil && (errors.Is(j.Err, ioengine.ErrBadWorkload) || j.FsyncFailed) {
				return j.Err
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	for _, j := range jobs {
		if ex.all && j.Stats == nil && j.Err == nil {
			j.Stats, j.Stopped = noIO(j.Workload), true // a later wave exit_what=all kept from starting
		}
	}
	return nil
}

// noIO is the figures of a job of w that did no I/O: fio's report of a
// job exitall ended before it started.
func noIO(w ioengine.Workload) *ioengine.Stats {
	st := &ioengine.Stats{Errors: []ioengine.IOError{}}
	if w.RW.IsRead() {
		st.Read = &ioengine.DirStats{}
	}
	if w.RW.IsWrite() {
		st.Write = &ioengine.DirStats{}
	}
	return st
}

// exits carries fio's exitall between a wave's jobs: each job's stop
// channel (its Control.Stop), closed once when a job whose exitall covers
// it ends; all is set by exit_what=all, which starts no later wave.
type exits struct {
	mu   sync.Mutex
	stop []chan struct{}
	shut []bool
	fin  []bool // ended
	all  bool
}

func newExits(jobs []*Job) *exits {
	ex := &exits{stop: make([]chan struct{}, len(jobs)), shut: make([]bool, len(jobs)), fin: make([]bool, len(jobs))}
	for i, j := range jobs {
		ex.stop[i] = make(chan struct{})
		j.Control.Stop = ex.stop[i]
	}
	return ex
}

// stopped reports whether job i was told to stop before it started.
func (ex *exits) stopped(i int) bool {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.shut[i]
}

// ended is job i's end: with exitall, it stops the jobs its exit_what
// covers (those still running or yet to start in its wave).
func (ex *exits) ended(jobs []*Job, i int) {
	j := jobs[i]
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.fin[i] = true
	if !j.ExitAll {
		return
	}
	if j.ExitWhat == ExitEvery {
		ex.all = true
	}
	for k, o := range jobs {
		if ex.fin[k] || ex.shut[k] || o.Group != j.Group || j.ExitWhat != ExitStonewall && j.ExitWhat != ExitEvery && o.ReportGroup != j.ReportGroup {
			continue
		}
		ex.shut[k] = true
		o.Stopped = true
		close(ex.stop[k])
	}
}

// shareCPU splits the CPU time of group g's jobs by their I/O counts.
func shareCPU(jobs []*Job, g int) {
	var cpu ioengine.CPU
	var ios int64
	for _, j := range jobs {
		if j.Group == g && j.Stats != nil {
			if j.Stats.CPU.UsrS+j.Stats.CPU.SysS > cpu.UsrS+cpu.SysS {
				cpu = j.Stats.CPU
			}
			ios += j.Stats.All.TotalIOs
		}
	}
	for _, j := range jobs {
		if j.Group == g && j.Stats != nil && ios > 0 {
			f := float64(j.Stats.All.TotalIOs) / float64(ios)
			j.Stats.CPU = ioengine.CPU{UsrS: cpu.UsrS * f, SysS: cpu.SysS * f}
			j.CPUShared = true
		}
	}
}

// execute runs the job: its startdelay, the engine, its end_fsync.
func (j *Job) execute(ctx context.Context) {
	if j.Err = startDelay(ctx, j.StartDelay); j.Err != nil {
		return
	}
	if j.VerifyOnly {
		j.Stats, j.Err = j.verifyPass(ctx, nil)
		return
	}
	j.writeMap()
	j.Stats, j.Err = j.Engine.Run(ctx, j.Workload, j.Control)
	if j.Err == nil && j.VerifyPass && j.Workload.FioVerify.Backlog == 0 { // verify_backlog's job read each write back
		j.Stats, j.Err = j.verifyPass(ctx, j.Stats)
	}
	if j.Err == nil && j.EndFsync && j.Workload.RW.IsWrite() {
		if err := fsyncFile(j.Workload.Filename); err != nil {
			j.Err, j.FsyncFailed = fmt.Errorf("end_fsync: %w", err), true
		}
	}
}

// startDelay waits fio's startdelay, or until ctx ends (its error, wrapped).
func startDelay(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return fmt.Errorf("startdelay: %w", ctx.Err())
	case <-time.After(d):
		return nil
	}
}

// fsyncFile flushes path to stable storage. It opens the file read-only:
// fsync needs no write access, and the flush writes nothing the job did
// not.
func fsyncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// IOsPerJob is fio's size-based end as the engine's Control.IOsPerJob:
// each job transfers io_size × loops bytes (the whole region when io_size
// is not set: existingSize, the target's, less the jobs' offsets), counted
// as fio counts them: fio issues I/Os while fewer bytes than that are done,
// so a total that is not a whole number of blocks takes one block more
// when that block still fits in the file (sequential, or random with
// norandommap: fio's random map holds whole blocks only); number_ios caps
// each loop's count, as in fio. At least one I/O.
//
// A job whose I/O sizes vary (bssplit, bsrange) ends by its bytes
// (BytesPerJob); its count is number_ios's cap alone (0: none).
func IOsPerJob(run JobRun, w ioengine.Workload, existingSize int64) int64 {
	loops := int64(max(run.Loops, 1))
	perJob, region := jobBytes(run, w, existingSize)
	if w.MinBS() != w.MaxBS() {
		return max(run.NumberIOs*loops, 0)
	}
	n := perJob / w.BS
	if perJob%w.BS != 0 && len(w.Files) <= 1 && (!w.RW.IsRandom() || run.NoRandomMap) &&
		w.Offset+(region+w.BS-1)/w.BS*w.BS <= existingSize {
		n++ // the part block fio issues whole
	}
	if s := w.Shape.Skip; s > 0 && !run.Set[fio.OptIOSize] {
		// A pass with forward skips ends where the next offset is past the
		// region, and without io_size fio ends the loop there too: an I/O
		// that starts in the region is issued where the file holds it
		// (read:4k, bs=8k over 1 MiB of a larger file: 86). Reads and
		// writes (rw=rw:8k) each walk the region from their own position,
		// and the pass ends with the first to pass its end (PassEnds): at
		// most both passes.
		k := (region-w.BS)/(w.BS+s) + 1
		if last := (region - 1) / (w.BS + s) * (w.BS + s); last >= k*(w.BS+s) && len(w.Files) <= 1 && w.Offset+last+w.BS <= existingSize {
			k++
		}
		if w.RW.Mixed() {
			k *= 2
		}
		n = min(n, k*loops)
	}
	n = max(n, 1)
	if run.NumberIOs > 0 {
		n = min(n, run.NumberIOs*loops)
	}
	return n
}

// JobEnds is IOsPerJob and BytesPerJob of each of w's jobs over its own
// region (ioengine.Workload.Job), the engine's Control.JobIOs and
// JobBytes, as fio counts each clone's: without size= each covers the file
// from its own start (offset_increment=10% over 1,000,000 bytes: 244, 219
// and 195 reads of 4k). nil when every job's are alike.
func JobEnds(run JobRun, w ioengine.Workload, existingSize int64) (ios, bytes []int64) {
	for i := range w.NumJobs {
		jw := w.Job(i)
		ios = append(ios, IOsPerJob(run, jw, existingSize))
		bytes = append(bytes, BytesPerJob(run, jw, existingSize))
	}
	if !slices.ContainsFunc(ios, func(n int64) bool { return n != ios[0] }) &&
		!slices.ContainsFunc(bytes, func(n int64) bool { return n != bytes[0] }) {
		return nil, nil
	}
	return ios, bytes
}

// PassEnds is the engine's Control.PassEnds for a size-based run: a random
// job with sequential follow-on I/Os (rw=randread:N, percentage_random)
// of one loop, no io_size and one file, whose every job's region ends
// before the file does, ends where a follow-on would start past its
// region, as fio 3.33's job does (4 MiB file, size=1m, randread:4: 118
// reads in fio where its region holds 256). A job in strided zones ends
// at an I/O its zones cannot place (ioengine.StridedZones).
func PassEnds(run JobRun, w ioengine.Workload, existingSize int64) bool {
	if w.Zones.On() {
		return true
	}
	s := w.Shape
	if !w.RW.IsRandom() && w.RW.Mixed() && s.Skip > 0 {
		// rw=rw:8k: reads and writes each walk the region, and fio's pass
		// ends with the first to pass its end (1 MiB, bs=4k, rwmixread=70:
		// 86 reads and 39 writes); each loop is such a pass, from the
		// region's start (Control.Loops; rwmixread=0, loops=2: 172
		// writes, not 344).
		return !run.Set[fio.OptIOSize] && len(w.Files) <= 1
	}
	if !w.RW.IsRandom() || s.RandomEvery <= 1 && s.Sequential == [2]int{} || max(run.Loops, 1) > 1 ||
		run.Set[fio.OptIOSize] || len(w.Files) > 1 || w.Size <= 0 {
		return false
	}
	return w.LastStart()+w.Size < existingSize
}

// BytesPerJob is fio's size-based end of a job whose I/O sizes vary, as
// the engine's Control.BytesPerJob: io_size × loops bytes (the region's
// when io_size is not set), as IOsPerJob counts them; 0 for a job of one
// block size, which IOsPerJob ends.
func BytesPerJob(run JobRun, w ioengine.Workload, existingSize int64) int64 {
	if w.MinBS() == w.MaxBS() {
		return 0
	}
	n, _ := jobBytes(run, w, existingSize)
	return n
}

// jobBytes is the bytes each job transfers in a size-based run and the
// region it covers (see IOsPerJob).
func jobBytes(run JobRun, w ioengine.Workload, existingSize int64) (perJob, region int64) {
	perJob = run.IOSize
	region = existingSize - w.LastStart()
	switch {
	case len(w.Files) > 1:
		region = listBytes(w)
	case w.Size > 0:
		region = w.Size // a default size (the simulator's): the region it stands for
	}
	switch {
	case perJob == 0 && run.IOSizePercent > 0:
		perJob = max(int64(float64(region)*run.IOSizePercent/100), 1) * int64(max(run.Loops, 1))
	case perJob == 0:
		perJob = max(region, w.BS) * int64(max(run.Loops, 1))
	}
	return perJob, region
}

// listBytes is the bytes a file list's jobs cover: each file from the
// offset to its end, less the jobs' offset increments.
func listBytes(w ioengine.Workload) int64 {
	var n int64
	for _, f := range w.Files {
		if fi, err := os.Stat(f); err == nil {
			n += max(FileBytes(f, fi)-w.LastStart(), 0)
		}
	}
	return n
}

// FileBytes is the size of a regular file or block device (0 when unknown).
func FileBytes(path string, fi os.FileInfo) int64 {
	if fi.Mode().IsRegular() {
		return fi.Size()
	}
	if fi.Mode()&os.ModeDevice == 0 || fi.Mode()&os.ModeCharDevice != 0 {
		return 0 // a FIFO would block the open; validation refuses it next
	}
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return 0
	}
	return n
}
