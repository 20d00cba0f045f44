//go:build linux

package ioengine

import (
	"math/rand/v2"
	"runtime"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"
)

// prioPick is the priority one I/O goes at: its ioprio value, and its
// place in IOPrio.Values of its direction (0: the job's own).
type prioPick struct {
	val uint16
	idx uint8
}

// bsPrios are one block size's per-command shares (CmdPrio.Split), with
// their total percent and each share's place in IOPrio.Values.
type bsPrios struct {
	bs     int64
	total  int
	shares []PrioShare
	idx    []uint8
}

// prioChooser picks each I/O's priority as fio's cmdprio does
// (fio_cmdprio_set_ioprio): an I/O whose direction (and, with a split,
// block size) has a percent p of per-command priority draws a number
// 0..99; below p it goes at the per-command priority (with a split, the
// share its number falls in, shares in order), else at the job's.
type prioChooser struct {
	on   bool
	def  prioPick
	perc [2]int
	val  [2]prioPick
	bs   [2][]bsPrios
	rng  *rand.Rand
}

// newPrioChooser is job's chooser of w's priorities, its draws seeded by
// w's seed and the job.
func newPrioChooser(w *Workload, job int) prioChooser {
	p := w.Prio
	c := prioChooser{on: p.CmdSet(), def: prioPick{val: p.Default()}}
	if !c.on {
		return c
	}
	c.rng = rand.New(rand.NewPCG(w.RandSeed, uint64(job)<<8|0x70))
	for d := range p.Cmd {
		vals := p.Values(d)
		at := func(v uint16) prioPick {
			for i, x := range vals {
				if x == v {
					return prioPick{val: v, idx: uint8(i)}
				}
			}
			return c.def
		}
		cp := p.Cmd[d]
		if len(cp.Split) == 0 {
			c.perc[d], c.val[d] = cp.Percent, at(cp.Value)
			continue
		}
		for _, s := range cp.sortedSplit() {
			n := len(c.bs[d])
			if n == 0 || c.bs[d][n-1].bs != s.BS {
				c.bs[d] = append(c.bs[d], bsPrios{bs: s.BS})
				n++
			}
			b := &c.bs[d][n-1]
			b.total += s.Percent
			b.shares = append(b.shares, s)
			b.idx = append(b.idx, at(s.Value).idx)
		}
	}
	return c
}

// pick is the priority of an I/O of direction d and size bytes.
func (c *prioChooser) pick(d int, size int64) prioPick {
	if !c.on {
		return c.def
	}
	if len(c.bs[d]) == 0 {
		if c.perc[d] == 0 || c.rng.IntN(100) >= c.perc[d] {
			return c.def
		}
		return c.val[d]
	}
	for i := range c.bs[d] {
		b := &c.bs[d][i]
		if b.bs != size {
			continue
		}
		r := c.rng.IntN(100)
		if r >= b.total {
			return c.def
		}
		sum := 0
		for k, s := range b.shares {
			if sum += s.Percent; r < sum {
				return prioPick{val: s.Value, idx: b.idx[k]}
			}
		}
	}
	return c.def
}

// ioprioWhoProcess is ioprio_set's IOPRIO_WHO_PROCESS: with who 0, the
// calling thread.
const ioprioWhoProcess = 1

// takeJobPrio gives the calling thread, the job's own, w's job priority
// (fio's prio, prioclass: ioprio_set before the engine starts), so that
// every I/O it submits without a priority of its own goes at it. The
// thread is then left locked to the job's goroutine, so that it ends with
// the job instead of carrying the priority to other goroutines.
func takeJobPrio(w *Workload) error {
	if !w.Prio.JobSet {
		return nil
	}
	if _, _, e := unix.Syscall(unix.SYS_IOPRIO_SET, ioprioWhoProcess, 0, uintptr(w.Prio.Job)); e != 0 {
		return settingErrf(e, "%s: ioprio_set(class %d, level %d): %v", SetPrio, PrioClassOf(w.Prio.Job), PrioLevelOf(w.Prio.Job), e)
	}
	runtime.LockOSThread() // once more than the job unlocks: the thread ends with it
	return nil
}

// prioMeters count a job's completions of each priority of each
// direction (IOPrio.Values), for the per-priority latencies; none for a
// direction without per-command priorities.
type prioMeters struct {
	vals [2][]uint16
	m    [2][]dirMeter
}

func newPrioMeters(w *Workload) prioMeters {
	var p prioMeters
	for d := range p.vals {
		p.vals[d] = w.Prio.Values(d)
		for range p.vals[d] {
			p.m[d] = append(p.m[d], dirMeter{hist: hdrhistogram.New(histMinNs, histMaxNs, histSigFigs)})
		}
	}
	return p
}

// record counts one completion of direction d at priority pr, of lat ns
// (already at least histMinNs).
func (p *prioMeters) record(d int, pr prioPick, lat, bytes int64) {
	if int(pr.idx) >= len(p.m[d]) {
		return
	}
	dm := &p.m[d][pr.idx]
	dm.ios++
	dm.bytes += bytes
	dm.latSum += lat
	if dm.hist.RecordValue(lat) != nil {
		_ = dm.hist.RecordValue(histMaxNs)
	}
}

// prioStats are direction d's figures per priority over the jobs' meters
// ms, in IOPrio.Values' order, each over a window of win ns; those of no
// I/O left out, nil without per-command priorities.
func prioStats(ms []meter, d int, win float64) []PrioStats {
	var sums []dirSum
	var vals []uint16
	for i := range ms {
		p := &ms[i].prios
		if len(p.m[d]) == 0 || ms[i].dir[0].hist == nil {
			continue
		}
		if sums == nil {
			vals = p.vals[d]
			sums = make([]dirSum, len(vals))
			for k := range sums {
				sums[k] = newDirSum()
			}
		}
		for k := range p.m[d] {
			sums[k].add(&p.m[d][k])
		}
	}
	var out []PrioStats
	for k := range sums {
		if s := sums[k].finish(win); s.TotalIOs > 0 {
			out = append(out, PrioStats{Prio: vals[k], DirStats: s})
		}
	}
	return out
}

// aioFlagIOPrio is struct iocb's IOCB_FLAG_IOPRIO: aio_reqprio holds the
// I/O's priority.
const aioFlagIOPrio = 1 << 1

// setAIOPrio gives cb priority pr when it is a per-command one (not def,
// the job's): as fio's libaio engine does, the others carry none and go at
// the thread's, which ioprio_set gave the job's (takeJobPrio).
func setAIOPrio(cb *aioIOCB, pr, def prioPick) {
	cb.flags &^= aioFlagIOPrio
	cb.reqprio = 0
	if pr.idx != def.idx {
		cb.flags |= aioFlagIOPrio
		cb.reqprio = int16(pr.val)
	}
}

// validatePrio checks w's priorities: classes and levels the kernel
// knows, a split's shares of a block size summing to at most 100%, and
// per-command priorities only on the engines that submit them (io_uring,
// libaio; fio's too); the simulator models no priority.
func validatePrio(w Workload, engine string) error {
	p := w.Prio
	if !p.Set() {
		return nil
	}
	if engine == EngineSim {
		return refusef("%s/%s: the sim engine models a device, not I/O priorities; drop them or use a kernel engine", SetPrio, SetCmdPrio)
	}
	vals := []uint16{p.Job}
	for d, c := range p.Cmd {
		if c.Percent < 0 || c.Percent > 100 {
			return refusef("%s: %d%% is out of range; use 0..100, e.g. %s", SetCmdPrio, c.Percent, use(SetCmdPrio, 20))
		}
		vals = append(vals, c.Value)
		total := map[int64]int{}
		for _, s := range c.Split {
			vals = append(vals, s.Value)
			if total[s.BS] += s.Percent; s.Percent < 0 || total[s.BS] > 100 {
				return refusef("%s: the shares of %d-byte %s sum to over 100%%; lower them", SetCmdPrio, s.BS, [2]string{"reads", "writes"}[d])
			}
		}
	}
	for _, v := range vals {
		if PrioClassOf(v) > PrioClassIdle || PrioLevelOf(v) != int(v&^(PrioClassIdle<<PrioClassShift)) {
			return refusef("%s/%s: ioprio 0x%04x is no class 0..3 and level 0..7", SetPrio, SetCmdPrio, v)
		}
	}
	if p.CmdSet() && engine != EngineIOUring && engine != EngineLibaio && engine != EngineFio && engine != "" {
		return refusef("%s: per-command priorities are submitted by io_uring and libaio only; use %s or %s", SetCmdPrio, use(SetEngine, EngineIOUring), use(SetEngine, EngineLibaio))
	}
	return nil
}
