package report

import (
	"encoding/json"
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// ExplainSchema names the JSON document WriteExplainJSON writes.
const ExplainSchema = "qdsweep/explain/v1"

// ExplainCurve is one workload of several runs (different depths of one
// rw, block size, target, engine class and host) read as one curve and
// answered once, as import and advise answer it.
type ExplainCurve struct {
	RW     string    `json:"rw"`
	BS     int64     `json:"bs"`
	Engine string    `json:"ioengine,omitempty"`
	Host   string    `json:"host,omitempty"`
	Jobs   []string  `json:"jobs"`
	Depths []float64 `json:"depths"`
	// Advice is the one advisor's answer over the curve.
	Advice AdviceDoc `json:"advice"`
}

// ExplainDoc is what explain answers: each job with Little's Law applied
// to it, and each curve of several runs answered once.
type ExplainDoc struct {
	Jobs   []fioadapt.ExplainedJob `json:"jobs"`
	Curves []ExplainCurve          `json:"curves,omitempty"`
}

// explainNotes says where uncertain inputs came from.
func explainNotes(e fioadapt.ExplainedJob) []string {
	var n []string
	switch e.IODepthFrom {
	case "iodepth distribution":
		n = append(n, fmt.Sprintf("iodepth is not in this output; %d is the busiest bucket of fio's IO depths, which rounds the setting down to a power of two.", e.IODepth))
	case "default":
		n = append(n, "iodepth is not among the job's options: fio's default of 1.")
	}
	if c := e.CloneOf; c > 1 {
		n = append(n, fmt.Sprintf("This is one clone of %s, reported separately; run with %s to see the %d jobs as one.", fio.Setting(fio.OptNumJobs, strconv.Itoa(c)), fio.OptGroupReporting, c))
	}
	if e.IOEngine == "" {
		n = append(n, "The ioengine is not in this output (fio's default is psync, which is synchronous).")
	}
	if e.LatFrom == "clat+slat" {
		n = append(n, "Latency is clat + slat: fio did not report total latency.")
	}
	if e.Error != 0 {
		n = append(n, fmt.Sprintf("fio reported error %d for this job: its figures may be cut short.", e.Error))
	}
	return n
}

// explainedJSON is a job as explain's JSON writes it: its figures and
// verdict, then the notes on where uncertain inputs came from.
type explainedJSON struct {
	fioadapt.ExplainedJob
	Notes []string `json:"notes,omitempty"`
}

// WriteExplainJSON writes the explanations as one JSON document.
func WriteExplainJSON(w io.Writer, doc ExplainDoc) error {
	jobs := make([]explainedJSON, len(doc.Jobs))
	for i, j := range doc.Jobs {
		jobs[i] = explainedJSON{ExplainedJob: j, Notes: explainNotes(j)}
		if t := jobs[i].Explanation.Target; t != nil {
			c := *t
			c.Note = explainTargetNote(c)
			jobs[i].Explanation.Target = &c
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		Schema string          `json:"schema"`
		Jobs   []explainedJSON `json:"jobs"`
		Curves []ExplainCurve  `json:"curves,omitempty"`
	}{ExplainSchema, jobs, doc.Curves}); err != nil {
		return fmt.Errorf("write explain JSON: %w", err)
	}
	return nil
}

// explainWidth is the text width of WriteExplain.
const explainWidth = 78

// WriteExplain writes the explanations as plain sentences wrapped to fit
// 80 columns: each job, then each curve of several runs answered once.
func WriteExplain(w io.Writer, doc ExplainDoc) error {
	jobs := doc.Jobs
	var b strings.Builder
	if len(jobs) == 0 {
		b.WriteString("No job in this fio output did any I/O.\n")
	}
	for i, j := range jobs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(explainHeading(j) + "\n")
		for _, s := range explainSentences(j) {
			writeWrapped(&b, s, "  ", explainWidth)
		}
	}
	for _, c := range doc.Curves {
		b.WriteByte('\n')
		b.WriteString(explainCurveHeading(c) + "\n")
		if err := WriteAdvice(&b, c.Advice); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("write explanation: %w", err)
	}
	return nil
}

// explainCurveHeading names a curve of several runs and its depths.
func explainCurveHeading(c ExplainCurve) string {
	depths := make([]string, len(c.Depths))
	for i, d := range c.Depths {
		depths[i] = FormatQD(d)
	}
	what := CurveName(c.RW, c.BS)
	if c.Host != "" {
		what += " on " + c.Host
	}
	return WrapHanging(fmt.Sprintf("These %d runs of %s are one curve (QD %s); answered once, from all of them:",
		len(c.Jobs), what, strings.Join(depths, ", ")), adviceWidth, "", "  ")
}

// explainHeading names the job and its configuration.
func explainHeading(j fioadapt.ExplainedJob) string {
	var parts []string
	if j.RW != "" {
		parts = append(parts, j.RW)
	}
	if j.BS > 0 {
		parts = append(parts, fmtBS(j.BS))
	}
	if j.IOEngine != "" {
		parts = append(parts, j.IOEngine)
	}
	if j.IODepthFrom == "unknown" {
		parts = append(parts, fmt.Sprintf("iodepth not stated × numjobs %d", j.NumJobs))
	} else {
		parts = append(parts, fmt.Sprintf("iodepth %d × numjobs %d", j.IODepth, j.NumJobs))
	}
	h := fmt.Sprintf("Job %q", j.Name)
	if j.Host != "" {
		h += " on " + j.Host
	}
	return h + " (" + strings.Join(parts, ", ") + "):"
}

// explainSentences is the reasoning for one job, in order.
func explainSentences(j fioadapt.ExplainedJob) []string {
	e := j.Explanation
	var s []string
	if e.Verdict == littleslaw.VerdictLatencyNotMeasured {
		s = append(s, fmt.Sprintf("It achieved %s IOPS (%s MiB/s); fio measured no latency (%s or %s), so Little's Law cannot say how many I/Os were in flight or what a deeper queue would give. Rerun without %s to explain it.",
			FormatIOPS(j.IOPS), FormatMiBps(j.BWBytes), fio.Setting(fio.OptGTODReduce, "1"), fio.Setting(fio.OptDisableLat, "1"), fio.OptGTODReduce))
		return append(s, explainNotes(j)...)
	}
	lat := FormatLatency(j.LatMeanNs)
	lat = nb(lat)
	got := fmt.Sprintf("It achieved %s IOPS (%s MiB/s) at %s mean latency", FormatIOPS(j.IOPS), FormatMiBps(j.BWBytes), lat)
	p99, clat := "p99", ""
	switch j.P99Of {
	case fio.PercentilesClat:
		p99, clat = "completion p99", "; fio's "+fio.Setting(fio.OptLatPercentiles, "1")+" times the whole I/O"
	case fio.PercentilesTerse:
		clat = ", of the completion or, under " + fio.Setting(fio.OptLatPercentiles, "1") + ", the whole I/O: fio's terse output does not say which"
	}
	switch {
	case j.P99Ns > 0:
		got += fmt.Sprintf(" (%s %s%s)", p99, FormatLatency(j.P99Ns), clat)
	case j.P99ReadNs > 0 && j.P99WriteNs > 0:
		got += fmt.Sprintf(" (%s reads %s, writes %s%s)", p99, FormatLatency(j.P99ReadNs), FormatLatency(j.P99WriteNs), clat)
	}
	s = append(s, got+".")
	if e.Queue == littleslaw.QueueDepthUnknown {
		s = append(s, fmt.Sprintf("By Little's Law that is %s × %s = %s I/Os in flight on average. This output does not say the iodepth, so whether the queue was full, and what more depth would give, cannot be told; the job's header line (\"%s, %s, %s\") or fio's JSON would say.",
			FormatIOPS(j.IOPS), lat, fmtInflight(e.InflightMean), fio.Setting(fio.OptRW, "…"), fio.Setting(fio.OptIOEngine, "…"), fio.Setting(fio.OptIODepth, "…")))
		s = append(s, verdictSentence(e))
		if t := e.Target; t != nil {
			s = append(s, targetExplain(t, e, j.IOEngine))
		}
		return append(s, explainNotes(j)...)
	}
	s = append(s, fmt.Sprintf("By Little's Law that is %s × %s = %s I/Os in flight on average, against %d configured (%s full).",
		FormatIOPS(j.IOPS), lat, fmtInflight(e.InflightMean), e.EffectiveQD, fmtFill(e.Fill)))
	ceiling := fmt.Sprintf("%d in flight at %s allow at most %s (QD / latency)", e.EffectiveQD, lat, nb(FormatIOPS(e.CeilingIOPS)+" IOPS"))
	switch e.Queue {
	case littleslaw.QueueFull:
		s = append(s, "The queue was kept full: "+ceiling+".")
	case littleslaw.QueuePartlyFull:
		s = append(s, fmt.Sprintf("The queue was only partly full: %s. Something between I/Os held submissions back; check the submitting CPU (usr %.1f%%, sys %.1f%%) or add jobs.",
			ceiling, j.UsrCPU, j.SysCPU))
	case littleslaw.QueueNotFull:
		s = append(s, fmt.Sprintf("The engine did not keep the queue full: %s, yet far fewer were in flight. Look for too few jobs for a busy submitter (usr %.1f%%, sys %.1f%%), a rate limit, or a synchronous engine.",
			ceiling, j.UsrCPU, j.SysCPU))
	case littleslaw.QueueSyncEngine:
		s = append(s, fmt.Sprintf("%s is synchronous: each job has one I/O in flight, so %s is meaningless and the real depth is %s; %s. Use %s or libaio for a deeper queue, or raise %s.",
			j.IOEngine, fio.Setting(fio.OptIODepth, strconv.Itoa(j.IODepth)), nb(fmt.Sprintf("%s = %d", fio.OptNumJobs, j.NumJobs)), ceiling, fio.Setting(fio.OptIOEngine, "io_uring"), fio.OptNumJobs))
	}
	s = append(s, verdictSentence(e))
	if t := e.Target; t != nil {
		s = append(s, targetExplain(t, e, j.IOEngine))
	}
	return append(s, explainNotes(j)...)
}

// verdictSentence says what bounds the run and the evidence for it.
func verdictSentence(e littleslaw.Explanation) string {
	var why []string
	for _, x := range e.Evidence {
		w := evidenceText(x)
		if x.Kind == littleslaw.EvidenceMissing {
			w = missingText(e.Evidence)
		}
		if w != "" && (x.Says == e.Verdict || x.Says == "" || e.Verdict == littleslaw.VerdictUndetermined) {
			why = append(why, w)
		}
	}
	because := ""
	if len(why) > 0 {
		because = ": " + strings.Join(why, "; ")
	}
	switch e.Verdict {
	case littleslaw.VerdictDepthBound:
		return "Depth-bound" + because + ". More throughput needs more I/Os in flight (or lower latency), not a faster device."
	case littleslaw.VerdictDeviceBound:
		return "Device-bound" + because + ". The device (or the volume's limit) served what it could: more depth adds latency, not throughput."
	}
	next := ". Sweep it (qdsweep sweep, or fio at several iodepths given together to explain), or give the unqueued latency with --base-latency."
	switch {
	case hasEvidence(e.Evidence, littleslaw.EvidenceCurveUnsaturated):
		next = ". A run deeper than the deepest of them tells."
	case hasEvidence(e.Evidence, littleslaw.EvidenceBaseLatency):
		next = ". Sweep it (qdsweep sweep, or fio at several iodepths given together to explain)."
	}
	return "Depth-bound or device-bound cannot be told from one run" + because + next
}

// hasEvidence reports whether ev holds a fact of kind k.
func hasEvidence(ev []littleslaw.ExplainEvidence, k littleslaw.EvidenceKind) bool {
	for _, x := range ev {
		if x.Kind == k {
			return true
		}
	}
	return false
}

// missingText says what the run lacked to tell depth-bound from
// device-bound: only the facts it did not hold, and a latency ratio it held
// that fell between the thresholds.
func missingText(ev []littleslaw.ExplainEvidence) string {
	var parts []string
	for _, x := range ev {
		if x.Kind == littleslaw.EvidenceBaseLatency {
			parts = append(parts, fmt.Sprintf("%.2f× the unqueued latency lies between nothing waiting (up to 1.5×) and I/Os queueing (2.5× or more)", x.Ratio))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "no unqueued latency")
	}
	if !hasEvidence(ev, littleslaw.EvidenceCurve) && !hasEvidence(ev, littleslaw.EvidenceDeeperGain) {
		parts = append(parts, "no run at another depth")
	}
	if hasEvidence(ev, littleslaw.EvidenceMinLatency) {
		parts = append(parts, "a latency spread that settles nothing")
	} else {
		parts = append(parts, "no fastest I/O")
	}
	return joinAnd(parts)
}

// evidenceText is one fact of the verdict in words ("" for none).
func evidenceText(x littleslaw.ExplainEvidence) string {
	switch x.Kind {
	case littleslaw.EvidenceOneInFlight:
		return "about one I/O was in flight, so nothing could wait"
	case littleslaw.EvidenceQueueNotFull:
		return "the queue was not kept full, so the run shows neither the depth's limit nor the device's"
	case littleslaw.EvidenceCurve:
		return fmt.Sprintf("QD %s gave %s IOPS and QD %s %s IOPS (IOPS grew as depth^%.2f)",
			FormatQD(min(x.QD, x.OtherQD)), FormatIOPS(pick(x.QD < x.OtherQD, x.IOPS, x.OtherIOPS)),
			FormatQD(max(x.QD, x.OtherQD)), FormatIOPS(pick(x.QD < x.OtherQD, x.OtherIOPS, x.IOPS)), x.Ratio)
	case littleslaw.EvidenceDeeperGain:
		return fmt.Sprintf("the deeper QD %s run gave %s IOPS, %.0f%% more than this one's %s", FormatQD(x.OtherQD),
			FormatIOPS(x.OtherIOPS), 100*x.Ratio, FormatIOPS(x.IOPS))
	case littleslaw.EvidenceBaseLatency:
		return fmt.Sprintf("the mean latency %s is %.1f× the unqueued %s", FormatLatency(x.LatNs), x.Ratio, FormatLatency(x.RefNs))
	case littleslaw.EvidenceMinLatency:
		w := fmt.Sprintf("the mean latency %s is %.1f× the fastest I/O (%s)", FormatLatency(x.LatNs), x.Ratio, FormatLatency(x.RefNs))
		if x.P50Ns > 0 {
			w += fmt.Sprintf(", the median %.1f×", x.P50Ns/x.RefNs)
		}
		return w
	case littleslaw.EvidenceDepthDist:
		// fio's IO depths buckets are 1, 2, 4 … 32 and ">=64"; each bucket
		// holds the depths from its value up to the next one.
		if x.QD >= 64 {
			return fmt.Sprintf("fio saw %.0f%% of I/Os submitted with 64 or more in flight", x.Share)
		}
		if x.QD <= 1 {
			return fmt.Sprintf("fio saw %.0f%% of I/Os submitted with 1 in flight", x.Share)
		}
		return fmt.Sprintf("fio saw %.0f%% of I/Os submitted with %s–%s in flight", x.Share, FormatQD(x.QD), FormatQD(2*x.QD-1))
	case littleslaw.EvidenceCurveUnsaturated:
		return fmt.Sprintf("but these runs together show no saturation up to QD %s (see the curve below), so the limit is not proven", FormatQD(x.QD))
	case littleslaw.EvidenceMissing:
		return "no unqueued latency, no run at another depth, and a latency spread that settles nothing"
	}
	return ""
}

// pick is a if c, else b.
func pick(c bool, a, b float64) float64 {
	if c {
		return a
	}
	return b
}

// targetExplain sizes the queue for the job's share of the target, with
// the split advise gives and its alternatives. A synchronous engine gets
// its depth from numjobs alone.
func targetExplain(t *littleslaw.ExplainTarget, e littleslaw.Explanation, engine string) string {
	sync := e.Input.Synchronous
	who := FormatCount(t.TargetIOPS) + " IOPS"
	if t.Share > 1 {
		who = fmt.Sprintf("This job's share of %s IOPS over %d jobs, %s IOPS,", FormatCount(t.TotalIOPS), t.Share, FormatCount(t.TargetIOPS))
	}
	if !t.Reachable {
		// One run shows no ceiling, only evidence of one: say what it
		// allows and what would settle it.
		return fmt.Sprintf("%s is likely beyond this device: the run looks device-bound at %s IOPS, so more depth would add latency rather than IOPS; a run at a deeper QD (or a sweep) settles it.", who, FormatIOPS(e.Input.IOPS))
	}
	lat := nb(FormatLatency(t.LatencyNs))
	splitText := targetSplitWords(t)
	if sync {
		splitText += fmt.Sprintf(" with io_uring or libaio; with %s it takes %s", engine, nb(fmt.Sprintf("numjobs %d", t.QDCeil)))
	}
	note := ""
	if n := explainTargetNote(*t); n != "" {
		note = " Note: " + n + "."
	}
	switch {
	case t.MetByRun:
		return fmt.Sprintf("%s: this run reached %s IOPS with %s in flight at %s, so QD %d (%s) does it. Less may do; only a sweep at lower depths shows how much less (qdsweep sweep --target-iops %.0f).",
			who, FormatIOPS(e.Input.IOPS), fmtInflight(e.InflightMean), lat, t.QDCeil, nb(fmt.Sprintf("iodepth %d × numjobs %d", t.Split.IODepth, t.Split.NumJobs)), t.TargetIOPS) + note
	case t.LatFrom == littleslaw.ExplainLatCurve:
		return fmt.Sprintf("%s on the curve of these runs, at %s, needs %s (%s), e.g. %s.", who, lat, nb(fmt.Sprintf("QD ≈ %d", t.QDCeil)),
			nb(FormatIOPS(t.TargetIOPS)+" × "+lat), splitText) + note
	case t.Sufficient:
		return fmt.Sprintf("%s at %s needs about %d in flight, which this depth already allows; it kept only %s in flight, so the limit is elsewhere (see above).",
			who, lat, t.QDCeil, fmtInflight(e.InflightMean)) + note
	}
	msg := fmt.Sprintf("%s needs %s if the volume keeps this run's %s (%s), e.g. %s; more if the latency grows as the queue deepens.",
		who, nb(fmt.Sprintf("QD ≈ %d", t.QDCeil)), lat, nb(FormatIOPS(t.TargetIOPS)+" × "+lat), splitText)
	switch t.FloorFrom {
	case littleslaw.ExplainLatBase:
		msg += fmt.Sprintf(" Whatever the latency, at least %d: the target at the unqueued %s (a floor, not the setting to use).", t.FloorQD, nb(FormatLatency(t.FloorLatencyNs)))
	case littleslaw.ExplainLatMin:
		msg += fmt.Sprintf(" Whatever the latency, at least %d: the target at the fastest I/O's %s (a floor, not the setting to use).", t.FloorQD, nb(FormatLatency(t.FloorLatencyNs)))
	case littleslaw.ExplainFloorRun:
		msg += fmt.Sprintf(" At least %d in any case: this run's full queue of %d fell short.", t.FloorQD, e.EffectiveQD)
	}
	return msg + note
}

// targetSplitWords is the split a target takes and its alternatives in words:
// "iodepth 64 × numjobs 4 (256 in flight: 250 rounded up to whole jobs)
// (or 32 × 8: the same depth over more jobs)".
func targetSplitWords(t *littleslaw.ExplainTarget) string {
	split := nb(fmt.Sprintf("iodepth %d × numjobs %d", t.Split.IODepth, t.Split.NumJobs))
	if total := t.Split.IODepth * t.Split.NumJobs; total != t.QDCeil {
		split += fmt.Sprintf(" (%d in flight: %d rounded up to whole jobs)", total, t.QDCeil)
	}
	var alt []string
	same := true
	for _, a := range t.Alts {
		w := fmt.Sprintf("%d × %d", a.IODepth, a.NumJobs)
		if a.Total() != t.Split.Total() {
			w += fmt.Sprintf(" = %d", a.Total())
			same = false
		}
		alt = append(alt, nb(w))
	}
	if len(alt) > 0 {
		how := "the same depth over more jobs"
		if !same {
			how = "the depth over more jobs, rounded up to whole I/Os per job"
		}
		split += " (or " + strings.Join(alt, ", or ") + ": " + how + ")"
	}
	return split
}

// fmtInflight formats a mean in-flight count with three significant
// digits: 31.6, 0.995, 210.
func fmtInflight(v float64) string { return sig3(v) }

// fmtFill formats a fill ratio as a whole percent.
func fmtFill(f float64) string {
	return strconv.FormatFloat(math.Round(f*100), 'f', 0, 64) + "%"
}

// nbsp joins the words of a phrase that wrapping must not split.
const nbsp = "\x00"

// nb keeps a phrase on one line when wrapped.
func nb(s string) string { return strings.ReplaceAll(s, " ", nbsp) }

// writeWrapped writes s word-wrapped to width with indent on every line;
// phrases joined by nb stay whole.
func writeWrapped(b *strings.Builder, s, indent string, width int) {
	var out strings.Builder // this sentence only: the text before it is done
	line := indent
	for _, word := range strings.Fields(s) {
		if len([]rune(line))+1+len([]rune(word)) > width && strings.TrimSpace(line) != "" {
			out.WriteString(line + "\n")
			line = indent
		}
		if strings.TrimSpace(line) != "" {
			line += " "
		}
		line += word
	}
	if strings.TrimSpace(line) != "" {
		out.WriteString(line + "\n")
	}
	b.WriteString(strings.ReplaceAll(out.String(), nbsp, " "))
}
