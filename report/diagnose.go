package report

import (
	"io"
	"strings"

	"github.com/qdsweep/qdsweep/diagnosis"
)

// DiagnoseSchema names the JSON document WriteDiagnoseJSON writes.
const DiagnoseSchema = "qdsweep/diagnose/v1"

// DiagnoseDoc is the document `qdsweep diagnose --output-format=json`
// writes: the result diagnosed, the target it was diagnosed for and the
// findings, typed and in words.
type DiagnoseDoc struct {
	Schema     string              `json:"schema"`
	Result     string              `json:"result"`
	TargetIOPS float64             `json:"target_iops,omitempty"`
	Findings   []diagnosis.Finding `json:"findings"`
}

// WriteDiagnoseJSON writes the findings about the result at path, made for
// targetIOPS (0: none), as one JSON document.
func WriteDiagnoseJSON(w io.Writer, path string, targetIOPS float64, findings []diagnosis.Finding) error {
	fs := append([]diagnosis.Finding{}, findings...)
	AnnotateFindings(fs)
	if fs == nil {
		fs = []diagnosis.Finding{}
	}
	return writeJSON(w, DiagnoseDoc{Schema: DiagnoseSchema, Result: path, TargetIOPS: targetIOPS, Findings: fs}, "diagnose")
}

// WriteFindings writes findings as short paragraphs wrapped to width
// columns: "[rule] curve: verdict", its facts ("· ") and the next step
// ("→ ").
func WriteFindings(w io.Writer, findings []diagnosis.Finding, width int) error {
	var b strings.Builder
	line := func(s, first, rest string) { b.WriteString(WrapHanging(s, width, first, rest) + "\n") }
	for i, f := range findings {
		if i > 0 {
			b.WriteByte('\n')
		}
		line(FindingSummary(f), "["+string(f.Rule)+"] ", "  ")
		for _, e := range FindingEvidence(f) {
			line(e, "  · ", "    ")
		}
		line(FindingNext(f), "  → ", "    ")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RuleList names every rule a diagnosis can report, in its order, for help texts.
func RuleList() string {
	var names []string
	for _, r := range diagnosis.Rules() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}
