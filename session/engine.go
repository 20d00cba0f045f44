package session

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
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

// EngineRequest is what a request says of its engine: the engine named
// and the settings of the simulated device and of fio. The request's Set
// says which were given (FieldEngine, FieldSim, FieldSimKeys, FieldFioArgs,
// FieldFioClients, FieldRandSeed).
type EngineRequest struct {
	Name string // the engine named (its default when not given)
	// Sim is the simulated device's spec, key=value,…: the one given
	// whole (FieldSim), or the older per-key settings joined (FieldSimKeys,
	// SimKeys naming them).
	Sim        string
	SimKeys    []string // keys given one by one (latency, iops …), in order
	Seed       uint64   // seed of the random offsets, the jitter's when Sim has none
	FioArgs    []string // extra arguments for fio
	FioClients string   // fio servers: host,host:port or @file
}

// name is the engine the request names: sim when the simulated device's
// spec is given, else Name; given says whether either was.
func (r EngineRequest) name(g Fields) (string, bool) {
	if g.Has(FieldSim) {
		return ioengine.EngineSim, true
	}
	return r.Name, g.Has(FieldEngine)
}

// engine checks the engine name and its settings and sets it up (forRun:
// for run, which checks its fio options itself; prev: the resumed sweep,
// whose simulated device is kept unless one is given). It refuses an
// engine's settings given without that engine, and a missing fio binary.
// Nothing is opened or created.
func (r EngineRequest) engine(g Fields, name string, forRun bool, prev *sweep.Result) (Engine, error) {
	e := Engine{Name: name}
	switch name {
	case ioengine.EngineIOUring, ioengine.EngineLibaio, ioengine.EnginePsync, ioengine.EngineSim, ioengine.EngineFio:
	case ioengine.EngineNull:
		if !forRun {
			return e, Usagef("--%s: a sweep runs io_uring, libaio, psync, sim or fio; the null engine, which does no I/O, runs in a job of qdsweep run", fio.OptIOEngine)
		}
	default:
		return e, Usagef("--%s: unknown engine %q; use io_uring, libaio, psync, sim or fio", fio.OptIOEngine, name)
	}
	if g.Has(FieldSim) {
		if g.Has(FieldEngine) && r.Name != ioengine.EngineSim {
			return e, Usagef("--sim runs the simulated device and --%s=%s a real one; drop one of them", fio.OptIOEngine, r.Name)
		}
		name = ioengine.EngineSim
		e.Name = name
		if g.Has(FieldSimKeys) {
			n := "sim_" + r.SimKeys[0]
			return e, Usagef("--%s and --sim both set the simulated device; put its setting in --sim (see --help) and drop --%s", n, n)
		}
	}
	if name != ioengine.EngineSim && g.Has(FieldSimKeys) {
		n := "sim_" + r.SimKeys[0]
		return e, Usagef("--%s applies only with --%s=%s; add --%s=%s or drop --%s", n, fio.OptIOEngine, ioengine.EngineSim, fio.OptIOEngine, ioengine.EngineSim, n)
	}
	if name != ioengine.EngineFio {
		for _, f := range []struct {
			field Field
			name  string
		}{{FieldFioArgs, "fio-arg"}, {FieldFioClients, "fio-clients"}} {
			if g.Has(f.field) {
				return e, Usagef("--%s applies only with --%s=%s; add --%s=%s or drop --%s", f.name, fio.OptIOEngine, ioengine.EngineFio, fio.OptIOEngine, ioengine.EngineFio, f.name)
			}
		}
	}
	var err error
	switch name {
	case ioengine.EngineSim:
		e.Sim, err = r.sim(g, prev)
	case ioengine.EngineFio:
		e.Fio, e.Clients, err = r.fio(g, forRun)
	}
	return e, err
}

// sim is the simulated device: the one given, or the resumed sweep's when
// none is (nor a seed).
func (r EngineRequest) sim(g Fields, prev *sweep.Result) (*ioengine.SimConfig, error) {
	from := "--sim"
	if !g.Has(FieldSim) {
		names := make([]string, len(r.SimKeys))
		for i, k := range r.SimKeys {
			names[i] = "--sim_" + k
		}
		from = strings.Join(names, ", ")
	}
	cfg, err := ioengine.ParseSimSpec(r.Sim)
	if err != nil {
		return nil, Usagef("%s: %v; use e.g. --sim=latency=1ms,iops=20000", from, err)
	}
	if !strings.Contains(r.Sim, "seed=") {
		cfg.Seed = r.Seed
	}
	if prev != nil && prev.Meta.Workload.Sim != "" && !g.Has(FieldSim, FieldSimKeys, FieldRandSeed) {
		if cfg, err = ioengine.ParseSimConfig(prev.Meta.Workload.Sim); err != nil {
			return nil, Usagef("--resume: %v", err)
		}
	}
	return &cfg, nil
}

// fio is fio as the engine: its extra arguments and its servers.
func (r EngineRequest) fio(g Fields, forRun bool) (*fioengine.Options, []string, error) {
	o := fioengine.Options{ExtraArgs: r.FioArgs}
	if err := fioengine.CheckExtraArgs(o.ExtraArgs); err != nil {
		return nil, nil, UsageErr(err)
	}
	if _, err := exec.LookPath("fio"); err != nil {
		return nil, nil, Usagef("--%s=%s: %v", fio.OptIOEngine, ioengine.EngineFio, fioengine.ErrNotFound)
	}
	if g.Has(FieldFioClients) {
		spec := r.FioClients
		if len(spec) > 1 && spec[0] == '@' {
			spec = spec[1:]
		}
		clients, err := fio.ReadClients(spec)
		if err != nil {
			return nil, nil, Usagef("--fio-clients: %v", err)
		}
		if !forRun && !g.Has(FieldFilename, FieldJobFile) { // run checks its fio options itself
			return nil, nil, errClientsNeedTarget()
		}
		o.Clients = clients
	}
	return &o, o.Clients, nil
}

// errClientsNeedTarget refuses fio servers without a target named on them.
func errClientsNeedTarget() error {
	return Usagef("--fio-clients: name the target on the servers with --%s (nothing is laid out on them)", fio.OptFilename)
}
