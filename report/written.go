package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// WriteWritten lists what a command wrote: the dashboard ("Charts: …"),
// the Markdown report ("Report: …") and, when results is not "", the
// results file ("Results: …"), each on its own line of w. A list without
// charts gets a note on errw saying why.
func WriteWritten(w, errw io.Writer, files []string, results string) {
	charts := false
	dash := false
	for _, f := range files {
		dash = dash || strings.HasPrefix(filepath.Base(f), ChartDashboard)
	}
	for _, f := range files {
		// Without a dashboard (one step), its timeline is the chart.
		if b := filepath.Base(f); strings.HasPrefix(b, ChartDashboard) || !dash && strings.HasPrefix(b, ChartTimeline) {
			fmt.Fprintf(w, "Charts: %s\n", f)
			charts = true
		}
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".md") {
			fmt.Fprintf(w, "Report: %s\n", f)
		}
	}
	if !charts {
		fmt.Fprintln(errw, "qdsweep: no charts: a curve needs at least two measured steps")
	}
	if results != "" {
		fmt.Fprintf(w, "Results: %s\n", results)
	}
}

// WriteImported says what `qdsweep import fio` made: steps, curves and
// engine of the result, from how many fio files, into dir.
func WriteImported(w io.Writer, steps, curves int, engine string, fioFiles int, dir string) {
	fmt.Fprintf(w, "Imported %s (%s, engine %s) from %s into %s.\n",
		CountNoun(float64(steps), "step", "steps"), CountNoun(float64(curves), "curve", "curves"), engine,
		CountNoun(float64(fioFiles), "fio file", "fio files"), dir)
}
