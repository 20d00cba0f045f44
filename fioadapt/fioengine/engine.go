package fioengine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// ErrNotFound is wrapped when the fio binary cannot be found.
var ErrNotFound = errors.New("fio not found in PATH; install it (e.g. apt-get install fio) or use --" + fio.OptIOEngine + "=" + ioengine.EngineIOUring)

// Options configures the fio engine.
type Options struct {
	Binary    string   // fio binary name or path ("" means "fio" from PATH)
	ExtraArgs []string // extra fio arguments (--fio-arg), passed before the job
	// Clients are fio servers ("host" or "host:port", default port 8765) to
	// drive in client/server mode; empty runs fio locally.
	Clients []string
	// IOEngine is fio's ioengine: "io_uring" (default), "libaio" or "psync".
	// An --ioengine in ExtraArgs wins: the user's engine is passed through.
	// A local io_uring that this machine cannot set up falls back to libaio,
	// as the native engines do (Stats.FallbackReason says why).
	IOEngine string
	// IOSize, when positive, makes each job end after this many bytes
	// (fio's io_size, time_based off): the run lasts until then or until
	// the runtime, whichever comes first.
	IOSize int64
	// NumberIOs, when positive, is fio's number_ios: each job ends after
	// this many I/Os if its io_size is not done sooner.
	NumberIOs int64
	// SizeBased makes a job without IOSize end by its size too, as fio's
	// does without time_based: after its region (size=, else the whole
	// file) or the runtime, whichever comes first.
	SizeBased bool
	// EndFsync is fio's end_fsync: the written file flushed when the job ends.
	EndFsync bool
	// JobOptions are options of the job fio runs as written, after its
	// workload's: what qdsweep hands fio for a job it does not run
	// natively (each one fio's option table lets fio run: fio.OptionViaFio).
	JobOptions [][2]string
	// Steady, when set, is given the job's steady-state test as fio
	// reported it (fio's "steadystate" object; nil when fio reported none),
	// for a job that hands fio steadystate= among JobOptions.
	Steady func(*fio.SteadyState)
	// Given are the options the workload was converted from, as the user
	// wrote them (fioadapt.JobRun.Given): fio gets their values where they
	// mean what the workload does (fioadapt.AsGiven), bs=4k as 4k.
	Given []fio.Option
	// KillWait is how long fio gets to print its results after an interrupt
	// before its process group is killed (0: 5 s).
	KillWait time.Duration
	// HangGrace is how long past its ramp and runtime a run may go on
	// before fio is taken for hung and stopped (0: hangGrace's).
	HangGrace time.Duration
}

// Engine runs the installed fio binary as an ioengine.Engine.
//
// fio reports only at its end, so Control.OnSample is never called and a
// run always lasts ramp + runtime: steady-state early stops cannot cut it
// short. OnWindowStart and OnWindowEnd are called on a timer when the ramp
// should end and when the runtime should, as fio does not tell. InflightMean
// is not measured: it is IOPS × mean latency (Little's Law) from fio's
// figures. On interrupt fio's process group gets SIGINT (fio then prints
// what it measured), and SIGKILL after Options.KillWait.
type Engine struct {
	opt    Options
	mu     sync.Mutex
	probed map[string]bool // remote targets found blank (checkRemote)
}

// NewEngine returns a fio engine.
func NewEngine(o Options) ioengine.Engine {
	if o.Binary == "" {
		o.Binary = "fio"
	}
	if e := ioengineArg(o.ExtraArgs); e != "" {
		o.IOEngine = e
	}
	if o.IOEngine == "" {
		o.IOEngine = fioadapt.DefaultIOEngine
	}
	if o.KillWait <= 0 {
		o.KillWait = 5 * time.Second
	}
	return &Engine{opt: o}
}

// Installed says whether fio can be run: nil, or ErrNotFound naming why.
func Installed() error {
	if _, err := exec.LookPath("fio"); err != nil {
		return fmt.Errorf("%w (%v)", ErrNotFound, err)
	}
	return nil
}

// Name is "fio".
func (e *Engine) Name() string { return ioengine.EngineFio }

// Run executes fio once for w and converts its JSON report.
func (e *Engine) Run(ctx context.Context, w ioengine.Workload, ctl ioengine.Control) (*ioengine.Stats, error) {
	bin, err := e.check(w)
	if err != nil {
		return nil, err
	}
	ioeng, fallback := e.ioEngine()
	opts, err := fioadapt.JobOptions(w, ctl.Runtime, ctl.Ramp, ioeng)
	if err != nil {
		return nil, err
	}
	opts = e.sizeBased(fioadapt.AsGiven(opts, e.opt.Given))
	opts.Job = append(opts.Job, e.opt.JobOptions...)
	if err := CheckExtraArgs(e.opt.ExtraArgs); err != nil {
		return nil, err
	}
	if err := e.targetsExist(w); err != nil {
		return nil, err
	}
	if err := e.checkRemote(ctx, bin, w); err != nil { // the write guard for fio servers
		return nil, err
	}
	fds, err := e.heldTargets(w) // the write guard; a device stays claimed while fio runs
	if err != nil {
		return nil, err
	}
	defer fds.close()
	// json+ with total-latency percentiles: the histograms of every
	// direction and host merge into the run's percentiles.
	args := append(outputArgs(), withoutIOEngine(e.opt.ExtraArgs)...)
	if len(e.opt.Clients) == 0 {
		// fio opens the held files, never the paths: each is a descriptor
		// fio inherits, named /proc/self/fd/N.
		opts.Job = fds.rename(opts.Job)
		args = append(args, "--"+fio.OptName+"="+fioadapt.JobName(w))
		for _, kv := range append(opts.Global, opts.Job...) {
			args = append(args, "--"+kv[0]+"="+kv[1])
		}
	} else {
		dir, err := os.MkdirTemp("", "qdsweep-fio-")
		if err != nil {
			return nil, fmt.Errorf("fio client job file: %w", err)
		}
		defer os.RemoveAll(dir)
		more, err := e.clientArgs(dir, w, opts)
		if err != nil {
			return nil, err
		}
		args = append(args, more...)
	}
	stdout, stderr, runErr := e.execWith(ctx, bin, args, fds.files, ctl)
	outs, perr := fio.ParseJSON(bytes.NewReader(stdout))
	if perr != nil {
		return nil, notReported(ctx, args, runErr, perr, stderr)
	}
	final := fio.Final(outs)
	st, err := statsOf(final[len(final)-1], w, e.opt.Clients)
	if err != nil {
		return nil, err
	}
	if e.opt.Steady != nil {
		e.opt.Steady(steadyOf(final[len(final)-1]))
	}
	st.FioIOEngine = ioeng
	st.FallbackReason = fallback
	if ctx.Err() != nil {
		return st, fmt.Errorf("fio run interrupted: %w", ctx.Err())
	}
	if st.All.TotalIOs == 0 {
		// fio reports a job that could not do a single I/O (a device it
		// could not open or write on a server) with zeros: that is an
		// error, never a measurement of 0 IOPS.
		return nil, fmt.Errorf("fio did no I/O on %s%s%s", w.Filename, errnoOf(st), firstLines(stderr, 3))
	}
	if runErr != nil {
		return st, fmt.Errorf("fio exited with an error: %w%s", runErr, firstLines(stderr, 3))
	}
	return st, nil
}

// check finds fio and refuses what the fio engine does not run.
func (e *Engine) check(w ioengine.Workload) (bin string, err error) {
	bin, err = exec.LookPath(e.opt.Binary)
	if err != nil {
		return "", fmt.Errorf("%w (%s: %v)", ErrNotFound, e.opt.Binary, err)
	}
	if len(w.JobFiles) > 0 {
		return "", fmt.Errorf("fio engine: one file per job is not supported; name one shared file with --%s", fio.OptFilename)
	}
	if w.Verify {
		return "", fmt.Errorf("fio engine: data verification is not supported; drop --%s or use --%s=%s", fio.OptVerify, fio.OptIOEngine, ioengine.EngineIOUring)
	}
	return bin, nil
}

// targetsExist refuses a local run whose targets are missing: fio would
// create a missing file, and an Engine lays nothing out.
func (e *Engine) targetsExist(w ioengine.Workload) error {
	if len(e.opt.Clients) > 0 {
		return nil
	}
	for _, f := range w.Targets() {
		if _, err := os.Stat(f); err != nil {
			return fmt.Errorf("fio target: %w", err)
		}
	}
	return nil
}

// ioEngine is the ioengine fio runs with, and why it is not the one asked
// for ("" when it is): io_uring is probed as the native engines do, and
// libaio taken when it is missing; fio itself would just fail.
func (e *Engine) ioEngine() (ioeng, fallback string) {
	ioeng = e.opt.IOEngine
	if ioeng == ioengine.EngineIOUring && len(e.opt.Clients) == 0 {
		if _, reason, err := ioengine.New(ioengine.EngineIOUring); err == nil && reason != "" {
			return ioengine.EngineLibaio, reason
		}
	}
	return ioeng, ""
}

// clientArgs writes the job file and the host list for fio servers into
// dir and returns the arguments that send the job to every server.
func (e *Engine) clientArgs(dir string, w ioengine.Workload, opts fioadapt.OptionSet) ([]string, error) {
	path := filepath.Join(dir, fioadapt.JobName(w)+".fio")
	var buf bytes.Buffer
	if err := fioadapt.WriteOptions(&buf, w, opts); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("fio client job file: %w", err)
	}
	// A host-list file sends the job to every server; with several
	// --client arguments before one job file, fio may run it on the last
	// server only.
	var hosts strings.Builder
	for _, c := range e.opt.Clients {
		hosts.WriteString(fio.ClientArg(c) + "\n")
	}
	list := filepath.Join(dir, "hosts.list")
	if err := os.WriteFile(list, []byte(hosts.String()), 0o644); err != nil {
		return nil, fmt.Errorf("fio client host list: %w", err)
	}
	return []string{"--client=" + list, path}, nil
}

// notReported is the error of a fio run whose output does not parse
// (perr): interrupted, fio's own failure with its command line, or the
// output; each with the first lines fio wrote to stderr.
func notReported(ctx context.Context, args []string, runErr, perr error, stderr []byte) error {
	msg := firstLines(stderr, 3)
	if ctx.Err() != nil {
		return fmt.Errorf("fio run interrupted before it reported: %w", ctx.Err())
	}
	var aux auxError
	if errors.As(runErr, &aux) {
		return aux
	}
	if runErr != nil {
		return fmt.Errorf("fio %s: %w%s", strings.Join(args, " "), runErr, msg)
	}
	return fmt.Errorf("fio output: %w%s", perr, msg)
}

// sizeBased turns the options into a size-based job when Options.IOSize
// or SizeBased is set: time_based off, io_size (and number_ios) on when
// IOSize is set. end_fsync is set whatever the end.
func (e *Engine) sizeBased(opts fioadapt.OptionSet) fioadapt.OptionSet {
	if e.opt.EndFsync {
		opts.Job = append(opts.Job, [2]string{fio.OptEndFsync, "1"})
	}
	if e.opt.IOSize <= 0 && !e.opt.SizeBased {
		return opts
	}
	var g [][2]string
	for _, kv := range opts.Global {
		switch kv[0] {
		case fio.OptTimeBased:
			continue
		}
		g = append(g, kv)
	}
	opts.Global = g
	if e.opt.IOSize > 0 { // else it ends at its region's end, as fio's job
		opts.Job = append(opts.Job, [2]string{fio.OptIOSize, strconv.FormatInt(e.opt.IOSize, 10)})
	}
	if e.opt.NumberIOs > 0 {
		opts.Job = append(opts.Job, [2]string{fio.OptNumberIOs, strconv.FormatInt(e.opt.NumberIOs, 10)})
	}
	return opts
}

// ioengineArg returns the ioengine named in fio arguments ("--ioengine=X"
// or "--ioengine X"), or "".
func ioengineArg(args []string) string {
	v := ""
	for i, a := range args {
		k, val, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if k != fio.OptIOEngine || !strings.HasPrefix(a, "-") {
			continue
		}
		if !ok && i+1 < len(args) {
			val = args[i+1]
		}
		v = val
	}
	return v
}

// outputArgs are the arguments every fio run gets first: json+ with
// total-latency percentiles, so the histograms of every direction and host
// merge into the run's percentiles.
func outputArgs() []string {
	return []string{"--output-format=json+", "--" + fio.OptLatPercentiles + "=1"}
}

// withoutIOEngine drops --ioengine from fio arguments: the job names it.
func withoutIOEngine(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		k, _, ok := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if k == fio.OptIOEngine && strings.HasPrefix(args[i], "-") {
			if !ok {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// exec runs fio in its own process group and returns its stdout and stderr.
func (e *Engine) exec(ctx context.Context, bin string, args []string, ctl ioengine.Control) ([]byte, []byte, error) {
	return e.execWith(ctx, bin, args, nil, ctl)
}

// execWith is exec with files inherited by fio as descriptors 3, 4, ….
func (e *Engine) execWith(ctx context.Context, bin string, args []string, files []*os.File, ctl ioengine.Control) ([]byte, []byte, error) {
	ctx, hung := watchdog(ctx, ctl, e.opt.HangGrace)
	defer hung.stop()
	args, dropAux, err := withPrivateAux(args)
	if err != nil {
		return nil, nil, err
	}
	defer dropAux()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.ExtraFiles = files
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &limitedBuffer{max: 64 << 10, buf: &stderr}
	inOwnGroup(cmd)
	cmd.Cancel = func() error {
		// fio prints its results on SIGINT; the whole group gets it.
		return interruptGroup(cmd.Process.Pid)
	}
	cmd.WaitDelay = e.opt.KillWait
	mark := markRun(cmd)
	if err := startRun(cmd, mark); err != nil {
		return nil, nil, fmt.Errorf("start fio: %w", err)
	}
	win := startWindowTimers(ctl)
	err = cmd.Wait()
	win.stop()
	// Leave nothing of the run behind: helpers fio forked, and its jobs,
	// each in a session of its own.
	endRun(mark)
	if hung.fired() {
		return nil, nil, fmt.Errorf("fio was still running %s after the job's ramp and runtime (%s) should have ended it, and was stopped: fio hung", hung.grace, ctl.Ramp+ctl.Runtime)
	}
	return stdout.Bytes(), stderr.Bytes(), err
}

// withPrivateAux gives a local fio run a directory of its own for the
// state files fio makes beside its jobs (aux-path: verify state, whose
// default name ./local-<job>-<n>-verify.state fio opens with O_TRUNC
// through any symlink in the working directory), and turns verify state
// off: nothing fio writes but the jobs' own files lands where the user
// did not name it. The returned func removes the directory (so does
// StopAll, on a forced exit while fio runs). A run
// through fio's servers (--client) is left as it is: their state is
// theirs.
func withPrivateAux(args []string) ([]string, func(), error) {
	for _, a := range args {
		if strings.HasPrefix(a, "--client") {
			return args, func() {}, nil
		}
	}
	dir, err := os.MkdirTemp("", "qdsweep-fio-")
	if err != nil {
		return nil, nil, auxError{err}
	}
	own := append([]string{"--aux-path=" + dir, "--" + fio.OptVerifyStateSave + "=0"}, args...)
	return own, keepAux(dir), nil
}

// auxError is a failure to make the directory of fio's state files
// (withPrivateAux): said as it is, without fio's command line, which never
// ran.
type auxError struct{ err error }

func (e auxError) Error() string {
	return fmt.Sprintf("TMPDIR: fio's state files need a directory of their own there, which cannot be made (%v); set TMPDIR to a writable directory", e.err)
}

func (e auxError) Unwrap() error { return e.err }

// hangGrace is how long past a run's ramp and runtime fio may take to end
// (its end_fsync, a verify pass, its report) before it is taken for hung:
// at least a minute, or the runtime again.
func hangGrace(runtime time.Duration) time.Duration { return max(time.Minute, runtime) }

// hangWatch ends a fio run that goes on past its time (hangGrace after its
// ramp and runtime): fio 3.33 can hang before its job starts.
type hangWatch struct {
	grace  time.Duration
	t      *time.Timer
	cancel context.CancelFunc
	hit    atomic.Bool
}

// watchdog returns ctx, cancelled when the run outlives its time (never
// for a run without a runtime: one that runs until its bytes are done).
func watchdog(ctx context.Context, ctl ioengine.Control, grace time.Duration) (context.Context, *hangWatch) {
	if grace <= 0 {
		grace = hangGrace(ctl.Runtime)
	}
	w := &hangWatch{grace: grace}
	if ctl.Runtime <= 0 || ctl.Runtime > 30*24*time.Hour {
		return ctx, w
	}
	ctx, w.cancel = context.WithCancel(ctx)
	w.t = time.AfterFunc(ctl.Ramp+ctl.Runtime+w.grace, func() { w.hit.Store(true); w.cancel() })
	return ctx, w
}

// fired says whether the run outlived its time.
func (w *hangWatch) fired() bool { return w.hit.Load() }

func (w *hangWatch) stop() {
	if w.t != nil {
		w.t.Stop()
		w.cancel()
	}
}

// windowTimers calls the Control's window hooks on a timer.
type windowTimers struct {
	mu             sync.Mutex
	started, ended bool
	ctl            ioengine.Control
	t1, t2         *time.Timer
}

// startWindowTimers schedules OnWindowStart after the ramp and OnWindowEnd
// after ramp + runtime.
func startWindowTimers(ctl ioengine.Control) *windowTimers {
	w := &windowTimers{ctl: ctl}
	w.t1 = time.AfterFunc(ctl.Ramp, w.start)
	w.t2 = time.AfterFunc(ctl.Ramp+ctl.Runtime, w.end)
	return w
}

func (w *windowTimers) start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started || w.ended {
		return
	}
	w.started = true
	if w.ctl.OnWindowStart != nil {
		w.ctl.OnWindowStart()
	}
}

func (w *windowTimers) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.started || w.ended {
		return
	}
	w.ended = true
	if w.ctl.OnWindowEnd != nil {
		w.ctl.OnWindowEnd()
	}
}

// stop cancels pending hooks and closes an open window.
func (w *windowTimers) stop() {
	w.t1.Stop()
	w.t2.Stop()
	w.end()
	w.mu.Lock()
	w.ended = true
	w.mu.Unlock()
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	max int
	buf *bytes.Buffer
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		if len(p) > room {
			l.buf.Write(p[:room])
		} else {
			l.buf.Write(p)
		}
	}
	return len(p), nil
}

// firstLines renders up to n non-empty lines of fio's stderr as ": a; b".
func firstLines(b []byte, n int) string {
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			keep = append(keep, l)
			if len(keep) == n {
				break
			}
		}
	}
	if len(keep) == 0 {
		return ""
	}
	return ": " + strings.Join(keep, "; ")
}

// errnoOf is " (EBUSY)": the error fio's job reported, or "".
func errnoOf(st *ioengine.Stats) string {
	if len(st.Errors) == 0 {
		return ""
	}
	return " (" + st.Errors[0].Errno + ")"
}
