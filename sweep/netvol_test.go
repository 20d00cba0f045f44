//go:build linux && !386 && !arm && !mips && !mipsle

package sweep_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/internal/netvoltest"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

// TestSettlingAgreesOnNetworkVolume: on an emulated network volume (a
// FUSE file answering each read after 20 ms, under a loop device with
// direct I/O) capped at 1,400 IOPS by the volume itself, a token bucket
// 100 ms deep (the burst a provisioned volume or a throttle allows after
// idle time: 140 reads at once), the default sweep (settled steps, ramps
// that end on a full queue, the control step) gives the answer of fixed
// 3 s steps with 0.5 s ramps over the same grid (QD 4, 16, 64, 256: the
// cap lies a factor 2 above QD 16's offered load and below QD 64's, so
// the knee is at QD 64 while the machine adds up to 20 ms to a read's
// 20 ms): the same saturation depth, the depths for a quarter, half and
// three quarters of the fixed sweep's highest IOPS within 20% (or 1 I/O),
// and the same diagnosis, with fewer I/Os. A step whose window began with
// the burst above its level records it (settle.lead) and ends only once
// the burst's share of its mean is within what its decisions need; the
// control step compares levels. No telemetry probe: the host's CPU
// (cpu-bound) is the machine's load, not the steps'.
//
// A loaded machine moves the volume's curve itself (every read's round
// trip, FUSE, loop worker and server, waits for a CPU: 20 ms grew to 25-40
// ms between sweeps at load 16), so when the pair disagrees the fixed
// sweep runs again: if the two fixed sweeps disagree as well, the curve
// did not repeat and the pair says nothing of the rule (the test skips,
// saying so); if they agree, the default sweep must agree with the second,
// or a second default sweep must (a short step can meet a moment of the
// machine a 3 s step averages away).
//
// It was held out of CI while the default sweep's 0.5 s steps at QD 256
// read 1,514-1,590 IOPS against the cap of 1,400 (fixed 3 s steps
// 1,398-1,487), so the knee at QD 64 went unfound in 4 of 6 default
// sweeps: libaio counted the rest of a reap inside a window that had
// closed while its submissions blocked on the loop device's 128 requests
// (ioengine's TestWindowCountsWhatTheDeviceCompleted). Since, at load
// 11-47, QD 256 read 1,398-1,409 IOPS in every default sweep; of 5 runs,
// 2 agreed (one at its second default sweep; 1,643 and 1,781 I/Os against
// 11,162 and 11,098) and 3 skipped, their two fixed sweeps apart at QD 16
// or QD 64 (602-744 and 836-1,400 IOPS): none failed.
func TestSettlingAgreesOnNetworkVolume(t *testing.T) {
	nv := netvoltest.Config{Size: 256 << 20, Delay: 20 * time.Millisecond, IOPS: 1400, Burst: 100 * time.Millisecond}
	dev, vol := netvoltest.Start(t, nv)
	defer func() { t.Logf("the volume answered %d reads", vol.Served()) }()
	eng, _, err := ioengine.New("libaio")
	if err != nil {
		t.Fatal(err)
	}
	grid := plan([]int{4, 16, 64, 256}, false)
	settled := sweep.Config{Engine: eng, Workload: ioengine.Workload{Filename: dev, Direct: true, RandSeed: 1},
		Ramp: 500 * time.Millisecond, Runtime: 3 * time.Second, Steady: sweep.DefaultSteady, Stop: sweep.DefaultEarlyStop}
	fixed := settled
	fixed.Steady = sweep.SteadyConfig{Interval: sweep.DefaultSteady.Interval, Window: sweep.DefaultSteady.Window} // off
	run := func(name string, cfg sweep.Config, targets [3]float64) (answer, *sweep.Result) {
		t0 := time.Now()
		a, r := sweepAnswerOf(t, cfg, sweep.NewResult(sweep.Meta{Engine: eng.Name()}, grid), targets)
		t.Logf("%s: %v, %.0f I/Os, saturation QD %g, depths %v for %v IOPS, %v", name, time.Since(t0).Round(time.Millisecond),
			a.ios, a.satQD, a.targets, targets, a.rules)
		logSteps(t, name, r)
		return a, r
	}
	// The fixed sweep first: its highest IOPS sets the targets.
	want, fr := run("fixed", fixed, [3]float64{350, 700, 1050})
	top := fr.Analysis[0].Analysis.MaxIOPS
	targets := [3]float64{math.Round(top / 4), math.Round(top / 2), math.Round(top * 3 / 4)}
	want, _ = answerAt(t, fr, targets, want)
	got, _ := run("default", settled, targets)
	why := disagree(got, want, targets)
	if got.ios >= want.ios {
		why = append(why, fmt.Sprintf("issued %.0f I/Os in its windows, fixed steps %.0f", got.ios, want.ios))
	}
	if len(why) == 0 {
		return
	}
	t.Logf("the pair disagrees: %s", strings.Join(why, "; "))
	again, _ := run("fixed again", fixed, targets)
	if moved := disagree(again, want, targets); len(moved) > 0 {
		t.Skipf("the volume's curve did not repeat on this machine now (the two fixed sweeps: %s), so the pair says nothing of the rule", strings.Join(moved, "; "))
	}
	also := disagree(got, again, targets)
	if len(also) == 0 {
		return
	}
	// The curve repeats under fixed steps: a rule that moves the answer
	// moves it in a second default sweep too.
	got2, _ := run("default again", settled, targets)
	if more := disagree(got2, again, targets); len(more) > 0 {
		t.Errorf("two default sweeps disagree with two fixed sweeps that agree: %s; then %s", strings.Join(also, "; "), strings.Join(more, "; "))
	}
}

// disagree says where two sweeps' answers differ (none: they agree).
func disagree(got, want answer, targets [3]float64) []string {
	var why []string
	if got.satQD != want.satQD {
		why = append(why, fmt.Sprintf("saturation at QD %g against QD %g", got.satQD, want.satQD))
	}
	for i := range got.targets {
		if !depthsAgree(got.targets[i], want.targets[i]) {
			why = append(why, fmt.Sprintf("target %g IOPS: depth %g against %g", targets[i], got.targets[i], want.targets[i]))
		}
	}
	if !slices.Equal(got.rules, want.rules) {
		why = append(why, fmt.Sprintf("diagnosis %v against %v", got.rules, want.rules))
	}
	return why
}

// answerAt reads a's depths for targets again from r.
func answerAt(t *testing.T, r *sweep.Result, targets [3]float64, a answer) (answer, *sweep.Result) {
	t.Helper()
	for i, tg := range targets {
		a.targets[i] = r.Analysis[0].Analysis.TargetFor(tg, littleslaw.Options{}).QD
	}
	return a, r
}

// logSteps logs each measured step: its IOPS, window, what ended it and
// any start-up lead it saw.
func logSteps(t *testing.T, name string, r *sweep.Result) {
	t.Helper()
	var b strings.Builder
	steps := append([]sweep.Step(nil), r.Steps...)
	if r.Control != nil {
		steps = append(steps, r.Control.Step)
	}
	for _, s := range steps {
		if !s.Measured() {
			continue
		}
		fmt.Fprintf(&b, " QD %d %.0f IOPS %.1f s", s.QD, s.IOPS, float64(s.RuntimeNs)/1e9)
		if st := s.Settle; st != nil {
			fmt.Fprintf(&b, " %s", st.By)
			if st.Lead > 0 {
				fmt.Fprintf(&b, " lead +%.0f%% (share %.1f%%, level %.0f)", st.Lead*100, st.LeadShare*100, st.Level)
			}
		}
		b.WriteString(";")
	}
	if c := r.Control; c != nil {
		fmt.Fprintf(&b, " control %q", c.Change)
	}
	t.Logf("%s:%s", name, b.String())
}
