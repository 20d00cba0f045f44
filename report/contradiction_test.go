package report_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// lawResult is a one-curve result whose steps follow a throughput law
// (IOPS at each QD) with seeded relative noise; latency by Little's Law,
// the queue full.
func lawResult(law func(n float64) float64, noise float64, seed uint64, qds ...int) *sweep.Result {
	if len(qds) == 0 {
		qds = []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	}
	rng := rand.New(rand.NewPCG(seed, seed*7+1))
	r := sweep.NewResult(sweep.Meta{Engine: "io_uring", CPUs: 8, Workload: sweep.Workload{Direct: true}},
		sweep.Plan{RW: []string{"randread"}, BS: []int64{4096}, IODepth: qds, NumJobs: []int{1}})
	for _, q := range qds {
		iops := law(float64(q)) * (1 + noise*(2*rng.Float64()-1))
		lat := float64(q) / iops * 1e9
		s := sweep.Step{RW: "randread", BS: 4096, IODepth: q, NumJobs: 1, QD: q, IOPS: iops, BWBytes: iops * 4096, InflightMean: float64(q), Steady: true}
		s.Lat.MeanNs, s.Lat.P50Ns, s.Lat.P99Ns = lat, int64(lat*0.9), int64(lat*2)
		r.Steps = append(r.Steps, s)
	}
	return r
}

// fleetResult is lawResult run on two hosts at once (fio client/server):
// iodepth per host, QD the fleet's (2 × iodepth), each host half the IOPS
// at the fleet's latency.
func fleetResult(law func(n float64) float64, iodepths ...int) *sweep.Result {
	r := sweep.NewResult(sweep.Meta{Engine: "fio", CPUs: 8, Workload: sweep.Workload{Direct: true}},
		sweep.Plan{RW: []string{"randread"}, BS: []int64{4096}, IODepth: iodepths, NumJobs: []int{1}, Hosts: 2})
	for _, d := range iodepths {
		q := 2 * d
		iops := law(float64(q))
		lat := float64(q) / iops * 1e9
		s := sweep.Step{RW: "randread", BS: 4096, IODepth: d, NumJobs: 1, QD: q, IOPS: iops, BWBytes: iops * 4096, InflightMean: float64(q), Steady: true}
		s.Lat.MeanNs, s.Lat.P50Ns, s.Lat.P99Ns = lat, int64(lat*0.9), int64(lat*2)
		for _, h := range []string{"h1", "h2"} {
			s.Hosts = append(s.Hosts, sweep.HostStep{Host: h, IOPS: iops / 2, BWBytes: iops * 2048, Lat: s.Lat})
		}
		r.Steps = append(r.Steps, s)
	}
	return r
}

// simResult sweeps the sim engine (model times, so the curve does not
// depend on how busy the machine is).
func simResult(t *testing.T, cfg ioengine.SimConfig, qds []int, stop sweep.EarlyStop) *sweep.Result {
	t.Helper()
	plan := sweep.NewPlan([]ioengine.RW{ioengine.RandRead}, []int64{4096}, qds, []int{1}, false)
	r := sweep.NewResult(sweep.Meta{Engine: "sim", Simulated: true, CPUs: 8}, plan)
	c := sweep.Config{Engine: ioengine.NewSim(cfg), Workload: ioengine.Workload{RandSeed: 1},
		Runtime: 80 * time.Millisecond, Stop: stop}
	if err := sweep.Run(context.Background(), c, r); err != nil {
		t.Fatal(err)
	}
	return r
}

// contradictions are pairs of statements that must never stand side by
// side about one curve.
var contradictions = []struct{ a, b string }{
	{"Saturates at", "extend the sweep"},
	{"Saturates at", "sweep deeper"},
	{"Saturates at", "No saturation"},
	{"Saturates at", "Diagnosis (depth-bound)"},
	{"No saturation", "model: ceiling"},
	{"No saturation", "knee N*"},
	{"Diagnosis (healthy)", "Diagnosis (device-cap)"},
	{"Diagnosis (healthy)", "IOPS flat"},
	{"stopped early", "extend the sweep"},
	{"stopped early", "sweep deeper"},
	{"Diagnosis (healthy)", "Diagnosis (not-stationary)"},
	{"Diagnosis (healthy)", "burst credits ran out"},
	{". Reachable", "is not reachable"},
}

// controlResult sweeps the sim engine and measures the control step at the
// end, as a sweep does: with burst credits kept from step to step, the
// credits run out between two steps.
func controlResult(t *testing.T, cfg ioengine.SimConfig, qds []int) *sweep.Result {
	t.Helper()
	plan := sweep.NewPlan([]ioengine.RW{ioengine.RandRead}, []int64{4096}, qds, []int{1}, true)
	r := sweep.NewResult(sweep.Meta{Engine: "sim", Simulated: true, CPUs: 8}, plan)
	c := sweep.Config{Engine: ioengine.NewSim(cfg), Workload: ioengine.Workload{RandSeed: 1}, Runtime: 300 * time.Millisecond}
	if err := sweep.Run(context.Background(), c, r); err != nil {
		t.Fatal(err)
	}
	if err := sweep.RunControl(context.Background(), c, r); err != nil {
		t.Fatal(err)
	}
	return r
}

// rampResult sweeps the sim engine with a ramp as long as each step's
// window, so a level that changes between steps may change in a ramp.
func rampResult(t *testing.T, cfg ioengine.SimConfig, qds []int) *sweep.Result {
	t.Helper()
	plan := sweep.NewPlan([]ioengine.RW{ioengine.RandRead}, []int64{4096}, qds, []int{1}, true)
	r := sweep.NewResult(sweep.Meta{Engine: "sim", Simulated: true, CPUs: 8}, plan)
	c := sweep.Config{Engine: ioengine.NewSim(cfg), Workload: ioengine.Workload{RandSeed: 1},
		Ramp: 400 * time.Millisecond, Runtime: 400 * time.Millisecond}
	if err := sweep.Run(context.Background(), c, r); err != nil {
		t.Fatal(err)
	}
	return r
}

// quotedFigures lists the (QD, IOPS, latency) figures the summary quotes
// for a step: the efficient knee's sentence.
var quotedFigures = regexp.MustCompile(`Best IOPS per latency at QD (\d+) \(([^ ]+) IOPS at ([^ ]+ [^ ]+) mean`)

// checkQuotedInTable fails when a figure a sentence quotes for a step is
// neither in that step's table row nor in the sustained-level note under
// the table (one number per fact).
func checkQuotedInTable(t *testing.T, table string) {
	t.Helper()
	flat := strings.Join(strings.Fields(table), " ")
	for _, m := range quotedFigures.FindAllStringSubmatch(flat, -1) {
		qd, iops, lat := m[1], m[2], m[3]
		inRow := false
		for _, l := range strings.Split(table, "\n") {
			f := strings.Fields(l)
			if len(f) > 5 && strings.TrimSuffix(f[0], "‡") == qd && strings.Contains(l, " "+iops+" ") && strings.Contains(l, lat) {
				inRow = true
			}
		}
		if !inRow && !strings.Contains(flat, "QD "+qd+" "+iops+" IOPS at "+lat+" mean") {
			t.Errorf("the summary quotes QD %s at %s IOPS and %s, which no table row or sustained level shows:\n%s", qd, iops, lat, table)
		}
	}
}

// TestNoContradictions renders every finding and sentence for a corpus of
// curves (flat, rising, retrograde, throttled, noisy, early-stopped,
// unsaturated, multi-host, multi-curve, recorded, simulated) and fails on a pair of
// statements that contradict each other, on a verdict repeated after its
// rule, and on a stated depth that breaks Little's Law.
func TestNoContradictions(t *testing.T) {
	corpus := map[string]*sweep.Result{
		"flat":        lawResult(func(n float64) float64 { return 4000 }, 0, 1),
		"rising":      lawResult(func(n float64) float64 { return 900 * n }, 0, 1),
		"unsaturated": lawResult(func(n float64) float64 { return 2e4 * n / (1 + 0.002*(n-1)) }, 0.02, 2),
		"retrograde":  lawResult(func(n float64) float64 { return 3e4 * n / (1 + 0.02*(n-1) + 0.0005*n*(n-1)) }, 0.01, 3),
		"throttled":   lawResult(func(n float64) float64 { return math.Min(n/1.3e-3, 120e3) }, 0, 1),
		"noisy":       lawResult(func(n float64) float64 { return math.Min(n/1.3e-3, 120e3) }, 0.08, 5),
		"shallow":     lawResult(func(n float64) float64 { return math.Min(n/1e-3, 20e3) }, 0, 1, 1, 2, 4, 8),
		"multi-host":  fleetResult(func(n float64) float64 { return math.Min(n/1.3e-3, 150e3) }, 1, 2, 4, 8, 16, 32, 64, 128, 256),
		"sim capped": simResult(t, ioengine.SimConfig{Latency: time.Millisecond, IOPS: 20000, Seed: 1},
			[]int{1, 4, 16, 64, 256}, sweep.EarlyStop{}),
		"sim early-stopped": simResult(t, ioengine.SimConfig{Latency: time.Millisecond, IOPS: 4000, Seed: 1},
			[]int{1, 2, 4, 8, 16, 32, 64, 128}, sweep.DefaultEarlyStop),
		// Burst credits spent between two steps: high early, flat at the
		// sustained 1,500 after, latency ∝ QD; the control step finds it.
		"sim credits spent between steps": controlResult(t, ioengine.SimConfig{Latency: 2 * time.Millisecond, IOPS: 1500,
			BurstIOPS: 6000, BurstCredits: 2000, BurstCarry: true, Seed: 1}, []int{1, 2, 4, 8, 16, 32, 64}),
		// A windowed throttle (3k IOPS per 100 ms window) on a 50 µs volume:
		// I/Os wait behind it, latency ∝ QD above the cap.
		"sim throttle": simResult(t, ioengine.SimConfig{Latency: 50 * time.Microsecond, ThrottlePeriod: 100 * time.Millisecond,
			ThrottleIOPS: 3000, Seed: 1}, []int{1, 2, 4, 8, 16, 32}, sweep.EarlyStop{}),
		// A contended disk: a neighbour took half of QD 1 and QD 2 (7.62k at
		// 124 µs where 16.3k at 60.3 µs was the disk's), the rest clean.
		"contended": lawResult(func(n float64) float64 {
			if n <= 2 {
				return 7620 * n
			}
			return math.Min(n/60.3e-6, 92e3) / (1 + 0.01*n)
		}, 0.03, 7),
		// Burst credits spent during QD 16's ramp: no window shows the
		// fall, the ramp's slices do.
		"sim credits spent during a ramp": rampResult(t, ioengine.SimConfig{Latency: 2 * time.Millisecond, IOPS: 1500,
			BurstIOPS: 6000, BurstCredits: 3300, BurstCarry: true, Seed: 3}, []int{1, 2, 4, 8, 16, 32}),
		// Burst credits refilled at each step: every step above the
		// sustained level falls within the step.
		"sim burst within steps": controlResult(t, ioengine.SimConfig{Latency: 2 * time.Millisecond, IOPS: 1500,
			BurstIOPS: 6000, BurstCredits: 500, Seed: 1}, []int{1, 2, 4, 8, 16, 32, 64}),
	}
	for _, name := range []string{"disk-randread-4k", "disk-randread-bs", "fio-randread-4k", "tmpfs-randread-4k"} {
		r, err := sweep.Read(filepath.Join("..", "examples", "data", name))
		if err != nil {
			t.Fatal(err)
		}
		corpus["recorded "+name] = r
	}
	for name, r := range corpus {
		t.Run(name, func(t *testing.T) {
			max := 0.0
			for _, s := range r.Steps {
				max = math.Max(max, s.IOPS)
			}
			slo := littleslaw.SLO{Stat: "p99", LimitNs: 2e6}
			o := littleslaw.Options{TargetIOPS: 0.8 * max, SLO: &slo, For: "postgres"}
			if err := r.Analyze(o); err != nil {
				t.Fatal(err)
			}
			report.Annotate(r)
			var b bytes.Buffer
			if err := report.Table(&b, r, report.Options{TargetIOPS: o.TargetIOPS, SLO: o.SLO}); err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Fields(b.String()), " ")
			if len(r.Analysis) == 1 {
				checkPairs(t, "table", text)
			}
			checkQuotedInTable(t, b.String())
			for _, f := range r.RampFalls() {
				// A level that fell in a ramp: never sized from, never "healthy".
				if tg := r.Analysis[0].Analysis.Target; tg != nil && tg.Reachable && tg.TargetIOPS > f.IOPS*1.1 {
					t.Errorf("target %.0f IOPS reachable on a volume that sustains %.0f", tg.TargetIOPS, f.IOPS)
				}
				if !strings.Contains(text, "Diagnosis (not-stationary)") || !strings.Contains(text, "ramp: QD") {
					t.Errorf("a level that fell during QD %d's ramp without its note and diagnosis:\n%s", f.QD, b.String())
				}
			}
			if c := r.Control; c != nil && c.Change == sweep.ControlFell {
				// A level that did not last: never sized from, never "healthy".
				if tg := r.Analysis[0].Analysis.Target; tg != nil && tg.Reachable && tg.TargetIOPS > c.IOPS*1.1 {
					t.Errorf("target %.0f IOPS reachable on a volume that sustains %.0f", tg.TargetIOPS, c.IOPS)
				}
				if !strings.Contains(text, "Diagnosis (not-stationary)") {
					t.Errorf("a control step that fell %.0f%% without a not-stationary diagnosis:\n%s", 100*(1-c.IOPS/c.WasIOPS), b.String())
				}
			}
			for _, ca := range r.Analysis {
				a := ca.Analysis
				var words []string
				if a.Saturation.Found {
					words = append(words, "Saturates at")
				} else {
					words = append(words, a.Saturation.Note)
				}
				if a.EarlyStopped {
					words = append(words, "stopped early")
				}
				for _, f := range r.Diagnosis {
					if f.RW == ca.RW && (f.BS == ca.BS || f.BS == 0) {
						words = append(words, fmt.Sprintf("Diagnosis (%s): %s", f.Rule, f.Summary), f.Next)
						if strings.Contains(f.Summary, string(f.Rule+": "+f.Rule)) {
							t.Errorf("verdict repeated: %q", f.Summary)
						}
						// One interpolation: the diagnosis and the target
						// answer state the same depth for the same target.
						if tg := a.Target; f.Reason == diagnosis.ReasonBelowTarget && tg != nil && tg.Reachable && f.Figures.ToQD != tg.QD {
							t.Errorf("diagnosis says QD %g for %g IOPS, the target answer %g", f.Figures.ToQD, tg.TargetIOPS, tg.QD)
						}
					}
				}
				checkPairs(t, ca.RW+" "+fmt.Sprint(ca.BS), strings.Join(words, " | "))
				checkLittle(t, a)
			}
			if strings.Contains(text, "Diagnosis (depth-bound): depth-bound") {
				t.Errorf("verdict repeated in the table:\n%s", b.String())
			}
		})
	}
}

// TestCompareVerdictsFollowRows compares pairs from the corpus (a fast
// volume against a throttled one, randread against randwrite with very
// noisy steps, two recorded sweeps) and fails on a row whose verdict the
// figures beside it deny: "≈" with an IOPS ratio outside the row's own
// noise column, "real" inside it with the latencies alike, a verdict where
// a step's noise is unknown, or a sweep that differs from itself.
func TestCompareVerdictsFollowRows(t *testing.T) {
	read := lawResult(func(n float64) float64 { return math.Min(n/28e-6, 34.9e3) }, 0.02, 11, 1, 2, 4, 8, 16, 32)
	write := lawResult(func(n float64) float64 { return 584 }, 0.02, 12, 1, 2, 4, 8, 16, 32)
	for i := range write.Steps {
		write.Steps[i].RW, read.Steps[i].IOPSCV, write.Steps[i].IOPSCV = "randwrite", 0.2, 3.6
		read.Steps[i].IOPSSamples, write.Steps[i].IOPSSamples = 20, 20
	}
	write.Plan.RW = []string{"randwrite"}
	fast := lawResult(func(n float64) float64 { return n / 50e-6 }, 0, 1, 1, 2, 4, 8)
	throttled := lawResult(func(n float64) float64 { return 3000 }, 0, 1, 1, 2, 4, 8)
	for i := range fast.Steps {
		fast.Steps[i].IOPSCV, throttled.Steps[i].IOPSCV = 2.67, 3.42
		fast.Steps[i].IOPSSamples, throttled.Steps[i].IOPSSamples = 4, 4
	}
	pairs := [][2]*sweep.Result{{read, write}, {fast, throttled}}
	disk, err := sweep.Read(filepath.Join("..", "examples", "data", "disk-randread-4k"))
	if err != nil {
		t.Fatal(err)
	}
	tmpfs, err := sweep.Read(filepath.Join("..", "examples", "data", "tmpfs-randread-4k"))
	if err != nil {
		t.Fatal(err)
	}
	pairs = append(pairs, [2]*sweep.Result{disk, tmpfs}, [2]*sweep.Result{disk, disk})
	for i, p := range pairs {
		var b bytes.Buffer
		if err := report.CompareTable(&b, []report.Input{{Name: "a", Result: p[0]}, {Name: "b", Result: p[1]}}, report.Options{}); err != nil {
			t.Fatal(err)
		}
		rows := 0
		for _, l := range strings.Split(b.String(), "\n") {
			f := strings.Fields(l)
			if len(f) < 11 || f[0] == "QD" {
				continue
			}
			if _, err := strconv.Atoi(f[0]); err != nil {
				continue
			}
			rows++
			ia, ib := siValue(f[1]), siValue(f[2])
			noise, verdict := f[len(f)-2], f[len(f)-1]
			if noise == "?" {
				if verdict != "?" {
					t.Errorf("pair %d: a step of unknown noise judged %q: %s", i, verdict, l)
				}
				continue
			}
			band, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(noise, "±"), "%"), 64)
			ratio := math.Abs(ib/ia - 1)
			// Figures print to 3 significant digits: 1% of slack.
			if verdict == "≈" && (ia <= 0 || ratio > band/100+0.01) {
				t.Errorf("pair %d: %s vs %s IOPS called ≈ with noise ±%g%%: %s", i, f[1], f[2], band, l)
			}
			if dMean := deltaCell(f[len(f)-5]); verdict == "real" && ratio < band/100-0.01 && math.Abs(dMean) < band/100-0.01 {
				t.Errorf("pair %d: %s vs %s IOPS, mean latency %s, called real inside noise ±%g%%: %s", i, f[1], f[2], f[len(f)-5], band, l)
			}
		}
		if rows == 0 {
			t.Errorf("pair %d: no compared rows:\n%s", i, b.String())
		}
		if i == 3 && strings.Contains(b.String(), " real\n") {
			t.Errorf("a sweep compared with itself differs somewhere:\n%s", b.String())
		}
	}
}

// deltaCell reads a delta cell ("+12.5%", "×3.2") as a fraction.
func deltaCell(s string) float64 {
	if f, ok := strings.CutPrefix(s, "×"); ok {
		v, _ := strconv.ParseFloat(f, 64)
		return v - 1
	}
	v, _ := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	return v / 100
}

// siValue reads a figure as the tables print it ("584", "34.9k", "1.2M").
func siValue(s string) float64 {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1e3, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, strings.TrimSuffix(s, "M")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return -1
	}
	return v * mult
}

func checkPairs(t *testing.T, where, text string) {
	t.Helper()
	for _, c := range contradictions {
		if strings.Contains(text, c.a) && strings.Contains(text, c.b) {
			t.Errorf("%s: %q beside %q:\n%s", where, c.a, c.b, text)
		}
	}
}

// checkLittle checks every depth the analysis states with a rate and a
// latency: QD ≈ IOPS × latency within a whole I/O or 5%, or the measured
// queue was not full (the check says so).
func checkLittle(t *testing.T, a littleslaw.Analysis) {
	t.Helper()
	holds := func(qd, iops, latNs float64) bool {
		l := littleslaw.QueueDepth(iops, latNs)
		return math.Abs(qd-l) <= math.Max(1, 0.05*qd)
	}
	for _, k := range []littleslaw.Knee{a.Saturation, a.Efficient, a.ModelKnee} {
		if k.Found && !holds(k.QD, k.IOPS, k.LatNsMean) && !flagged(a, k.QD) {
			t.Errorf("%s knee: QD %g, %g IOPS at %g ns breaks Little's Law", k.Kind, k.QD, k.IOPS, k.LatNsMean)
		}
	}
	if tg := a.Target; tg != nil && tg.Reachable {
		if math.Abs(littleslaw.QueueDepth(tg.TargetIOPS, tg.LatencyNs)-tg.Inflight) > 1e-6*tg.Inflight {
			t.Errorf("target: in flight %g ≠ %g IOPS × %g ns", tg.Inflight, tg.TargetIOPS, tg.LatencyNs)
		}
		if !holds(tg.QD, tg.TargetIOPS, tg.LatencyNs) && tg.QD-tg.Inflight < 0 {
			t.Errorf("target: QD %g below its in-flight %g", tg.QD, tg.Inflight)
		}
	}
}

// flagged reports whether a's Little's-Law check flags the step at qd.
func flagged(a littleslaw.Analysis, qd float64) bool {
	for _, c := range a.Checks {
		if c.QD == qd && c.Flagged {
			return true
		}
	}
	return false
}
