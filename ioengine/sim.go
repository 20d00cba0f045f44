package ioengine

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/qdsweep/qdsweep/units"
)

// SimConfig describes the simulated device of the "sim" engine: a remote
// disk with a base round-trip latency, a number of parallel service channels
// and token-bucket IOPS and bandwidth caps shared by all jobs.
type SimConfig struct {
	// Latency is the base round-trip time of one I/O (mean service time).
	Latency time.Duration
	// Jitter is the spread of the service time as a fraction of Latency
	// (the σ of a mean-preserving log-normal factor; 0: every I/O takes Latency).
	Jitter float64
	// Channels is the number of I/Os the device serves at once (0: unlimited).
	Channels int
	// IOPS caps I/Os per second over all jobs (0: no cap).
	IOPS float64
	// BWBytes caps bytes per second over all jobs (0: no cap).
	BWBytes float64
	// Seed seeds the jitter and offset generators (0: use the workload's RandSeed).
	Seed uint64
	// BurstIOPS, when > 0, is the IOPS cap while burst credits remain (AWS
	// gp2/st1/sc1, Azure P1–P20 style); IOPS is then the baseline and must be
	// > 0 and < BurstIOPS.
	BurstIOPS float64
	// BurstCredits is the credit bucket, in I/Os: full when a run begins,
	// one credit spent per I/O issued while bursting, refilled at IOPS per
	// second. Running at the cap, the burst lasts
	// BurstCredits / (BurstIOPS − IOPS) seconds.
	BurstCredits float64
	// BurstCarry keeps the credits from one run to the next, as a volume
	// does (refilled at IOPS per second of wall time between runs), so a
	// sweep can spend them between steps; without it each run starts full.
	BurstCarry bool
	// ThrottlePeriod and ThrottleIOPS, when both > 0, add a windowed limit:
	// at most ThrottleIOPS × ThrottlePeriod I/Os start in each period
	// (periods begin at the run's start); the rest wait for the next one.
	ThrottlePeriod time.Duration
	ThrottleIOPS   float64
}

// simEngine runs workloads against a SimConfig in real time.
type simEngine struct {
	cfg SimConfig
	// The credits a run left and when it ended (SimConfig.BurstCarry).
	mu       sync.Mutex
	carried  bool
	credits  float64
	lastDone time.Time
}

// NewSim returns the "sim" engine: an in-process model of a remote disk that
// runs in real time through the Engine interface. One discrete-event loop
// serves all jobs of a run (the caps are shared); it keeps pace with the wall
// clock by sleeping at least 0.75 ms between batches of events, so QD 1024 at
// 160k IOPS costs a small fraction of a core. Latencies are exact simulated
// times, not wall-clock measurements. Each I/O waits for an IOPS
// and a bandwidth token (FIFO, no burst), then for a free channel, then takes
// Latency × jitter. Jobs resubmit at once, so a workload keeps IODepth ×
// NumJobs I/Os in flight. No file is read or written.
func NewSim(cfg SimConfig) Engine { return &simEngine{cfg: cfg} }

// startCredits is the bucket a run starts with: full, or with
// BurstCarry what the last run left, refilled since at the baseline.
func (e *simEngine) startCredits() float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.cfg.BurstCarry || !e.carried {
		return e.cfg.BurstCredits
	}
	return min(e.cfg.BurstCredits, e.credits+e.cfg.IOPS*time.Since(e.lastDone).Seconds())
}

// keepCredits records what a run left (SimConfig.BurstCarry).
func (e *simEngine) keepCredits(c float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.carried, e.credits, e.lastDone = true, c, time.Now()
}

// Name returns "sim".
func (e *simEngine) Name() string { return EngineSim }

// String renders the configuration as "latency=1.3ms,jitter=0.05,channels=0,iops=160000,bw_bytes=0,seed=0",
// followed by burst_iops, burst_credits, throttle_period and throttle_iops
// when set: the form ParseSimConfig reads back.
func (c SimConfig) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	s := fmt.Sprintf("latency=%s,jitter=%s,channels=%d,iops=%s,bw_bytes=%s,seed=%d",
		c.Latency, strconv.FormatFloat(c.Jitter, 'g', -1, 64), c.Channels, f(c.IOPS), f(c.BWBytes), c.Seed)
	if c.BurstIOPS > 0 || c.BurstCredits > 0 {
		s += fmt.Sprintf(",burst_iops=%s,burst_credits=%s", f(c.BurstIOPS), f(c.BurstCredits))
	}
	if c.BurstCarry {
		s += ",burst_carry=1"
	}
	if c.ThrottlePeriod > 0 || c.ThrottleIOPS > 0 {
		s += fmt.Sprintf(",throttle_period=%s,throttle_iops=%s", c.ThrottlePeriod, f(c.ThrottleIOPS))
	}
	return s
}

// ParseSimConfig parses the form SimConfig.String writes (keys in any order,
// missing keys zero).
func ParseSimConfig(s string) (SimConfig, error) { return parseSim(SimConfig{}, s) }

// DefaultSim is the simulated device a --sim spec starts from: a network
// disk with a 1.3 ms round trip, 5 % jitter, 160k IOPS and 2400 MiB/s.
var DefaultSim = SimConfig{Latency: 1300 * time.Microsecond, Jitter: 0.05, IOPS: 160000, BWBytes: 2400 << 20}

// SimKeys are the keys of a sim spec, in the order SimConfig.String writes
// them (bw, with fio's size suffixes, is bw_bytes' other spelling).
var SimKeys = []string{"latency", "jitter", "channels", "iops", "bw", "bw_bytes", "seed",
	"burst_iops", "burst_credits", "burst_carry", "throttle_period", "throttle_iops"}

// ParseSimSpec parses a user's sim spec, "latency=1ms,iops=20000,bw=200MiB":
// the keys of SimKeys, comma-separated, any order, each over DefaultSim
// (burst_carry alone means burst_carry=1).
func ParseSimSpec(s string) (SimConfig, error) { return parseSim(DefaultSim, s) }

// parseSim sets base's fields from the key=value pairs of s and validates
// the result.
func parseSim(c SimConfig, s string) (SimConfig, error) {
	seen := map[string]bool{}
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok && k == "burst_carry" {
			v, ok = "1", true
		}
		if !ok {
			return c, fmt.Errorf("sim config %q: %q is not key=value", s, kv)
		}
		if seen[k] {
			return c, fmt.Errorf("sim config %q: %s given twice; give each key once", s, k)
		}
		seen[k] = true
		if err := c.set(k, v); err != nil {
			return c, fmt.Errorf("sim config %q: %w", s, err)
		}
	}
	return c, c.validate()
}

// set sets the field of key k from v.
func (c *SimConfig) set(k, v string) error {
	var err error
	switch k {
	case "latency":
		c.Latency, err = units.ParseDuration(v)
	case "jitter":
		c.Jitter, err = strconv.ParseFloat(v, 64)
	case "channels":
		c.Channels, err = strconv.Atoi(v)
	case "iops":
		c.IOPS, err = strconv.ParseFloat(v, 64)
	case "bw":
		var b int64
		b, err = units.ParseSize(v)
		c.BWBytes = float64(b)
	case "bw_bytes":
		c.BWBytes, err = strconv.ParseFloat(v, 64)
	case "seed":
		c.Seed, err = strconv.ParseUint(v, 10, 64)
	case "burst_iops":
		c.BurstIOPS, err = strconv.ParseFloat(v, 64)
	case "burst_credits":
		c.BurstCredits, err = strconv.ParseFloat(v, 64)
	case "burst_carry":
		c.BurstCarry, err = strconv.ParseBool(v)
	case "throttle_period":
		c.ThrottlePeriod, err = units.ParseDuration(v)
	case "throttle_iops":
		c.ThrottleIOPS, err = strconv.ParseFloat(v, 64)
	default:
		return fmt.Errorf("unknown key %q (keys: %s)", k, strings.Join(SimKeys, ", "))
	}
	var ne *strconv.NumError
	switch {
	case errors.As(err, &ne) && k == "burst_carry":
		return fmt.Errorf("%s: %q is not 0 or 1", k, v)
	case errors.As(err, &ne):
		return fmt.Errorf("%s: %q is not a number in range", k, v)
	case err != nil:
		return fmt.Errorf("%s: %w", k, err)
	}
	return nil
}

func (c SimConfig) validate() error {
	switch {
	case c.Latency <= 0:
		return fmt.Errorf("sim: latency %v must be > 0", c.Latency)
	case c.Jitter < 0 || c.Jitter > 2 || math.IsNaN(c.Jitter):
		return fmt.Errorf("sim: jitter %v must be within 0..2", c.Jitter)
	case c.Channels < 0:
		return fmt.Errorf("sim: channels %d must be ≥ 0", c.Channels)
	case c.IOPS < 0 || math.IsNaN(c.IOPS) || math.IsInf(c.IOPS, 0):
		return fmt.Errorf("sim: iops cap %v must be ≥ 0", c.IOPS)
	case c.BWBytes < 0 || math.IsNaN(c.BWBytes) || math.IsInf(c.BWBytes, 0):
		return fmt.Errorf("sim: bandwidth cap %v must be ≥ 0", c.BWBytes)
	case c.BurstIOPS < 0 || math.IsNaN(c.BurstIOPS) || math.IsInf(c.BurstIOPS, 0),
		c.BurstCredits < 0 || math.IsNaN(c.BurstCredits) || math.IsInf(c.BurstCredits, 0):
		return fmt.Errorf("sim: burst iops %v and burst credits %v must be ≥ 0", c.BurstIOPS, c.BurstCredits)
	case (c.BurstIOPS > 0) != (c.BurstCredits > 0):
		return fmt.Errorf("sim: burst iops %v and burst credits %v go together: set both or neither", c.BurstIOPS, c.BurstCredits)
	case c.BurstIOPS > 0 && (c.IOPS <= 0 || c.IOPS >= c.BurstIOPS):
		return fmt.Errorf("sim: burst iops %v needs a baseline iops cap above 0 and below it (got %v)", c.BurstIOPS, c.IOPS)
	case c.ThrottlePeriod < 0 || c.ThrottleIOPS < 0 || math.IsNaN(c.ThrottleIOPS) || math.IsInf(c.ThrottleIOPS, 0):
		return fmt.Errorf("sim: throttle period %v and throttle iops %v must be ≥ 0", c.ThrottlePeriod, c.ThrottleIOPS)
	case (c.ThrottlePeriod > 0) != (c.ThrottleIOPS > 0):
		return fmt.Errorf("sim: throttle period %v and throttle iops %v go together: set both or neither", c.ThrottlePeriod, c.ThrottleIOPS)
	case c.ThrottlePeriod > 0 && c.ThrottleIOPS*c.ThrottlePeriod.Seconds() < 1:
		return fmt.Errorf("sim: throttle iops %v × period %v admits no I/O per period", c.ThrottleIOPS, c.ThrottlePeriod)
	}
	return nil
}

// simBatch is how much simulated time the event loop processes per wake-up
// at least: it sleeps no shorter than this, so deep queues cost little CPU.
const simBatch = 750 * time.Microsecond

// simIO is one outstanding simulated I/O.
type simIO struct {
	submit, done int64 // virtual ns since the run began
	write        bool
}

// simQueue is a min-heap of completion times.
type simQueue []simIO

func (q simQueue) Len() int           { return len(q) }
func (q simQueue) Less(i, j int) bool { return q[i].done < q[j].done }
func (q simQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *simQueue) Push(x any)        { *q = append(*q, x.(simIO)) }
func (q *simQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// simChannels is a min-heap of the times channels become free.
type simChannels []int64

func (c simChannels) Len() int           { return len(c) }
func (c simChannels) Less(i, j int) bool { return c[i] < c[j] }
func (c simChannels) Swap(i, j int)      { c[i], c[j] = c[j], c[i] }
func (c *simChannels) Push(x any)        { *c = append(*c, x.(int64)) }
func (c *simChannels) Pop() any {
	old := *c
	x := old[len(old)-1]
	*c = old[:len(old)-1]
	return x
}

// simDir accumulates one direction's figures over the measured window.
type simDir struct {
	ios, bytes   int64
	latSum       float64
	minNs, maxNs int64
	hist         *hdrhistogram.Histogram
}

func newSimDir() *simDir {
	return &simDir{minNs: math.MaxInt64, hist: hdrhistogram.New(1, int64(10*time.Minute), 3)}
}

func (d *simDir) record(latNs, bs int64) {
	d.ios++
	d.bytes += bs
	d.latSum += float64(latNs)
	d.minNs = min(d.minNs, latNs)
	d.maxNs = max(d.maxNs, latNs)
	_ = d.hist.RecordValue(latNs) // values beyond 10 min are clamped out; max keeps them
}

func (d *simDir) stats(window time.Duration) DirStats {
	s := DirStats{TotalIOs: d.ios, Bytes: d.bytes, Hist: d.hist}
	if secs := window.Seconds(); secs > 0 {
		s.IOPS = float64(d.ios) / secs
		s.BWBytes = float64(d.bytes) / secs
	}
	if d.ios > 0 {
		s.Lat = Latency{
			MinNs:  d.minNs,
			MeanNs: d.latSum / float64(d.ios),
			P50Ns:  d.hist.ValueAtQuantile(50),
			P90Ns:  d.hist.ValueAtQuantile(90),
			P99Ns:  d.hist.ValueAtQuantile(99),
			P999Ns: d.hist.ValueAtQuantile(99.9),
			MaxNs:  d.maxNs,
		}
	}
	return s
}

// simRun is the state of one simulated run.
type simRun struct {
	cfg      SimConfig
	w        Workload
	rng      *rand.Rand
	queue    simQueue
	channels simChannels
	nextIOPS int64 // virtual ns the next IOPS token is available
	nextBW   int64 // virtual ns the next bandwidth token is available
	// burst bucket and periodic throttle
	credits   float64 // burst credits left, I/Os
	lastIssue int64   // virtual ns of the last credit update
	thrPeriod int64   // index of the current throttle period
	thrUsed   float64 // I/Os started in it
	thrFloor  int64   // virtual ns before which no I/O starts (budget spent)
	ser       *simSeries
	// measured window
	measuring    bool
	winStart     int64
	all, rd, wr  *simDir
	inflight     int
	inflightArea float64 // ∫ in-flight dt over the window, I/O·ns
	lastChange   int64
	// milestones, virtual ns: the ramp's and window's ends, the next
	// OnSample and series cut
	rampEnd, winEnd, nextSample, nextSeries int64
	// left is how many I/Os may still be issued (Control.IOsPerJob over
	// all jobs; -1: no count); lastDone is the last completion's time.
	left, lastDone int64
	// The ramp's series (Stats.Ramp): completions per direction and their
	// latency since rampCutAt, the next cut, and the slices so far.
	rampIOs     [2]int64
	rampLat     int64
	rampCutAt   int64
	nextRampCut int64
	ramp        []Interval
	// The ramp's completions and their latency since it began, and the
	// next OnRampSample (Control.RampSampleInterval).
	rampAllIOs, rampAllLat, nextRampSample int64
	// ioLog keeps the window's completions (Control.IOLog; nil: none
	// asked): the simulated device has no offsets, so each is 0.
	ioLog *[]IORecord
	// hist cuts fio's histogram log windows (Control.HistWindow; nil: none).
	hist *histWindows
}

// cutRamp closes a slice of the ramp at virtual time t.
func (r *simRun) cutRamp(t int64) {
	if t <= r.rampCutAt {
		return
	}
	d := float64(t-r.rampCutAt) / 1e9
	iv := Interval{StartNs: r.rampCutAt - r.rampEnd, DurNs: t - r.rampCutAt, IOs: r.rampIOs[0] + r.rampIOs[1], Ramp: true,
		ReadIOPS: float64(r.rampIOs[0]) / d, WriteIOPS: float64(r.rampIOs[1]) / d,
		ReadBWBytes: float64(r.rampIOs[0]*r.w.BS) / d, WriteBWBytes: float64(r.rampIOs[1]*r.w.BS) / d}
	if iv.IOs > 0 {
		iv.LatMeanNs = float64(r.rampLat) / float64(iv.IOs)
	}
	r.ramp = append(r.ramp, iv)
	r.rampIOs, r.rampLat, r.rampCutAt = [2]int64{}, 0, t
}

// until processes every event up to virtual time limit, stopping at
// milestones; it reports the window's end when the run is over (the
// window's time is up, OnSample said so, or a counted run's I/Os are all
// done).
func (r *simRun) until(limit int64, ctl Control) (end int64, stop bool) {
	for {
		if r.left == 0 && len(r.queue) == 0 {
			return max(r.lastDone, r.winStart), true
		}
		t := limit
		if len(r.queue) > 0 && r.queue[0].done < t {
			t = r.queue[0].done
		}
		milestone := min(r.nextSample, r.nextSeries, r.winEnd)
		if !r.measuring {
			milestone = min(r.rampEnd, r.nextRampCut, r.nextRampSample)
		}
		if milestone > t {
			if t >= limit {
				return 0, false
			}
			r.complete(heap.Pop(&r.queue).(simIO))
			continue
		}
		r.advance(milestone)
		switch {
		case !r.measuring && milestone == r.nextRampSample && milestone < r.rampEnd:
			r.nextRampSample += int64(ctl.RampSampleInterval)
			s := Sample{Elapsed: time.Duration(milestone), IOs: r.rampAllIOs, LatSumNs: r.rampAllLat, Inflight: int64(r.inflight)}
			if ctl.OnRampSample(s) {
				r.endRampAt(milestone, ctl)
			}
		case !r.measuring && milestone < r.rampEnd:
			r.cutRamp(milestone)
			r.nextRampCut += r.ser.interval
		case !r.measuring:
			if r.ser != nil {
				r.cutRamp(milestone)
			}
			r.startWindow(milestone, ctl)
		case milestone == r.winEnd:
			return milestone, true
		case milestone == r.nextSeries:
			r.nextSeries += r.ser.interval
			r.ser.close(milestone)
			if ctl.OnInterval != nil {
				ctl.OnInterval(len(r.ser.out) - 1)
			}
		default:
			r.nextSample += int64(ctl.SampleInterval)
			if ctl.OnSample(r.sample(milestone)) {
				return milestone, true
			}
		}
	}
}

// wake is the virtual time of the next event the run must wake for.
func (r *simRun) wake() int64 {
	wake := min(r.nextSample, r.nextSeries, r.winEnd)
	if !r.measuring {
		wake = min(r.rampEnd, r.nextRampCut, r.nextRampSample)
	}
	if len(r.queue) > 0 {
		wake = min(wake, r.queue[0].done)
	}
	return wake
}

// Run simulates w under ctl in real time. The workload's Filename is ignored.
func (e *simEngine) Run(ctx context.Context, w Workload, ctl Control) (*Stats, error) {
	if err := e.check(w, ctl); err != nil {
		return nil, err
	}
	r := e.newRun(w, ctl)
	cpu0 := simCPU()
	start := time.Now()
	r.arm(ctl)
	end, runErr := r.loop(ctx, ctl, start)
	if r.measuring && ctl.OnWindowEnd != nil {
		ctl.OnWindowEnd()
	}
	if e.cfg.BurstCarry {
		e.keepCredits(r.credits)
	}
	cpu1 := simCPU()
	st := r.stats(end, CPU{UsrS: cpu1.UsrS - cpu0.UsrS, SysS: cpu1.SysS - cpu0.SysS})
	if r.ser != nil && r.measuring {
		st.Series = r.ser.finish(end)
	}
	st.Ramp = r.ramp
	if r.ioLog != nil {
		st.IOLog = [][]IORecord{*r.ioLog} // the jobs share one queue
	}
	if r.hist != nil {
		st.HistLog = [][]Interval{r.hist.out}
	}
	return st, runErr
}

// check refuses a run the simulated device cannot model.
func (e *simEngine) check(w Workload, ctl Control) error {
	if err := e.cfg.validate(); err != nil {
		return err
	}
	switch {
	case w.BS <= 0:
		return fmt.Errorf("sim: bs %d must be > 0", w.BS)
	case w.IODepth < 1 || w.NumJobs < 1:
		return fmt.Errorf("sim: iodepth %d and numjobs %d must be ≥ 1", w.IODepth, w.NumJobs)
	case ctl.Runtime <= 0:
		return errors.New("sim: runtime must be > 0")
	}
	return nil
}

// newRun is a run of w on the device, its queue filled at time 0.
func (e *simEngine) newRun(w Workload, ctl Control) *simRun {
	seed := e.cfg.Seed
	if seed == 0 {
		seed = w.RandSeed
	}
	r := &simRun{
		cfg: e.cfg, w: w,
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		all: newSimDir(), rd: newSimDir(), wr: newSimDir(),
		credits: e.startCredits(),
	}
	if ctl.SeriesInterval > 0 {
		r.ser = &simSeries{interval: int64(ctl.SeriesInterval), bins: ctl.SeriesBins}
	}
	if ctl.IOLog {
		r.ioLog = new([]IORecord)
	}
	r.hist = newHistWindows(ctl.HistWindow)
	for range e.cfg.Channels {
		r.channels = append(r.channels, 0)
	}
	r.left = -1
	if ctl.IOsPerJob > 0 || len(ctl.JobIOs) > 0 {
		r.left = 0 // the jobs share one queue: their counts add up
		for i := range w.NumJobs {
			n, _ := ctl.jobEnd(i)
			r.left += max(n, 0)
		}
	}
	for range w.QD() {
		if r.left == 0 {
			break
		}
		r.submit(0)
		r.inflight++
	}
	return r
}

// arm sets the run's milestones: the ramp's end, its slices and samples,
// and the window when there is no ramp.
func (r *simRun) arm(ctl Control) {
	r.rampEnd = int64(ctl.Ramp)
	r.nextSample, r.nextSeries, r.nextRampCut = int64(math.MaxInt64), int64(math.MaxInt64), int64(math.MaxInt64)
	r.nextRampSample = int64(math.MaxInt64)
	r.setMilestones(ctl)
	if r.ser != nil {
		r.nextRampCut = r.ser.interval // the ramp in slices too (Stats.Ramp)
	}
	if ctl.RampSampleInterval > 0 && ctl.OnRampSample != nil {
		r.nextRampSample = int64(ctl.RampSampleInterval)
	}
	if r.rampEnd == 0 {
		r.startWindow(0, ctl)
	}
}

// loop advances virtual time with the wall clock from start until the run
// stops; it returns the window's end in virtual time, and ctx's error
// wrapped when it ended the run.
func (r *simRun) loop(ctx context.Context, ctl Control, start time.Time) (end int64, err error) {
	for {
		now := int64(time.Since(start))
		if t, stop := r.until(min(now, r.winEnd), ctl); stop {
			return t, nil
		}
		if err := ctx.Err(); err != nil {
			end = max(r.winStart, min(now, r.winEnd))
			if r.measuring {
				r.advance(end)
			}
			return end, fmt.Errorf("sim run: %w", err)
		}
		t := time.NewTimer(max(simBatch, time.Duration(r.wake()-now)))
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

// submit queues one I/O issued at virtual time t.
func (r *simRun) submit(t int64) {
	if r.left > 0 {
		r.left--
	}
	write := r.w.RW.IsWrite()
	if r.w.RW == ReadWrite || r.w.RW == RandRW {
		write = r.rng.IntN(100) >= r.w.RWMixRead
	}
	a := max(t, r.nextIOPS, r.nextBW)
	if p := int64(r.cfg.ThrottlePeriod); p > 0 {
		a = max(a, r.thrFloor)
		if k := a / p; k > r.thrPeriod {
			r.thrPeriod, r.thrUsed = k, 0
		}
		if r.thrUsed+1 > r.cfg.ThrottleIOPS*r.cfg.ThrottlePeriod.Seconds() {
			r.thrPeriod, r.thrUsed = r.thrPeriod+1, 0
			a = r.thrPeriod * p
			r.thrFloor = a
		}
		r.thrUsed++
	}
	if r.cfg.IOPS > 0 {
		spacing := 1e9 / r.cfg.IOPS
		if r.cfg.BurstIOPS > 0 {
			// Tokens refill at the baseline into a bucket of BurstCredits;
			// each I/O takes one, no faster than BurstIOPS.
			r.credits = min(r.cfg.BurstCredits, r.credits+r.cfg.IOPS*float64(a-r.lastIssue)/1e9)
			if r.credits < 1 {
				a += int64(math.Ceil((1 - r.credits) / r.cfg.IOPS * 1e9))
				r.credits = 1
			}
			r.lastIssue = a
			r.credits--
			spacing = 1e9 / r.cfg.BurstIOPS
		}
		r.nextIOPS = a + int64(spacing)
	}
	if r.cfg.BWBytes > 0 {
		r.nextBW = a + int64(float64(r.w.BS)*1e9/r.cfg.BWBytes)
	}
	service := float64(r.cfg.Latency)
	if j := r.cfg.Jitter; j > 0 {
		service *= math.Exp(j*r.rng.NormFloat64() - j*j/2)
	}
	startAt := a
	if len(r.channels) > 0 {
		startAt = max(a, r.channels[0])
		r.channels[0] = startAt + int64(service)
		heap.Fix(&r.channels, 0)
	}
	heap.Push(&r.queue, simIO{submit: t, done: startAt + int64(service), write: write})
}

// advance moves the in-flight integral to virtual time t.
func (r *simRun) advance(t int64) {
	if r.measuring && t > r.lastChange {
		r.inflightArea += float64(r.inflight) * float64(t-r.lastChange)
		if r.ser != nil {
			r.ser.area += float64(r.inflight) * float64(t-r.lastChange)
		}
		r.lastChange = t
	}
}

// complete retires io and resubmits at once (closed loop, no think time)
// while the run's I/O count lasts.
func (r *simRun) complete(io simIO) {
	r.advance(io.done)
	r.lastDone = io.done
	if !r.measuring {
		k := 0
		if io.write {
			k = 1
		}
		r.rampIOs[k]++
		r.rampLat += io.done - io.submit
		r.rampAllIOs++
		r.rampAllLat += io.done - io.submit
	}
	if r.measuring {
		lat := io.done - io.submit
		r.all.record(lat, r.w.BS)
		if r.ser != nil {
			r.ser.record(lat, r.w.BS, io.write)
		}
		dir := 0
		if io.write {
			dir = 1
			r.wr.record(lat, r.w.BS)
		} else {
			r.rd.record(lat, r.w.BS)
		}
		if r.ioLog != nil {
			*r.ioLog = append(*r.ioLog, IORecord{EndNs: io.done - r.winStart, LatNs: lat, Bytes: r.w.BS, Dir: dir})
		}
		if r.hist != nil {
			r.hist.record(dir, lat, io.done-r.winStart)
		}
	}
	if r.left == 0 {
		r.inflight--
		return
	}
	r.submit(io.done)
}

// setMilestones sets the window's end, its next sample and series cut
// from the ramp's end.
func (r *simRun) setMilestones(ctl Control) {
	r.winEnd = r.rampEnd + int64(ctl.Runtime)
	if ctl.SampleInterval > 0 && ctl.OnSample != nil {
		r.nextSample = r.rampEnd + int64(ctl.SampleInterval)
	}
	if r.ser != nil {
		r.nextSeries = r.rampEnd + r.ser.interval
	}
}

// endRampAt ends the ramp at virtual time t, before its longest
// (Control.OnRampSample said so), and opens the window.
func (r *simRun) endRampAt(t int64, ctl Control) {
	r.rampEnd = t
	r.setMilestones(ctl)
	if r.ser != nil {
		r.cutRamp(t)
	}
	r.startWindow(t, ctl)
}

func (r *simRun) startWindow(t int64, ctl Control) {
	r.measuring, r.winStart, r.lastChange = true, t, t
	if r.ser != nil {
		r.ser.start, r.ser.winStart = t, t
	}
	if ctl.OnWindowStart != nil {
		ctl.OnWindowStart()
	}
}

func (r *simRun) sample(t int64) Sample {
	return Sample{
		Elapsed:  time.Duration(t - r.winStart),
		IOs:      r.all.ios,
		Bytes:    r.all.bytes,
		LatSumNs: int64(r.all.latSum),
		Inflight: int64(r.inflight),
	}
}

func (r *simRun) stats(end int64, cpu CPU) *Stats {
	window := time.Duration(max(0, end-r.winStart))
	s := &Stats{Engine: EngineSim, Runtime: window, All: r.all.stats(window), CPU: cpu, Errors: []IOError{}}
	if window > 0 {
		s.InflightMean = r.inflightArea / float64(window)
	}
	// A closed loop: each job submits with its whole depth in flight.
	s.IODepths[DepthBucket(int64(r.w.IODepth))] = s.All.TotalIOs
	s.Submits[BatchBucket(1)], s.Completes[BatchBucket(1)] = s.All.TotalIOs, s.All.TotalIOs // one I/O replaces one
	if r.w.RW.IsRead() {
		d := r.rd.stats(window)
		s.Read = &d
	}
	if r.w.RW.IsWrite() {
		d := r.wr.stats(window)
		s.Write = &d
	}
	return s
}

// simSeries slices a simulated window into Control.SeriesInterval pieces,
// in virtual time (exact: no cut lags an event).
type simSeries struct {
	interval   int64 // ns
	start      int64 // virtual ns the current slice began
	ios, bytes [2]int64
	latSum     [2]int64  // per direction
	max        [2]int64  // per direction, the slice's largest latency
	area       float64   // I/O·ns
	hist       [2]ivHist // per direction
	bins       bool      // keep each slice's bins (Control.SeriesBins)
	out        []Interval
	winStart   int64
}

func (s *simSeries) record(lat, bs int64, write bool) {
	d := 0
	if write {
		d = 1
	}
	s.ios[d]++
	s.bytes[d] += bs
	s.latSum[d] += lat
	s.max[d] = max(s.max[d], lat)
	s.hist[d][ivSlot(lat)]++
}

// close ends the current slice at virtual time t.
func (s *simSeries) close(t int64) {
	dt := float64(t - s.start)
	iv := Interval{StartNs: s.start - s.winStart, DurNs: t - s.start, IOs: s.ios[0] + s.ios[1]}
	if dt > 0 {
		iv.ReadIOPS = float64(s.ios[0]) / dt * 1e9
		iv.WriteIOPS = float64(s.ios[1]) / dt * 1e9
		iv.ReadBWBytes = float64(s.bytes[0]) / dt * 1e9
		iv.WriteBWBytes = float64(s.bytes[1]) / dt * 1e9
		iv.InflightMean = s.area / dt
	}
	if n := s.ios[0] + s.ios[1]; n > 0 {
		iv.LatMeanNs = float64(s.latSum[0]+s.latSum[1]) / float64(n)
		iv.DirLatMaxNs = s.max
		r, w := s.hist[0].sparse(), s.hist[1].sparse()
		if s.bins {
			iv.DirLatMeanNs = dirMeans(s.latSum, s.ios)
			iv.Bins = [2][]LatBin{latBins(r), latBins(w)}
		}
		iv.LatP99Ns = ivQuantile(append(r, w...), 0.99)
	}
	s.out = append(s.out, iv)
	s.start, s.ios, s.bytes, s.latSum, s.max, s.area = t, [2]int64{}, [2]int64{}, [2]int64{}, [2]int64{}, 0
}

// finish closes the last slice at end (a tail shorter than half an
// interval is too short to rate on its own and is dropped) and returns the series.
func (s *simSeries) finish(end int64) []Interval {
	if end-s.start >= s.interval/2 || len(s.out) == 0 {
		s.close(end)
	}
	return s.out
}

// Spec renders the configuration as a --sim spec ParseSimSpec reads back:
// the keys that differ from zero, bw with a size suffix.
func (c SimConfig) Spec() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	kv := []string{"latency=" + c.Latency.String(), "jitter=" + f(c.Jitter), "iops=" + f(c.IOPS)}
	if b := int64(c.BWBytes); float64(b) == c.BWBytes {
		kv = append(kv, "bw="+units.FioSize(b))
	} else {
		kv = append(kv, "bw_bytes="+f(c.BWBytes))
	}
	add := func(k, v string, on bool) {
		if on {
			kv = append(kv, k+"="+v)
		}
	}
	add("channels", strconv.Itoa(c.Channels), c.Channels != 0)
	add("seed", strconv.FormatUint(c.Seed, 10), c.Seed != 0)
	add("burst_iops", f(c.BurstIOPS), c.BurstIOPS != 0)
	add("burst_credits", f(c.BurstCredits), c.BurstCredits != 0)
	add("burst_carry", "1", c.BurstCarry)
	add("throttle_period", c.ThrottlePeriod.String(), c.ThrottlePeriod != 0)
	add("throttle_iops", f(c.ThrottleIOPS), c.ThrottleIOPS != 0)
	return strings.Join(kv, ",")
}
