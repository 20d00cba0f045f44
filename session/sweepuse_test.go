package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/sweep"
)

// sweepUseExamples gives, for every row of fio.RunOptions, job lines that
// set it: the line naming the row is the option; the others (set in both
// sweeps compared) are what it needs to mean something. "%f" is an
// existing file, "%m" a missing one, "%d" a directory.
var sweepUseExamples = map[string][]string{
	"name": {"name=x"}, "filename": {"filename=%m"}, "directory": {"directory=%d"}, "nrfiles": {"nrfiles=1"},
	"rw": {"rw=read"}, "bs": {"bs=8k"}, "bsrange": {"bsrange=4k-16k"}, "ba": {"ba=8k"},
	"bssplit": {"bssplit=4k/50:64k/50"}, "random_distribution": {"random_distribution=zipf:1.2"},
	"zonemode": {"zonemode=strided"}, "zonesize": {"zonesize=256k"}, "zonerange": {"zonemode=strided", "zonesize=256k", "zonerange=128k"},
	"zoneskip":          {"zonemode=strided", "zonesize=256k", "zoneskip=64k"},
	"percentage_random": {"percentage_random=50"}, "random_generator": {"random_generator=tausworthe64"},
	"iodepth": {"iodepth=8"}, "numjobs": {"numjobs=2"}, "ioengine": {"ioengine=psync"}, "direct": {"direct=1"},
	"buffered": {"buffered=0"}, "invalidate": {"invalidate=1"}, "fadvise_hint": {"fadvise_hint=random"}, "size": {"size=512k"}, "filesize": {"filesize=512k"},
	"io_size": {"io_size=1m"}, "offset": {"offset=4k"}, "offset_increment": {"offset_increment=4k"},
	"rwmixread": {"rwmixread=70"}, "rwmixwrite": {"rwmixwrite=30"}, "runtime": {"runtime=7"}, "time_based": {"time_based"},
	"ramp_time": {"ramp_time=2"}, "loops": {"loops=2"}, "number_ios": {"number_ios=10"}, "startdelay": {"startdelay=1"},
	"rate_iops": {"rate_iops=1000"}, "rate": {"rate=1m"}, "rate_process": {"rate_process=poisson"},
	"rate_min": {"rate_min=1k"}, "rate_iops_min": {"rate_iops_min=10"}, "rate_cycle": {"rate_cycle=500"},
	"thinktime": {"thinktime=100"}, "thinktime_spin": {"thinktime=100", "thinktime_spin=10"},
	"thinktime_blocks": {"thinktime=100", "thinktime_blocks=4"}, "thinktime_blocks_type": {"thinktime=100", "thinktime_blocks_type=issue"},
	"thinktime_iotime": {"thinktime=100", "thinktime_iotime=1"},
	"latency_target":   {"latency_target=10ms"}, "latency_window": {"latency_window=1s"},
	"latency_percentile": {"latency_percentile=99"}, "latency_run": {"latency_run=1"},
	"flow": {"flow=2"}, "flow_id": {"flow_id=1"}, "flow_sleep": {"flow_sleep=100"},
	"fsync": {"fsync=4"}, "fdatasync": {"fdatasync=4"}, "sync": {"sync=dsync"}, "end_fsync": {"end_fsync=1"},
	"randseed": {"randseed=42"}, "randrepeat": {"randrepeat=0"}, "norandommap": {"norandommap"}, "readonly": {"readonly"},
	"verify": {"verify=crc32c"}, "do_verify": {"do_verify=0"}, "verify_only": {"verify_only"},
	"verify_pattern": {"verify_pattern=0xdeadbeef"}, "verify_interval": {"verify_interval=512"}, "verify_fatal": {"verify_fatal=1"}, "verify_async": {"verify_async=2"},
	"verify_backlog": {"verify_backlog=16"}, "verify_backlog_batch": {"verify_backlog_batch=4"},
	"steadystate": {"steadystate=iops:1%"}, "steadystate_duration": {"steadystate_duration=5"},
	"steadystate_ramp_time": {"steadystate_ramp_time=1"}, "continue_on_error": {"continue_on_error=io"},
	"percentile_list": {"percentile_list=50:99"}, "group_reporting": {"group_reporting"},
	"clat_percentiles": {"clat_percentiles=0"}, "lat_percentiles": {"lat_percentiles=1"}, "unified_rw_reporting": {"unified_rw_reporting=mixed"},
	"write_iops_log": {"write_iops_log=p"}, "write_bw_log": {"write_bw_log=p"}, "write_lat_log": {"write_lat_log=p"},
	"log_avg_msec": {"log_avg_msec=100"}, "write_hist_log": {"write_hist_log=p"}, "log_hist_msec": {"log_hist_msec=100"},
	"log_hist_coarseness": {"log_hist_coarseness=1"}, "per_job_logs": {"per_job_logs=0"}, "log_offset": {"log_offset=1"},
	"log_prio": {"log_prio"}, "log_max_value": {"log_max_value=1"}, "log_unix_epoch": {"log_unix_epoch=1"}, "log_store_compressed": {"log_store_compressed=0"},
	"allow_file_create": {"filename=%m", "allow_file_create=0"}, "kb_base": {"kb_base=1000", "size=1m"},
	"prio": {"prio=3"}, "prioclass": {"prioclass=3"}, "cmdprio_percentage": {"cmdprio_percentage=20"},
	"cmdprio_class": {"cmdprio_percentage=20", "cmdprio_class=2"}, "cmdprio": {"cmdprio_percentage=20", "cmdprio=3"},
	"cmdprio_bssplit":            {"cmdprio_bssplit=4k/20"},
	"buffer_compress_percentage": {"buffer_compress_percentage=50"}, "buffer_compress_chunk": {"buffer_compress_percentage=50", "buffer_compress_chunk=4k"},
	"buffer_pattern": {"buffer_pattern=0xdeadbeef"}, "dedupe_percentage": {"dedupe_percentage=50"},
	"dedupe_mode":                   {"dedupe_percentage=50", "size=512k", "dedupe_mode=working_set"},
	"dedupe_working_set_percentage": {"dedupe_percentage=50", "size=512k", "dedupe_mode=working_set", "dedupe_working_set_percentage=20"},
	"dedupe_global":                 {"dedupe_percentage=50", "size=512k", "dedupe_mode=working_set", "dedupe_global=1"},
	"refill_buffers":                {"refill_buffers"}, "scramble_buffers": {"scramble_buffers=0"}, "zero_buffers": {"zero_buffers"},
}

// sweepOf builds (does not run) the sweep of a job file holding the base
// options and lines, with the step flags opts; what it would measure, or
// its refusal.
func sweepOf(t *testing.T, dir string, lines []string, opts []fio.Option) (string, error) {
	t.Helper()
	f := filepath.Join(dir, "f")
	if err := os.WriteFile(f, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer("%f", f, "%m", filepath.Join(dir, "missing"), "%d", dir)
	job := "[j]\nrw=randrw\n" + r.Replace(strings.Join(lines, "\n")) + "\n"
	if !strings.Contains(job, "filename=") && !strings.Contains(job, "directory=") {
		job = "[j]\nfilename=" + f + job[3:]
	}
	jobPath := filepath.Join(dir, fmt.Sprintf("job%d.fio", len(lines)))
	if err := os.WriteFile(jobPath, []byte(job), 0o600); err != nil {
		t.Fatal(err)
	}
	req := SweepRequest{JobFile: jobPath, RW: "randread", BS: "4k", IODepth: "1:4", NumJobs: "1", RateProcess: "linear",
		Output: filepath.Join(dir, "out"), Steady: sweep.DefaultSteady, RefineSteps: 4, ChartFormat: "png",
		Engine: EngineRequest{Name: "io_uring"}, StepOptions: opts}
	req.Set.Add(FieldJobFile, FieldOutput)
	if len(opts) > 0 && lines == nil {
		req.Set = 0
		req.Set.Add(FieldOutput)
		req.Workload.Filename = f
	}
	o, err := NewSweep(req)
	if err != nil {
		return "", err
	}
	w := o.Workload
	w.Held = nil
	return fmt.Sprintf("%+v %+v %v %v %s", o.Plan, w, o.Ramp, o.Runtime, o.EngineName), nil
}

// TestEveryRowHasASweepUse walks every option qdsweep runs: a sweep's job
// file setting it is refused with the row's reason (SweepRefused), changes
// nothing (SweepAlways), or changes what the sweep measures or is refused
// naming it (the rows a sweep applies); a step row given as a flag
// changes it too. No option a sweep is given is silently ignored.
func TestEveryRowHasASweepUse(t *testing.T) {
	for _, d := range fio.RunOptions {
		t.Run(d.Name, func(t *testing.T) {
			lines, ok := sweepUseExamples[d.Name]
			if !ok {
				t.Fatalf("no example of %s: add one to sweepUseExamples", d.Name)
			}
			var base []string
			var own string
			for _, l := range lines {
				if k, _, _ := strings.Cut(l, "="); fio.OptionName(k) == d.Name {
					own = l
				} else {
					base = append(base, l)
				}
			}
			dir := t.TempDir()
			before, err := sweepOf(t, dir, append(base, "#"), nil)
			if err != nil {
				t.Fatalf("without %s: %v", own, err)
			}
			after, err := sweepOf(t, dir, append(base, own), nil)
			switch u := d.SweepUse(); u {
			case fio.SweepRefused:
				if err == nil || !strings.Contains(err.Error(), d.Name+": "+d.SweepRefusal()) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("%s: refused in one line naming it with its reason %q, got %v", own, d.SweepRefusal(), err)
				}
			case fio.SweepAlways:
				if err != nil || after != before {
					t.Fatalf("%s: accepted and changes nothing; got %v\n%s\n%s", own, err, before, after)
				}
			case fio.SweepFlag, fio.SweepStep, fio.SweepJobFile:
				if err == nil && after == before {
					t.Fatalf("%s: a sweep applies it, and it changed nothing:\n%s", own, after)
				}
				if err != nil && !strings.Contains(err.Error(), d.Name) {
					t.Fatalf("%s: refused without naming it: %v", own, err)
				}
			default:
				t.Fatalf("%s: no sweep use decided (%d): decide it in fio's sweepUses", d.Name, u)
			}
			if d.SweepUse() != fio.SweepStep {
				return
			}
			// The flag alone, without a job file, applies it to every step.
			var opts []fio.Option
			for _, l := range lines {
				k, v, _ := strings.Cut(l, "=")
				opts = append(opts, fio.Option{Key: k, Value: v})
			}
			noFlags, err := sweepOf(t, dir, nil, []fio.Option{{Key: fio.OptName, Value: "x"}})
			if err != nil {
				t.Fatal(err)
			}
			withFlags, err := sweepOf(t, dir, nil, opts)
			if err == nil && withFlags == noFlags || err != nil && !strings.Contains(err.Error(), d.Name) {
				t.Fatalf("--%s as a flag: changed nothing or refused without naming it (%v)", d.Name, err)
			}
		})
	}
}
