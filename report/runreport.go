package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// RunJob is one job of a `qdsweep run` as its reports see it: what ran,
// what it measured, and what fio's report shapes name.
type RunJob struct {
	Name   string // fio's job name ("" when none: fioadapt.UnnamedJob in fio's shapes)
	Group  int    // the job's group (fio's groupid)
	Prefix string // "job [name]: " before what is said of it in a run of several jobs
	// GroupReporting is fio's group_reporting: with it a group's jobs are
	// reported as one, as fio reports them (GroupReported).
	GroupReporting bool
	Workload       ioengine.Workload
	Stats          *ioengine.Stats  // nil when the job did not run
	Disks          []fio.DiskUtil   // fio's disk_util over the window
	Steady         *fio.SteadyState // fio's steady-state test, nil without one
	Err            error
	CPUShared      bool // its CPU is its share of the process's (RunGroups)
	// The run's settings fio's report shapes carry.
	Runtime, Ramp time.Duration
	TimeBased     bool
	Percentiles   []float64
	Reporting     fio.Reporting // fio's reporting options: percentiles of clat and lat, directions mixed
	Version       string        // fio's "fio version" (fio.WriterVersion)
	// JobOptions and GlobalOptions are the options given, as written (the
	// job's own; the command line's and [global]'s): fio's "job options"
	// and "global options". Nil: derived from the workload.
	// Each in the order fio lists it (fio.JobFile.Listed).
	JobOptions, GlobalOptions []fio.Option
	// TrimBS and KBBase are what fio's normal output shows of the job's
	// trims' block sizes (zero: the writes') and kb_base (fioadapt.JobRun's).
	TrimBS [2]int64
	KBBase int
	// Started is when the run started (fio's genesis), whence fio's JSON
	// counts its "elapsed" (fio.Report.Started).
	Started time.Time
}

// Run's output formats (--output-format).
const (
	RunNormal   = "normal"  // fio's normal layout
	RunText     = "qdsweep" // qdsweep's own text
	RunJSON     = "json"
	RunTerse    = "terse"
	RunFioJSON  = "fio-json" // a fio-shaped JSON document
	RunJSONPlus = "json+"    // fio-json with fio's json+ latency bins
)

// WriteRun writes one job's figures to out in format and its in-flight
// shortfall to errw (as a "qdsweep: " note).
func WriteRun(out, errw io.Writer, format string, j RunJob) error {
	if j.Stats == nil {
		return nil
	}
	if err := writeRunStats(out, format, j, errors.Is(j.Err, context.Canceled)); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	if j.Stats.Shortfall != nil {
		fmt.Fprintln(errw, WrapHanging(ShortfallNote(j.Stats.Shortfall), 80, "qdsweep: ", "  "))
	}
	return nil
}

// WriteRuns writes the figures of a run of several jobs: normal in fio's
// layout (fio.WriteNormal: a block per job, a status per group), qdsweep's
// text a block per job headed by its name and group with a group line
// under a group of several, terse a line per job, json (qdsweep's own) one
// document listing each job's (with its name and group), fio-json and
// json+ one fio document with every job. Jobs and clones are reported
// as fio reports them, group_reporting merging a job into the entry
// before it (GroupReported). Each job's in-flight
// shortfall, and CPU shared between jobs, are said on errw.
func WriteRuns(out, errw io.Writer, format string, jobs []RunJob) error {
	jobs = GroupReported(jobs)
	shared := false
	var docs []RunDoc
	var reports []fio.Report
	var listed []RunJob // the jobs of a list of fio's formats
	for i, j := range jobs {
		if j.Stats == nil {
			continue
		}
		interrupted := errors.Is(j.Err, context.Canceled)
		switch {
		case isFormatList(format):
			listed = append(listed, j)
		case format == RunJSON:
			d := RunDocOf(j.Workload, j.Stats, interrupted)
			d.Name, d.Group = j.Name, &j.Group
			docs = append(docs, d)
		case format == RunFioJSON, format == RunJSONPlus, format == RunNormal:
			reports = append(reports, fioReportsOf(format, j)...)
		default:
			if format == RunText {
				fmt.Fprint(out, RunJobHeader(j.Name, j.Group, j.Workload.NumJobs))
			}
			if err := writeRunStats(out, format, j, interrupted); err != nil {
				return fmt.Errorf("writing results: %w", err)
			}
		}
		if j.Stats.Shortfall != nil {
			fmt.Fprintln(errw, WrapHanging(j.Prefix+ShortfallNote(j.Stats.Shortfall), 80, "qdsweep: ", "  "))
		}
		shared = shared || j.CPUShared
		if format == RunText && (i+1 == len(jobs) || jobs[i+1].Group != j.Group) {
			writeGroupStatus(out, jobs, j.Group)
		}
	}
	if shared {
		fmt.Fprintln(errw, WrapHanging(SharedCPUNote, 80, "qdsweep: ", "  "))
	}
	var err error
	switch {
	case len(listed) > 0:
		err = writeFormatList(out, format, listed)
	case format == RunJSON:
		err = WriteRunJSON(out, RunsDoc{Schema: RunsSchema, Jobs: docs})
	case format == RunNormal && len(reports) > 0:
		err = fio.WriteNormal(out, reports)
	case len(reports) > 0:
		err = fio.WriteJSONJobs(out, reports)
	}
	if err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

// isFormatList reports whether format is a list of fio's formats
// (terse,json,normal), as fio's --output-format takes them.
func isFormatList(format string) bool { return strings.Contains(format, ",") }

// writeFormatList writes jobs in each of the list's fio formats as fio
// 3.33 prints them (stat.c's output buffers, whatever the list's order):
// normal's header lines first, then terse's lines, then one JSON document
// (json+ when the list has it, json's bins with it, else json), then the
// rest of normal's.
func writeFormatList(out io.Writer, list string, jobs []RunJob) error {
	has := map[string]bool{}
	for _, f := range strings.Split(list, ",") {
		has[f] = true
	}
	jsonFormat := map[bool]string{true: RunJSONPlus, false: RunFioJSON}[has[RunJSONPlus]]
	var normal, terse, js []fio.Report
	for _, j := range jobs {
		normal = append(normal, fioReportsOf(RunNormal, j)...)
		terse = append(terse, fioReportsOf(RunTerse, j)...)
		js = append(js, fioReportsOf(jsonFormat, j)...)
	}
	steps := []struct {
		on    bool
		write func() error
	}{
		{has[RunNormal], func() error { return fio.WriteNormalHead(out, normal) }},
		{has[RunTerse], func() error {
			for _, r := range terse {
				if err := fio.WriteTerse(out, r); err != nil {
					return err
				}
			}
			return nil
		}},
		{has[RunFioJSON] || has[RunJSONPlus], func() error { return fio.WriteJSONJobs(out, js) }},
		{has[RunNormal], func() error { return fio.WriteNormalRest(out, normal) }},
	}
	for _, s := range steps {
		if !s.on {
			continue
		}
		if err := s.write(); err != nil {
			return err
		}
	}
	return nil
}

// writeRunStats prints one job's figures in format.
func writeRunStats(out io.Writer, format string, j RunJob, interrupted bool) error {
	if isFormatList(format) {
		return writeFormatList(out, format, []RunJob{j})
	}
	switch format {
	case RunJSON:
		return WriteRunJSON(out, RunDocOf(j.Workload, j.Stats, interrupted))
	case RunTerse, RunFioJSON, RunJSONPlus, RunNormal:
		rs := fioReportsOf(format, j)
		switch format {
		case RunNormal:
			return fio.WriteNormal(out, rs)
		case RunFioJSON, RunJSONPlus:
			return fio.WriteJSONJobs(out, rs)
		}
		for _, r := range rs {
			if err := fio.WriteTerse(out, r); err != nil {
				return err
			}
		}
		return nil
	}
	return WriteRunNormal(out, j.fioName(), j.Group, j.Workload, j.Stats)
}

// fioName is the job's name in fio's shapes (fioadapt.UnnamedJob when it
// has none).
func (j RunJob) fioName() string {
	if j.Name == "" {
		return fioadapt.UnnamedJob
	}
	return j.Name
}

// fioReportsOf is a job's reports in fio's shapes: one, or one per clone
// when the run reports its jobs apart (fio without group_reporting).
func fioReportsOf(format string, j RunJob) []fio.Report {
	st := j.Stats
	if len(st.PerJob) == 0 {
		return []fio.Report{fioReportOf(format, j, j.Workload, st)}
	}
	w1 := j.Workload
	w1.NumJobs = 1
	rs := make([]fio.Report, len(st.PerJob))
	for i := range st.PerJob {
		rs[i] = fioReportOf(format, j, w1, &st.PerJob[i])
		if !rs[i].Given {
			rs[i].Job.Options[fio.OptGroupReporting] = "0"
		}
	}
	return rs
}

// fioReportOf is one report in fio's shapes (terse, fio-json, json+).
func fioReportOf(format string, j RunJob, w ioengine.Workload, st *ioengine.Stats) fio.Report {
	eng := st.Engine
	if st.FioIOEngine != "" {
		eng = st.FioIOEngine // what fio ran, as fio's own report says
	}
	r := fioadapt.ReportFromStats(j.fioName(), w, eng, j.Runtime, j.Ramp, j.TimeBased, j.Percentiles, st)
	r.Version, r.Reporting, r.Started = j.Version, j.Reporting, j.Started
	var floor *ioengine.FloorError
	var lat *ioengine.LatencyTargetError
	switch {
	case errors.As(j.Err, &floor):
		r.Job.Error = 5 // fio's EIO of check_min_rate
	case errors.As(j.Err, &lat):
		r.Job.Error = 110 // fio's ETIMEDOUT of a latency over the target
	}
	if j.JobOptions != nil {
		r.Given, r.GlobalOptions, r.JobOptions = true, j.GlobalOptions, slices.Clone(j.JobOptions)
		r.Job.Options = make(map[string]string, len(j.JobOptions)+1)
		for _, o := range j.JobOptions {
			r.Job.Options[o.Key] = o.Value
		}
		given, ok := fio.OptionValue(j.JobOptions, fio.OptIOEngine)
		if !ok {
			given, _ = fio.OptionValue(j.GlobalOptions, fio.OptIOEngine)
		}
		given = fio.EngineUsed(given)
		// A synchronous engine run as psync (sync, pvsync) is no change to say.
		if given != eng && !(fio.IsSyncEngine(given) && eng == "psync") {
			// The engine that ran is not the one the options name (qdsweep's
			// sim or fio, io_uring's fallback): said, so readers see it.
			r.Job.Options[fio.OptIOEngine] = eng
			r.JobOptions = withValue(r.JobOptions, fio.OptIOEngine, eng)
		}
	}
	r.Disks = j.Disks
	r.Job.Steady = j.Steady
	r.Job.BSBounds[2], r.Job.KBBase = j.TrimBS, j.KBBase
	r.Plus = format == RunJSONPlus
	r.Job.GroupID = j.Group
	return r
}

// withValue is opts with option k's value v: each time it is given, else
// added last.
func withValue(opts []fio.Option, k, v string) []fio.Option {
	found := false
	for i := range opts {
		if opts[i].Key == k {
			opts[i].Value, found = v, true
		}
	}
	if !found {
		opts = append(opts, fio.Option{Key: k, Value: v})
	}
	return opts
}

// GroupReported is jobs as fio 3.33 reports them (its stat.c, show_run_stats):
// in order, a job without group_reporting one entry per numjobs clone, a
// job with it joining the entry before it when that entry is of its group,
// whatever that entry's jobs asked (the clone before it, a job of another
// section), else starting one. An entry of several jobs is one job, as fio
// reports it: the first job's name and settings, every job's I/O
// (ioengine.MergeGroup), both directions when its jobs read and write;
// jobs that differ in iodepth or bs too (fio 3.33 reports exitwhat.fio's
// slow2, sync at depth 1, with its libaio clones at depth 32 as one job).
// [f] numjobs=2 group_reporting, [g] numjobs=2: f (2 jobs), g, g; [f]
// numjobs=2, [g] numjobs=2 group_reporting, [h]: f, f (f's second clone
// and both of g's), h.
func GroupReported(jobs []RunJob) []RunJob {
	var out, cur []RunJob
	flush := func() {
		switch {
		case len(cur) == 1:
			out = append(out, cur[0])
		case len(cur) > 1:
			out = append(out, mergeGroup(cur))
		}
		cur = nil
	}
	for _, j := range jobs {
		if j.GroupReporting && len(cur) > 0 && cur[0].Group == j.Group {
			cur = append(cur, j)
			continue
		}
		flush()
		cur = []RunJob{j}
		if j.GroupReporting || j.Stats == nil || len(j.Stats.PerJob) < 2 {
			continue
		}
		// Clones reported apart: the last may take in the jobs after it.
		last := len(j.Stats.PerJob) - 1
		if rest := cloneRange(j, 0, last); rest.Stats != nil {
			out = append(out, rest)
		}
		cur = []RunJob{cloneRange(j, last, last+1)}
	}
	flush()
	return out
}

// cloneRange is the clones [from, to) of a job whose clones are reported
// apart (Stats.PerJob) as a job of their own: one clone's own figures, or
// several's apart as before.
func cloneRange(j RunJob, from, to int) RunJob {
	st := j.Stats
	c := j
	c.Workload.NumJobs = to - from
	if to-from == 1 {
		one := st.PerJob[from]
		c.Stats = &one
		return c
	}
	sts := make([]*ioengine.Stats, 0, to-from)
	for i := from; i < to; i++ {
		sts = append(sts, &st.PerJob[i])
	}
	m := ioengine.MergeGroup(sts)
	if m != nil {
		m.PerJob = st.PerJob[from:to]
	}
	c.Stats = m
	return c
}

// mergeGroup is a group's jobs as one.
func mergeGroup(jobs []RunJob) RunJob {
	m := jobs[0]
	sts := make([]*ioengine.Stats, 0, len(jobs))
	reads, writes, random := false, false, false
	m.Workload.NumJobs = 0
	for _, j := range jobs {
		sts = append(sts, j.Stats)
		m.Workload.NumJobs += j.Workload.NumJobs
		reads, writes = reads || j.Workload.RW.IsRead(), writes || j.Workload.RW.IsWrite()
		random = random || j.Workload.RW.IsRandom()
		m.CPUShared = m.CPUShared || j.CPUShared
		if m.Err == nil {
			m.Err = j.Err
		}
	}
	if reads && writes {
		m.Workload.RW = map[bool]ioengine.RW{true: ioengine.RandRW, false: ioengine.ReadWrite}[random]
	}
	// fio 3.33 lists the options of the entry's last job under "job
	// options" (its stat.c keeps each job's option list as it sums them),
	// under the first job's name.
	last := jobs[len(jobs)-1]
	m.JobOptions, m.GlobalOptions = last.JobOptions, last.GlobalOptions
	m.Stats = ioengine.MergeGroup(sts)
	if m.Stats != nil && m.Stats.Read != nil && m.Stats.All.TotalIOs > 0 {
		m.Workload.RWMixRead = int(100 * m.Stats.Read.TotalIOs / m.Stats.All.TotalIOs)
	}
	return m
}

// writeGroupStatus writes fio's group summary line under the last job of
// group g when the group had several jobs reported one by one.
func writeGroupStatus(out io.Writer, jobs []RunJob, g int) {
	var sts []*ioengine.Stats
	n := 0
	for _, j := range jobs {
		if j.Group == g && j.Stats != nil {
			sts = append(sts, j.Stats)
			n += j.Workload.NumJobs
		}
	}
	if len(sts) > 1 {
		fmt.Fprintln(out, WrapHanging(GroupStatusLine(g, n, ioengine.MergeGroup(sts)), 80, "", "  "))
	}
}
