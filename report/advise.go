package report

import (
	"encoding/json"
	"fmt"
	"github.com/qdsweep/qdsweep/fio"
	"io"
	"strings"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/qdsweep/qdsweep/units"
)

// Schemas of the JSON documents `qdsweep advise` writes.
const (
	AdviseSchema      = "qdsweep/advise/v1"
	AdviseTableSchema = "qdsweep/advise-table/v1"
)

// AdviceDoc is the document `qdsweep advise --output-format=json` writes:
// the advice's figures at the top, the analysis it came from and every
// caveat in words. Fields keep the names they had before the schema id
// was added.
type AdviceDoc struct {
	Schema     string             `json:"schema"`
	QueueDepth float64            `json:"queue_depth"`
	IODepth    int                `json:"iodepth"`
	NumJobs    int                `json:"numjobs"`
	Hosts      int                `json:"hosts,omitempty"` // a fleet: iodepth × numjobs on each of these hosts
	AltSplits  []littleslaw.Split `json:"alt_splits,omitempty"`
	JobsBy     string             `json:"jobs_by,omitempty"` // which limit chose numjobs: one-job, max-iodepth, max-jobs
	MaxIODepth int                `json:"max_iodepth,omitempty"`
	MaxJobs    int                `json:"max_jobs,omitempty"`
	// LowerBound: queue_depth is the deepest depth of a sweep that never
	// saturated, so the useful depth is at least that.
	LowerBound    bool                      `json:"lower_bound,omitempty"`
	Caveats       []littleslaw.CaveatKind   `json:"caveats,omitempty"`
	LatencyNs     float64                   `json:"latency_ns"`
	TargetIOPS    float64                   `json:"target_iops"`
	TargetBW      float64                   `json:"target_bw_bytes,omitempty"`
	BS            int64                     `json:"bs,omitempty"`
	Reachable     bool                      `json:"reachable"`
	ReachableIOPS float64                   `json:"reachable_iops,omitempty"`
	NaiveQD       float64                   `json:"naive_qd,omitempty"`
	From          littleslaw.AdviceFrom     `json:"from,omitempty"` // what the depth was sized for
	Note          string                    `json:"note,omitempty"`
	Cloud         *littleslaw.Preset        `json:"cloud,omitempty"`
	Source        string                    `json:"source,omitempty"`
	Analysis      *littleslaw.Analysis      `json:"analysis,omitempty"`
	Curves        []sweep.CurveAnalysis     `json:"curves,omitempty"`
	Notices       []littleslaw.AdviceNotice `json:"notices,omitempty"`
	Warnings      []string                  `json:"warnings,omitempty"`
	// QDLow and QDHigh are the in-flight range over a cloud preset's
	// planning latency range LatLowNs–LatHighNs (0: none).
	QDLow     float64                  `json:"qd_low,omitempty"`
	QDHigh    float64                  `json:"qd_high,omitempty"`
	LatLowNs  float64                  `json:"lat_low_ns,omitempty"`
	LatHighNs float64                  `json:"lat_high_ns,omitempty"`
	Settings  []littleslaw.Setting     `json:"settings,omitempty"`
	SLO       *littleslaw.SLOResult    `json:"slo,omitempty"`
	Target    *littleslaw.TargetResult `json:"target,omitempty"`
}

// NewAdviceDoc assembles advise's document from an Advice and, for advice
// from measured data, its source, the analysis of the chosen curve and the
// matching curves when there were several (nil: none). It writes the words
// of the analysis and of every caveat.
func NewAdviceDoc(adv littleslaw.Advice, source string, a *littleslaw.Analysis, curves []sweep.CurveAnalysis) AdviceDoc {
	d := AdviceDoc{Schema: AdviseSchema, QueueDepth: adv.QueueDepth, IODepth: adv.Split.IODepth, NumJobs: adv.Split.NumJobs, Hosts: adv.Split.Hosts,
		AltSplits: adv.AltSplits, JobsBy: adv.JobsBy, LatencyNs: adv.LatencyNs, TargetIOPS: adv.TargetIOPS,
		TargetBW: adv.TargetBW, BS: adv.BS, Reachable: adv.Reachable, ReachableIOPS: adv.ReachableIOPS, NaiveQD: adv.NaiveQD,
		From: adv.From, Cloud: adv.Preset, Source: source, Notices: adv.Notices,
		MaxIODepth: adv.MaxIODepth, MaxJobs: adv.MaxJobs, LowerBound: adv.LowerBound, Caveats: adv.Caveats,
		QDLow: adv.QDLow, QDHigh: adv.QDHigh, LatLowNs: adv.LatLowNs, LatHighNs: adv.LatHighNs}
	if t := adv.Target; t != nil {
		c := *t
		AnnotateTarget(&c)
		d.Note = c.Note
		if a != nil {
			d.Target = &c
		}
	}
	if a != nil {
		c := *a
		if d.Target != nil {
			c.Target = d.Target
		}
		AnnotateAnalysis(&c)
		d.Analysis, d.Settings, d.SLO = &c, c.Settings, c.SLO
	}
	if len(curves) > 1 {
		d.Curves = make([]sweep.CurveAnalysis, len(curves))
		copy(d.Curves, curves)
		for i := range d.Curves {
			AnnotateAnalysis(&d.Curves[i].Analysis)
		}
	}
	for _, n := range adv.Notices {
		d.Warnings = append(d.Warnings, adviceNoticeText(n, adv.Preset, source))
	}
	if d.Analysis != nil {
		d.Warnings = append(d.Warnings, d.Analysis.Warnings...)
	}
	return d
}

// adviceNoticeText is one caveat of an advice in words; p is the preset
// (nil: none), source the data it read ("" for none).
func adviceNoticeText(n littleslaw.AdviceNotice, p *littleslaw.Preset, source string) string {
	title := ""
	if p != nil {
		title = p.Title
	}
	switch n.Kind {
	case littleslaw.AdvicePresetLatency:
		src := ""
		if p != nil && p.LatSource != "" {
			src = " (" + p.LatSource + ")"
		}
		return fmt.Sprintf("using %s's typical latency %s%s; pass --latency to use yours", title, FormatLatency(n.LatNs), src)
	case littleslaw.AdvicePresetTarget:
		return fmt.Sprintf("no target given: sizing for %s's per-volume maximum, %s IOPS", title, FormatCount(n.IOPS))
	case littleslaw.AdvicePresetExcess:
		if p != nil && n.Excess != nil {
			return PresetExcessText(*p, *n.Excess)
		}
	case littleslaw.AdviceLatencyIgnored:
		return "--latency is ignored with --from: the measured curve gives the latency at each load"
	case littleslaw.AdviceSeveralCurves:
		return fmt.Sprintf("%d curves in %s; advice is for the first (%s); pick one with %s and %s", n.Count, source, CurveName(n.RW, n.BS), fio.Flag(fio.OptRW), fio.Flag(fio.OptBS))
	}
	return string(n.Kind)
}

// CurveName names a curve of measured data: "randread 4k", or "points"
// for a points CSV, which has no rw.
func CurveName(rw string, bs int64) string {
	if rw == "" {
		return "points"
	}
	return curveName(rw, bs)
}

// WriteAdviceJSON writes d as one indented JSON document.
func WriteAdviceJSON(w io.Writer, d AdviceDoc) error {
	return writeJSON(w, d, "advise")
}

// WriteAdviceTable writes GCP's Hyperdisk queue-depth table regenerated
// from Little's Law: as text, or as one JSON document (AdviseTableSchema).
func WriteAdviceTable(w io.Writer, asJSON bool) error {
	rows := littleslaw.GCPQueueDepthTable()
	if asJSON {
		return writeJSON(w, struct {
			Schema    string                `json:"schema"`
			BS        int64                 `json:"bs"`
			LatencyNs float64               `json:"latency_ns"`
			Note      string                `json:"note"`
			Table     []littleslaw.TableRow `json:"table"`
		}{AdviseTableSchema, littleslaw.GCPTableBS, littleslaw.GCPTableLatNs,
			"GCP Hyperdisk queue-depth guidance (16 KiB I/O, 2 ms: the top of the Hyperdisk presets' planning range), regenerated as QD = IOPS × latency", rows}, "advise")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "GCP Hyperdisk queue depth for %s I/O at %s, the top of the\nHyperdisk presets' planning range (QD = IOPS × latency):\n",
		units.FioSize(littleslaw.GCPTableBS), FormatLatency(littleslaw.GCPTableLatNs))
	fmt.Fprintf(&b, "  %-14s %6s\n", "target", "QD")
	for _, r := range rows {
		t := FormatCount(r.IOPS) + " IOPS"
		if r.IsBandwidth {
			t = FormatCount(r.BWBytes/(1<<20)) + " MiB/s"
		}
		fmt.Fprintf(&b, "  %-14s %6d\n", t, r.QueueDepth)
	}
	fmt.Fprintf(&b, "Each NVMe queue holds %d entries: past that, spread the depth over jobs.\n", littleslaw.DefaultMaxIODepth)
	_, err := io.WriteString(w, b.String())
	return err
}

// adviceWidth is the text width of WriteAdvice.
const adviceWidth = 80

// WriteAdvice writes d as a few plain sentences within 80 columns: the
// cloud volume, the curve's analysis, the depth and split to use, the
// settings and every caveat.
func WriteAdvice(w io.Writer, d AdviceDoc) error {
	var b strings.Builder
	say := func(format string, a ...any) { sayIndent(&b, "", fmt.Sprintf(format, a...)) }
	if p := d.Cloud; p != nil {
		say("%s: up to %s IOPS and %s MiB/s per volume (%s).",
			p.Title, FormatCount(p.MaxIOPS), FormatCount(p.MaxBWBytes/(1<<20)), p.Doc)
	}
	if a := d.Analysis; a != nil {
		writeAdviceAnalysis(&b, a)
	}
	for _, line := range adviceDepthText(d) {
		say("%s", line)
	}
	// Caveats once per output: those the target's sentence said are not
	// repeated, nor those said here under the settings.
	said := map[littleslaw.CaveatKind]bool{}
	if d.From == littleslaw.AdviceFromTarget && d.Analysis != nil && d.Target != nil {
		for _, k := range d.Target.Caveats {
			said[k] = true
		}
	}
	for _, k := range d.Caveats {
		if k != littleslaw.CaveatUnsaturated && !said[k] {
			say("Caveat: %s.", CaveatText(k))
		}
		said[k] = said[k] || k != littleslaw.CaveatUnsaturated
	}
	for _, s := range d.Settings {
		fmt.Fprintf(&b, "  %s = %s\n", s.Name, SettingValueText(s))
		// Caveats once per output: those said above are not repeated here.
		var own []littleslaw.CaveatKind
		for _, k := range s.Caveats {
			if !said[k] {
				own = append(own, k)
			}
		}
		sayIndent(&b, "      ", withCaveats(settingFormula(s), settingBoundText(s), own, littleslaw.CaveatUnsaturated))
		fmt.Fprintf(&b, "      %s\n", s.Doc)
	}
	for _, wr := range d.Warnings {
		say("%s", "Note: "+sentence(wr))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeAdviceAnalysis summarises one curve's analysis for advise.
func writeAdviceAnalysis(b *strings.Builder, a *littleslaw.Analysis) {
	say := func(format string, args ...any) { sayIndent(b, "", fmt.Sprintf(format, args...)) }
	pts := a.Points
	if len(pts) == 0 {
		return
	}
	if a.Load != nil { // a curve over offered loads: its own sentences
		for _, p := range loadParas("", a) {
			say("%s", p.Text)
		}
		return
	}
	say("%d points, QD %s to %s. Base latency %s at QD %s; highest %s IOPS at QD %s.",
		len(pts), FormatQD(pts[0].QD), FormatQD(pts[len(pts)-1].QD), FormatLatency(a.BaseLatencyNs), FormatQD(pts[0].QD), FormatIOPS(a.MaxIOPS), FormatQD(a.MaxIOPSQD))
	// The sweep's own sentence: one wording, one number format.
	say("%s", saturationSentence(a))
	if e := a.Efficient; e.Found {
		say("%s", efficientSentence(e))
	}
	if a.Model != nil {
		say("%s", modelSentence(a))
	}
	if s := a.SLO; s != nil {
		say("%s", sloSentence(s))
	}
}

// sayIndent writes text wrapped at 80 columns, every line after indent;
// continuation lines get two more spaces. Words are never split.
func sayIndent(b *strings.Builder, indent, text string) {
	b.WriteString(WrapHanging(text, adviceWidth, indent, indent+"  ") + "\n")
}

// adviceSplitText words the iodepth × numjobs split and its alternatives.
func adviceSplitText(d AdviceDoc) string {
	s := fmt.Sprintf("iodepth %d × numjobs %d", d.IODepth, d.NumJobs)
	if d.Hosts > 1 {
		s += fmt.Sprintf(" on each of %d hosts", d.Hosts)
	}
	var alts []string
	for i, a := range d.AltSplits {
		if i == littleslaw.MaxAltSplits {
			break
		}
		w := fmt.Sprintf("%d × %d", a.IODepth, a.NumJobs)
		if a.Total() != d.IODepth*d.NumJobs*max(d.Hosts, 1) {
			w += fmt.Sprintf(" = %d", a.Total())
		}
		alts = append(alts, w)
	}
	if len(alts) > 0 {
		s += " (or " + strings.Join(alts, ", ") + ")"
	}
	if r := SplitReasonText(d.JobsBy, littleslaw.Split{IODepth: d.IODepth, NumJobs: d.NumJobs}, d.MaxIODepth, d.MaxJobs); r != "" {
		s += "; " + r
	}
	return s
}

// adviceDepthText is the advice's depth in sentences: a target's answer
// and the split to use, or the depth to keep without a target.
func adviceDepthText(d AdviceDoc) []string {
	var out []string
	say := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	switch d.From {
	case littleslaw.AdviceFromTarget:
		if d.TargetBW > 0 {
			say("%s MiB/s at %s per I/O is %s IOPS.", FormatCount(d.TargetBW/(1<<20)), units.FioSize(d.BS), FormatCount(d.TargetIOPS))
		}
		if d.Analysis == nil {
			rangeNote := ""
			if d.QDHigh > 0 && d.Cloud != nil {
				rangeNote = fmt.Sprintf("; over %s's planning range of %s–%s, %s–%s", d.Cloud.Title,
					FormatLatency(d.LatLowNs), FormatLatency(d.LatHighNs), fmtOneDecimal(d.QDLow), fmtOneDecimal(d.QDHigh))
			}
			say("%s IOPS at %s per I/O needs %s I/Os in flight (QD = IOPS × latency)%s.",
				FormatCount(d.TargetIOPS), FormatLatency(d.LatencyNs), fmtOneDecimal(d.NaiveQD), rangeNote)
		} else {
			say("%s", sentence(capitalize(d.Note)))
		}
		switch {
		case d.Reachable:
			say("Use %s.", adviceSplitText(d))
		case d.Target != nil && d.Target.Reason == littleslaw.TargetNotReached && !d.Target.Sustained:
			say("At least %s is needed: the deepest measured depth fell short.", adviceSplitFloorText(d))
		default:
			say("More depth than its saturation QD adds latency only: use %s.", adviceSplitText(d))
		}
	case littleslaw.AdviceFromDeepest:
		say("Keep at least %s I/Os in flight (%s); the sweep never saturated, so the useful depth may lie deeper.",
			FormatCount(d.QueueDepth), adviceSplitText(d))
	case littleslaw.AdviceFromSLO:
		if s := d.SLO; s != nil && s.Met && s.OfferedIOPS > 0 {
			say("Keep at least %s I/Os in flight, what the highest offered load meeting %s ≤ %s (%s IOPS) keeps by Little's Law: %s.",
				FormatCount(d.QueueDepth), s.Stat, FormatLatency(s.LimitNs), FormatIOPS(s.OfferedIOPS), adviceSplitText(d))
		} else if s != nil && s.Met {
			say("Keep at most %s I/Os in flight, the deepest measured QD meeting %s ≤ %s: %s.",
				FormatCount(d.QueueDepth), s.Stat, FormatLatency(s.LimitNs), adviceSplitText(d))
		} else if s != nil {
			say("No measured depth meets %s ≤ %s; the shallowest, %s I/Os in flight, comes closest: %s.",
				s.Stat, FormatLatency(s.LimitNs), FormatCount(d.QueueDepth), adviceSplitText(d))
		}
	default:
		say("Keep about %s I/Os in flight: %s.", FormatCount(d.QueueDepth), adviceSplitText(d))
	}
	return out
}

// adviceSplitFloorText words the least split beyond the deepest measured
// depth of a curve that fell short of the target: one more I/O in flight.
func adviceSplitFloorText(d AdviceDoc) string {
	qd := d.IODepth*d.NumJobs*max(d.Hosts, 1) + 1
	if t := d.Target; t != nil && t.MaxIOPSQD > 0 {
		qd = int(t.MaxIOPSQD) + 1
	}
	return fmt.Sprintf("QD %d (more than the QD %d measured)", qd, qd-1)
}

// writeJSON writes v as one indented JSON document; what names the
// command in an error.
func writeJSON(w io.Writer, v any, what string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("%s: write json: %w", what, err)
	}
	return nil
}
