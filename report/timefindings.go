package report

import (
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"io"
	"math"
	"strings"
	"time"

	"github.com/qdsweep/qdsweep/diagnosis"
	"github.com/qdsweep/qdsweep/ioengine"
)

// The words of the time findings (burst credits, periodic throttling,
// warm-up, cache fill, noisy neighbours): verdicts, next steps, evidence.

// timeVerdict is the verdict of a time finding; ok is false for other findings.
func timeVerdict(f diagnosis.Finding) (string, bool) {
	g := f.Figures
	switch f.Reason {
	case diagnosis.ReasonControlFell:
		return fmt.Sprintf("the device did not hold still: %s, measured again at the end of the sweep, gave %s IOPS at %s, %.0f%% under the %s IOPS it gave first (beyond the ±%.0f%% noise band); burst credits spent, a throttle that began or a neighbour that arrived; it sustains %s IOPS, and the steps above that are left out of the analysis",
			stepName(g), FormatIOPS(g.ToIOPS), FormatLatency(g.ToLatNs), -g.Ratio*100, FormatIOPS(g.IOPS), g.Share*100, FormatIOPS(g.ToIOPS)), true
	case diagnosis.ReasonControlRose:
		return fmt.Sprintf("the device did not hold still: %s, measured again at the end of the sweep, gave %s IOPS at %s, %.0f%% over the %s IOPS it gave first (beyond the ±%.0f%% noise band); a warm-up, a cache or a neighbour that left during the sweep",
			stepName(g), FormatIOPS(g.ToIOPS), FormatLatency(g.ToLatNs), g.Ratio*100, FormatIOPS(g.IOPS), g.Share*100), true
	case diagnosis.ReasonRampFell:
		return fmt.Sprintf("the device did not hold still: during %s's ramp IOPS fell from %s to %s (%.0f%%), the level its window measured, before the step was measured; burst credits spent, a throttle that began or a neighbour that arrived; it sustains %s IOPS, and the steps above that are left out of the analysis",
			stepName(g), FormatIOPS(g.IOPS), FormatIOPS(g.ToIOPS), g.Ratio*100, FormatIOPS(g.ToIOPS)), true
	case diagnosis.ReasonBurstSpent:
		return fmt.Sprintf("burst credits ran out: at %s IOPS fell from %s to %s (÷%.1f) after %s at the same %s; what it sustains is %s IOPS",
			stepName(g), FormatIOPS(g.IOPS), FormatIOPS(g.ToIOPS), g.Ratio, fmtSec(g.Seconds), sameWhat(g), FormatIOPS(g.ToIOPS)), true
	case diagnosis.ReasonThrottled:
		return fmt.Sprintf("IOPS is throttled in windows: at %s it cycles every %s between %s and %s IOPS",
			stepName(g), fmtSec(g.Seconds), FormatIOPS(g.IOPS), FormatIOPS(g.ToIOPS)), true
	case diagnosis.ReasonWarmup:
		return fmt.Sprintf("the device warmed up: at %s mean latency fell from %s to a %s plateau by %s",
			stepName(g), FormatLatency(g.LatNs), FormatLatency(g.ToLatNs), fmtSec(g.Seconds)), true
	case diagnosis.ReasonCacheFill:
		return fmt.Sprintf("a cache filled: at %s mean latency rose from %s to a %s plateau by %s",
			stepName(g), FormatLatency(g.LatNs), FormatLatency(g.ToLatNs), fmtSec(g.Seconds)), true
	case diagnosis.ReasonNoisy:
		return fmt.Sprintf("IOPS was noisy: at %s it varied between %s and %s (σ %.0f%% of the mean) with no period or trend, as when other tenants share the hardware",
			stepName(g), FormatIOPS(g.IOPS), FormatIOPS(g.ToIOPS), g.Ratio*100), true
	}
	return "", false
}

// stepName names the step a time finding or the control is about: "QD
// 4", or the load offered to it ("2M IOPS offered") in an open-loop sweep.
func stepName(g diagnosis.Fact) string {
	if g.OfferedIOPS > 0 {
		return FormatIOPS(g.OfferedIOPS) + " IOPS offered"
	}
	return "QD " + FormatQD(g.QD)
}

// sameWhat is what a step held constant: its queue, or in open loop its
// offered load.
func sameWhat(g diagnosis.Fact) string {
	if g.OfferedIOPS > 0 {
		return "load"
	}
	return "queue"
}

// timeNext is the next step of a time finding.
func timeNext(f diagnosis.Finding) (string, bool) {
	g := f.Figures
	run := ""
	if g.ToSeconds > 0 {
		run = fmt.Sprintf("; run each step at least %s (%s)", fmtSec(g.ToSeconds), runtimeFlag(g.ToSeconds))
	}
	switch f.Reason {
	case diagnosis.ReasonControlFell:
		return "size from the sustained level (the analysis does); to see when the level changed, sweep again with longer steps (" + fio.Flag(fio.OptRuntime) + ") and read the timeline", true
	case diagnosis.ReasonControlRose:
		return "sweep again after a warm-up run (or with a longer " + fio.Flag(fio.OptRampTime) + ") before sizing from these figures", true
	case diagnosis.ReasonRampFell:
		return "size from the sustained level (the analysis does); the ramp's slices (results-series.csv, ramp = 1) show the fall; sweep again with longer steps (" + fio.Flag(fio.OptRuntime) + ") to see how long the higher level lasts", true
	case diagnosis.ReasonBurstSpent:
		return "size from the sustained level (the analysis does); buy for the burst only if the load is as short as the burst" + run, true
	case diagnosis.ReasonThrottled:
		return fmt.Sprintf("average over whole periods: set %s to a multiple of the period (e.g. %s)%s", fio.Flag(fio.OptSSDur), fio.FlagSet(fio.OptSSDur, ssDurFor(g.Seconds)), run), true
	case diagnosis.ReasonWarmup, diagnosis.ReasonCacheFill:
		return "size from the plateau (the analysis does); raise " + fio.Flag(fio.OptRampTime) + " past it to leave the transient out" + run, true
	case diagnosis.ReasonNoisy:
		return "repeat the sweep at another time or on a dedicated volume before sizing from these figures", true
	}
	return "", false
}

// timeFactText words one fact of a time finding.
func timeFactText(x diagnosis.Fact) (string, bool) {
	switch x.Kind {
	case diagnosis.FactBurstLevel:
		return fmt.Sprintf("%s: %s IOPS at %s mean with %.1f in flight until %s", stepName(x), FormatIOPS(x.IOPS), FormatLatency(x.LatNs), x.Inflight, fmtSec(x.Seconds)), true
	case diagnosis.FactSustainedLevel:
		return fmt.Sprintf("%s: %s IOPS at %s mean with %.1f in flight after it", stepName(x), FormatIOPS(x.IOPS), FormatLatency(x.LatNs), x.Inflight), true
	case diagnosis.FactCredits:
		return fmt.Sprintf("about %s I/Os of burst credit (the burst's excess over the sustained level × %s)", FormatCount(float64(x.Count)), fmtSec(x.Seconds)), true
	case diagnosis.FactOnCredits:
		return fmt.Sprintf("%s ran at %s IOPS, above the sustained %s, for its whole step: on credits, which last about %s at that rate; left out of the analysis",
			stepName(x), FormatIOPS(x.IOPS), FormatIOPS(x.ToIOPS), fmtSec(x.Seconds)), true
	case diagnosis.FactPeriod:
		return fmt.Sprintf("%s: period %s (autocorrelation %.2f), cycle %s → %s IOPS", stepName(x), fmtSec(x.Seconds), x.Ratio, FormatIOPS(x.IOPS), FormatIOPS(x.ToIOPS)), true
	case diagnosis.FactTransient:
		return fmt.Sprintf("%s: mean latency %s → %s, settled at %s", stepName(x), FormatLatency(x.LatNs), FormatLatency(x.ToLatNs), fmtSec(x.Seconds)), true
	case diagnosis.FactSpread:
		return fmt.Sprintf("%s: IOPS %s–%s, σ %.0f%% of the mean, highest autocorrelation %.2f", stepName(x), FormatIOPS(x.IOPS), FormatIOPS(x.ToIOPS), x.Ratio*100, x.Share), true
	case diagnosis.FactControl:
		return fmt.Sprintf("%s: %s IOPS at %s mean during the sweep, %s IOPS at %s mean at its end (%+.0f%%)",
			stepName(x), FormatIOPS(x.IOPS), FormatLatency(x.LatNs), FormatIOPS(x.ToIOPS), FormatLatency(x.ToLatNs), x.Ratio*100), true
	case diagnosis.FactRampFell:
		return fmt.Sprintf("%s: its ramp ran at up to %s IOPS until %s before its window, which measured %s IOPS at %s mean",
			stepName(x), FormatIOPS(x.IOPS), fmtSec(-x.Seconds), FormatIOPS(x.ToIOPS), FormatLatency(x.ToLatNs)), true
	case diagnosis.FactAboveControl:
		return fmt.Sprintf("%s ran at %s IOPS, above the %s IOPS that lasted: left out of the analysis", stepName(x), FormatIOPS(x.IOPS), FormatIOPS(x.ToIOPS)), true
	case diagnosis.FactRuntime:
		return fmt.Sprintf("steps ran up to %s; the sustained level needs %s", fmtSec(x.ToSeconds), fmtSec(x.Seconds)), true
	}
	return "", false
}

// ssDurFor suggests a steady window of two periods of p seconds, rounded
// to a tenth of a second: "2s", "1.5s".
func ssDurFor(p float64) string {
	d := time.Duration(math.Round(2*p*10) / 10 * float64(time.Second))
	return d.String()
}

// WriteRunTime words what one run's series (at queue depth qd) showed:
// one paragraph per time finding with its next step; nothing when the
// series showed nothing.
func WriteRunTime(w io.Writer, qd int, series []ioengine.Interval) error {
	samples := make([]diagnosis.TimeSample, len(series))
	var ios, dur float64
	for i, p := range series {
		samples[i] = diagnosis.TimeSample{TSec: float64(p.StartNs) / 1e9, DurSec: float64(p.DurNs) / 1e9, IOs: float64(p.IOs),
			IOPS: p.IOPS(), BWBytes: p.BWBytes(), LatMeanNs: p.LatMeanNs, P99Ns: float64(p.LatP99Ns), Inflight: p.InflightMean}
		ios += float64(p.IOs)
		dur += float64(p.DurNs) / 1e9
	}
	st := diagnosis.AnalyzeTime(samples, diagnosis.SteadyCriterion{}, false)
	if st == nil || dur <= 0 {
		return nil
	}
	q := []float64{float64(qd)}
	ct := diagnosis.CurveTimeOf(q, []float64{ios / dur}, []float64{dur}, []*diagnosis.StepTime{st}, 0)
	var b strings.Builder
	for _, f := range diagnosis.TimeFindings("", 0, q, nil, []*diagnosis.StepTime{st}, ct) {
		sayIndent(&b, "", sentence(capitalize(findingVerdict(f))))
		sayIndent(&b, "  ", "Next: "+sentence(FindingNext(f)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
