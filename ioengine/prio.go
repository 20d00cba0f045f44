package ioengine

import (
	"cmp"
	"slices"
)

// IOPrio is a job's I/O priorities: its own, which its thread takes with
// ioprio_set and io_uring's SQEs carry (fio's prio and prioclass), and
// per-command ones the libaio and io_uring engines give some of its I/Os
// (fio's cmdprio family). A priority is the kernel's ioprio value: class
// << 13 | level (PrioValue). The zero value sets none: every I/O goes at
// the thread's priority, as without them.
type IOPrio struct {
	// Job is the job's priority; JobSet says it was given. Without it the
	// job's I/Os carry none (0), and run at the thread's own.
	Job    uint16
	JobSet bool
	// Cmd are the per-command priorities of reads [0] and writes [1].
	Cmd [2]CmdPrio
}

// CmdPrio is one direction's per-command priorities: Percent of its I/Os
// drawn at random go at Value (fio's cmdprio_percentage with
// cmdprio_class and cmdprio), or, with Split, each block size's own
// shares (fio's cmdprio_bssplit). The rest go at the job's priority.
type CmdPrio struct {
	Percent int
	Value   uint16
	Split   []PrioShare
}

// PrioShare is one share of CmdPrio.Split: Percent of the I/Os of BS bytes
// go at Value.
type PrioShare struct {
	BS      int64
	Percent int
	Value   uint16
}

// The kernel's ioprio classes (include/uapi/linux/ioprio.h).
const (
	PrioClassNone = 0
	PrioClassRT   = 1
	PrioClassBE   = 2
	PrioClassIdle = 3
	// PrioLevels is how many levels a class has (0, the highest, to 7).
	PrioLevels = 8
	// PrioClassShift is where the class sits in an ioprio value.
	PrioClassShift = 13
)

// PrioValue is the kernel's ioprio value of class and level.
func PrioValue(class, level int) uint16 { return uint16(class<<PrioClassShift | level) }

// PrioClassOf is the class of ioprio value v.
func PrioClassOf(v uint16) int { return int(v >> PrioClassShift) }

// PrioLevelOf is the level of ioprio value v.
func PrioLevelOf(v uint16) int { return int(v & (PrioLevels - 1)) }

// Set reports whether p sets any priority.
func (p IOPrio) Set() bool { return p.JobSet || p.Cmd[0].On() || p.Cmd[1].On() }

// CmdSet reports whether p gives some I/Os a priority of their own.
func (p IOPrio) CmdSet() bool { return p.Cmd[0].On() || p.Cmd[1].On() }

// On reports whether c gives some I/Os a priority.
func (c CmdPrio) On() bool { return c.Percent > 0 || len(c.Split) > 0 }

// Default is the priority an I/O without one of its own carries: the
// job's when given, else none (0).
func (p IOPrio) Default() uint16 {
	if p.JobSet {
		return p.Job
	}
	return 0
}

// Values are the priorities direction d's I/Os may go at, in the order a
// report lists them: the job's (Default) first, then each per-command one
// as the shares name it (Split ordered by block size, each size's shares
// in the order given); nil when d has no per-command priority, so that
// its I/Os all go at the one priority.
func (p IOPrio) Values(d int) []uint16 {
	c := p.Cmd[d]
	if !c.On() {
		return nil
	}
	vals := []uint16{p.Default()}
	add := func(v uint16) {
		if !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	if len(c.Split) == 0 {
		add(c.Value)
		return vals
	}
	for _, s := range c.sortedSplit() {
		add(s.Value)
	}
	return vals
}

// sortedSplit is Split's shares ordered by block size, each size's in the
// order given, those of 0% left out.
func (c CmdPrio) sortedSplit() []PrioShare {
	out := make([]PrioShare, 0, len(c.Split))
	for _, s := range c.Split {
		if s.Percent > 0 {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b PrioShare) int { return cmp.Compare(a.BS, b.BS) })
	return out
}

// PrioStats are the figures of the I/Os of one priority in a direction
// (DirStats.Prios).
type PrioStats struct {
	// Prio is their ioprio value (PrioClassOf, PrioLevelOf): 0 for I/Os
	// that carried none.
	Prio uint16 `json:"ioprio"`
	DirStats
}
