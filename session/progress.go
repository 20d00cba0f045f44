package session

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
	"golang.org/x/term"
)

// Progress reports a sweep on stderr: on a terminal one live line rewritten
// in place (\r) and cleared at the end; otherwise one plain line per
// finished step; nothing when quiet.
type Progress struct {
	mu    sync.Mutex
	f     io.Writer
	fd    int // f's file descriptor when it is a terminal
	tty   bool
	quiet bool
	width int    // columns of the live line currently shown (0: none)
	curve string // rw and bs of the last step line printed ("randread 4k")
}

// NewProgress reports on w (nothing when quiet).
func NewProgress(w io.Writer, quiet bool) *Progress {
	p := &Progress{f: w, quiet: quiet}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty, p.fd = true, int(f.Fd())
	}
	return p
}

// Live shows the running step's figures (terminal only).
func (p *Progress) Live(l sweep.Live) {
	if p.quiet || !p.tty {
		return
	}
	line := report.ProgressLive(l)
	if w, _, err := term.GetSize(p.fd); err == nil && w > 1 && len([]rune(line)) >= w {
		line = string([]rune(line)[:w-1])
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pad := max(0, p.width-len([]rune(line)))
	fmt.Fprint(p.f, "\r"+line+strings.Repeat(" ", pad))
	p.width = len([]rune(line))
}

// Step reports a finished step, or a batch of skipped ones ending at the
// result's last step, in lines of at most 80 columns when stderr is not a
// terminal: a line naming the curve (rw and bs) whenever it changes, then
// one line per step with its IOPS, mean latency and how long it ran (the
// table printed at the end has the rest).
func (p *Progress) Step(r *sweep.Result, s sweep.Step) {
	if s.Shortfall != nil && !p.quiet {
		// Said on every terminal: a shape that was not measured as asked.
		p.Note("%s", report.WrapHanging(report.ShortfallNote(s.Shortfall), 80, fmt.Sprintf("QD %d (%d×%d): ", s.QD, s.IODepth, s.NumJobs), "  "))
	}
	if p.quiet || p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.curve = report.ProgressStep(p.f, r, s, p.curve)
}

// Note prints one message line, clearing the live line first.
func (p *Progress) Note(format string, a ...any) {
	if p.quiet {
		return
	}
	p.Clear()
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.f, format+"\n", a...)
}

// Clear erases the live line, if any.
func (p *Progress) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.width > 0 {
		fmt.Fprint(p.f, "\r"+strings.Repeat(" ", p.width)+"\r")
		p.width = 0
	}
}
