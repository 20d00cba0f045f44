package session

import (
	"errors"
	"fmt"

	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/ioengine"
)

// Engine is the engine a session runs, checked before anything is created
// or run.
type Engine struct {
	Name    string              // io_uring, libaio, psync, sim or fio
	Sim     *ioengine.SimConfig // set for sim
	Fio     *fioengine.Options  // set for fio
	Clients []string            // fio servers; the target lives there
}

// Remote reports whether the target lives on fio servers, not on this machine.
func (e Engine) Remote() bool { return len(e.Clients) > 0 }

// Local reports whether the engine does I/O on a local file or device.
func (e Engine) Local() bool { return e.Sim == nil && !e.Remote() }

// Open returns the engine and, for io_uring falling back to libaio, why.
func (e Engine) Open() (ioengine.Engine, string, error) {
	switch {
	case e.Sim != nil:
		return ioengine.NewSim(*e.Sim), "", nil
	case e.Fio != nil:
		return fioengine.NewEngine(*e.Fio), "", nil
	}
	eng, reason, err := ioengine.New(e.Name)
	if err != nil {
		if errors.Is(err, ioengine.ErrBadWorkload) {
			return nil, "", UsageErr(err)
		}
		return nil, "", fmt.Errorf("engine %s: %w", e.Name, err)
	}
	return eng, reason, nil
}

// Validate checks w for this engine before anything runs. For fio servers
// only the workload's own fields are checked: the target is not here.
func (e Engine) Validate(w ioengine.Workload) error {
	name := e.Name
	if e.Remote() {
		w.Filename = ""
		name = ioengine.EngineSim // field checks, no target
	}
	return UsageErr(ioengine.Validate(w, name))
}
