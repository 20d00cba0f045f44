package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/qdsweep/qdsweep/sweep"
	"golang.org/x/term"
)

// progress reports a sweep on stderr: on a terminal one live line rewritten
// in place (\r) and cleared at the end; otherwise one plain line per
// finished step; nothing when quiet.
type progress struct {
	mu    sync.Mutex
	f     *os.File
	tty   bool
	quiet bool
	width int // columns of the live line currently shown (0: none)
}

func newProgress(f *os.File, quiet bool) *progress {
	return &progress{f: f, quiet: quiet, tty: term.IsTerminal(int(f.Fd()))}
}

// live shows the running step's figures (terminal only).
func (p *progress) live(l sweep.Live) {
	if p.quiet || !p.tty {
		return
	}
	line := fmt.Sprintf("step %d/%d  %s (QD %d)  %s IOPS  %s mean  %s  ETA %s",
		l.Index, l.Total, l.Step, l.Step.QD(), progressCount(l.IOPS), progressLat(float64(l.LatMean)),
		l.Elapsed.Round(100*time.Millisecond), progressClock(l.ETA))
	if w, _, err := term.GetSize(int(p.f.Fd())); err == nil && w > 1 && len([]rune(line)) >= w {
		line = string([]rune(line)[:w-1])
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pad := max(0, p.width-len([]rune(line)))
	fmt.Fprint(p.f, "\r"+line+strings.Repeat(" ", pad))
	p.width = len([]rune(line))
}

// step reports a finished step, or a batch of skipped ones ending at the
// result's last step (one line when stderr is not a terminal).
func (p *progress) step(r *sweep.Result, s sweep.Step) {
	if p.quiet || p.tty {
		return
	}
	i, n := len(r.Steps), r.Plan.Size()
	g := fmt.Sprintf("step %d/%d  %s %s %d×%d (QD %d)", i, n, s.RW, sweep.FormatSize(s.BS), s.IODepth, s.NumJobs, s.QD)
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case s.Skipped != "":
		k := 0
		for j := len(r.Steps) - 1; j >= 0 && r.Steps[j].Skipped != "" && r.Steps[j].RW == s.RW && r.Steps[j].BS == s.BS; j-- {
			k++
		}
		if k > 1 {
			g = fmt.Sprintf("steps %d–%d/%d  %s %s (QD %d–%d)", i-k+1, i, n, s.RW, sweep.FormatSize(s.BS), r.Steps[i-k].QD, s.QD)
		}
		fmt.Fprintf(p.f, "%s  skipped: %s\n", g, s.Skipped)
	case s.Failed != "":
		fmt.Fprintf(p.f, "%s  failed: %s\n", g, s.Failed)
	default:
		steady := "runtime"
		if s.Steady {
			steady = "steady"
		}
		fmt.Fprintf(p.f, "%s  %s IOPS  %s mean  %s p99  in flight %.1f  %s after %s\n", g, progressCount(s.IOPS),
			progressLat(s.Lat.MeanNs), progressLat(float64(s.Lat.P99Ns)), s.InflightMean, steady,
			time.Duration(s.RuntimeNs).Round(10*time.Millisecond))
	}
}

// note prints one message line, clearing the live line first.
func (p *progress) note(format string, a ...any) {
	if p.quiet {
		return
	}
	p.clear()
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.f, format+"\n", a...)
}

// clear erases the live line, if any.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.width > 0 {
		fmt.Fprint(p.f, "\r"+strings.Repeat(" ", p.width)+"\r")
		p.width = 0
	}
}

// progressCount writes a rate like 24.6k or 1.2M.
func progressCount(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2fM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// progressLat writes a latency in ns as µs or ms.
func progressLat(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	}
	return fmt.Sprintf("%.0f µs", ns/1e3)
}

// clock writes a duration as m:ss.
func progressClock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
