package report

import (
	"sort"
	"strconv"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// series is one drawn curve: the steps of one rw × bs (× numjobs when the
// grid has several job counts), in QD order, with the analysis of its rw × bs.
type series struct {
	Name     string // legend name, e.g. "randread 4k" or "randread 4k, 4 jobs"
	RW       string
	BS       int64
	NumJobs  int // 0 when the grid has one job count
	Steps    []sweep.Step
	Analysis *littleslaw.Analysis // nil when r has no analysis for rw × bs
	// Primary is true for the one series of an rw × bs that carries the
	// curve's model line and knee marks.
	Primary bool
}

// measured reports whether a step has figures to show (sweep.Step.Measured).
func measured(s sweep.Step) bool { return s.Measured() }

// measuredSteps returns the steps of s that were run and have figures.
func (s series) measuredSteps() []sweep.Step {
	out := make([]sweep.Step, 0, len(s.Steps))
	for _, st := range s.Steps {
		if measured(st) {
			out = append(out, st)
		}
	}
	return out
}

// seriesOf splits r's steps into series in the order they first appear.
// Job counts get their own series when the grid measured some queue depth
// of a curve with several job counts (4×1 and 1×4); a single path through
// depths and jobs (1×1 … 64×4) stays one series.
func seriesOf(r *sweep.Result) []series {
	splitJobs := gridOverlaps(r.Steps)
	type key struct {
		rw string
		bs int64
		nj int
	}
	idx := map[key]int{}
	var out []series
	for _, st := range r.Steps {
		k := key{st.RW, st.BS, 0}
		if splitJobs {
			k.nj = st.NumJobs
		}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			name := curveName(st.RW, st.BS)
			if splitJobs {
				name += ", " + strconv.Itoa(st.NumJobs) + " job"
				if st.NumJobs != 1 {
					name += "s"
				}
			}
			out = append(out, series{Name: name, RW: st.RW, BS: st.BS, NumJobs: k.nj})
		}
		out[i].Steps = append(out[i].Steps, st)
	}
	seen := map[key]bool{}
	for i := range out {
		sort.SliceStable(out[i].Steps, func(a, b int) bool { return out[i].Steps[a].QD < out[i].Steps[b].QD })
		for j := range r.Analysis {
			if r.Analysis[j].RW == out[i].RW && r.Analysis[j].BS == out[i].BS {
				out[i].Analysis = &r.Analysis[j].Analysis
				break
			}
		}
		k := key{out[i].RW, out[i].BS, 0}
		if !seen[k] {
			seen[k] = true
			out[i].Primary = true
		}
	}
	return out
}

// curveName names an rw × bs curve: "randread 4k".
func curveName(rw string, bs int64) string {
	return rw + " " + fmtBS(bs)
}

// gridOverlaps reports whether some rw × bs × QD was measured with more
// than one job count.
func gridOverlaps(steps []sweep.Step) bool {
	type key struct {
		rw string
		bs int64
		qd int
	}
	jobs := map[key]int{}
	for _, st := range steps {
		if !measured(st) {
			continue
		}
		k := key{st.RW, st.BS, st.QD}
		if nj, ok := jobs[k]; ok && nj != st.NumJobs {
			return true
		}
		jobs[k] = st.NumJobs
	}
	return false
}
