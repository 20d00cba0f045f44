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
	out       *guard.Out      // the directory written (nil: none)
	saver     *resultSaver    // saves result as results.json first (nil: not saved)
	result    *sweep.Result   // the result published
	compared  []report.Input  // compare's results, published instead of result
	doc       *document       // a document published instead (explain, advise, diagnose)
	runs      []report.RunJob // run's jobs, published instead, in runFormat
	runFormat string
	opts      report.Options
	dir       string // the results directory, named by an import's first line
	imported  int    // fio files imported (import's first line; 0: not an import)
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
	switch {
	case p.doc != nil:
		if !p.json {
			return p.doc.words(p.stdout)
		}
		for _, w := range p.doc.warnings {
			fmt.Fprintln(p.stderr, w)
		}
		return p.doc.json(p.stdout)
	case len(p.runs) == 1:
		return report.WriteRun(p.stdout, p.stderr, p.runFormat, p.runs[0])
	case p.runs != nil:
		return report.WriteRuns(p.stdout, p.stderr, p.runFormat, p.runs)
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

// document is an answer printed whole, as words or as JSON (the
// warnings then said on Stderr).
type document struct {
	words, json func(io.Writer) error
	warnings    []string
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
	return publication{doc: &document{
		words: func(w io.Writer) error { return report.WriteExplain(w, doc) },
		json:  func(w io.Writer) error { return report.WriteExplainJSON(w, doc) },
	}, json: req.JSON, stdout: req.Stdout, stderr: req.Stderr}.publish()
}

// DiagnoseRequest asks what limited a saved sweep.
type DiagnoseRequest struct {
	Path       string // results directory or results.json
	TargetIOPS float64
	JSON       bool
	Width      int // of the words
	Out
}

// RunDiagnose diagnoses the saved sweep req names. A result the analysis
// cannot read is diagnosed without it, said on Stderr.
func RunDiagnose(req DiagnoseRequest) error {
	o := littleslaw.Options{TargetIOPS: req.TargetIOPS}
	r, err := ReadSaved(req.Path)
	if err != nil {
		return err
	}
	if err := r.Analyze(o); err != nil {
		if errors.Is(err, littleslaw.ErrBadOptions) {
			return Usagef("%v", err)
		}
		fmt.Fprintf(req.Stderr, "qdsweep: diagnosing without the analysis: %v\n", err)
		r.Analysis = nil
	}
	findings := r.Diagnose(o)
	return publication{doc: &document{
		words: func(w io.Writer) error { return report.WriteFindings(w, findings, req.Width) },
		json:  func(w io.Writer) error { return report.WriteDiagnoseJSON(w, req.Path, o.TargetIOPS, findings) },
	}, json: req.JSON, stdout: req.Stdout, stderr: req.Stderr}.publish()
}

// AdviseRequest asks for queue depth and iodepth × numjobs: from numbers
// (Input), from measured data (From), or GCP's table (Table).
type AdviseRequest struct {
	Input littleslaw.AdviceInput
	From  string // results.json, a results directory or a points CSV ("": none)
	RW    string // the curve of From to advise from ("": the first)
	Table bool
	JSON  bool
	Out
}

// RunAdvise advises as req asks.
func RunAdvise(req AdviseRequest) error {
	if req.Table {
		return report.WriteAdviceTable(req.Stdout, req.JSON)
	}
	var doc report.AdviceDoc
	if req.From != "" {
		var err error
		if doc, err = AdviseFromData(req.From, req.RW, req.Input.BSSet, req.Input); err != nil {
			return err
		}
	} else {
		doc = report.NewAdviceDoc(littleslaw.AdviseNumbers(req.Input), "", nil, nil)
	}
	warnings := make([]string, len(doc.Warnings))
	for i, w := range doc.Warnings {
		warnings[i] = "qdsweep advise: warning: " + w
	}
	return publication{doc: &document{
		words:    func(w io.Writer) error { return report.WriteAdvice(w, doc) },
		json:     func(w io.Writer) error { return report.WriteAdviceJSON(w, doc) },
		warnings: warnings,
	}, json: req.JSON, stdout: req.Stdout, stderr: req.Stderr}.publish()
}
