package session_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/session"
	"github.com/qdsweep/qdsweep/sweep"
)

// shape is a generated curve of one workload: its points (QD, IOPS, mean
// and p99 latency, Little-exact), and the level the device sustains when a
// change of regime was found (0: none).
type shape struct {
	name      string
	pts       []littleslaw.Point
	sustained float64
}

// grid is the sweep's default depths; refined adds the steps a refinement
// measures between them.
var (
	grid    = []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	refined = []int{1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}
)

// curveShape builds points at depths qds from iops(qd); the mean latency is
// Little's (QD / IOPS), and p99 grows with the queue beyond it.
func curveShape(name string, qds []int, iops func(qd float64) float64) shape {
	s := shape{name: name}
	for _, q := range qds {
		qd := float64(q)
		x := iops(qd)
		lat := qd / x * 1e9
		s.pts = append(s.pts, littleslaw.Point{QD: qd, IODepth: q, NumJobs: 1, IOPS: x, BWBytes: x * 4096,
			LatMeanNs: lat, P99Ns: math.Round(lat * (1.2 + 0.15*math.Log2(qd)))})
	}
	return s
}

// noise is a fixed pseudo-random factor in [1−a, 1+a] for depth qd.
func noise(qd, a float64) float64 {
	u := math.Mod(math.Sin(qd*12.9898)*43758.5453, 1) // in (−1, 1)
	return 1 + a*u
}

// shapes are the curves the analysis knows: linear in QD, a sharp cap, a
// soft knee, USL retrograde, a flat network latency under a provisioned
// cap, burst then sustained, noisy ±20 %, refined steps and one point.
func shapes() []shape {
	const r0 = 100e-6 // s
	soft := func(qd float64) float64 { return 100000 * qd / (qd + 16) }
	out := []shape{
		curveShape("linear", grid, func(qd float64) float64 { return qd / r0 }),
		curveShape("sharp-cap", grid, func(qd float64) float64 { return math.Min(qd/r0, 50000) * 0.98 }),
		curveShape("soft-knee", grid, soft),
		curveShape("usl-retrograde", grid, func(qd float64) float64 {
			return qd / r0 / (1 + 0.02*(qd-1) + 0.0005*qd*(qd-1))
		}),
		curveShape("network-flat", grid, func(qd float64) float64 { return math.Min(qd/1.3e-3, 160000) }),
		curveShape("noisy-20pct", grid, func(qd float64) float64 { return soft(qd) * noise(qd, 0.2) }),
		curveShape("refined", refined, soft),
		curveShape("one-point", []int{16}, soft),
	}
	burst := curveShape("burst-then-sustained", grid, func(qd float64) float64 { return math.Min(qd/r0, 60000) })
	burst.sustained = 42000
	return append(out, burst)
}

// answer is one door's answer to a target, normalised for comparison.
type answer struct {
	door      string
	target    *littleslaw.TargetResult
	settings  []littleslaw.Setting
	slo       *littleslaw.SLOResult
	noTarget  float64 // the depth advised without a target (0: not asked)
	sustained float64
}

// question is what every door is asked.
type question struct {
	target float64
	slo    *littleslaw.SLO
	forApp string
}

func (q question) String() string {
	s := fmt.Sprintf("target %.0f", q.target)
	if q.slo != nil {
		s += " slo " + q.slo.String()
	}
	if q.forApp != "" {
		s += " for " + q.forApp
	}
	return s
}

// questions are targets below, at and above the measured ceiling, SLOs on
// the mean and p99 (met in the middle, and met nowhere), and each consumer.
func questions(s shape) []question {
	xmax := 0.0
	for _, p := range s.pts {
		xmax = math.Max(xmax, p.IOPS)
	}
	mid := s.pts[len(s.pts)/2]
	slos := []*littleslaw.SLO{nil,
		{Stat: "mean", LimitNs: mid.LatMeanNs * 1.05},
		{Stat: "p99", LimitNs: mid.P99Ns * 1.05},
		{Stat: "p99", LimitNs: s.pts[0].P99Ns / 2}, // met nowhere
	}
	// Each consumer is asked beside every target and SLO in turn (a fit
	// per question costs ~40 ms: the whole product would take minutes).
	apps := []string{"", "postgres", "mysql", "workers"}
	var qs []question
	for i, k := range []float64{0, 0.3, 0.95, 1.0, 1.005, 1.2, 3} {
		for j, slo := range slos {
			qs = append(qs, question{target: math.Round(k * xmax), slo: slo, forApp: apps[(i+j)%len(apps)]})
			if slo == nil && j == 0 && apps[(i+j)%len(apps)] != "" {
				qs = append(qs, question{target: math.Round(k * xmax)}) // explain's question: a target alone
			}
		}
	}
	return qs
}

// options are the analysis options every door is given for q.
func options(q question, s shape) littleslaw.Options {
	return littleslaw.Options{TargetIOPS: q.target, SLO: q.slo, For: q.forApp, CPUs: 2, MaxIODepth: 256, MaxJobs: 2,
		SustainedIOPS: s.sustained}
}

// sweepDoor is the sweep summary's answer: the points as a sweep's steps,
// analysed as a sweep analyses them.
func sweepDoor(t *testing.T, s shape, q question) (answer, bool) {
	r := &sweep.Result{Schema: sweep.Schema, Meta: sweep.Meta{CPUs: 2}}
	for _, p := range s.pts {
		r.Steps = append(r.Steps, sweep.Step{RW: "randread", BS: 4096, IODepth: p.IODepth, NumJobs: 1, QD: p.IODepth,
			IOPS: p.IOPS, BWBytes: p.BWBytes, Lat: ioengine.Latency{MeanNs: p.LatMeanNs, P99Ns: int64(p.P99Ns)},
			InflightMean: p.IOPS * p.LatMeanNs / 1e9, Steady: true, RuntimeNs: 3e9})
	}
	o := options(q, s)
	o.SustainedIOPS = 0 // a sweep finds its sustained level itself (a control step); asked through the analysis below
	if err := r.Analyze(o); err != nil || len(r.Analysis) != 1 {
		t.Fatalf("%s %s: sweep door: %v", s.name, q, err)
	}
	a := r.Analysis[0].Analysis
	if len(a.Points) < 2 {
		return answer{}, false
	}
	return answer{door: "sweep", target: a.Target, settings: a.Settings, slo: a.SLO}, true
}

// analysisDoor is the analysis every door reads (base, the curve fitted
// once), asked q, given the sustained level a sweep's control step would
// find.
func analysisDoor(t *testing.T, s shape, base *littleslaw.Analysis, q question) (answer, bool) {
	if base == nil {
		return answer{}, false
	}
	a, err := base.Ask(options(q, s))
	if err != nil {
		t.Fatalf("%s %s: ask: %v", s.name, q, err)
	}
	adv := littleslaw.AdviseCurve(a, 4096, littleslaw.AdviceInput{TargetIOPS: q.target, Options: options(q, s)})
	ans := answer{door: "analysis", target: a.Target, settings: a.Settings, slo: a.SLO, sustained: s.sustained}
	if q.target == 0 {
		ans.noTarget = adv.QueueDepth
	}
	return ans, true
}

// csvDoor is advise --from of the points as a CSV.
func csvDoor(t *testing.T, s shape, q question, csv string) (answer, bool) {
	in := littleslaw.AdviceInput{TargetIOPS: q.target, BS: 4096, Options: options(q, s)}
	in.Options.SustainedIOPS = 0
	d, err := session.AdviseFromData(csv, "", false, in)
	if err != nil {
		if len(s.pts) < 2 {
			return answer{}, false // one row is no curve: advise says so
		}
		t.Fatalf("%s %s: advise --from csv: %v", s.name, q, err)
	}
	ans := answer{door: "advise-csv", target: d.Target, settings: d.Settings, slo: d.SLO}
	if q.target == 0 {
		ans.noTarget = d.QueueDepth
	}
	return ans, true
}

// explainDoor is explain of the points as fio outputs, one run per depth.
func explainDoor(s shape, q question) (answer, bool) {
	var outs []fio.Output
	for i, p := range s.pts {
		n := int64(p.IOPS * 3)
		outs = append(outs, fio.Output{Format: "json", FioVersion: "fio-3.33", Line: 1, Jobs: []fio.Job{{
			Name: fmt.Sprintf("qd%d", p.IODepth), RW: "randread", BS: 4096, IOEngine: "io_uring",
			IODepth: p.IODepth, IODepthFrom: "options", NumJobs: 1, NumJobsFrom: "options",
			Options: map[string]string{"filename": "/data/scratch", "rw": "randread", "bs": "4k", "iodepth": fmt.Sprint(p.IODepth)},
			Read: &fio.Dir{IOPS: p.IOPS, BWBytes: p.BWBytes, TotalIOs: n, IOBytes: n * 4096, RuntimeMs: 3000,
				Lat: fio.LatStat{MeanNs: p.LatMeanNs, MinNs: p.LatMeanNs / 3, N: n,
					Percentiles: []fio.Percentile{{Pct: 99, Ns: p.P99Ns}}}},
		}}})
		outs[i].Timestamp = int64(1000 + i)
	}
	doc := session.ExplainFio(outs, fioadapt.ExplainOptions{TargetIOPS: q.target, MaxIODepth: 256, MaxJobs: 2}, "gen")
	if len(s.pts) < 2 {
		return answer{}, false
	}
	if len(doc.Curves) != 1 {
		return answer{door: "explain"}, true // checked by the caller: several runs are one curve
	}
	return answer{door: "explain", target: doc.Curves[0].Advice.Target}, true
}

// TestOneAdvisorProperties asks every door the same questions over curves
// of every shape and holds each answer to the truth rules: (a) never a
// depth at or below one a measured point proved insufficient; (b) never a
// setting beyond the deepest QD meeting the SLO, and a target beyond it is
// said to conflict; (c) "not reachable" only where a ceiling below the
// target is measured, "reachable" never above what the curve sustains;
// (d) every quoted depth, IOPS and latency closes Little's Law; (e, f) the
// sweep, advise of the points as a CSV and explain of them as fio outputs
// give the same figures.
func TestOneAdvisorProperties(t *testing.T) {
	dir := t.TempDir()
	for _, s := range shapes() {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			askEveryDoor(t, s, filepath.Join(dir, s.name+".csv"))
		})
	}
}

// askEveryDoor asks every door each question about shape s (its points
// written to csv for advise) and checks every answer.
func askEveryDoor(t *testing.T, s shape, csv string) {
	checked := 0
	{
		var b strings.Builder
		b.WriteString("qd,iodepth,numjobs,iops,lat_mean_ns,lat_p99_ns\n")
		for _, p := range s.pts {
			fmt.Fprintf(&b, "%g,%d,1,%.6f,%.6f,%.0f\n", p.QD, p.IODepth, p.IOPS, p.LatMeanNs, p.P99Ns)
		}
		if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		var base *littleslaw.Analysis
		if a, err := littleslaw.Analyze(s.pts, littleslaw.Options{CPUs: 2}); err == nil {
			base = &a
		}
		for i, q := range questions(s) {
			var answers []answer
			if a, ok := analysisDoor(t, s, base, q); ok {
				answers = append(answers, a)
			}
			// Every door fits the curve again (~40 ms a fit, ten times
			// that under the race detector): the doors are asked a fourth
			// of the questions, every kind among them, the analysis all.
			if s.sustained == 0 && i%4 == 0 {
				if a, ok := sweepDoor(t, s, q); ok {
					answers = append(answers, a)
				}
				if a, ok := csvDoor(t, s, q, csv); ok {
					answers = append(answers, a)
				}
			}
			if s.sustained == 0 {
				if q.slo == nil && q.forApp == "" && q.target > 0 {
					if a, ok := explainDoor(s, q); ok {
						answers = append(answers, a)
					}
				}
			}
			for _, a := range answers {
				checked++
				for _, bad := range truthViolations(s, q, a) {
					t.Errorf("%s, %s, door %s: %s", s.name, q, a.door, bad)
				}
			}
			for _, bad := range disagreements(answers) {
				t.Errorf("%s, %s: %s", s.name, q, bad)
			}
		}
	}
	if want := 30; len(s.pts) > 1 && checked < want {
		t.Errorf("only %d answers checked, want at least %d", checked, want)
	}
}

// truthViolations lists how answer a breaks the truth rules for q on s.
func truthViolations(s shape, q question, a answer) []string {
	var bad []string
	if a.door == "explain" && a.target == nil {
		return []string{"several runs of one workload were not answered once, from their curve"}
	}
	xmax := 0.0
	for _, p := range s.pts {
		xmax = math.Max(xmax, p.IOPS)
	}
	level := xmax
	if s.sustained > 0 && s.sustained < xmax {
		level = s.sustained
	}
	if t := a.target; t != nil {
		bad = append(bad, targetViolations(s, q, t, level)...)
	}
	if lim, ok := sloLimit(s, a.slo); ok {
		for _, st := range a.settings {
			if float64(st.SaturationQD) > lim {
				bad = append(bad, fmt.Sprintf("(b) setting %s sized from QD %d, beyond QD %g, the deepest meeting %s",
					st.Name, st.SaturationQD, lim, q.slo))
			}
		}
		if a.noTarget > lim {
			bad = append(bad, fmt.Sprintf("(b) advises QD %g without a target, beyond QD %g, the deepest meeting %s", a.noTarget, lim, q.slo))
		}
		if t := a.target; t != nil && t.Reachable && t.QD > lim && !t.SLOConflict {
			bad = append(bad, fmt.Sprintf("(b) target needs QD %g, beyond QD %g meeting %s, and no conflict is said", t.QD, lim, q.slo))
		}
	}
	return bad
}

// targetViolations checks one target answer against (a), (c) and (d).
func targetViolations(s shape, q question, t *littleslaw.TargetResult, level float64) []string {
	var bad []string
	const slack = 0.01 // the advisor's own: a target within 1% of the most measured is reached
	if t.Reachable {
		if q.target > level*(1+slack) {
			bad = append(bad, fmt.Sprintf("(c) reachable, above the %.0f IOPS the curve sustains", level))
		}
		// A measured point proves its depth insufficient while the curve
		// has not yet reached the target (deeper points of a retrograde
		// curve that fall below it prove nothing about shallower depths).
		for _, p := range s.pts {
			if p.IOPS >= q.target*(1-slack) {
				break
			}
			if t.QD <= p.QD {
				bad = append(bad, fmt.Sprintf("(a) QD %g, but QD %g measured only %.0f IOPS", t.QD, p.QD, p.IOPS))
				break
			}
		}
		if want := q.target * t.LatencyNs / 1e9; math.Abs(want-t.Inflight) > 1e-6*math.Max(1, want) {
			bad = append(bad, fmt.Sprintf("(d) %.0f IOPS × %.0f ns = %.3f in flight, the answer says %.3f", q.target, t.LatencyNs, want, t.Inflight))
		}
		if t.QD < t.Inflight-1e-9 || t.Split.Total() < int(math.Ceil(t.QD-1e-9)) {
			bad = append(bad, fmt.Sprintf("(d) QD %g and split %+v do not cover %.3f in flight", t.QD, t.Split, t.Inflight))
		}
		return bad
	}
	if t.Reason == littleslaw.TargetSaturated && !(level*(1+slack) < q.target) {
		bad = append(bad, fmt.Sprintf("(c) not reachable, but the curve measured %.0f IOPS", level))
	}
	return bad
}

// sloLimit is the deepest QD an answer may use under the SLO.
func sloLimit(s shape, r *littleslaw.SLOResult) (float64, bool) {
	if r == nil || r.Reason == littleslaw.SLONotMeasured {
		return 0, false
	}
	if r.Met {
		return r.QD, true
	}
	return s.pts[0].QD, true
}

// disagreements lists where two doors gave different figures for one fact.
func disagreements(as []answer) []string {
	var bad []string
	for i := 1; i < len(as); i++ {
		a, b := as[0], as[i]
		if a.sustained != b.sustained {
			continue // only the analysis door was told the sustained level
		}
		if (a.target == nil) != (b.target == nil) {
			bad = append(bad, fmt.Sprintf("(e) %s answers a target, %s does not", a.door, b.door))
			continue
		}
		if at, bt := a.target, b.target; at != nil {
			if at.Reachable != bt.Reachable || at.QD != bt.QD || at.Split != bt.Split ||
				math.Abs(at.Inflight-bt.Inflight) > 1e-6*math.Max(1, at.Inflight) {
				bad = append(bad, fmt.Sprintf("(e) %s: reachable %v QD %g (%.3f in flight, %+v); %s: reachable %v QD %g (%.3f, %+v)",
					a.door, at.Reachable, at.QD, at.Inflight, at.Split, b.door, bt.Reachable, bt.QD, bt.Inflight, bt.Split))
			}
		}
		if b.door == "explain" {
			continue // explain answers targets only
		}
		if len(a.settings) != len(b.settings) {
			bad = append(bad, fmt.Sprintf("(e) %s gives %d settings, %s %d", a.door, len(a.settings), b.door, len(b.settings)))
			continue
		}
		for k := range a.settings {
			if a.settings[k].Value != b.settings[k].Value {
				bad = append(bad, fmt.Sprintf("(e) %s = %s in %s, %s in %s", a.settings[k].Name, a.settings[k].Value, a.door, b.settings[k].Value, b.door))
			}
		}
	}
	return bad
}

// TestExplainGroupsWorkloads: outputs of two workloads (random reads and
// random writes, each at two depths) and a lone run of a third are two
// curves, each answered once, and a run of its own; a lone run keeps its
// own target answer, the curves' runs do not.
func TestExplainGroupsWorkloads(t *testing.T) {
	soft := func(qd float64) float64 { return 100000 * qd / (qd + 16) }
	var outs []fio.Output
	add := func(rw string, qd int, engine string) {
		x := soft(float64(qd))
		lat := float64(qd) / x * 1e9
		n := int64(x * 3)
		dir := &fio.Dir{IOPS: x, BWBytes: x * 4096, TotalIOs: n, IOBytes: n * 4096, RuntimeMs: 3000,
			Lat: fio.LatStat{MeanNs: lat, MinNs: lat / 3, N: n}}
		j := fio.Job{Name: fmt.Sprintf("%s-qd%d", rw, qd), RW: rw, BS: 4096, IOEngine: engine, IODepth: qd, IODepthFrom: "options",
			NumJobs: 1, NumJobsFrom: "options", Options: map[string]string{"filename": "/data/f", "rw": rw, "iodepth": fmt.Sprint(qd)}}
		if rw == "randwrite" {
			j.Write = dir
		} else {
			j.Read = dir
		}
		outs = append(outs, fio.Output{Format: "json", FioVersion: "fio-3.33", Timestamp: int64(len(outs) + 1), Jobs: []fio.Job{j}})
	}
	add("randread", 1, "io_uring")
	add("randwrite", 4, "libaio")
	add("randread", 32, "libaio") // io_uring and libaio keep the same queue: one curve
	add("randwrite", 64, "io_uring")
	add("read", 8, "io_uring")
	doc := session.ExplainFio(outs, fioadapt.ExplainOptions{TargetIOPS: 50000, MaxIODepth: 256, MaxJobs: 2}, "gen")
	if len(doc.Curves) != 2 || doc.Curves[0].RW != "randread" || doc.Curves[1].RW != "randwrite" {
		t.Fatalf("curves %+v, want randread and randwrite", doc.Curves)
	}
	for _, c := range doc.Curves {
		if tg := c.Advice.Target; tg == nil || !tg.Reachable || len(c.Jobs) != 2 {
			t.Errorf("%s: %d runs, target %+v", c.RW, len(c.Jobs), tg)
		}
	}
	for _, j := range doc.Jobs {
		onCurve := j.RW != "read"
		if j.OnCurve != onCurve || (j.Explanation.Target != nil) == onCurve {
			t.Errorf("%s: on a curve %v, own target %v", j.Name, j.OnCurve, j.Explanation.Target != nil)
		}
	}
}
