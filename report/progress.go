package report

import (
	"fmt"
	"io"
	"time"

	"github.com/qdsweep/qdsweep/sweep"
	"github.com/qdsweep/qdsweep/units"
)

// The words of a running sweep's progress: the live line a terminal shows
// while a step runs, and the lines a finished step leaves (cmd/qdsweep
// decides where and when they go).

// ProgressLive is the live line of a running step: its place in the plan,
// its figures so far and the time left.
func ProgressLive(l sweep.Live) string {
	at := fmt.Sprintf("QD %d (%d×%d)", l.Step.QD(), l.Step.IODepth, l.Step.NumJobs)
	if l.Step.RateIOPS > 0 {
		at = fmt.Sprintf("%s offered (%d×%d)", FormatIOPS(l.Step.RateIOPS), l.Step.IODepth, l.Step.NumJobs)
	}
	return fmt.Sprintf("step %d/%d  %s %s %s  %s IOPS  %s mean  at %.1f s  ETA %s",
		l.Index, l.Total, l.Step.RW, units.FioSize(l.Step.BS), at,
		FormatIOPS(l.IOPS), FormatLatency(float64(l.LatMean)), l.Elapsed.Seconds(), progressClock(l.ETA))
}

// ProgressStep writes the lines that report step s, one of r.Steps (the
// last, or an earlier one measured again), in at most 80 columns: a line
// naming the curve (rw and bs) when it is not curve, the curve of the
// previous lines, then one line with its IOPS, mean latency and how long it
// ran, or why it was skipped or failed, and for a step measured again what
// its first measurement gave and why it was not kept (AgainWords). A
// skipped step stands for the run of skipped steps of its curve that it
// ends. It returns the curve of the lines written.
func ProgressStep(w io.Writer, r *sweep.Result, s sweep.Step, curve string) string {
	i, n := stepPlace(r, s), r.Plan.Size()
	if c := s.RW + " " + units.FioSize(s.BS); c != curve {
		fmt.Fprintf(w, "%s:\n", c)
		curve = c
	}
	g := fmt.Sprintf("step %d/%d  QD %d (%d×%d)", i, n, s.QD, s.IODepth, s.NumJobs)
	if s.OfferedIOPS > 0 {
		g = fmt.Sprintf("step %d/%d  %s offered (%d×%d)", i, n, FormatIOPS(s.OfferedIOPS), s.IODepth, s.NumJobs)
	}
	if s.Refined != "" {
		g = fmt.Sprintf("refine %s  QD %d (%d×%d)", s.Refined, s.QD, s.IODepth, s.NumJobs)
	}
	switch {
	case s.Skipped != "":
		k := 0
		for j := len(r.Steps) - 1; j >= 0 && r.Steps[j].Skipped != "" && r.Steps[j].RW == s.RW && r.Steps[j].BS == s.BS; j-- {
			k++
		}
		if k > 1 {
			g = fmt.Sprintf("steps %d–%d/%d  QD %d–%d", i-k+1, i, n, r.Steps[i-k].QD, s.QD)
		}
		fmt.Fprintln(w, WrapHanging(s.Skipped, 80, g+"  skipped: ", "  "))
	case s.Failed != "":
		fmt.Fprintln(w, WrapHanging(s.Failed, 80, g+"  failed: ", "  "))
	default:
		ran := fmt.Sprintf("ran %.1f s (%s)", time.Duration(s.RuntimeNs).Seconds(), SteadyWords(s))
		if s.Steady {
			ran = fmt.Sprintf("ran %.1f s, steady", time.Duration(s.RuntimeNs).Seconds())
		}
		line := fmt.Sprintf("%s  %s IOPS  %s mean  %s", g, FormatIOPS(s.IOPS), FormatLatency(s.Lat.MeanNs), ran)
		if why := SettleWords(r, s); s.Steady && why != "" {
			line = WrapHanging(why+")", 80, line+" (", "  ")
		}
		fmt.Fprintln(w, line)
		if again := AgainWords(r, s); again != "" {
			fmt.Fprintln(w, WrapHanging(again, 80, "  ", "  "))
		}
	}
	return curve
}

// stepPlace is s's place in r.Steps, from 1: the last step that is s's
// grid step (its rw, bs, depth, jobs, offered load and refinement), else
// the last.
func stepPlace(r *sweep.Result, s sweep.Step) int {
	for j := len(r.Steps) - 1; j >= 0; j-- {
		p := r.Steps[j]
		if p.RW == s.RW && p.BS == s.BS && p.IODepth == s.IODepth && p.NumJobs == s.NumJobs && p.OfferedIOPS == s.OfferedIOPS && p.Refined == s.Refined {
			return j + 1
		}
	}
	return len(r.Steps)
}

// ProgressLines writes the step lines a sweep of r wrote while it ran, in
// the order it wrote them: a run of skipped steps of one curve is one line.
func ProgressLines(w io.Writer, r *sweep.Result) {
	curve := ""
	part := *r
	for i, s := range r.Steps {
		if s.Skipped != "" && i+1 < len(r.Steps) && r.Steps[i+1].RW == s.RW && r.Steps[i+1].BS == s.BS {
			continue // reported with the last of its run
		}
		part.Steps = r.Steps[:i+1]
		curve = ProgressStep(w, &part, s, curve)
	}
}

// progressClock writes a duration as m:ss.
func progressClock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
