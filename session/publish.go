package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// publication is one command's answer, published in one step (publish):
// results.json saved, the charts and report files written through the one
// writer, then the table, the list of what was written and the JSON
// document printed. Every word and chart comes from package report.
type publication struct {
	out      *guard.Out     // the directory written (nil: none)
	saver    *resultSaver   // saves result as results.json first (nil: not saved)
	result   *sweep.Result  // the result published
	compared []report.Input // compare's results, published instead of result
	explain  *report.ExplainDoc
	opts     report.Options
	dir      string // the results directory, named by an import's first line
	imported int    // fio files imported (import's first line; 0: not an import)
	// partial: a sweep's result, which may hold no measured step yet;
	// noTable: one whose run failed, printed without its table.
	partial, noTable bool
	results          string // results.json, as the list of what was written names it ("": not named)
	json             bool   // the document as JSON on Stdout, the words on Stderr
	quiet            bool   // nothing printed but errors (and the JSON)
	saveErr          string // what a failed save is said to come from ("": the error alone)
	filesErr         string // what a failed write of the files is said to come from
	stdout, stderr   io.Writer
}

// publish writes and prints the publication.
func (p publication) publish() error {
	if p.explain != nil {
		if p.json {
			return report.WriteExplainJSON(p.stdout, *p.explain)
		}
		return report.WriteExplain(p.stdout, *p.explain)
	}
	if err := p.save(); err != nil {
		return err
	}
	files, err := p.files()
	if err != nil && !(p.partial && errors.Is(err, report.ErrNoSteps)) {
		return fmt.Errorf("%s: %w", p.filesErr, err)
	}
	human, notes := p.stdout, p.stderr
	if p.json {
		human = p.stderr
	}
	if p.quiet {
		human, notes = io.Discard, io.Discard
	}
	if err := p.table(human); err != nil {
		return err
	}
	report.WriteWritten(human, notes, files, p.results)
	if p.json {
		enc := json.NewEncoder(p.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(p.result); err != nil {
			return fmt.Errorf("write JSON: %w", err)
		}
	}
	return nil
}

// save writes results.json.
func (p publication) save() error {
	if p.saver == nil {
		return nil
	}
	err := p.saver.save(p.result)
	if err == nil || p.saveErr == "" {
		return err
	}
	p.out.Abandon()
	return fmt.Errorf("%s: %w", p.saveErr, OutErr(err))
}

// files writes the charts and the report files.
func (p publication) files() ([]string, error) {
	if p.compared != nil {
		return report.WriteCompare(p.out, p.compared, p.opts)
	}
	return report.WriteAll(p.out, p.result, p.opts)
}

// table prints the first line of an import and the table.
func (p publication) table(w io.Writer) error {
	switch {
	case p.compared != nil:
		return report.CompareTable(w, p.compared, p.opts)
	case p.noTable:
		return nil
	}
	if p.imported > 0 {
		report.WriteImported(w, len(p.result.Steps), len(p.result.Curves()), p.result.Meta.Engine, p.imported, p.dir)
	}
	return report.Table(w, p.result, p.opts)
}

// ReportRequest asks to render a saved sweep again: its table, summary.md
// and charts, with the analysis's target and objective.
type ReportRequest struct {
	Path      string // results directory or results.json
	Output    string // directory to write into ("": the results directory)
	Overwrite bool
	Analyze   littleslaw.Options
	Report    report.Options
	Out
}

// RunReport renders the saved sweep req names.
func RunReport(req ReportRequest) error {
	r, err := ReadAnalysed(req.Path, req.Analyze)
	if err != nil {
		return err
	}
	dir := req.Output
	if dir == "" {
		dir = ResultDir(req.Path)
	}
	// The results file read is never replaced; report's own files in the
	// results directory (summary.md, charts) are.
	oo := guard.OutOptions{Flag: "--output", Overwrite: req.Overwrite, Protect: ResultInputs(req.Path), Renders: req.Path}
	out, err := OpenOut(dir, oo)
	if err != nil {
		return err
	}
	return publication{out: out, result: r, opts: req.Report, filesErr: "report", stdout: req.Stdout, stderr: req.Stderr}.publish()
}

// CompareRequest asks to overlay several saved sweeps.
type CompareRequest struct {
	Paths     []string // results directories or results.json files
	Output    string   // directory for compare.md and the charts
	Overwrite bool
	Analyze   littleslaw.Options
	Report    report.Options
	Out
}

// RunCompare compares the saved sweeps req names.
func RunCompare(req CompareRequest) error {
	names := InputNames(req.Paths)
	ins := make([]report.Input, len(req.Paths))
	for i, p := range req.Paths {
		r, err := ReadAnalysed(p, req.Analyze)
		if err != nil {
			return err
		}
		ins[i] = report.Input{Name: names[i], Result: r}
	}
	out, err := OpenOut(req.Output, guard.OutOptions{Flag: "--output", Overwrite: req.Overwrite, Protect: ResultInputs(req.Paths...)})
	if err != nil {
		return err
	}
	return publication{out: out, compared: ins, opts: req.Report, filesErr: "compare", stdout: req.Stdout, stderr: req.Stderr}.publish()
}

// ImportRequest asks to turn fio outputs into a sweep's results directory.
type ImportRequest struct {
	Paths     []string // fio outputs (and their logs)
	Output    string   // results directory ("": the default one)
	Overwrite bool
	Report    report.Options // the target to size for; the table's width
	Quiet     bool
	Version   string
	Out
}

// RunImport imports the fio outputs req names.
func RunImport(req ImportRequest) error {
	oo := guard.OutOptions{Flag: "--output", Overwrite: req.Overwrite, Protect: req.Paths}
	dir, err := ResultsDir(req.Output, oo)
	if err != nil {
		return err
	}
	r, err := ImportFio("import fio", req.Paths, req.Report.TargetIOPS, req.Version)
	if err != nil {
		return err
	}
	out, err := OpenOut(dir, oo)
	if err != nil {
		return err
	}
	return publication{out: out, saver: &resultSaver{out: out}, result: r, opts: req.Report, dir: dir, imported: len(req.Paths),
		results: filepath.Join(dir, sweep.ResultsJSON), quiet: req.Quiet, saveErr: "import fio", filesErr: "import fio: report",
		stdout: req.Stdout, stderr: req.Stderr}.publish()
}

// ExplainRequest asks to explain fio outputs by Little's Law.
type ExplainRequest struct {
	Paths   []string // fio outputs, - for standard input
	Explain fioadapt.ExplainOptions
	JSON    bool
	Out
}

// RunExplain explains the fio outputs req names.
func RunExplain(req ExplainRequest) error {
	outs, err := ReadFioOutputs("explain", req.Paths)
	if err != nil {
		return err
	}
	doc := ExplainFio(outs, req.Explain, strings.Join(req.Paths, ", "))
	return publication{explain: &doc, json: req.JSON, stdout: req.Stdout, stderr: req.Stderr}.publish()
}
