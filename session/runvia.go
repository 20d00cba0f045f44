package session

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
)

// route is how a job file's (or command line's) jobs run.
type route int

const (
	routeNative route = iota // qdsweep's own engines
	routeFio                 // fio runs them, under the write guard
)

// routeRuns is the one place that decides how a run's jobs run: natively
// when qdsweep runs every option of every job; through fio when fio
// itself may run what qdsweep does not (fio's option table: the options
// fio.OptionViaFio allows, an engine of fio.FioEngines with its options)
// and fio is installed; else refused, in one line naming what decides it:
// the engine, then other options fio may not run here, then, only when
// nothing else refuses the jobs, a variable left unset (unset: the
// parser's fio.ErrUnsetVar, or nil), then fio missing. engine is the
// engine the command line names for every job ("": each job's own);
// --ioengine=fio sends the jobs to fio whole, as fio runs the file, unless
// remote (--fio-clients), where fio runs them one job at a time. where
// begins the message ("run" or "--jobfile PATH").
func routeRuns(runs []fioadapt.JobRun, unset error, engine string, remote bool, where string) (route, string, error) {
	var via, refused, refusedEngines []string
	for _, r := range runs {
		for _, o := range r.Unsupported {
			if fio.OptionName(o.Key) == fio.OptIOEngine {
				if !slices.Contains(fio.FioEngines, o.Value) {
					refusedEngines = append(refusedEngines, fio.DescribeOption(o))
				} else {
					via = append(via, fio.DescribeOption(o))
				}
				continue
			}
			if why := viaFioRefusal(r, o); why != "" {
				refused = append(refused, fio.DescribeOption(o)+" ("+why+")")
				continue
			}
			via = append(via, fio.DescribeOption(o))
		}
	}
	switch {
	case len(refusedEngines) > 0:
		return 0, "", Usagef("%s: %s: qdsweep runs no other fio engine than %s (each reads and writes only the job's own files, as the write guard checked them)",
			where, strings.Join(dedup(refusedEngines), ", "), strings.Join(fio.FioEngines, ", "))
	case len(refused) > 0:
		return 0, "", Usagef("%s: %s: neither qdsweep nor fio under qdsweep runs these; drop them or run the job file with fio itself", where, strings.Join(dedup(refused), ", "))
	case unset != nil:
		return 0, "", Usagef("%s: %v", where, OneLine(unset))
	case len(runs) > 1 && exitAll(runs) != "" && len(via) == 0 && engine == ioengine.EngineFio && remote:
		// A job file qdsweep could run natively, sent to fio's servers job
		// by job; run here, fio runs it whole (runFile).
		return 0, "", Usagef("%s: %s: --%s=%s with --fio-clients runs such a job file on fio's servers once per job, so one job's end would not stop the others as fio's exitall does; drop it, run it here without --fio-clients, or run the job file with fio itself (fio --client=HOST JOBFILE)",
			where, exitAll(runs), fio.OptIOEngine, ioengine.EngineFio)
	case sharedFlow(runs) != "" && len(via) == 0 && engine == ioengine.EngineFio && remote:
		// fio's flow holds the jobs of one file to their shares: on fio's
		// servers, once per job, each fio would see its own job alone; run
		// here, fio runs the file whole (runFile).
		return 0, "", Usagef("%s: %s: --%s=%s with --fio-clients runs such a job file on fio's servers once per job, so its jobs would not share their flow as fio's flow does; drop it, run it here without --fio-clients, or run the job file with fio itself (fio --client=HOST JOBFILE)",
			where, sharedFlow(runs), fio.OptIOEngine, ioengine.EngineFio)
	case zbdReadsNothing(runs) != "":
		return 0, "", Usagef("%s: %s", where, zbdReadsNothing(runs))
	case len(via) == 0 && engine == ioengine.EngineFio && remote && cloneSteady(runs) != "":
		// fio's servers, given group_reporting as every job qdsweep hands
		// them one at a time, would test the clones together, where the
		// job file asks a test each; run here, the file goes to fio whole
		// (runFile), each clone tested and reported apart, as fio does.
		return 0, "", Usagef("%s: %s and no group_reporting: fio tests each clone apart, and qdsweep reports a job's clones as one; add group_reporting (one test of the clones together) or run the job file with fio itself",
			where, cloneSteady(runs))
	case len(via) == 0 && engine == ioengine.EngineFio && !remote:
		// The user asked for fio: it runs the jobs whole, each on its own
		// ioengine, as fio runs the file (not one fio per job, which
		// merged numjobs clones and dropped what ties jobs together).
		return routeFio, "", nil
	case len(via) == 0:
		return routeNative, "", nil
	case engine == ioengine.EngineSim:
		return 0, "", Usagef("%s: %s: the simulated device runs only what qdsweep runs natively; drop them or --%s=%s", where, strings.Join(dedup(via), ", "), fio.OptIOEngine, ioengine.EngineSim)
	}
	if err := fioengine.Installed(); err != nil {
		return 0, "", Usagef("%s: %s: qdsweep does not run these natively, and fio, which would run them, is not installed: install fio (e.g. apt-get install fio) or drop them", where, strings.Join(dedup(via), ", "))
	}
	return routeFio, report.ViaFioNote(dedup(via)), nil
}

// cloneSteady names a job of runs that asks fio to test each of its
// numjobs clones apart (steadystate without group_reporting), or "".
func cloneSteady(runs []fioadapt.JobRun) string {
	for _, r := range runs {
		if r.Steady.Dur > 0 && r.Workload.NumJobs > 1 && !r.GroupReporting {
			return fmt.Sprintf("job %s: %s with %s=%d", r.Name, fio.OptSteadyState, fio.OptNumJobs, r.Workload.NumJobs)
		}
	}
	return ""
}

// exitAll is fio's exitall (with its exit_what) as a job of runs sets it,
// or "" when none does.
// sharedFlow names the jobs of runs that share a flow (fio's flow and
// flow_id), or "": a flow of one job section alone holds its clones to
// their shares, which fio does with the section run on its own.
func sharedFlow(runs []fioadapt.JobRun) string {
	first := map[int]string{}
	for _, r := range runs {
		f := r.Workload.Flow
		if !f.On() {
			continue
		}
		if name, ok := first[f.ID]; ok {
			return fmt.Sprintf("jobs %s and %s share %s %d", name, r.Name, fio.OptFlowID, f.ID)
		}
		first[f.ID] = r.Name
	}
	return ""
}

func exitAll(runs []fioadapt.JobRun) string {
	for _, r := range runs {
		v, ok := fio.OptionValue(r.JobOptions, fio.OptExitAll)
		if !ok {
			v, ok = fio.OptionValue(r.GlobalOptions, fio.OptExitAll)
		}
		if !ok || strings.TrimSpace(v) == "0" {
			continue
		}
		s := fio.OptExitAll
		if w, ok := fio.OptionValue(r.JobOptions, fio.OptExitWhat); ok {
			s += ", " + fio.OptExitWhat + "=" + w
		} else if w, ok := fio.OptionValue(r.GlobalOptions, fio.OptExitWhat); ok {
			s += ", " + fio.OptExitWhat + "=" + w
		}
		return "job " + r.Name + ": " + s
	}
	return ""
}

// zbdReadsNothing says why fio would do no I/O for a job of runs, or "":
// zonemode=zbd over files that are not block devices, where fio's zones
// all start empty, and a job that only reads with read_beyond_wp=0
// (fio's default), which reads only what was written in a zone.
func zbdReadsNothing(runs []fioadapt.JobRun) string {
	for _, r := range runs {
		var zbd, beyond bool
		for _, o := range r.Unsupported {
			switch fio.OptionName(o.Key) {
			case fio.OptZoneMode:
				zbd = strings.EqualFold(strings.TrimSpace(o.Value), "zbd")
			case fio.OptReadBeyondWP:
				beyond = o.Value == "" || strings.TrimSpace(o.Value) != "0"
			}
		}
		if !zbd || beyond || r.Workload.RW.IsWrite() {
			continue
		}
		for _, f := range r.Workload.Targets() {
			if fi, err := os.Stat(f); err == nil && fi.Mode()&os.ModeDevice != 0 {
				return ""
			}
		}
		return fmt.Sprintf("job %s: %s=zbd, %s=%s with %s=0 on a file that is not a zoned block device: fio 3.33 runs it and ends with 0 I/Os and exit status 0, printing no reason (it reads only data written in a zone, and such a file's zones all start empty); add %s=1, write the zones first, or run it on a zoned block device",
			r.Name, fio.OptZoneMode, fio.OptRW, r.Workload.RW, fio.OptReadBeyondWP, fio.OptReadBeyondWP)
	}
	return ""
}

// viaFioRefusal is why fio may not run option o of job r for qdsweep
// ("" when it may): not an option the table lets fio run, or a value
// naming a file.
func viaFioRefusal(r fioadapt.JobRun, o fio.Option) string {
	if engines := fio.OptionEngines(o.Key); len(engines) > 0 {
		if slices.Contains(fio.FioEngines, r.Engine) {
			return "" // an option of the job's engine, which fio runs
		}
		return "an option of fio's " + r.Engine + " engine"
	}
	if why := fio.ViaFioRefusal(o.Key); why != "" {
		return why
	}
	if err := fio.CheckViaFio(o.Key, o.Value); err != nil {
		return err.Error()
	}
	return ""
}

// viaFioOptions are the options a job that runs through fio hands fio, as
// written, after those of its workload: what qdsweep does not run natively
// (its engine aside: fioengine.Options.IOEngine) and its engine's options.
func viaFioOptions(r fioadapt.JobRun) [][2]string {
	var out [][2]string
	for _, o := range append(slices.Clone(r.Unsupported), r.EngineOptions...) {
		if fio.OptionName(o.Key) != fio.OptIOEngine {
			out = append(out, [2]string{fio.OptionName(o.Key), o.Value})
		}
	}
	return out
}

// dedup sorts s and drops repeats.
func dedup(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// exitOf is fio's exitall and exit_what of run (the job's own, else its
// [global]'s): whether its end stops others, and which (fioadapt.Exit*).
func exitOf(r fioadapt.JobRun) (bool, string) {
	opt := func(k string) (string, bool) {
		if v, ok := fio.OptionValue(r.JobOptions, k); ok {
			return strings.TrimSpace(v), true
		}
		v, ok := fio.OptionValue(r.GlobalOptions, k)
		return strings.TrimSpace(v), ok
	}
	v, ok := opt(fio.OptExitAll)
	if !ok || v == "0" {
		return false, ""
	}
	what, _ := opt(fio.OptExitWhat)
	switch what {
	case fioadapt.ExitStonewall, fioadapt.ExitEvery:
		return true, what
	}
	return true, fioadapt.ExitGroup
}
