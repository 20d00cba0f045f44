package fioadapt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
)

// prioConv is what a job's priority options set, applied once the whole
// job is read (finishPrio): fio decides the classes, the split and the
// directions only then.
type prioConv struct {
	level, class  int
	levelSet      bool
	classSet      bool
	percent       [2]int
	cmdClass      [2]int
	cmdLevel      [2]int
	split         string
	splitSet      bool
	first         *fio.Option // the first per-command option the job sets
	percentOption fio.Option
}

// prioHandlers convert fio's prio, prioclass and the cmdprio family.
func prioHandlers() map[string]handler {
	return map[string]handler{
		fio.OptPrio: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			p := c.prioConv()
			p.level, err = optInteger(o)
			p.levelSet = true
			return err
		}, render: func(wl ioengine.Workload) (string, bool) {
			return strconv.Itoa(ioengine.PrioLevelOf(wl.Prio.Job)), wl.Prio.JobSet
		}},
		fio.OptPrioClass: {apply: func(c *jobConv, _ string, o fio.Option) (err error) {
			p := c.prioConv()
			p.class, err = optInteger(o)
			p.classSet = true
			return err
		}, render: func(wl ioengine.Workload) (string, bool) {
			return strconv.Itoa(ioengine.PrioClassOf(wl.Prio.Job)), wl.Prio.JobSet
		}},
		fio.OptCmdPrioPercentage: {apply: convCmdPrio, render: renderCmdPrio(func(c ioengine.CmdPrio) int { return c.Percent })},
		fio.OptCmdPrioClass: {apply: convCmdPrio, render: renderCmdPrio(func(c ioengine.CmdPrio) int {
			return ioengine.PrioClassOf(c.Value)
		})},
		fio.OptCmdPrio: {apply: convCmdPrio, render: renderCmdPrio(func(c ioengine.CmdPrio) int {
			return ioengine.PrioLevelOf(c.Value)
		})},
		fio.OptCmdPrioBSSplit: {apply: convCmdPrio, render: renderCmdPrioSplit},
	}
}

// prioConv is the job's priority options so far.
func (c *jobConv) prioConv() *prioConv {
	if c.prio == nil {
		c.prio = &prioConv{}
	}
	return c.prio
}

// convCmdPrio reads cmdprio_percentage, cmdprio_class and cmdprio (one
// value for reads and writes, or reads,writes, as fio) and keeps
// cmdprio_bssplit's text for finishPrio.
func convCmdPrio(c *jobConv, key string, o fio.Option) error {
	p := c.prioConv()
	if p.first == nil {
		p.first = &o
	}
	if key == fio.OptCmdPrioBSSplit {
		p.split, p.splitSet = strings.TrimSpace(o.Value), true
		return nil
	}
	var dst *[2]int
	switch key {
	case fio.OptCmdPrioPercentage:
		dst, p.percentOption = &p.percent, o
	case fio.OptCmdPrioClass:
		dst = &p.cmdClass
	default:
		dst = &p.cmdLevel
	}
	parts := strings.Split(o.Value, ",")
	if len(parts) > 2 {
		return fmt.Errorf("%s: one value, or reads,writes", label(o))
	}
	for d := range dst {
		s := strings.TrimSpace(parts[min(d, len(parts)-1)])
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("%s: %q is not a whole number", label(o), s)
		}
		dst[d] = n
	}
	return nil
}

// prioValue is fio's ioprio_value: a class of 0 is best-effort.
func prioValue(class, level int) uint16 {
	if class == 0 {
		class = ioengine.PrioClassBE
	}
	return ioengine.PrioValue(class, level)
}

// finishPrio sets the workload's priorities as fio 3.33 does once the job
// is read: prio and prioclass give the job's (ioprio_set, a class of 0
// best-effort), cmdprio_percentage or cmdprio_bssplit (never both) the
// per-command ones of each direction, at cmdprio_class
// (real-time unless given) and cmdprio; and only io_uring and libaio
// read the per-command options.
func (c *jobConv) finishPrio() error {
	p := c.prio
	if p == nil {
		return nil
	}
	wl := &c.run.Workload
	if p.levelSet || p.classSet {
		wl.Prio.Job, wl.Prio.JobSet = prioValue(p.class, p.level), true
	}
	if p.first == nil {
		return nil
	}
	engines := fio.OptionEngines(p.first.Key)
	if c.run.IOEngine != "" && !slices.Contains(engines, c.run.IOEngine) {
		return fmt.Errorf("%s: an option of fio's %s engines, and the job's ioengine is %s (fio refuses it too); set %s or %s, or drop %s",
			label(*p.first), strings.Join(engines, ", "), c.run.IOEngine, fio.Setting(fio.OptIOEngine, ioengine.EngineIOUring),
			ioengine.EngineLibaio, p.first.Key)
	}
	if p.splitSet && p.split != "" && p.percent != [2]int{} {
		return fmt.Errorf("job %s: cmdprio_percentage and cmdprio_bssplit are mutually exclusive, as in fio; keep one", c.run.Name)
	}
	for d := range wl.Prio.Cmd {
		// Both directions, whatever rw: a direction the job does not do
		// has no I/O to give a priority (fio sets none there), and a
		// sweep's steps may change rw.
		class := p.cmdClass[d]
		if class == 0 {
			class = ioengine.PrioClassRT // fio's default for per-command priorities
		}
		implicit := prioValue(class, p.cmdLevel[d])
		if p.splitSet && p.split != "" {
			split, err := c.cmdPrioSplit(d, implicit)
			if err != nil {
				return err
			}
			wl.Prio.Cmd[d] = ioengine.CmdPrio{Split: split}
			continue
		}
		if p.percent[d] > 0 {
			wl.Prio.Cmd[d] = ioengine.CmdPrio{Percent: p.percent[d], Value: implicit}
		}
	}
	return nil
}

// cmdPrioSplit reads direction d's part of cmdprio_bssplit as fio's
// split_parse_prio_ddir does: "bs/perc" entries at the implicit priority
// (cmdprio_class, cmdprio), "bs/perc/class/level" at their own (class and
// level capped at 3 and 7), a percent capped at 100, entries of 0%
// dropped, and each block size's shares summing to at most 100%.
func (c *jobConv) cmdPrioSplit(d int, implicit uint16) ([]ioengine.PrioShare, error) {
	o := c.given[fio.OptCmdPrioBSSplit]
	part := c.prio.split
	if r, w, two := strings.Cut(part, ","); two {
		part = [2]string{r, w}[d]
	}
	var out []ioengine.PrioShare
	total := map[int64]int{}
	for _, e := range strings.Split(part, ":") {
		if e = strings.TrimSpace(e); e == "" {
			break // fio stops at an empty entry
		}
		f := strings.Split(e, "/")
		if len(f) == 3 || len(f) > 4 {
			return nil, fmt.Errorf("%s: %q: write bs/percent or bs/percent/class/level", label(o), e)
		}
		bs, err := fio.ParseSize(f[0], c.kbBase)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", label(o), e, err)
		}
		nums := make([]int, len(f)-1)
		for i, s := range f[1:] {
			if s == "" && i == 0 && len(f) == 2 {
				continue // "bs/": 0%
			}
			if nums[i], err = strconv.Atoi(s); err != nil || nums[i] < 0 {
				return nil, fmt.Errorf("%s: %q: %q is not a whole number", label(o), e, s)
			}
		}
		s := ioengine.PrioShare{BS: bs, Value: implicit}
		if len(nums) > 0 {
			s.Percent = min(nums[0], 100)
		}
		if len(nums) == 3 {
			s.Value = prioValue(min(nums[1], ioengine.PrioClassIdle), min(nums[2], ioengine.PrioLevels-1))
		}
		if s.Percent == 0 {
			continue
		}
		if total[bs] += s.Percent; total[bs] > 100 {
			return nil, fmt.Errorf("%s: the shares of block size %d sum to over 100%%, which fio refuses", label(o), bs)
		}
		out = append(out, s)
	}
	return out, nil
}

// renderCmdPrio renders cmdprio_percentage, cmdprio_class or cmdprio from
// the workload's per-command priorities, as of gives each direction's:
// "reads,writes"; none with a split (its entries carry their own) or
// without per-command priorities.
func renderCmdPrio(of func(ioengine.CmdPrio) int) func(wl ioengine.Workload) (string, bool) {
	return func(wl ioengine.Workload) (string, bool) {
		cmd := wl.Prio.Cmd
		if !wl.Prio.CmdSet() || len(cmd[0].Split)+len(cmd[1].Split) > 0 {
			return "", false
		}
		var v [2]string
		for d := range cmd {
			c := cmd[d]
			if !c.On() {
				c = cmd[1-d] // a direction without: the other's class and level, at 0%
				c.Percent = 0
			}
			v[d] = strconv.Itoa(of(c))
		}
		return v[0] + "," + v[1], true
	}
}

// renderCmdPrioSplit renders cmdprio_bssplit in its full form,
// "bs/percent/class/level" entries, reads then writes.
func renderCmdPrioSplit(wl ioengine.Workload) (string, bool) {
	cmd := wl.Prio.Cmd
	if len(cmd[0].Split)+len(cmd[1].Split) == 0 {
		return "", false
	}
	var v [2]string
	for d := range cmd {
		var es []string
		for _, s := range cmd[d].Split {
			es = append(es, fmt.Sprintf("%d/%d/%d/%d", s.BS, s.Percent, ioengine.PrioClassOf(s.Value), ioengine.PrioLevelOf(s.Value)))
		}
		if len(es) == 0 {
			es = []string{"0/0"} // a direction without: no entry fio keeps
		}
		v[d] = strings.Join(es, ":")
	}
	return v[0] + "," + v[1], true
}

// priosOf are a direction's per-priority latencies as fio reports them:
// only when at least two priorities had I/Os (fio's
// get_nr_prios_with_samples), in the order the engine lists them.
func priosOf(ps []ioengine.PrioStats, pcts []float64) []fio.PrioStat {
	if len(ps) < 2 {
		return nil
	}
	out := make([]fio.PrioStat, 0, len(ps))
	for i := range ps {
		out = append(out, fio.PrioStat{Class: ioengine.PrioClassOf(ps[i].Prio), Level: ioengine.PrioLevelOf(ps[i].Prio),
			Clat: latStatOf(&ps[i].DirStats, pcts)})
	}
	return out
}

// checkPrioEngine refuses per-command priorities in a fio job that runs
// an engine other than io_uring or libaio (fio would not know the
// options there).
func checkPrioEngine(wl ioengine.Workload, engine string) error {
	if !wl.Prio.CmdSet() || engine == ioengine.EngineIOUring || engine == ioengine.EngineLibaio {
		return nil
	}
	return fmt.Errorf("%w: %s: per-command priorities are options of fio's io_uring and libaio engines, and this fio job runs %s; with --%s=%s add --fio-arg=%s, or drop them",
		ioengine.ErrBadWorkload, fio.OptCmdPrioPercentage+"/"+fio.OptCmdPrioBSSplit, fio.Setting(fio.OptIOEngine, engine), fio.OptIOEngine, ioengine.EngineFio,
		fio.FlagSet(fio.OptIOEngine, ioengine.EngineLibaio))
}
