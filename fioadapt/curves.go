package fioadapt

import (
	"fmt"
	"sort"

	"github.com/qdsweep/qdsweep/fio"
)

// CurveGroup is the jobs of several fio outputs that are one workload at
// different depths: one rw, block size, target, engine class and host.
// Several runs of one workload are one curve, answered once.
type CurveGroup struct {
	Key     string       // CurveKey of its jobs
	RW      string       // fio rw=
	BS      int64        // bytes per I/O
	Engine  string       // the first job's ioengine
	Host    string       // fio server ("" locally)
	Jobs    []string     // the jobs' names, in the order read
	Depths  []float64    // the distinct depths, ascending
	Outputs []fio.Output // the final reports, holding only this group's jobs
}

// CurveKey names the workload of fio job j: its rw, block size, target
// file, engine class (synchronous or not: io_uring and libaio keep the same
// queue) and host. Jobs of one key at different depths are one curve.
func CurveKey(j fio.Job) string {
	class := "async"
	if fio.IsSyncEngine(fio.EngineUsed(j.IOEngine)) {
		class = "sync"
	}
	return fmt.Sprintf("%s|%d|%s|%s|%s|%d", j.RW, j.BS, j.Options[fio.OptFilename], class, j.Host, j.Port)
}

// JobDepth is the depth job j kept, as a curve's point: iodepth × numjobs
// (numjobs alone for a synchronous engine).
func JobDepth(j fio.Job) float64 {
	if fio.IsSyncEngine(fio.EngineUsed(j.IOEngine)) {
		return float64(max(j.NumJobs, 1))
	}
	return float64(max(j.IODepth, 1) * max(j.NumJobs, 1))
}

// CurveGroups splits the final reports' jobs that did I/O into workloads
// (CurveKey), in the order first read. A group's Outputs keep each
// report's header with only the group's jobs, so importing them gives the
// group's curve alone.
func CurveGroups(outs []fio.Output) []CurveGroup {
	var groups []CurveGroup
	index := map[string]int{}
	lastOut := map[string]int{} // the report a group's last output copies
	for oi, o := range fio.Final(outs) {
		for _, j := range o.Jobs {
			if j.Summary().IOPS <= 0 {
				continue
			}
			k := CurveKey(j)
			i, ok := index[k]
			if !ok {
				i = len(groups)
				index[k] = i
				groups = append(groups, CurveGroup{Key: k, RW: j.RW, BS: j.BS, Engine: j.IOEngine, Host: j.Host})
			}
			g := &groups[i]
			g.Jobs = append(g.Jobs, j.Name)
			if n, ok := lastOut[k]; !ok || n != oi {
				c := o
				c.Jobs = nil
				g.Outputs = append(g.Outputs, c)
				lastOut[k] = oi
			}
			last := &g.Outputs[len(g.Outputs)-1]
			last.Jobs = append(last.Jobs, j)
			if d := JobDepth(j); !containsDepth(g.Depths, d) && !j.AllClients {
				g.Depths = append(g.Depths, d)
			}
		}
	}
	for i := range groups {
		sort.Float64s(groups[i].Depths)
	}
	return groups
}

func containsDepth(ds []float64, d float64) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}
