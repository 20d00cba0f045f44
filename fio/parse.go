package fio

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/qdsweep/qdsweep/internal/textsafe"
)

var (
	reJSONStart  = regexp.MustCompile(`(?m)^\{\s*(?:$|"fio version")`) // fio's own layout, or the document on one line (jq -c)
	reTerseStart = regexp.MustCompile(`(?m)^([2-9];(fio|qdsweep)-|2;[^;\n]*;\d+;\d+;\d+;\d+;\d+;\d+;)`)
	reNormalJob  = regexp.MustCompile(`(?m)\(groupid=\d+, jobs=\d+\): err=`)
)

// Format names what kind of fio output an input holds: "json", "terse",
// "normal", or "" when none is recognised.
func Format(data []byte) string {
	switch {
	case reJSONStart.Match(data):
		return "json"
	case reTerseStart.Match(data):
		return "terse"
	case reNormalJob.Match(data):
		return "normal"
	}
	return ""
}

// Parse reads fio output of any format (JSON, json+, terse, normal),
// recognising it by content. Reports come back in input order; interim
// --status-interval reports are marked (see Final).
func Parse(r io.Reader) ([]Output, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInput))
	if err != nil {
		return nil, fmt.Errorf("read fio output: %w", err)
	}
	var outs []Output
	switch Format(data) {
	case "json":
		outs, err = ParseJSON(bytes.NewReader(data))
	case "terse":
		outs, err = ParseTerse(bytes.NewReader(data))
	case "normal":
		outs, err = ParseNormal(bytes.NewReader(data))
	default:
		return nil, fmt.Errorf("%w: expected fio's JSON (--output-format=json), terse or normal output", ErrNoOutput)
	}
	textsafe.Strip(&outs) // job names, file names and versions reach a terminal
	if err != nil {
		return outs, err
	}
	for _, o := range outs {
		for _, j := range o.Jobs {
			if j.bad != "" {
				return nil, fmt.Errorf("report at line %d, job %q: %s", o.Line, j.Name, j.bad)
			}
		}
	}
	return outs, nil
}

// ReadOutput reads and parses the fio output in the file at path ("-": standard input).
func ReadOutput(path string) ([]Output, error) {
	if path == "-" {
		outs, err := Parse(os.Stdin)
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		return outs, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open fio output: %w", err)
	}
	defer f.Close()
	outs, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return outs, nil
}
