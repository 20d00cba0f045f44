package sweep

import (
	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// guardKeys are the fio options that set what the write guard's refusals
// name as their fix (guard.Setting).
var guardKeys = map[guard.Setting]fio.OptionKey{
	guard.SettingFile: fio.OptFilename, guard.SettingSize: fio.OptSize, guard.SettingOffset: fio.OptOffset,
	guard.SettingDirect: fio.OptDirect,
}

// GuardFlag is the flag that sets the write guard's setting s (--size),
// as guard.Named spells a refusal's fix.
func GuardFlag(s guard.Setting) string {
	if k, ok := guardKeys[s]; ok {
		return "--" + k
	}
	return ""
}

// HoldTarget is holdTarget for callers that run more than sweep.Run on one
// target (the refine pass after it): they hold it once and pass it in
// cfg.Workload.Held. The caller closes the returned Held (nil-safe).
func HoldTarget(cfg Config, p Plan) (*guard.Held, error) { return holdTarget(cfg, p) }

// holdTarget checks cfg.Workload's target under its Permit for every step
// of plan p and opens it once for the whole sweep (guard.Hold): every step
// runs through that one open file, and a block device written to stays
// claimed with O_EXCL from the first step to the last, so nothing can mount
// it in between. It returns nil when the target is already held, when there
// is none, or when the engine's I/O is not on this host.
func holdTarget(cfg Config, p Plan) (*guard.Held, error) {
	w := cfg.Workload
	if w.Held != nil || w.Filename == "" {
		return nil, nil
	}
	if nl, ok := cfg.Engine.(ioengine.NoLocalTarget); ok && nl.NoLocalTarget() {
		return nil, nil
	}
	writes := false
	for _, rw := range p.RW {
		writes = writes || ioengine.RW(rw).IsWrite()
	}
	jobs := 1
	for _, n := range p.NumJobs {
		jobs = max(jobs, n)
	}
	h, err := guard.Hold(w.GuardTarget(w.Filename, writes, jobs), w.Permit)
	return h, guard.Named(err, GuardFlag)
}
