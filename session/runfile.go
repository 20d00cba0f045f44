package session

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
)

// wholeViaFio reports whether the run's jobs are a job file's (or files',
// or a command line's) that fio runs (routeRuns' routeFio) on this
// machine: fio runs them as one invocation (runFile), as it would the
// file, one job or several, and reports them as it would (numjobs clones
// apart without group_reporting). It is the one place that decides it.
func wholeViaFio(jobs []*runJob) bool {
	for _, j := range jobs {
		if !j.spec.viaFio || j.es.Fio == nil || j.es.Remote() { // refused remote: viaFioRemote
			return false
		}
	}
	return len(jobs) > 0
}

// viaFioRemote refuses a job that goes through fio (routeFio) on fio
// servers (--fio-clients): fio runs such a job file whole (runFile), every
// target held here under the write guard and handed to fio as a
// descriptor, and fio's servers open their files by name on their own
// hosts, out of any hold; fio 3.33's client also sums the first reports
// of a file of several jobs into "All clients", whatever their jobs.
func viaFioRemote(spec RunSpec, es Engine) error {
	if !spec.viaFio || !es.Remote() {
		return nil
	}
	return Usagef("run: job %s: --fio-clients with a job that goes through fio: qdsweep runs such a job file as one fio invocation with every target held here under the write guard and handed to fio as a descriptor, and fio's servers open their files by name on their own hosts, where no hold reaches; run it here without --fio-clients, or with fio itself (fio --client=HOST JOBFILE)", spec.run.Name)
}

// runFile runs the jobs as one fio invocation (fioengine.RunFile), each
// with what ties it to the others (linksOf), and returns the jobs as fio
// reported them (a group_reporting group as one, clones apart without
// it), in fio's order, and the run's error. Each job keeps the figures of
// the report that covers it.
func runFile(ctx context.Context, jobs []*runJob) ([]report.RunJob, error) {
	fjs := make([]fioengine.FileJob, len(jobs))
	for i, j := range jobs {
		name := j.spec.run.Name
		if name == "" {
			name = fioadapt.UnnamedJob // a command line without --name: fio needs one
		}
		fjs[i] = fioengine.FileJob{Engine: j.eng, Name: name, Workload: j.w, Control: j.ctl, Links: linksOf(jobs, i), StartDelay: j.spec.run.StartDelay}
	}
	reps, err := fioengine.RunFile(ctx, fjs)
	if errors.Is(err, ioengine.ErrBadWorkload) {
		return nil, UsageErr(err)
	}
	if len(reps) == 0 {
		return nil, err
	}
	rjs := make([]report.RunJob, 0, len(reps))
	for _, rep := range reps {
		j := jobs[rep.Jobs[0]]
		rj := j.reported()
		rj.Name, rj.Group, rj.GroupReporting, rj.Workload, rj.Stats, rj.CPUShared = rep.Name, rep.Group, false, rep.Workload, rep.Stats, false
		rj.Steady = nil
		if j.spec.run.Steady.Dur > 0 {
			rj.Steady = fioSteadyOf(rep.Steady, j.spec.run.Steady)
		}
		for _, k := range rep.Jobs {
			if jobs[k].st == nil {
				jobs[k].st = rep.Stats
			}
		}
		rjs = append(rjs, rj)
	}
	return rjs, err
}

// linksOf are the options that tie job i to the run's others, as fio
// gets them: stonewall where its wave begins (a job file's stonewall, or
// the next job file), new_group where only its group does, its wait_for,
// exitall and exit_what as written (its own, else its [global]'s),
// group_reporting when it asks for it, and its startdelay.
func linksOf(jobs []*runJob, i int) [][2]string {
	s := jobs[i].spec
	var out [][2]string
	if i > 0 {
		switch prev := jobs[i-1].spec; {
		case s.wave != prev.wave:
			out = append(out, [2]string{fio.OptStonewall, ""})
		case s.group != prev.group:
			out = append(out, [2]string{fio.OptNewGroup, ""})
		}
	}
	for _, k := range []string{fio.OptWaitFor, fio.OptExitAll, fio.OptExitWhat} {
		v, ok := fio.OptionValue(s.run.JobOptions, k)
		if !ok {
			v, ok = fio.OptionValue(s.run.GlobalOptions, k)
		}
		if ok {
			out = append(out, [2]string{k, strings.TrimSpace(v)})
		}
	}
	if s.run.GroupReporting {
		out = append(out, [2]string{fio.OptGroupReporting, "1"})
	}
	if d := s.run.StartDelay; d > 0 {
		// fio waits it here (run job by job, fioadapt.RunGroups does).
		out = append(out, [2]string{fio.OptStartDelay, strconv.FormatInt(d.Microseconds(), 10) + "us"})
	}
	return out
}
