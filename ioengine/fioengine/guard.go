package fioengine

import (
	"fmt"
	"strings"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// refusedArgs are fio options --fio-arg may not carry, because the write
// guard could not vouch for the run any more: they add jobs, change the
// target or the region, change the direction or what is written, write or
// delete other files, or run commands. Names are compared lowercased with
// '-' read as '_'.
var refusedArgs = map[string]string{
	// more jobs
	"name": "adds a job", "numjobs": "changes the number of jobs", "include": "reads another job file",
	"client": "sends jobs to other hosts (use --fio-clients)", "server": "starts a server", "daemonize": "starts a server",
	"section": "selects job-file sections", "stonewall": "changes job grouping", "new_group": "changes job grouping",
	"wait_for": "changes job grouping", "alias": "changes job grouping",
	// another target or region
	"filename": "changes the target", "directory": "changes the target", "filename_format": "changes the target",
	"opendir": "changes the target", "unique_filename": "changes the target", "nrfiles": "adds files",
	"file_service_type": "changes the target", "replay_redirect": "changes the target",
	"size": "changes the region", "filesize": "changes the region", "io_size": "changes the region",
	"io_limit": "changes the region", "offset": "changes the region", "offset_increment": "changes the region",
	"offset_align": "changes the region", "fill_device": "writes the whole device", "fill_fs": "fills the filesystem",
	"zonemode": "can reset zones", "zonerange": "changes the region", "zonesize": "changes the region",
	"zoneskip": "changes the region", "zonecapacity": "changes the region",
	// direction and what is written
	"rw": "changes the direction", "readwrite": "changes the direction", "rwmixread": "changes the direction",
	"rwmixwrite": "changes the direction", "rw_sequencer": "changes the direction", "read_iolog": "replays other I/O",
	"verify": "changes what is read and written", "verify_only": "changes what is read and written",
	"do_verify": "changes what is read and written", "trim_percentage": "discards data",
	"trim_backlog": "discards data", "allow_mounted_write": "would write a mounted device",
	"create_on_open": "creates files", "allow_file_create": "creates files", "overwrite": "lays out files",
	"unlink": "deletes files", "unlink_each_loop": "deletes files",
	// other files and commands
	"output": "writes fio's report elsewhere", "output_format": "changes fio's report format (qdsweep reads JSON)",
	"write_iolog": "writes a file", "write_bw_log": "writes a file", "write_lat_log": "writes a file",
	"write_iops_log": "writes a file", "write_hist_log": "writes a file", "verify_state_save": "writes a file",
	"verify_state_load": "reads verify state", "exec_prerun": "runs a command", "exec_postrun": "runs a command",
	"trigger":      "runs a command",
	"trigger_file": "runs a command", "trigger_cmd": "runs a command", "trigger_remote_cmd": "runs a command",
	"exitall": "ends other jobs", "exitall_on_error": "ends other jobs",
}

// CheckExtraArgs refuses --fio-arg values that would let fio do what the
// write guard did not check (refusedArgs), and anything that is not a
// --option (fio reads a bare argument as a job file). The error names the
// argument and says why, in one line.
func CheckExtraArgs(args []string) error {
	for _, a := range args {
		if !strings.HasPrefix(a, "--") || len(a) == 2 {
			return fmt.Errorf("--fio-arg=%s: only fio --options are passed (a bare argument is a job file); use --jobfile for job files", a)
		}
		name, _, _ := strings.Cut(a[2:], "=")
		key := strings.ReplaceAll(strings.ToLower(name), "-", "_")
		if why, ok := refusedArgs[key]; ok && why != "" {
			return fmt.Errorf("--fio-arg=%s: refused, it %s; qdsweep sets the job, target, region and direction itself and guards them", a, why)
		}
		if err := checkArgChars(a); err != nil {
			return err
		}
	}
	return nil
}

func checkArgChars(a string) error {
	for _, r := range a {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("--fio-arg=%q: has a control character", a)
		}
	}
	return nil
}

// NoLocalTarget reports whether the job runs on fio servers (--fio-clients):
// their target is not on this host, so the local write guard neither checks
// nor holds it.
func (e *Engine) NoLocalTarget() bool { return len(e.opt.Clients) > 0 }

// holdLocal checks and holds w's targets (each file of a filename list)
// for one fio run when no sweep holds them already (w.Held): fio opens the
// targets itself, without O_EXCL, so the exclusive claim stays with qdsweep
// while fio runs. release lets them go.
func (e *Engine) holdLocal(w ioengine.Workload) (release func(), err error) {
	if e.NoLocalTarget() || w.Held != nil {
		return func() {}, nil
	}
	files, size := w.Targets(), w.FileSize()
	var held []*guard.Held
	release = func() {
		for _, h := range held {
			h.Close()
		}
	}
	for _, f := range files {
		h, err := guard.Hold(guard.Target{Path: f, Write: w.RW.IsWrite(),
			End: guard.Region(w.Offset, size, w.OffsetIncrement, w.NumJobs)}, w.Permit)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, h)
	}
	return release, nil
}
